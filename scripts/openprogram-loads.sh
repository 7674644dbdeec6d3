#!/usr/bin/env bash
# openprogram-loads.sh: sessiondag's load (flags off) against the original's
# own load on generated session folders.
#
#   scripts/openprogram-loads.sh SRC [COUNT]
#
# SRC is a source tree of the original at R (c69b08e49; docs/openprogram.md
# says how to get one); it is only read. COUNT folders (default 300) are
# written by `sessiondag gen`, seeds 1…COUNT, 20, 60 or 150 nodes and the
# writers on off, A or all (each in turn: data written during a rollout is
# what a rollback loads), then loaded twice: by `sessiondag load DIR --json`
# and by the original's handle_load_session (adapters/openprogram/record.py
# --view). head_id and chain must be equal, values, types and key order.
# One line per folder that differs, with the command that writes it again;
# then the count.
#
# Environment: SESSIONDAG (default bin/sessiondag), OUT (where the folders
# go; default a new mktemp directory, kept).
# Exit code: 0 when every folder agrees, 1 when one differs, 2 for a usage
# error, 3 when nothing was compared.
set -uo pipefail

die() {
	echo "openprogram-loads: $*" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: scripts/openprogram-loads.sh SRC [COUNT]"
src=$1
count=${2:-300}
[ -d "$src/openprogram" ] || die "$src: no openprogram/ package there (not a source tree of the original)"
case $count in '' | *[!0-9]*) die "COUNT=$count: want a number of folders" ;; esac
bin=${SESSIONDAG:-bin/sessiondag}
[ -x "$bin" ] || die "$bin: not built (make build)"
out=${OUT:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/.." && pwd)

sizes=(20 60 150)
configs=(off A all)
dirs=()
for ((s = 1; s <= count; s++)); do
	n=${sizes[$((s % 3))]}
	f=${configs[$(((s / 3) % 3))]}
	d="$out/s$s-n$n-$f"
	"$bin" gen --seed "$s" --nodes "$n" --flags "$f" --out "$d" >/dev/null || die "gen --seed $s failed"
	dirs+=("$d")
done
[ ${#dirs[@]} -gt 0 ] || { echo "openprogram-loads: nothing to compare"; exit 3; }

OPENPROGRAM_SRC="$src" python3 "$here/adapters/openprogram/record.py" --view "${dirs[@]}" |
	SESSIONDAG="$bin" FOLDERS="$out" python3 -c '
import json, os, subprocess, sys
bin = os.environ["SESSIONDAG"]
n = bad = 0
for line in sys.stdin:
    want = json.loads(line)
    d = want["dir"]
    n += 1
    p = subprocess.run([bin, "load", d, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        bad += 1
        print(f"differ  {d}: sessiondag load exit {p.returncode}: {p.stderr.strip()[:200]}")
        continue
    got = json.loads(p.stdout)
    w, g = [want["head_id"], want["chain"]], [got.get("head_id"), got["chain"]]
    if json.dumps(w) != json.dumps(g):
        bad += 1
        at = next((i for i, (a, b) in enumerate(zip(w[1], g[1])) if json.dumps(a) != json.dumps(b)), None)
        where = "head_id" if w[0] != g[0] else (f"chain row {at}" if at is not None else "chain length")
        s, rest = os.path.basename(d)[1:].split("-n", 1)
        nodes, flags = rest.split("-", 1)
        print(f"differ  {d}: {where} (write it again: sessiondag gen --seed {s} --nodes {nodes} --flags {flags} --out DIR)")
folders = os.environ["FOLDERS"]
print(f"openprogram-loads: {n} folders, {n - bad} agree, {bad} differ (the folders: {folders})")
sys.exit(1 if bad else (3 if n == 0 else 0))
'
