#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12, after the timeline (device_two_gpu_timeline.sh): band copies on
# several threads (automatic) against one thread a band (TRAPEZE_COPY_THREADS=1),
# 1 GPU and 2 GPUs interleaved, 2 MPI ranks with the automatic count (one
# variant per policy in MPI_SCHEDS, default "eager trapeze-owner": border
# tiles first across ranks); then one traced 1-GPU jacobi2d run (its copy
# phases, for scripts/timeline.py). First, the grid copies alone and beside
# a started Runtime (benchmarks/grid_copy_rates: what StarPU's polling
# workers cost them). Env: ROUNDS (2), J2, J3 as device_two_gpus.sh. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
grid_copy_rates=$("$here/run.sh" grid_copy_rates 4 1,8 2>&1 | tail -6; "$here/run.sh" grid_copy_rates 4 1,8 starpu 2>&1 | tail -7)
J2=${J2:-49152x49152:1024} J3=${J3:-1024x1024x1024:512} ROUNDS=${ROUNDS:-2} COPIES="auto 1" MPI=1 MPI_SCHEDS=${MPI_SCHEDS:-"eager trapeze-owner"} POLICY_ROUNDS=0 \
  "$here/device_two_gpus.sh" > "$out/two_gpus.txt" 2>&1
export STARPU_FXT_EVENTS=${STARPU_FXT_EVENTS:-"USER|TASK|DATA|WORKER|DSM|MPI"}
STARPU_NCUDA=1 timeout 120 "$here/run.sh" jacobi2d --devices gpu --size 49152 --steps 1024 --checksum --json \
  --trace /tmp/trace-j2-1gpu > "$out/traced_j2_1gpu.json" 2>>"$out/err.log"
tar -C /tmp -cJf "$out/traces_copies.tar.xz" trace-j2-1gpu
echo "$grid_copy_rates"
grep -v "^round\|perfmodels" "$out/two_gpus.txt"
