# sessiondag: the two commands a newcomer needs are `make demo` and `make test`.
GO        ?= go
FUZZTIME  ?= 60s
HUNT_MINUTES ?= 30
PKGS      := ./...

.PHONY: all build test vet race props props-long engine-long hunt exhaust exhaust-dedup demo bench benchcmp bench-report bench-replay bench-memory fuzz mutants mutants-exhaust regen throughput hostile check-impl check-example check-openprogram clean

all: build test

build:
	$(GO) build -o bin/sessiondag ./cmd/sessiondag

# vet also runs staticcheck (staticcheck.conf; pinned as a tool in go.mod)
# and keeps go.mod tidy: a requirement nothing uses, or one used but not
# listed, fails here.
vet:
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)
	$(GO) mod tidy -diff

# Every test of the project, the property suite at its default budget
# included; the implementation's own tests run once, under the race
# detector (loads share memos and split work between cores). go test starts
# packages in the order given, two at a time on two cores: the longest go
# first (the property suite is half the time), or the last to start sets
# the end. The timeout is wall time: on a shared machine the default ten
# minutes can fire on a starved run.
LONGEST   := ./props ./cmd/sessiondag ./checker/exhaust
TEST_PKGS  = $(LONGEST) $(shell $(GO) list $(PKGS) | grep -v '^sessiondag/impl/')

test: vet race
	$(TEST_ENV) $(GO) test -count=1 -run '^($(SEQUENTIAL))$$' ./impl/node ./impl/store
	$(TEST_ENV) $(GO) test -count=1 -timeout 20m $(TEST_PKGS)

# The tests write, read and remove some hundred thousand small files
# (session directories, scripts, built binaries): on a disk that is a
# tenth of the run in system time. They go to /dev/shm where the machine
# has it as a tmpfs with 4 GiB free, else to the usual TMPDIR.
TEST_TMPDIR := $(shell d=/dev/shm; [ -d $$d ] && [ -w $$d ] && [ "$$(df -Pk $$d 2>/dev/null | awk 'NR==2 {print $$4}')" -gt 4194304 ] 2>/dev/null && echo $$d)
TEST_ENV    := $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR))

# Tests of impl/ that only parse and refuse large values, with no goroutine
# of their own to race: ten times slower under the race detector, they run
# once, without it (make test).
SEQUENTIAL := TestFileMemoryBound|TestCostBoundsTheParse

race:
	$(TEST_ENV) $(GO) test -race -count=1 -skip '^($(SEQUENTIAL))$$' ./impl/...

# The property suite alone (what CI of a rollout runs).
props:
	$(GO) test -count=1 ./props

# Five times the default checks (props.DefaultChecks), for nightly runs.
props-long:
	$(GO) test -count=1 -timeout 60m ./props -rapid.checks=5000

# The engine-split tests with ten kill schedules per number of pods (make
# test plants two).
engine-long:
	SESSIONDAG_ENGINE_SCHEDULES=10 $(GO) test -count=1 -timeout 30m -run 'TestEngine' ./cmd/sessiondag

# Every valid op script of at most EXHAUST_OPS ops, each checked after its
# last op with every check that needs no directory, after the writers'
# validity at 3 ops and deduplication's verdicts at 4. At 5 ops (the
# default) that is some 33 million scripts (32.9 million walked before
# retry and edit named ask rows, 33.2 million estimated since), some 4,700 s
# of processor time, 40 minutes on 2 cores (docs/properties.md, "Wider than CI");
# deploy/ claims it over pods.
EXHAUST_OPS ?= 5
exhaust: build
	SESSIONDAG_VALIDITY_OPS=3 SESSIONDAG_DEDUP_OPS=4 $(GO) test -count=1 ./checker/exhaust -run 'TestWritersAgreeOnValidity|TestDedupSameVerdicts'
	./bin/sessiondag exhaust --max-ops $(EXHAUST_OPS)

# A search far longer than CI's: every check under drawn swarm
# configurations for HUNT_MINUTES minutes on every core; each distinct
# failure, reduced, lands in corpus/ops/failures/ with its replay command.
hunt: build
	./bin/sessiondag hunt --minutes $(HUNT_MINUTES)

