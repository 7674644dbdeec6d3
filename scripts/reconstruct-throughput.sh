#!/usr/bin/env bash
# The reconstruction's throughput, as a user runs it: N sessions (default
# 1000) of NODES nodes (default 100) written by `sessiondag gen --seed
# 1..N --nodes NODES --legacy=false` into a scratch directory (a RAM disk
# when there is one), their op scripts removed (a real session directory has
# none), then `sessiondag reconstruct DIR` on each, JOBS at a time (default:
# one per core), the script to /dev/null. It prints the wall and processor
# time, sessions a minute, the machine's load, and how many sessions were
# reconstructed (exit 0), ambiguous or undecided (3) and unexplained (1);
# then the in-process benchmark (BenchmarkReconstruct: 100, 400 and 1600
# nodes, the readings rebuilt per session, ns per node).
#   N=1000 NODES=100 scripts/reconstruct-throughput.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
NODES=${NODES:-100}
JOBS=${JOBS:-$(nproc)}
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/sessiondag-reconstruct.XXXXXX")
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sessiondag" ./cmd/sessiondag
bin="$dir/sessiondag"
echo "machine: $(nproc) cores, $(uname -sr), $(go version | cut -d' ' -f3), commit $(git rev-parse --short HEAD); scratch $dir"
echo "== $N sessions of $NODES nodes (gen --seed 1..$N --legacy=false), op scripts removed"
seq 1 "$N" | xargs -P "$JOBS" -I{} "$bin" gen --seed {} --nodes "$NODES" --legacy=false --out "$dir/s/{}" >/dev/null
rm "$dir"/s/*/session.ops
echo "$(find "$dir/s" -path '*/history/*.json' | wc -l) nodes"
load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
TIMEFORMAT='%R %U %S'
{ time (ls "$dir/s" | xargs -P "$JOBS" -I{} sh -c '"$1" reconstruct "$2" >/dev/null 2>&1; echo $?' _ "$bin" "$dir/s/{}" >"$dir/exits"); } 2>"$dir/time"
load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
read -r wall user sys <"$dir/time"
awk -v w="$wall" -v u="$user" -v s="$sys" -v n="$N" -v j="$JOBS" -v l0="$load0" -v l1="$load1" 'BEGIN {
	printf "%d sessions, %d at a time: wall %.2f s (%.0f sessions/min), processor %.2f s (%.0f sessions per processor minute); load average %s at the start, %s at the end\n",
		n, j, w, 60 * n / w, u + s, 60 * n / (u + s), l0, l1 }'
awk '{ c[$1]++ } END { printf "reconstructed %d, ambiguous or undecided %d, unexplained %d, other %d\n", c[0], c[3], c[1], NR - c[0] - c[3] - c[1] }' "$dir/exits"
echo
echo "== in process (go test -bench BenchmarkReconstruct ./audit/reconstruct)"
go test -run '^$' -bench BenchmarkReconstruct -benchtime 16x ./audit/reconstruct | grep -E '^Benchmark'
