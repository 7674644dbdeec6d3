#!/usr/bin/env bash
# The audit's throughput on real-shaped data, against the floor every
# reader shares: reading the same files. For each size in SIZES (default
# 300 and 3000 sessions) it generates that many sessions of NODES nodes
# (default 100, what `sessiondag gen` writes by default; --legacy=false as
# in the README) into a scratch directory (a RAM disk when there is one),
# removes their op scripts (a real session directory has none), and then,
# ROUNDS times interleaved (default 5), times `cat` of every file the audit
# reads and `sessiondag audit DIR --html PAGE`. It prints the medians, the
# nodes per second of each, their ratio (the audit's time over cat's, both
# measured in the same run, so a busy machine slows both), the processor
# time each used (user + system, which other work on the machine barely
# changes), the machine's load, the verdict line, the page's size and the
# peak memory of one more audit; then one audit with the op scripts put
# back.
#   SIZES="300 3000" NODES=100 ROUNDS=5 scripts/audit-throughput.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"300 3000"}
NODES=${NODES:-100}
ROUNDS=${ROUNDS:-5}
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/sessiondag-throughput.XXXXXX")
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sessiondag" ./cmd/sessiondag
bin="$dir/sessiondag"
echo "machine: $(nproc) cores, $(uname -sr), $(go version | cut -d' ' -f3); scratch $dir"

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

for n in $SIZES; do
	s="$dir/s$n"
	echo
	echo "== $n sessions of $NODES nodes (gen --seed 1..$n --legacy=false)"
	seq 1 "$n" | xargs -P "$(nproc)" -I{} "$bin" gen --seed {} --nodes "$NODES" --legacy=false --out "$s/{}" >/dev/null
	mkdir -p "$dir/ops$n"
	for d in "$s"/*; do mv "$d/session.ops" "$dir/ops$n/$(basename "$d").ops"; done
	find "$s" -type f >"$dir/files$n"
	files=$(wc -l <"$dir/files$n")
	nodes=$(grep -c '/history/.*\.json$' "$dir/files$n")
	bytes=$(xargs -a "$dir/files$n" cat | wc -c)
	echo "$files files, $nodes nodes, $bytes bytes"
	: >"$dir/cat$n.t"
	: >"$dir/audit$n.t"
	: >"$dir/catcpu$n.t"
	: >"$dir/auditcpu$n.t"
	load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
	for r in $(seq 1 "$ROUNDS"); do
		t0=$(now)
		TIMEFORMAT='%U %S'
		{ time xargs -a "$dir/files$n" cat >/dev/null; } 2>"$dir/cpu"
		awk '{ print $1 + $2 }' "$dir/cpu" >>"$dir/catcpu$n.t"
		t1=$(now)
		{ time "$bin" audit "$s" --html "$dir/page$n.html" >"$dir/audit$n.txt" 2>/dev/null || true; } 2>"$dir/cpu"
		awk '{ print $1 + $2 }' "$dir/cpu" >>"$dir/auditcpu$n.t"
		t2=$(now)
		echo "$t1 - $t0" | bc -l >>"$dir/cat$n.t"
		echo "$t2 - $t1" | bc -l >>"$dir/audit$n.t"
	done
	load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
	cat_t=$(median <"$dir/cat$n.t")
	audit_t=$(median <"$dir/audit$n.t")
	cat_cpu=$(median <"$dir/catcpu$n.t")
	audit_cpu=$(median <"$dir/auditcpu$n.t")
	awk -v c="$cat_t" -v a="$audit_t" -v cc="$cat_cpu" -v ac="$audit_cpu" -v k="$nodes" -v r="$ROUNDS" -v l0="$load0" -v l1="$load1" 'BEGIN {
		printf "median of %d interleaved rounds (load average %s at the start, %s at the end):\n", r, l0, l1
		printf "  wall:      cat %.3f s (%.0f nodes/s), audit without scripts %.3f s (%.0f nodes/s): audit / cat = %.1f\n", c, k / c, a, k / a, a / c
		printf "  processor: cat %.3f s, audit %.3f s (%.0f nodes per processor second): audit / cat = %.1f\n", cc, ac, k / ac, ac / cc }'
	grep -E '^broken sessions' "$dir/audit$n.txt"
	echo "page: $(wc -c <"$dir/page$n.html") bytes ($(grep -c 'class="session"' "$dir/page$n.html" || true) sessions shown in full)"
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$dir/rss" "$bin" audit "$s" --html "$dir/page$n.html" >/dev/null 2>&1 || true
		echo "peak memory of one audit: $(awk '{ printf "%.0f MB", $1 / 1024 }' "$dir/rss") (maximum resident set)"
	fi
	for d in "$s"/*; do mv "$dir/ops$n/$(basename "$d").ops" "$d/session.ops"; done
	t0=$(now)
	"$bin" audit "$s" --html "$dir/page$n-scripts.html" >"$dir/audit$n-scripts.txt" 2>/dev/null || true
	t1=$(now)
	awk -v t="$(echo "$t1 - $t0" | bc -l)" -v k="$nodes" 'BEGIN { printf "with the op scripts (model.Target replays each): %.3f s (%.0f nodes/s)\n", t, k / t }'
	grep -E '^broken sessions' "$dir/audit$n-scripts.txt"
	echo "page: $(wc -c <"$dir/page$n-scripts.html") bytes"
done