# Another implementation judged over the implementation protocol
# (docs/protocol.md): the property suite at its default budget, a hunt of
# IMPL_HUNT_MINUTES minutes and every script of at most IMPL_EXHAUST_OPS
# ops, each against the command IMPL (run with sh -c in this directory).
# All three run whatever the others find; exit 1 if any found a failure.
# IMPL_KNOWN names the implementation's known-findings file (campaign.Known,
# docs/protocol.md "Known findings"), given to all three (SESSIONDAG_KNOWN
# for the suite, --known for hunt and exhaust): they go on past a finding of
# a class it accepts and fail only on what is new.
# Failures land in IMPL_OUT with their replay commands; the suite's whole
# output in bin/check-impl-props.log. Without IMPL it is impl/ itself behind
# the protocol (sessiondag serve --mint, ids of its own): every property that
# can judge another process passes, as in-process (make test runs the suite
# so at a fifth of its budget: props.TestAcrossTheBoundary).
IMPL_HUNT_MINUTES ?= 10
IMPL_EXHAUST_OPS  ?= 3
IMPL_OUT          ?= corpus/ops/failures
IMPL              ?= ./bin/sessiondag serve --mint
IMPL_KNOWN        ?=
IMPL_KNOWN_ABS     = $(if $(IMPL_KNOWN),$(abspath $(IMPL_KNOWN)))
# the deadline of each request, in seconds (a process that starts slowly
# on a loaded machine needs more than the default 10)
IMPL_TIMEOUT      ?= 10
check-impl: build
	@status=0; \
	if [ -n "$(IMPL_KNOWN)" ] && [ ! -f "$(IMPL_KNOWN)" ]; then echo "check-impl: IMPL_KNOWN=$(IMPL_KNOWN): no such file"; exit 2; fi; \
	echo "== go test ./props against $(IMPL)$(if $(IMPL_KNOWN), (known: $(IMPL_KNOWN)))"; \
	mkdir -p bin; \
	SESSIONDAG_IMPL='$(IMPL)' SESSIONDAG_IMPL_TIMEOUT='$(IMPL_TIMEOUT)s' SESSIONDAG_KNOWN='$(IMPL_KNOWN_ABS)' $(GO) test -count=1 -timeout 12h ./props -v > bin/check-impl-props.log 2>&1 || status=1; \
	grep -E '^(--- |    --- |ok|FAIL)|reproduce:|not run:|^props: known' bin/check-impl-props.log; \
	echo "(the whole output: bin/check-impl-props.log)"; \
	echo "== hunt --minutes $(IMPL_HUNT_MINUTES) against $(IMPL)"; \
	./bin/sessiondag hunt --minutes $(IMPL_HUNT_MINUTES) --out $(IMPL_OUT) --impl '$(IMPL)' --impl-timeout $(IMPL_TIMEOUT) $(if $(IMPL_KNOWN),--known '$(IMPL_KNOWN)') || status=1; \
	echo "== exhaust --max-ops $(IMPL_EXHAUST_OPS) against $(IMPL)"; \
	./bin/sessiondag exhaust --max-ops $(IMPL_EXHAUST_OPS) --out $(IMPL_OUT) --impl '$(IMPL)' --impl-timeout $(IMPL_TIMEOUT) $(if $(IMPL_KNOWN),--known '$(IMPL_KNOWN)') || status=1; \
	exit $$status

# The shipped example (examples/legacy-python) as docs/protocol.md walks
# through it, every command of the document run, the property suite
# through the example at its default budget included (some ten minutes on
# 2 cores; make test runs the rest of the document, and
# props.TestExampleImplementation the suite at a CI budget).
check-example:
	SESSIONDAG_DOC_SUITE=1 $(GO) test -count=1 -timeout 30m -run 'TestProtocolDocShowsWhatRuns' -v ./cmd/sessiondag

# The original system (OpenProgram, Python) at a commit, through its adapter
# in adapters/openprogram/ (docs/openprogram.md):
#   make check-openprogram OPENPROGRAM_SRC=DIR [OPENPROGRAM=r|head] [OPENPROGRAM_IMPL=CMD]
# OPENPROGRAM picks the adapter: r (c69b08e49, the default) or head
# (f27be0ee2); DIR is a source tree of the original at that commit
# (docs/openprogram.md). First the adapter's self-test (the shapes it
# writes as the model does, its findings and refusals), then the bundled op
# corpus, script by script (scripts/openprogram-corpus.sh), at R the load
# against the original's own on OPENPROGRAM_LOADS generated folders
# (scripts/openprogram-loads.sh), then check-impl against the adapter.
# The commit's known findings (OPENPROGRAM_KNOWN, by default
# adapters/openprogram/$(OPENPROGRAM)-known.json when there is one: R's
# contradictions of itself, each argued from its code) go to every driver:
# the corpus replay, the suite, the hunt and exhaust.
# Not part of make test: the original is not in this repository.
OPENPROGRAM      ?= r
OPENPROGRAM_IMPL ?= python3 adapters/openprogram/$(OPENPROGRAM).py
OPENPROGRAM_KNOWN ?= $(wildcard adapters/openprogram/$(OPENPROGRAM)-known.json)
OPENPROGRAM_TIMEOUT ?= 60
OPENPROGRAM_LOADS ?= 300
check-openprogram: build
	@test -n "$(OPENPROGRAM_SRC)" || { echo "check-openprogram: OPENPROGRAM_SRC=DIR names a source tree of the original (docs/openprogram.md)"; exit 2; }
	@test -d "$(OPENPROGRAM_SRC)/openprogram" || { echo "check-openprogram: OPENPROGRAM_SRC=$(OPENPROGRAM_SRC): no openprogram/ package there (not a source tree of the original)"; exit 2; }
	@status=0; \
	echo "== the adapter's self-test (adapters/openprogram/test_adapters.py)"; \
	env -u OPENPROGRAM_SRC -u OPENPROGRAM_HEAD_SRC $(if $(filter head,$(OPENPROGRAM)),OPENPROGRAM_HEAD_SRC,OPENPROGRAM_SRC)='$(abspath $(OPENPROGRAM_SRC))' \
		python3 -m unittest discover -s adapters/openprogram || status=1; \
	echo "== the op corpus against $(OPENPROGRAM_IMPL)"; \
	KNOWN='$(OPENPROGRAM_KNOWN)' IMPL_TIMEOUT='$(OPENPROGRAM_TIMEOUT)' scripts/openprogram-corpus.sh $(OPENPROGRAM) '$(OPENPROGRAM_SRC)' || status=1; \
	$(if $(filter r,$(OPENPROGRAM)),echo "== the load against the original's on $(OPENPROGRAM_LOADS) generated folders"; \
	scripts/openprogram-loads.sh '$(OPENPROGRAM_SRC)' $(OPENPROGRAM_LOADS) || status=1;) \
	OPENPROGRAM_SRC='$(abspath $(OPENPROGRAM_SRC))' $(MAKE) --no-print-directory check-impl IMPL='$(OPENPROGRAM_IMPL)' IMPL_KNOWN='$(OPENPROGRAM_KNOWN)' IMPL_TIMEOUT='$(OPENPROGRAM_TIMEOUT)' || status=1; \
	exit $$status

