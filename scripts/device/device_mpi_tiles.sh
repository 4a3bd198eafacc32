#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12: does a rank's border tile hide its strips' trip through the host?
# One GPU against G ranks (one a GPU) at the default tiles and at the tiles
# TILES names (thinner tiles along the split dimension: the tile next to the
# neighbour rank is a smaller share of the rank's work, so more of it runs
# while the strips travel). Stepping timed after a warm-up, generated grid,
# auto heights, interleaved rounds, medians; checksums must agree.
# Env: APP (jacobi3d), SIZE (2016x2016x2016), STEPS (128), WARM (32),
# TILES ("2016x2016x252 2016x2016x126"), G (2), ROUNDS (2). Table last; rows in $OUT/mpi_tiles.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/mpi_ranked.sh"
start_rows mpi_tiles
app=${APP:-jacobi3d} size=${SIZE:-2016x2016x2016} steps=${STEPS:-128} warm=${WARM:-32} g=${G:-2}
args="--devices gpu --size $size --steps $steps --warmup-steps $warm --no-grid --json"
STARPU_NCUDA=1 timeout 300 "$here/run.sh" $app --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"  # profile heights
visible=$(seq -s, 0 $(( g - 1 )))
for round in $(seq 1 "${ROUNDS:-2}"); do
  record_run 1gpu env STARPU_NCUDA=1 "$here/run.sh" $app $args
  record_run "${g}rank-default" env CUDA_VISIBLE_DEVICES=$visible $mpi -np $g bash -c 'ranked "$@"' ranked $app $args
  for tile in ${TILES:-2016x2016x252 2016x2016x126}; do
    record_run "${g}rank-$tile" env CUDA_VISIBLE_DEVICES=$visible $mpi -np $g bash -c 'ranked "$@"' ranked $app $args --tile $tile
  done
done
mpi_stepping_table "$rows"
