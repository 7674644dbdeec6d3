#!/usr/bin/env bash
# Prints the JSON lines of every shard of a sessiondag Indexed Job, shard 0
# first, ready for `sessiondag summary`:
#   deploy/collect.sh sessiondag-exhaust [NAMESPACE] > exhaust.jsonl
# Per completion index it reads only the newest pod: a shard that crashed and
# was run again leaves the partial output of the crashed pod behind. It keeps
# only the lines that are JSON objects, since `kubectl logs` interleaves
# stderr. A shard whose newest pod has not exited 0 (passed) or 1 (found
# failures) has missing or partial output: it is named on stderr and the
# script exits 1 after printing the rest.
set -euo pipefail

job=${1:?usage: collect.sh JOB [NAMESPACE]}
ns=()
if [ -n "${2:-}" ]; then
  ns=(--namespace "$2")
fi

n=$(kubectl "${ns[@]}" get job "$job" -o jsonpath='{.spec.completions}')
incomplete=0
for ((i = 0; i < n; i++)); do
  pod=$(kubectl "${ns[@]}" get pods \
    -l "job-name=$job,batch.kubernetes.io/job-completion-index=$i" \
    --sort-by=.metadata.creationTimestamp -o name | tail -n 1)
  if [ -z "$pod" ]; then
    echo "collect: shard $i/$n of $job has no pod" >&2
    incomplete=1
    continue
  fi
  code=$(kubectl "${ns[@]}" get "$pod" \
    -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}')
  case $code in
    0 | 1) ;;
    "")
      echo "collect: shard $i/$n: $pod has not finished" >&2
      incomplete=1
      ;;
    *)
      echo "collect: shard $i/$n: $pod exited $code, its output is partial" >&2
      incomplete=1
      ;;
  esac
  kubectl "${ns[@]}" logs "$pod" | grep '^{' || true
done
exit "$incomplete"
