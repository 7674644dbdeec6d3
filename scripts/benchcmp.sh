#!/usr/bin/env bash
# benchcmp.sh: A/B benchmark comparison of ./bench, then the regression gate.
#
#   scripts/benchcmp.sh rev   OLDREV NEWREV          [BENCH_REGEX]
#   scripts/benchcmp.sh flags FLAGS_OLD FLAGS_NEW    [BENCH_REGEX]
#
# rev:   checks out both revisions into temporary git worktrees.
# flags: runs the current tree twice, with SESSIONDAG_BENCH_FLAGS set to
#        FLAGS_OLD and FLAGS_NEW (e.g. "off" and "all").
#
# The two sides run interleaved, OLD,NEW,OLD,NEW..., one -count 1 run at a
# time, so machine noise (other jobs, thermal drift) hits both sides alike
# instead of biasing whichever side ran second.
#
# Environment:
#   COUNT      runs per side, >= 10 (default 10): the U test needs samples
#   OUT        directory for old.txt, new.txt, benchstat.txt, gate.txt
#              (default: a new mktemp directory)
#   BENCHTIME  optional -benchtime for go test (e.g. 200ms or 100x)
#
# Exit code: the gate's (0 no regression, 1 regression, 2 error); 2 also
# for a usage error or a failing benchmark run.
set -euo pipefail

die() {
	echo "benchcmp: $*" >&2
	exit 2
}

usage() {
	sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

[[ $# -ge 3 && $# -le 4 ]] || usage
mode=$1 old_arg=$2 new_arg=$3 regex=${4:-.}

COUNT=${COUNT:-10}
[[ $COUNT =~ ^[0-9]+$ ]] || die "COUNT must be a whole number, got '$COUNT'"
# Fewer runs cannot show a significant difference reliably (benchstat
# recommends 10 or more), so the gate would mostly say "~".
((COUNT >= 10)) || die "COUNT must be >= 10, got $COUNT"

root=$(git rev-parse --show-toplevel) || die "not inside a git repository"
cd "$root"

OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/benchcmp.XXXXXX")}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
old_txt=$OUT/old.txt new_txt=$OUT/new.txt
: >"$old_txt"
: >"$new_txt"

bench_args=(./bench -run '^$' -bench "$regex" -benchmem -count 1)
if [[ -n ${BENCHTIME:-} ]]; then
	bench_args+=(-benchtime "$BENCHTIME")
fi

# Worktrees made by this run, removed on any exit (including errors and
# Ctrl-C) so a failed run leaves no stale checkouts behind.
worktrees=()
tmp=""
# shellcheck disable=SC2317 # called through the EXIT trap
cleanup() {
	local wt
	for wt in ${worktrees[@]+"${worktrees[@]}"}; do
		git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true
	done
	if [[ -n $tmp ]]; then
		rm -rf "$tmp"
		git -C "$root" worktree prune >/dev/null 2>&1 || true
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

case $mode in
rev)
	old_rev=$(git rev-parse --verify --quiet "$old_arg^{commit}") || die "unknown revision '$old_arg'"
	new_rev=$(git rev-parse --verify --quiet "$new_arg^{commit}") || die "unknown revision '$new_arg'"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/benchcmp-wt.XXXXXX")
	old_dir=$tmp/old new_dir=$tmp/new
	git worktree add --quiet --detach "$old_dir" "$old_rev" || die "git worktree add for OLD ($old_arg) failed"
	worktrees+=("$old_dir")
	git worktree add --quiet --detach "$new_dir" "$new_rev" || die "git worktree add for NEW ($new_arg) failed"
	worktrees+=("$new_dir")
	old_env="" new_env=""
	echo "benchcmp: OLD=$old_arg ($old_rev) NEW=$new_arg ($new_rev) regex=$regex count=$COUNT" >&2
	;;
flags)
	old_dir=$root new_dir=$root
	old_env=$old_arg new_env=$new_arg
	echo "benchcmp: SESSIONDAG_BENCH_FLAGS OLD='$old_arg' NEW='$new_arg' regex=$regex count=$COUNT" >&2
	;;
*)
	usage
	;;
esac

# run_side LABEL DIR FLAGS OUTFILE ROUND: one go test run, appended to OUTFILE.
run_side() {
	local label=$1 dir=$2 flags=$3 out=$4 round=$5
	if ! (
		cd "$dir"
		# rev mode leaves the caller's environment alone.
		if [[ $mode == flags ]]; then export SESSIONDAG_BENCH_FLAGS=$flags; fi
		go test "${bench_args[@]}"
	) >>"$out" 2>&1; then
		echo "benchcmp: go test failed for $label in round $round; last lines of $out:" >&2
		tail -n 20 "$out" >&2
		exit 2
	fi
}

for ((i = 1; i <= COUNT; i++)); do
	echo "benchcmp: round $i/$COUNT" >&2
	run_side OLD "$old_dir" "$old_env" "$old_txt" "$i"
	run_side NEW "$new_dir" "$new_env" "$new_txt" "$i"
done

# benchstat's table, for humans. x/perf is a module dependency, so this
# uses the pinned version from go.sum; the @version form is a fallback for
# a tree whose go.sum lacks benchstat's dependencies.
echo >&2
# "label=path" keeps the column headers short.
if ! go run golang.org/x/perf/cmd/benchstat old="$old_txt" new="$new_txt" >"$OUT/benchstat.txt" 2>&1; then
	go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da \
		old="$old_txt" new="$new_txt" >"$OUT/benchstat.txt" 2>&1 ||
		echo "benchcmp: benchstat failed (see $OUT/benchstat.txt); the gate still runs" >&2
fi
cat "$OUT/benchstat.txt"
echo

# The gate decides. It is built rather than `go run` because go run turns
# every non-zero exit into 1, which would hide the 1 (regression), 2 (error)
# and 3 (inconclusive: too few runs) distinction.
gate_rc=0
if go build -o "$OUT/sessiondag" ./cmd/sessiondag; then
	"$OUT/sessiondag" benchgate "$old_txt" "$new_txt" 2>&1 | tee "$OUT/gate.txt" || gate_rc=${PIPESTATUS[0]}
else
	echo "benchcmp: building ./cmd/sessiondag failed; no gate verdict" >&2
	gate_rc=2
fi

echo
echo "benchcmp: results in $OUT (old.txt new.txt benchstat.txt gate.txt)"
exit "$gate_rc"
