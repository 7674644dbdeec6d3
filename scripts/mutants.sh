#!/usr/bin/env bash
# Runs the property suite against each deliberately broken implementation
# (impl/mutant, built with -tags mutants) and prints, per mutant, every
# property that caught it and after how many checks (1 = the first generated
# case). Exit 1 if a mutant survives every property.
set -euo pipefail
cd "$(dirname "$0")/.."
CHECKS=${CHECKS:-100}
RUN=${RUN:-'^(TestP[0-9].*|TestDRetiresParentID|TestKnownLegacyCutoff|TestCorpusReplay|TestCorpusSessions)$'}
mutants=$(sed -n 's/^\t[A-Za-z0-9]* *= "\([a-z0-9-]*\)".*/\1/p' impl/mutant/names.go)
printf '%-22s %-7s %s\n' mutant caught 'by (checks needed)'
survivors=0
for m in $mutants; do
  out=$(SESSIONDAG_MUTANT="$m" go test -tags mutants -count=1 -v ./props \
        -run "$RUN" -rapid.checks="$CHECKS" -rapid.nofailfile -rapid.shrinktime=5s 2>&1 || true)
  # A failing top-level test, and rapid's "failed after N tests" inside it.
  caught=$(printf '%s\n' "$out" | awk '
    /^=== RUN/ { split($3, a, "/"); cur = a[1] }
    /\[rapid\] failed after [0-9]+ tests/ { match($0, /failed after [0-9]+/); n[cur] = substr($0, RSTART+13, RLENGTH-13) + 1 }
    /^--- FAIL: / { t = $3; if (!(t in seen)) { seen[t] = 1; order[++k] = t } }
    END { for (i = 1; i <= k; i++) { t = order[i]; printf "%s(%s) ", t, (t in n) ? n[t] : "example" } }')
  if [ -n "$caught" ]; then
    printf '%-22s %-7s %s\n' "$m" yes "$caught"
  else
    printf '%-22s %-7s %s\n' "$m" NO -
    survivors=$((survivors + 1))
  fi
done
[ "$survivors" -eq 0 ]
