#!/usr/bin/env bash
# bench-report.sh: run the load-pipeline benchmarks of ./bench and write
# bench/report.md (tables, targets, profiles) and bench/scaling.svg.
#
#   scripts/bench-report.sh [BENCH_REGEX]
#
# Steps: build the test binary and the report tool once; build or find the
# cached workloads (1k, 10k, 100k nodes; rebuilt after a change to what the
# generator or the writers write); run every benchmark COUNT times; profile
# the 100k load, cold load and aggregation; write the report. The whole run
# takes about 12 minutes on this machine.
#
# Environment:
#   COUNT      runs of each benchmark (default 5; the report needs >= 5)
#   BENCHTIME  -benchtime (default 1s)
#   PROFILE    0 skips the profiles (default 1)
#   OUT        directory for results.txt, the profiles and the binaries
#              (default: a new mktemp directory)
#   DRAFT      1 allows COUNT < 5 to try the script out; the report then
#              says it is a draft
#   REPORT_ONLY  1 skips the runs and rewrites the report from the results
#              and profiles already in OUT (e.g. after editing
#              bench/analysis.md)
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

REPORT_ONLY=${REPORT_ONLY:-0}
if [[ $REPORT_ONLY == 1 ]]; then
	[[ -s $OUT/results.txt && -s $OUT/run-info.txt && -s $OUT/workloads.json ]] ||
		die "REPORT_ONLY=1 needs a previous run's OUT (results.txt, run-info.txt, workloads.json)"
	go build -o "$OUT/benchreport" ./bench/cmd/benchreport # the report tool as it is now
fi