# The main job: the rollout-readiness audit over the bundled corpus.
demo: build
	./bin/sessiondag audit

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench

benchcmp:
	scripts/benchcmp.sh flags off all

# replay of one generated script cut at 500, 1,000, … 8,000 ops, with its
# checks spread as the command spreads them: the growth per doubling of its
# processor time and memory, each at most 2.2× (bench/replay.md has a run;
# some ten minutes on 2 cores).
bench-replay:
	mkdir -p bin
	$(GO) test -run '^$$' -bench 'ReplayScript' -benchtime 1x -benchmem -timeout 60m ./bench | tee bin/bench-replay.txt
	$(GO) run ./scripts/growth -gate cpu-ns/op,B/op < bin/bench-replay.txt

# load of a session of one node file, doubled from 1 to 16 MiB, for values
# the store refuses for what they would cost in memory (over ten times the
# file's bytes and 1 MiB) and values it loads: what the load allocates and
# keeps over the file's bytes, and the growth per doubling of what it
# allocates, at most 2.2× (bench/memory.md has a run; a few minutes).
bench-memory:
	mkdir -p bin
	$(GO) test -run '^$$' -bench 'NodeFileMemory' -benchtime 3x -benchmem -timeout 60m ./bench | tee bin/bench-memory.txt
	$(GO) run ./scripts/growth -gate B/op < bin/bench-memory.txt

# bench/report.md and bench/scaling.svg: every benchmark COUNT (default 5)
# times, the targets of docs/rollout.md §7, profiles at 100k nodes.
bench-report:
	scripts/bench-report.sh

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

# Each mutant (internal/mutants: historic bugs, broken rollout steps, bugs of
# the optimised load, slips of the judge) compiled in with go build -overlay;
# the table of which tests catch it.
# Exit 1 if a mutant survives. Options: make mutants ARGS='-only a,b'.
mutants:
	$(GO) run ./scripts/mutants $(ARGS)

# The small-scope curve: for each mutant, the fewest ops (1…MUTANT_OPS) at
# which exhaust kills it (the README's mutant table, its last column).
MUTANT_OPS ?= 4
mutants-exhaust:
	$(GO) run ./scripts/mutants -exhaust $(MUTANT_OPS) $(ARGS)

# exhaust at 4 ops with and without deduplication, as built and with the
# mutants of DEDUP_MUTANTS compiled in: the same counts and first failure
# (bench/exhaust-dedup.txt keeps the output; bench/exhaust-dedup.md is the
# measurements' write-up).
DEDUP_MUTANTS ?= step-a-wrong-pred,columns-stale,cards-by-parent,fallback-v1
exhaust-dedup:
	echo '`go run ./scripts/mutants -exhaust-dedup 4 -only $(DEDUP_MUTANTS)` ($(shell git rev-parse --short HEAD)):' > bench/exhaust-dedup.txt
	echo >> bench/exhaust-dedup.txt
	$(GO) run ./scripts/mutants -exhaust-dedup 4 -only $(DEDUP_MUTANTS) | tee -a bench/exhaust-dedup.txt

# Rebuild corpus/sessions and corpus/expected from corpus/ops/shapes.
regen:
	$(GO) run ./scripts/regen

# The audit's throughput without op scripts against cat of the same files,
# and its page's size, on 300 and 3,000 generated sessions of 100 nodes.
throughput:
	scripts/audit-throughput.sh

# Every hostile session tree at full size: time, peak memory and growth of
# load, load --json and audit, then BenchmarkHostile (bench/hostile.md).
hostile:
	scripts/hostile.sh

clean:
	rm -rf bin
