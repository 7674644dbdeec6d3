#!/usr/bin/env bash
# speedup.sh: how much faster the checker side of the working tree is than at
# a base commit, measured on this machine in one run.
#
#   scripts/speedup.sh            # base 6f5d343, 5 runs of each side, interleaved
#   RUNS=3 PROPS=1 scripts/speedup.sh
#   RUNS=0 ALL_RUNS=0 PROPS=1 scripts/speedup.sh   # the property suite alone
#
# It builds `sessiondag` at BASE (from a temporary git worktree) and from the
# working tree, generates the inputs with BASE's `sessiondag gen` (the
# inputs BASE was measured on), then runs each measurement RUNS times,
# old and new in turn, and prints the medians of wall time and of CPU time
# (user + sys) and their ratios old/new:
#
#   replay      the 1k-node script of `gen --seed 42 --nodes 1000`: at BASE
#               `replay FILE` compared every view with model.Legacy after
#               every op; the same work now is `replay FILE --flags off
#               --check legacy`
#   audit       `audit DIR` of one 5,000-node session with its op script
#               (`gen --seed 7 --nodes 5000`), of the same directory
#               without the script (the floor both sides share: reading
#               and loading the session), and of a 10,000-node one
#   replay-all  the new default `replay FILE` (every check, on data written
#               with the flags on and off), against the old `replay FILE`;
#               ALL_RUNS times (default 1) after the others: it is long,
#               its persistence check cold-loads the directory after every op
#
# With PROPS=1 it also times the property suite: the new tree with
# -rapid.checks=500 against BASE's default 100 checks (test binaries built
# first, so compiling is not timed). With BENCH=1 it runs the models'
# benchmarks (model/bench_test.go, copied into BASE's tree, whose model API
# they also compile against) BENCH_COUNT times per side, interleaved, and
# prints benchstat's table.
set -euo pipefail

base=${BASE:-6f5d343}
runs=${RUNS:-5}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$tmp/base" 2>/dev/null || true
	git -C "$root" worktree prune
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "== building $base (temporary worktree) and the working tree" >&2
git -C "$root" worktree add --detach -q "$tmp/base" "$base"
(cd "$tmp/base" && go build -o "$tmp/old" ./cmd/sessiondag)
(cd "$root" && go build -o "$tmp/new" ./cmd/sessiondag)

echo "== generating inputs with $base's generator" >&2
# The inputs are the ones BASE measured: its generator's scripts (the
# generator has drawn more kinds of ops and numbers since), which both
# sides read.
"$tmp/old" gen --seed 42 --nodes 1000 --out "$tmp/g1k" >/dev/null
"$tmp/old" gen --seed 7 --nodes 5000 --out "$tmp/g5k" >/dev/null
"$tmp/old" gen --seed 7 --nodes 10000 --out "$tmp/g10k" >/dev/null
cp -r "$tmp/g5k" "$tmp/g5k-bare"
rm "$tmp/g5k-bare/session.ops"
script="$tmp/g1k/session.ops"
session="$tmp/g5k"

# timed NAME CMD...: runs CMD once, appends "wall cpu" to $tmp/NAME, and
# fails when CMD fails.
timed() {
	local name=$1 t
	shift
	local TIMEFORMAT='%R %U %S'
	t=$({ time "$@" >"$tmp/last.out" 2>&1; } 2>&1) || {
		echo "speedup.sh: failed: $*" >&2
		cat "$tmp/last.out" >&2
		exit 1
	}
	awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$t" >>"$tmp/$name"
}

