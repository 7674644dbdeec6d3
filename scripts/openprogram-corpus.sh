#!/usr/bin/env bash
# openprogram-corpus.sh: replay the bundled op corpus against the original
# system (OpenProgram, Python) through one of its adapters, and count what
# each script gives.
#
#   scripts/openprogram-corpus.sh r|head SRC [FILE.ops...]
#
# r:    adapters/openprogram/r.py, the original at c69b08e49 (claims the legacy)
# head: adapters/openprogram/head.py, the original at f27be0ee2 (claims the target)
# SRC:  a source tree of the original at that commit (docs/openprogram.md says
#       how to get one); it is only read.
# FILEs default to corpus/ops/shapes, corpus/ops/regressions and the
# commit's own corpus/ops/openprogram-r or corpus/ops/openprogram-head.
#
# One line per script: agree (exit 0), known (exit 0, every finding of a
# class KNOWN accepts), n/a (exit 3, undecided: it holds an op kind the
# adapter declares it cannot write, or flags the claim excludes), refused
# (the original's writers refused an op the models accept), or disagree with
# the check, the view and the op of the first finding. The whole output of
# each replay is kept under OUT (default: a new mktemp directory).
#
# Environment: SESSIONDAG (default bin/sessiondag), OUT, IMPL_TIMEOUT
# (seconds per request, default 30), KNOWN (a known-findings file given to
# every replay as --known: a script whose every finding is of a class it
# accepts counts as known, not as disagree).
# Exit code (the verdicts' of every command): 0 when every script agrees or
# is n/a and one agrees at least, 1 when one disagrees or is refused, 3 when
# none could be judged (every one n/a), 2 for a usage error (a missing or
# wrong SRC among them).
set -uo pipefail

die() {
	echo "openprogram-corpus: $*" >&2
	exit 2
}

[ $# -ge 2 ] || die "usage: scripts/openprogram-corpus.sh r|head SRC [FILE.ops...]"
which=$1
src=$2
shift 2
case $which in
r | head) ;;
*) die "first argument $which: want r or head" ;;
esac
[ -n "$src" ] || die "SRC is empty: it names a source tree of the original"
[ -d "$src" ] || die "SRC $src: no such directory"
[ -d "$src/openprogram" ] || die "SRC $src: no openprogram/ package in it (not a source tree of the original)"
src=$(cd "$src" && pwd)

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
bin=${SESSIONDAG:-bin/sessiondag}
[ -x "$bin" ] || die "$bin: not built (make build)"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out" || die "OUT $out: cannot create"

if [ $# -eq 0 ]; then
	set -- corpus/ops/shapes/*.ops corpus/ops/regressions/*.ops
	[ -d "corpus/ops/openprogram-$which" ] && set -- "$@" "corpus/ops/openprogram-$which"/*.ops
fi
known=()
if [ -n "${KNOWN:-}" ]; then
	[ -f "$KNOWN" ] || die "KNOWN $KNOWN: no such file"
	known=(--known "$KNOWN")
fi

impl="python3 adapters/openprogram/$which.py"
agree=0 na=0 refused=0 disagree=0 knownn=0
for f in "$@"; do
	[ -f "$f" ] || die "$f: no such file"
	log="$out/$(basename "$f" .ops).log"
	OPENPROGRAM_SRC="$src" "$bin" replay "$f" --impl "$impl" --impl-timeout "${IMPL_TIMEOUT:-30}" "${known[@]}" >"$log" 2>&1
	rc=$?
	first=$(grep -v -e ': not run: ' -e '^implementation: ' "$log" | head -1)
	case $rc in
	0)
		if grep -q ': known finding (' "$log"; then
			knownn=$((knownn + 1))
			printf 'known     %s: %s\n' "$f" "$(grep -m1 -o 'known finding ([^)]*)' "$log")"
		else
			agree=$((agree + 1))
			printf 'agree     %s\n' "$f"
		fi
		;;
	3)
		na=$((na + 1))
		printf 'n/a       %s: %s\n' "$f" "${first##*: nothing run against }"
		;;
	*)
		if grep -q 'refused it: ' "$log"; then
			refused=$((refused + 1))
			printf 'refused   %s: %s\n' "$f" "$(grep -m1 -o 'refused it: .*' "$log")"
		else
			disagree=$((disagree + 1))
			printf 'disagree  %s: %s\n' "$f" "${first#"$f": }"
		fi
		;;
	esac
done
echo "$which ($src): $# scripts: $agree agree, $knownn known, $disagree disagree, $refused refused, $na n/a (logs: $out)"
[ $((disagree + refused)) -eq 0 ] || exit 1
[ $((agree + knownn)) -gt 0 ] || exit 3
