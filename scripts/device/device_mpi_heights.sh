#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12, 2 ranks of jacobi3d (target 1.85x one GPU; 1.833x at auto
# heights, H = k = 3, 4 tiles a rank on two H200s, 2026-11-26): the machine's
# Open MPI is not CUDA-aware, so each stage's strips cross host memory
# between the ranks; taller stages (--height 6, 9: half and a third as many
# exchanges, the kernel height left at auto) and 2 tiles a rank against the
# default. One GPU (auto) against 2 ranks; stepping after a warm-up, generated
# grid, interleaved rounds, medians, checksums compared. Env: SIZE
# (2016x2016x2016), STEPS (126), WARM (36), ROUNDS (3). Table last; rows in
# $OUT/mpi_heights.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/mpi_ranked.sh"
start_rows mpi_heights
jacobi3d_stepping_setup
two=(env CUDA_VISIBLE_DEVICES=0,1 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d $args)
for round in $(seq 1 "${ROUNDS:-3}"); do
  record_run 1gpu env STARPU_NCUDA=1 "$here/run.sh" jacobi3d $args
  record_run 2rank-auto "${two[@]}"
  record_run 2rank-H6 "${two[@]}" --height 6
  record_run 2rank-H9 "${two[@]}" --height 9
  record_run 2rank-2-tiles "${two[@]}" --tile "${size%x*}x$(( planes / 4 ))"
done
mpi_stepping_table "$rows"