if [[ $REPORT_ONLY != 1 ]]; then
rm -f "$OUT"/profiles/*.txt
echo "bench-report: building the test binary and the report tool (results in $OUT)" >&2
# The commit is taken now, when the binaries are built from the tree.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain 2>/dev/null) ]]; then
	commit="$commit (with uncommitted changes)"
fi
go test -c -o "$OUT/bench.test" ./bench
go build -o "$OUT/benchreport" ./bench/cmd/benchreport

# Fixtures first, so their build (tens of seconds at 100k when the cache is
# cold) never lands inside a timed run or a profile.
# The workloads' description is saved with the results, so a later
# REPORT_ONLY describes the fixtures this run measured.
"$OUT/benchreport" -prepare -workloads "$OUT/workloads.json"

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

# profile NAME TITLE BENCH BENCHTIME KIND FOCUS: one profiled run and its
# pprof tables, saved as profiles/NAME.txt for the report. FOCUS is the
# function holding the benchmark's timed loop: the tables show only samples
# below it (percentages of the focused part), not the untimed fixture and
# stage setup. Background GC work runs outside the loop's goroutine, so its
# share of the whole profile is given on its own line.
profile() {
	local name=$1 title=$2 bench=$3 btime=$4 kind=$5 focus=$6 prof bin
	prof="$OUT/$name.prof" bin="$OUT/bench.test"
	pp() { go tool pprof "$@" "$bin" "$prof" 2>/dev/null; }
	if [[ $kind == cpu ]]; then
		run_bench -test.bench "$bench" -test.benchtime "$btime" -test.cpuprofile "$prof" >/dev/null
		{
			echo "# $title"
			echo "timed loop: $(pp -top -nodecount 100000 -focus "$focus" | grep -m1 -o 'Showing nodes accounting.*')"
			echo "background GC: $(pp -top -nodecount 100000 -focus 'gcBgMarkWorker' | grep -m1 -o 'Showing nodes accounting.*')"
			echo "## flat, timed loop only (top 20, % of the loop)"
			pp -top -nodecount 20 -focus "$focus" -relative_percentages | sed -n '/flat%/,$p'
			echo "## cumulative, sessiondag functions in the timed loop (top 25, % of the loop)"
			pp -top -cum -nodecount 25 -focus "$focus" -relative_percentages -show '^sessiondag/' | sed -n '/flat%/,$p'
		} >"$OUT/profiles/$name.txt"
	else
		run_bench -test.bench "$bench" -test.benchtime "$btime" -test.memprofile "$prof" -test.memprofilerate 4096 >/dev/null
		{
			echo "# $title"
			echo "timed loop: $(pp -sample_index alloc_objects -top -nodecount 100000 -focus "$focus" | grep -m1 -o 'Showing nodes accounting.*')"
			echo "## allocated objects, flat, timed loop only (top 15, % of the loop)"
			pp -sample_index alloc_objects -top -nodecount 15 -focus "$focus" -relative_percentages | sed -n '/flat%/,$p'
			echo "## allocated objects, cumulative, sessiondag functions (top 20, % of the loop)"
			pp -sample_index alloc_objects -top -cum -nodecount 20 -focus "$focus" -relative_percentages -show '^sessiondag/' | sed -n '/flat%/,$p'
		} >"$OUT/profiles/$name.txt"
	fi
}

if [[ $PROFILE != 0 ]]; then
	echo "bench-report: profiling at 100k nodes" >&2
	profile 1-load-off-cpu "CPU: Load, 100k nodes, flags=off" \
		'^BenchmarkLoad$/^nodes=100000$/^flags=off$' 20x cpu 'bench\.BenchmarkLoad\.func1$'
	profile 2-load-all-cpu "CPU: Load, 100k nodes, flags=all" \
		'^BenchmarkLoad$/^nodes=100000$/^flags=all$' 20x cpu 'bench\.BenchmarkLoad\.func1$'
	profile 3-coldload-off-cpu "CPU: ColdLoad, 100k nodes, flags=off" \
		'^BenchmarkColdLoad$/^nodes=100000$/^flags=off$' 5x cpu 'bench\.coldLoad$'
	profile 4-load-off-mem "Allocations: Load, 100k nodes, flags=off" \
		'^BenchmarkLoad$/^nodes=100000$/^flags=off$' 5x mem 'bench\.BenchmarkLoad\.func1$'
	profile 5-aggregate-off-mem "Allocations: Aggregate, 100k nodes, flags=off" \
		'^BenchmarkAggregate$/^nodes=100000$/^flags=off$' 20x mem 'bench\.BenchmarkAggregate\.func1$'
	profile 6-coldload-off-mem "Allocations: ColdLoad, 100k nodes, flags=off" \
		'^BenchmarkColdLoad$/^nodes=100000$/^flags=off$' 3x mem 'bench\.coldLoad$'
fi

printf '%s\n' "$commit" "$load_before" "$load_after" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$COUNT" "$BENCHTIME" >"$OUT/run-info.txt"
fi # REPORT_ONLY

# What the run was (REPORT_ONLY reads back the earlier run's).
{ read -r commit; read -r load_before; read -r load_after; read -r run_date; read -r COUNT; read -r BENCHTIME; } <"$OUT/run-info.txt"
draft_count=$COUNT
if ((COUNT < 5)); then
	draft_count="$COUNT (DRAFT: fewer runs than a report needs)"
fi
profiles_arg=()
if [[ $PROFILE != 0 ]] && compgen -G "$OUT/profiles/*.txt" >/dev/null; then
	profiles_arg=(-profiles "$OUT/profiles")
fi
# bench/analysis.md: the hand-written reading of the profiles, if any.
if [[ -f bench/analysis.md ]]; then
	profiles_arg+=(-notes bench/analysis.md)
fi
"$OUT/benchreport" -results "$OUT/results.txt" -workloads "$OUT/workloads.json" ${profiles_arg[@]+"${profiles_arg[@]}"} \
	-out bench/report.md -svg bench/scaling.svg \
	-count "$draft_count" -benchtime "$BENCHTIME" -goversion "$(go version)" \
	-commit "$commit" -date "$run_date" \
	-load-before "$load_before" -load-after "$load_after"
cp "$OUT/results.txt" bench/results.txt
echo "bench-report: wrote bench/report.md, bench/scaling.svg and bench/results.txt (raw files in $OUT)" >&2
