# sessiondag: the two commands a newcomer needs are `make demo` and `make test`.
GO        ?= go
FUZZTIME  ?= 60s
PKGS      := ./...

.PHONY: all build test vet race props props-long demo bench benchcmp bench-report fuzz mutants regen throughput clean

all: build test

build:
	$(GO) build -o bin/sessiondag ./cmd/sessiondag

vet:
	$(GO) vet $(PKGS)

# Every test of the project, the property suite at its default budget
# included, and the implementation's own tests under the race detector
# (loads share memos and split work between cores).
test: vet race
	$(GO) test -count=1 $(PKGS)

race:
	$(GO) test -race -count=1 ./impl/...

# The property suite alone (what CI of a rollout runs).
props:
	$(GO) test -count=1 ./props

# Ten times the default checks, for nightly runs.
props-long:
	$(GO) test -count=1 -timeout 60m ./props -rapid.checks=1000

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

# Rebuild corpus/sessions and corpus/expected from corpus/ops/shapes.
regen:
	$(GO) run ./scripts/regen

# Audit throughput on 1,000 generated sessions of 1,000 nodes.
throughput:
	scripts/audit-throughput.sh

clean:
	rm -rf bin
