#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12, 2 ranks of jacobi3d (target 1.85x one GPU; 1.833-1.837x with the
# default policy, eager for one GPU a rank, on two H200s, 2026-11-26):
# trapeze-owner runs a rank's border tile first in each stage, so its strips
# cross host memory to the other rank while the GPU computes its interior
# tiles; eager runs the tiles in arrival order. One GPU (default) against 2
# ranks under eager and trapeze-owner, 4 and 8 tiles a rank; stepping after
# a warm-up, generated grid, auto heights, interleaved rounds, medians,
# checksums compared. Env: SIZE (2016x2016x2016), STEPS (126), WARM (36),
# ROUNDS (3). Table last; rows in $OUT/mpi_policy.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/mpi_ranked.sh"
start_rows mpi_policy
jacobi3d_stepping_setup
eager=(env STARPU_SCHED=eager CUDA_VISIBLE_DEVICES=0,1 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d $args)
owner=(env STARPU_SCHED=trapeze-owner CUDA_VISIBLE_DEVICES=0,1 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d $args)
for round in $(seq 1 "${ROUNDS:-3}"); do
  record_run 1gpu env STARPU_NCUDA=1 "$here/run.sh" jacobi3d $args
  record_run 2rank-eager "${eager[@]}"
  record_run 2rank-owner "${owner[@]}"
  record_run 2rank-owner-8-tiles "${owner[@]}" --tile "${size%x*}x$(( planes / 16 ))"
done
mpi_stepping_table "$rows"
