# sessiondag: the two commands a newcomer needs are `make demo` and `make test`.
GO        ?= go
FUZZTIME  ?= 60s
HUNT_MINUTES ?= 30
PKGS      := ./...

.PHONY: all build test vet race props props-long hunt exhaust exhaust-dedup demo bench benchcmp bench-report fuzz mutants mutants-exhaust regen throughput clean

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
# included, and the implementation's own tests under the race detector
# (loads share memos and split work between cores). The timeout is wall
# time: on a shared machine the default ten minutes can fire on a starved run.
test: vet race
	$(GO) test -count=1 -timeout 20m $(PKGS)

race:
	$(GO) test -race -count=1 ./impl/...

# The property suite alone (what CI of a rollout runs).
props:
	$(GO) test -count=1 ./props

# Five times the default checks (props.DefaultChecks), for nightly runs.
props-long:
	$(GO) test -count=1 -timeout 60m ./props -rapid.checks=5000

# Every valid op script of at most EXHAUST_OPS ops, P1–P5 and P10 after its
# last op (nightly: 5 ops, about 14 million scripts, about 2 hours of
# processor time: shard it, deploy/).
EXHAUST_OPS ?= 5
exhaust: build
	./bin/sessiondag exhaust --max-ops $(EXHAUST_OPS)

# A search far longer than CI's: every check under drawn swarm
# configurations for HUNT_MINUTES minutes on every core; each distinct
# failure, reduced, lands in corpus/ops/failures/ with its replay command.
hunt: build
	./bin/sessiondag hunt --minutes $(HUNT_MINUTES)

# The main job: the rollout-readiness audit over the bundled corpus.
demo: build
	./bin/sessiondag audit

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench

benchcmp:
	scripts/benchcmp.sh flags off all

# bench/report.md and bench/scaling.svg: every benchmark COUNT (default 5)
# times, the targets of docs/rollout.md §7, profiles at 100k nodes.
bench-report:
	scripts/bench-report.sh

fuzz:
	scripts/fuzz.sh $(FUZZTIME)

# Each mutant (impl/mutant: historic bugs, broken rollout steps, bugs of the
# optimised load) compiled in; the table of which properties catch it.
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
# (bench/exhaust-dedup.md keeps the output).
DEDUP_MUTANTS ?= step-a-wrong-pred,columns-stale,cards-by-parent,fallback-v1
exhaust-dedup:
	echo '`go run ./scripts/mutants -exhaust-dedup 4 -only $(DEDUP_MUTANTS)` ($(shell git rev-parse --short HEAD)):' > bench/exhaust-dedup.md
	echo >> bench/exhaust-dedup.md
	$(GO) run ./scripts/mutants -exhaust-dedup 4 -only $(DEDUP_MUTANTS) | tee -a bench/exhaust-dedup.md

# Rebuild corpus/sessions and corpus/expected from corpus/ops/shapes.
regen:
	$(GO) run ./scripts/regen

# Audit throughput on 1,000 generated sessions of 1,000 nodes.
throughput:
	scripts/audit-throughput.sh

clean:
	rm -rf bin
