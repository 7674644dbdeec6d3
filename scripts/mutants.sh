#!/usr/bin/env bash
# Runs the property suite against each deliberately broken implementation
# (impl/mutant) and prints a table: mutant, caught or not, by which test, and
# after how many passing checks. Exit 1 if any mutant survives.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKS=${CHECKS:-100}
mutants=$(sed -n 's/^\t\([A-Za-z0-9]*\) *= "\([a-z0-9-]*\)".*/\2/p' impl/mutant/names.go)
printf '%-22s %-8s %-34s %s\n' mutant caught test checks
survivors=0
for m in $mutants; do
  out=$(SESSIONDAG_MUTANT="$m" go test -tags mutants -count=1 -failfast ./props \
        -run 'TestP[0-9]|TestKnown|TestCorpus' -rapid.checks="$CHECKS" -rapid.nofailfile 2>&1 || true)
  test=$(printf '%s\n' "$out" | sed -n 's/^--- FAIL: \(Test[A-Za-z0-9]*\) .*/\1/p' | head -1)
  checks=$(printf '%s\n' "$out" | sed -n 's/.*\[rapid\] failed after \([0-9]*\) tests.*/\1/p' | head -1)
  if [ -n "$test" ]; then
    printf '%-22s %-8s %-34s %s\n' "$m" yes "$test" "$(( ${checks:-0} + 1 ))"
  else
    printf '%-22s %-8s %-34s %s\n' "$m" NO - -
    survivors=$((survivors + 1))
  fi
done
[ "$survivors" -eq 0 ]
