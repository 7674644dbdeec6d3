#!/usr/bin/env bash
# Runs every fuzz target in turn, each for FUZZTIME (default 60s):
#   scripts/fuzz.sh [FUZZTIME]        (make fuzz FUZZTIME=60s)
# Stops at the first failure and says which target failed and where the
# crasher was written; it replays with
#   go test -run '^FuzzX$/NAME' ./pkg
# and belongs in the seed corpus (pkg/testdata/fuzz/FuzzX/) once fixed.
# Environment: TARGETS (a subset, e.g. "./ops:FuzzParseScript"),
# FUZZMINTIME (time spent minimizing each new input, default 5s: the go
# default of 60s leaves little time to fuzz on the expensive targets).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${1:-${FUZZTIME:-60s}}
FUZZMINTIME=${FUZZMINTIME:-5s}
TARGETS=${TARGETS:-"
./impl/node:FuzzParse
./impl/adapter:FuzzToMessage
./impl/adapter:FuzzFromMessage
./ops:FuzzParseScript
./checker/robust:FuzzOpenSession
./checker/robust:FuzzAggregate
"}

printf '%-40s %-8s %-12s %s\n' target time execs result
for t in $TARGETS; do
  pkg=${t%%:*}
  name=${t##*:}
  log=$(mktemp)
  start=$(date +%s)
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINTIME" "$pkg" >"$log" 2>&1; then
    status=ok
  else
    status=FAIL
  fi
  secs=$(( $(date +%s) - start ))
  execs=$(sed -n 's/.*execs: \([0-9]*\).*/\1/p' "$log" | tail -1)
  printf '%-40s %-8s %-12s %s\n' "$pkg $name" "${secs}s" "${execs:-?}" "$status"
  if [ "$status" = FAIL ]; then
    echo
    cat "$log"
    crasher=$(sed -n 's/.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*/\1/p' "$log" | tail -1)
    echo
    echo "fuzz: $name in $pkg failed."
    if [ -n "$crasher" ]; then
      echo "fuzz: crasher written to ${pkg#./}/$crasher"
      echo "fuzz: replay with: go test -run '^${name}\$/${crasher##*/}' $pkg"
    else
      echo "fuzz: no crasher was written (a build error or a test failure before fuzzing; see above)"
    fi
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
done
