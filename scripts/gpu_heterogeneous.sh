#!/usr/bin/env bash
# On a GPU machine, from a bundle: (1) do the CPU workers beside the GPU help
# or hurt? jacobi2d with stages on the GPU alone (the default) against CPU and
# GPU workers together under dmda, interleaved rounds, medians; (2) the PCIe
# traffic of a one-GPU run from StarPU's bus statistics, against the domain.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle=${BUNDLE:-$here/gpu-bundle}
size=${SIZE:-8192}
steps=${STEPS:-512}
rounds=${ROUNDS:-3}
seconds() { "$bundle/run.sh" jacobi2d --size "$size" --steps "$steps" --json "$@" 2>/dev/null |
  python3 -c 'import json,sys; d=json.loads(sys.stdin.read().strip().splitlines()[-1]); print(d["seconds"], d["tile"], d["height"], d["kernel_height"], d["devices"])'; }
declare -A runs
variants=("gpu:--devices gpu" "all-cpu-tiles:--devices all" "all-gpu-tiles:--devices all --tile ${size}x$((size / 2))")
for r in $(seq "$rounds"); do
  for v in "${variants[@]}"; do
    name=${v%%:*}; args=${v#*:}
    line=$(STARPU_SCHED=dmda seconds $args)
    echo "round $r $name: $line"
    runs[$name]+="$(echo "$line" | cut -d' ' -f1) "
  done
done
python3 - "$size" "$steps" <<PY
import sys, statistics
size, steps = int(sys.argv[1]), int(sys.argv[2])
runs = {$(for v in "${variants[@]}"; do n=${v%%:*}; echo "\"$n\": [${runs[$n]// /,}],"; done)}
gpu = statistics.median(runs["gpu"])
print(f"jacobi2d {size}^2 {steps} steps, medians of {len(runs['gpu'])} interleaved rounds (dmda):")
for name, values in runs.items():
    m = statistics.median(values)
    print(f"  {name:14} {m:8.3f} s  {size*size*steps/m/1e9:8.1f} GCUPS  {gpu/m:6.3f}x of GPU alone  spread {min(values):.3f}-{max(values):.3f}")
PY
echo "== PCIe traffic of one GPU run (StarPU bus statistics), jacobi2d 16384^2 float = 1 GiB"
STARPU_BUS_STATS=1 "$bundle/run.sh" jacobi2d --size 16384 --steps 256 --devices gpu 2>&1 | grep -E -i "GCUPS|bus|total|->|MB|GB" | head -20
