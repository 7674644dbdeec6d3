#!/usr/bin/env bash
# Measures the audit's throughput: generates SESSIONS sessions of NODES nodes
# (default 1000 × 1000) with `sessiondag gen` into a scratch directory (a RAM
# disk when there is one), then times `sessiondag audit` over them and prints
# sessions per second. The scratch directory is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
SESSIONS=${SESSIONS:-1000}
NODES=${NODES:-1000}
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/sessiondag-throughput.XXXXXX")
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sessiondag" ./cmd/sessiondag
echo "generating $SESSIONS sessions of $NODES nodes in $dir" >&2
seq 1 "$SESSIONS" | xargs -P "$(nproc)" -I{} "$dir/sessiondag" gen --seed {} --nodes "$NODES" --out "$dir/s/{}" >/dev/null
nodes=$(find "$dir/s" -name '*.json' -path '*history*' | wc -l)
# Twice: as real session directories (no op script, the usual case), and
# with the op scripts gen leaves beside them, which make the audit replay
# model.Target (the slow, plain reference model) to know the intended view.
audit() {
  start=$(date +%s.%N)
  "$dir/sessiondag" audit "$dir/s" > "$dir/audit.txt" || true
  end=$(date +%s.%N)
  tail -9 "$dir/audit.txt"
  awk -v s="$start" -v e="$end" -v n="$SESSIONS" -v k="$nodes" -v what="$1" 'BEGIN {
    t = e - s; printf "\naudit %s: %d sessions, %d nodes in %.1f s: %.1f sessions/s, %.0f nodes/s\n\n", what, n, k, t, n / t, k / t }'
}
mkdir -p "$dir/ops"
for s in "$dir"/s/*; do mv "$s/session.ops" "$dir/ops/$(basename "$s").ops"; done
audit "as real sessions (no op script)"
for s in "$dir"/s/*; do mv "$dir/ops/$(basename "$s").ops" "$s/session.ops"; done
audit "with op scripts (intended view from model.Target)"