# median FILE COLUMN
median() {
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "== $runs runs of each side, interleaved" >&2
for i in $(seq "$runs"); do
	echo "   run $i" >&2
	timed replay.old "$tmp/old" replay "$script"
	timed replay.new "$tmp/new" replay "$script" --flags off --check legacy
	timed audit.old "$tmp/old" audit "$session"
	timed audit.new "$tmp/new" audit "$session"
	timed bare.old "$tmp/old" audit "$tmp/g5k-bare"
	timed bare.new "$tmp/new" audit "$tmp/g5k-bare"
	timed audit10k.old "$tmp/old" audit "$tmp/g10k"
	timed audit10k.new "$tmp/new" audit "$tmp/g10k"
done
for i in $(seq "${ALL_RUNS:-1}"); do
	echo "   default replay, run $i" >&2
	timed replay-all.new "$tmp/new" replay "$script"
done

if [ "${PROPS:-0}" = 1 ]; then
	echo "== the property suite: test binaries" >&2
	(cd "$tmp/base" && go test -c -o "$tmp/props-old.test" ./props)
	(cd "$root" && go test -c -o "$tmp/props-new.test" ./props)
	for i in $(seq "${PROPS_RUNS:-3}"); do
		echo "   props run $i" >&2
		timed props.old sh -c "cd '$tmp/base/props' && '$tmp/props-old.test' -test.count=1"
		timed props.new sh -c "cd '$root/props' && '$tmp/props-new.test' -test.count=1 -rapid.checks=500"
	done
fi

if [ "${BENCH:-0}" = 1 ]; then
	echo "== the models' benchmarks" >&2
	cp "$root/model/bench_test.go" "$tmp/base/model/bench_test.go"
	(cd "$tmp/base" && go test -c -o "$tmp/model.old" ./model)
	(cd "$root" && go test -c -o "$tmp/model.new" ./model)
	for i in $(seq "${BENCH_COUNT:-5}"); do
		echo "   bench run $i" >&2
		for side in old new; do
			(cd "$root/model" && "$tmp/model.$side" -test.run '^$' -test.bench . -test.benchtime 1x -test.benchmem) >>"$tmp/bench.$side"
		done
	done
fi

row() { # row LABEL OLDFILE NEWFILE (nothing when RUNS=0 or ALL_RUNS=0 left it out)
	local ow oc nw nc
	[ -s "$tmp/$2" ] && [ -s "$tmp/$3" ] || return 0
	ow=$(median "$tmp/$2" 1) oc=$(median "$tmp/$2" 2)
	nw=$(median "$tmp/$3" 1) nc=$(median "$tmp/$3" 2)
	awk -v l="$1" -v ow="$ow" -v oc="$oc" -v nw="$nw" -v nc="$nc" \
		'BEGIN { printf "| %s | %.2f s | %.2f s | %.2f s | %.2f s | %.1f× | %.1f× |\n", l, ow, oc, nw, nc, ow / nw, oc / nc }'
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(go version | cut -d' ' -f3-), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "base $base ($(git -C "$root" rev-parse --short "$base")), working tree at $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' + changes'); $runs runs of each side, interleaved; medians"
echo
echo "| measurement | old wall | old cpu | new wall | new cpu | wall old/new | cpu old/new |"
echo "|---|---|---|---|---|---|---|"
row "replay 1k, flags off vs model.Legacy (old: replay FILE; new: --flags off --check legacy)" replay.old replay.new
row "audit of one 5k-node session with its op script" audit.old audit.new
row "audit of the same session without its op script (reading and loading it: the floor)" bare.old bare.new
row "audit of one 10k-node session with its op script (\`gen --seed 7 --nodes 10000\`)" audit10k.old audit10k.new
row "replay 1k, old default vs new default (every check, flags on and off)" replay.old replay-all.new
if [ "${PROPS:-0}" = 1 ]; then
	row "go test ./props: old 100 checks vs new -rapid.checks=500 (new/old is the inverse)" props.old props.new
fi
if [ "${BENCH:-0}" = 1 ]; then
	echo
	echo "models' benchmarks (-benchtime 1x, ${BENCH_COUNT:-5} runs per side, interleaved):"
	echo
	(cd "$root" && go run golang.org/x/perf/cmd/benchstat "$tmp/bench.old" "$tmp/bench.new")
fi
