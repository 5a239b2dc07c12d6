#!/usr/bin/env bash
# A shell bag of tasks: 1,000 short "simulations" with different parameters, through one DVM on this
# machine, then one aggregation task that reads their results. Run from anywhere:
#   examples/tasks/bag.sh [TASKS]
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
N=${1:-1000}
WORK=$(mktemp -d)
trap '"$ROOT/banyan" dvm stop --dvm "$WORK/dvm.uri" >/dev/null 2>&1 || true' EXIT
"$ROOT/banyan" dvm start --uri-file "$WORK/dvm.uri"
for i in $(seq 0 $((N - 1))); do
    # each task writes its parameter squared to result.txt in its sandbox; output staging gathers them
    printf '{"uid": "sim.%04d", "executable": "sh", "arguments": ["-c", "echo $((%d * %d)) > result.txt"], "output_staging": [{"source": "result.txt", "target": "%s/results/sim.%04d"}]}\n' \
        "$i" "$i" "$i" "$WORK" "$i"
done > "$WORK/sims.jsonl"
mkdir -p "$WORK/results"
"$ROOT/banyan" submit --dvm "$WORK/dvm.uri" --session "$WORK/session" --tasks "$WORK/sims.jsonl"
"$ROOT/banyan" submit --dvm "$WORK/dvm.uri" --session "$WORK/aggregate" --quiet -- \
    sh -c "cat $WORK/results/* | awk '{s += \$1} END {print \"sum of squares:\", s}' > $WORK/sum.txt"
cat "$WORK/sum.txt"
