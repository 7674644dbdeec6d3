#!/usr/bin/env bash
# bench-report.sh: run the load-pipeline benchmarks of ./bench and write
# bench/report.md (tables, targets, profiles) and bench/scaling.svg.
#
#   scripts/bench-report.sh [BENCH_REGEX]
#
# Steps: build the test binary and the report tool once; build or find the
# cached workloads (1k, 10k, 100k nodes; the first 100k build after a change
# to the generator or the writers takes many minutes); run every benchmark
# COUNT times; profile the 100k load, cold load and aggregation; write the
# report. The benchmark run itself takes about 10 minutes on this machine.
#
# Environment:
#   COUNT      runs of each benchmark (default 5; the report needs >= 5)
#   BENCHTIME  -benchtime (default 1s)
#   PROFILE    0 skips the profiles (default 1)
#   OUT        directory for results.txt, the profiles and the binaries
#              (default: a new mktemp directory)
#   DRAFT      1 allows COUNT < 5 to try the script out; the report then
#              says it is a draft
#
# The raw results are also copied to bench/results.txt, so a later run can
# be compared with benchstat. bench/analysis.md, if present, is included as
# the report's hand-written analysis section.
set -euo pipefail

die() {
	echo "bench-report: $*" >&2
	exit 2
}

[[ $# -le 1 ]] || die "usage: scripts/bench-report.sh [BENCH_REGEX]"
regex=${1:-.}

COUNT=${COUNT:-5}
BENCHTIME=${BENCHTIME:-1s}
PROFILE=${PROFILE:-1}
DRAFT=${DRAFT:-0}
[[ $COUNT =~ ^[0-9]+$ ]] || die "COUNT must be a whole number, got '$COUNT'"
if ((COUNT < 5)) && [[ $DRAFT != 1 ]]; then
	die "COUNT must be >= 5 for a report (got $COUNT); set DRAFT=1 to try the script with fewer runs"
fi

root=$(git rev-parse --show-toplevel 2>/dev/null) || root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/bench-report.XXXXXX")}
mkdir -p "$OUT/profiles"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/profiles/*.txt

echo "bench-report: building the test binary and the report tool (results in $OUT)" >&2
go test -c -o "$OUT/bench.test" ./bench
go build -o "$OUT/benchreport" ./bench/cmd/benchreport

# Fixtures first, so their build (minutes at 100k when the cache is cold)
# never lands inside a timed run or a profile.
"$OUT/benchreport" -prepare

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
load_before=$(loadavg)

# The test binary runs in the package directory, as go test would run it.
run_bench() {
	(cd bench && "$OUT/bench.test" -test.run '^$' -test.benchmem -test.timeout 0 "$@")
}

echo "bench-report: running the benchmarks (-count $COUNT -benchtime $BENCHTIME, regex '$regex')" >&2
if ! run_bench -test.bench "$regex" -test.count "$COUNT" -test.benchtime "$BENCHTIME" | tee "$OUT/results.txt" >&2 ||
	grep -q -E '^(FAIL|panic:|--- FAIL)' "$OUT/results.txt"; then
	die "the benchmark run failed; see $OUT/results.txt"
fi
load_after=$(loadavg)

# profile NAME TITLE BENCH BENCHTIME KIND: one profiled run at 100k nodes
# and its pprof tables, saved as profiles/NAME.txt for the report.
profile() {
	local name=$1 title=$2 bench=$3 btime=$4 kind=$5 prof
	prof="$OUT/$name.prof"
	if [[ $kind == cpu ]]; then
		run_bench -test.bench "$bench" -test.benchtime "$btime" -test.cpuprofile "$prof" >/dev/null
		{
			echo "# $title"
			echo "## flat (top 15)"
			go tool pprof -top -nodecount 15 "$OUT/bench.test" "$prof" 2>/dev/null | sed -n '/flat%/,$p'
			echo "## cumulative, sessiondag functions (top 25)"
			go tool pprof -top -cum -nodecount 25 -show '^sessiondag/' "$OUT/bench.test" "$prof" 2>/dev/null | sed -n '/flat%/,$p'
		} >"$OUT/profiles/$name.txt"
	else
		run_bench -test.bench "$bench" -test.benchtime "$btime" -test.memprofile "$prof" -test.memprofilerate 4096 >/dev/null
		{
			echo "# $title"
			echo "## allocated objects, flat (top 15)"
			go tool pprof -sample_index alloc_objects -top -nodecount 15 "$OUT/bench.test" "$prof" 2>/dev/null | sed -n '/flat%/,$p'
			echo "## allocated objects, cumulative, sessiondag functions (top 20)"
			go tool pprof -sample_index alloc_objects -top -cum -nodecount 20 -show '^sessiondag/' "$OUT/bench.test" "$prof" 2>/dev/null | sed -n '/flat%/,$p'
		} >"$OUT/profiles/$name.txt"
	fi
}

if [[ $PROFILE != 0 ]]; then
	echo "bench-report: profiling at 100k nodes" >&2
	profile 1-load-off-cpu "CPU: Load, 100k nodes, flags=off" '^BenchmarkLoad$/^nodes=100000$/^flags=off$' 20x cpu
	profile 2-load-all-cpu "CPU: Load, 100k nodes, flags=all" '^BenchmarkLoad$/^nodes=100000$/^flags=all$' 20x cpu
	profile 3-coldload-off-cpu "CPU: ColdLoad, 100k nodes, flags=off" '^BenchmarkColdLoad$/^nodes=100000$/^flags=off$' 5x cpu
	profile 4-load-off-mem "Allocations: Load, 100k nodes, flags=off" '^BenchmarkLoad$/^nodes=100000$/^flags=off$' 5x mem
	profile 5-aggregate-off-mem "Allocations: Aggregate, 100k nodes, flags=off" '^BenchmarkAggregate$/^nodes=100000$/^flags=off$' 20x mem
fi

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain 2>/dev/null) ]]; then
	commit="$commit (with uncommitted changes)"
fi
draft_count=$COUNT
if ((COUNT < 5)); then
	draft_count="$COUNT (DRAFT: fewer runs than a report needs)"
fi
profiles_arg=()
if [[ $PROFILE != 0 ]]; then
	profiles_arg=(-profiles "$OUT/profiles")
fi
# bench/analysis.md: the hand-written reading of the profiles, if any.
if [[ -f bench/analysis.md ]]; then
	profiles_arg+=(-notes bench/analysis.md)
fi
"$OUT/benchreport" -results "$OUT/results.txt" ${profiles_arg[@]+"${profiles_arg[@]}"} \
	-out bench/report.md -svg bench/scaling.svg \
	-count "$draft_count" -benchtime "$BENCHTIME" -goversion "$(go version)" \
	-commit "$commit" -date "$(date -u '+%Y-%m-%d %H:%M UTC')" \
	-load-before "$load_before" -load-after "$load_after"
cp "$OUT/results.txt" bench/results.txt
echo "bench-report: wrote bench/report.md, bench/scaling.svg and bench/results.txt (raw files in $OUT)" >&2
