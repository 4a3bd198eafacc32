#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12, 2 ranks of jacobi3d (target 1.85x one GPU; 1.832x at 4 tiles a
# rank on two H200s, 2026-11-26): whether the machine's Open MPI carries GPU
# memory (StarPU-MPI asks MPIX_Query_cuda_support() at start-up and then
# sends strips straight from the GPUs; STARPU_MPI_GPUDIRECT=0 forbids it),
# and 8 tiles a rank again now that StarPU's clean-buffer rule is off (the
# 8-tile rows of 2026-11-26 were measured with it on). One GPU against 2
# ranks: default, GPUDirect off, 8 tiles a rank; stepping after a warm-up,
# generated grid, auto heights, interleaved rounds, medians, checksums
# compared. Env: SIZE (2016x2016x2016; 1792x1792x1792 on H100s), STEPS
# (128), WARM (32), ROUNDS (2). Table last; rows in $OUT/mpi_gpudirect.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/mpi_ranked.sh"
start_rows mpi_gpudirect
nvidia-smi -L
{ ompi_info --parsable --all 2>/dev/null | grep -iE 'cuda|ucx' | head -20; ompi_info 2>/dev/null | head -5; } > "$out/ompi_info.txt"
echo "Open MPI and CUDA: $(grep -ciE 'cuda' "$out/ompi_info.txt") lines naming CUDA (ompi_info.txt)"
size=${SIZE:-2016x2016x2016} steps=${STEPS:-128} warm=${WARM:-32}
planes=${size##*x}
args="--devices gpu --size $size --steps $steps --warmup-steps $warm --no-grid --json"
STARPU_NCUDA=1 timeout 300 "$here/run.sh" jacobi3d --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"  # profile heights
for round in $(seq 1 "${ROUNDS:-2}"); do
  record_run 1gpu env STARPU_NCUDA=1 "$here/run.sh" jacobi3d $args
  record_run 2rank-default env CUDA_VISIBLE_DEVICES=0,1 STARPU_MPI_GPUDIRECT=1 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d $args
  record_run 2rank-gpudirect-off env CUDA_VISIBLE_DEVICES=0,1 STARPU_MPI_GPUDIRECT=0 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d $args
  record_run 2rank-8-tiles env CUDA_VISIBLE_DEVICES=0,1 STARPU_MPI_GPUDIRECT=1 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d $args \
    --tile "${size%x*}x$(( planes / 16 ))"
done
grep -iE 'gpudirect|cuda_support' "$out/err.log" | sort | uniq -c | head -5
mpi_stepping_table "$rows"
