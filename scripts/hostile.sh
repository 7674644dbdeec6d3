#!/usr/bin/env bash
# hostile.sh: every hostile session tree of checker/robust at full size, and
# at each size of its growth series, read by `load`, `load --json` and
# `audit` (one process per run under /usr/bin/time): outcome, wall and
# processor time, peak memory, output size, and the growth per doubling.
# Then (unless BENCH=0) BenchmarkHostile with the same growth of cpu-ns/op,
# B/op and allocs/op. The trees are built on a RAM disk when there is one.
#
#   scripts/hostile.sh [-only a,b] [-limit 120s] [-benchtime 2s]      (flags of scripts/hostile)
#
# Exit 1 when a run is killed at its limit or anything grows faster than
# 2.2x per doubling.
set -euo pipefail
cd "$(dirname "$0")/.."
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
dir=$(mktemp -d "$base/sessiondag-hostile.XXXXXX")
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sessiondag" ./cmd/sessiondag
rc=0
go run ./scripts/hostile -bin "$dir/sessiondag" -keep "$dir/trees" "$@" || rc=1
if [[ ${BENCH:-1} != 0 ]]; then
	echo
	go run ./scripts/hostile -bench -count "${COUNT:-5}" "$@" || rc=1
fi
exit $rc
