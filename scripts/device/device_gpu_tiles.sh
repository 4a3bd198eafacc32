#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Why many tiles on one GPU are slow (issue 9): jacobi2d 8192², h = k = 8,
# 64 steps, with 2, 4, 16 and 64 tiles on the GPU, under lws, eager and dmda,
# with StarPU's bus statistics (does data leave the GPU each stage?), and one
# FxT trace of the 64-tile run. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"; cd "$out"
field() { python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print(d['$1'])" 2>/dev/null || echo nan; }
table="tiles     sched   seconds  per-stage-ms"$'\n'
for tile in 8192x4096 4096x4096 2048x2048 1024x1024; do
  for sched in lws eager dmda; do
    s=$(STARPU_SCHED=$sched "$run" jacobi2d --devices gpu --size 8192 --tile $tile --height 8 --kernel-height 8 --steps 64 --json | field seconds)
    table+="$(printf '%-9s %-6s %8s %8s' $tile $sched $s "$(python3 -c "print('%.2f' % ($s * 1000 / 8))" 2>/dev/null)")"$'\n'
  done
done
echo "== bus statistics, 64 tiles"
STARPU_BUS_STATS=1 STARPU_SILENT=0 "$run" jacobi2d --devices gpu --size 8192 --tile 1024x1024 --height 8 --kernel-height 8 --steps 64 --json 2>&1 | grep -E "NUMA|CUDA|Total|total" | head -12
echo "== worker statistics, 64 tiles"
STARPU_WORKER_STATS=1 STARPU_SILENT=0 "$run" jacobi2d --devices gpu --size 8192 --tile 1024x1024 --height 8 --kernel-height 8 --steps 64 --json 2>&1 | grep -iE "cuda|executed|time" | head -12
"$run" jacobi2d --devices gpu --size 8192 --tile 1024x1024 --height 8 --kernel-height 8 --steps 64 --trace "$out/gpu64" > /dev/null 2>&1
ls -la "$out/gpu64" | head
echo "== table"; printf '%s' "$table"
