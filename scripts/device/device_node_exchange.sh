#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issues 12 and 14: halo pieces between MPI ranks of one node through GPU
# memory the ranks map by CUDA IPC (TRAPEZE_NODE_EXCHANGE=device, the
# default for one GPU a rank) against through StarPU-MPI (=mpi: GPU, host,
# Open MPI's shared memory, host, GPU; this Open MPI is not CUDA-aware).
# First correctness (odd sizes, --verify against the sequential reference,
# checksums against one GPU, on 2 and G ranks), then stepping times after a
# warm-up: jacobi3d SIZE3 on 1 GPU, 2 and G ranks each way; jacobi3d weak
# (WEAK3, SIZE3 a GPU) on G ranks; jacobi2d SIZE2 on 1 GPU and G ranks.
# Interleaved rounds, medians. `auto` rows must say device. Env: ROUNDS (2),
# COUNTS (rank counts of check and 3d: 2 and the GPUs), MODES and POLICIES
# (of the 3d rows: mpi auto; STARPU_SCHED values, default), SIZE3 (2016x2016x2016),
# WEAK3 (2016x4032x4032), SIZE2 (81920x81920), PARTS (check 3d weak 2d).
# Table last; rows in $OUT/node_exchange.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/mpi_ranked.sh"
start_rows node_exchange
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi -L
parts=" ${PARTS:-check 3d weak 2d} "
counts=${COUNTS:-2 $gpus}
MODES=${MODES:-mpi auto}   # of the 3d part
POLICIES=${POLICIES:-default}   # of the 3d part: STARPU_SCHED values, default: none set
ranks() {  # ranks N MODE APP ARGS...: N ranks on the first N GPUs, one each, pieces through MODE
  local n=$1 mode=$2; shift 2
  env TRAPEZE_NODE_EXCHANGE=$mode CUDA_VISIBLE_DEVICES=$(seq -s, 0 $(( n - 1 ))) $mpi -np "$n" bash -c 'ranked "$@"' ranked "$@"
}
export -f ranks; export mpi
ranks=(bash -c 'ranks "$@"' ranks)  # a command timeout and record_run can run
if [[ $parts == *" check "* ]]; then
  for app_size in "jacobi2d 4099x4093" "jacobi3d 257x251x263"; do
    set -- $app_size
    small="--devices gpu --size $2 --steps 21 --height 3 --verify --checksum --json"
    record_run "check-$1-1gpu" env STARPU_NCUDA=1 timeout 120 "$here/run.sh" $1 $small
    for n in $counts; do
      for mode in mpi auto; do record_run "check-$1-${n}rank-$mode" timeout 120 "${ranks[@]}" $n $mode $1 $small; done
    done
  done
fi
j3="--devices gpu --size ${SIZE3:-2016x2016x2016} --steps 126 --warmup-steps 36 --no-grid --json"
j3weak="--devices gpu --size ${WEAK3:-2016x4032x4032} --steps 126 --warmup-steps 36 --no-grid --json"
j2="--devices gpu --size ${SIZE2:-81920x81920} --steps 320 --warmup-steps 64 --no-grid --json"
# One run that profiles the heights (kept in trapeze-home for the rest).
STARPU_NCUDA=1 timeout 300 "$here/run.sh" jacobi3d --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"
for round in $(seq 1 "${ROUNDS:-2}"); do
  if [[ $parts == *" 3d "* ]]; then
    record_run 3d-1gpu env STARPU_NCUDA=1 "$here/run.sh" jacobi3d $j3
    for n in $counts; do
      for mode in $MODES; do
        for policy in $POLICIES; do
          sched=; suffix=
          [ "$policy" = default ] || sched="STARPU_SCHED=$policy" suffix="-$policy"
          record_run "3d-${n}rank-$mode$suffix" env $sched "${ranks[@]}" $n $mode jacobi3d $j3
        done
      done
    done
  fi
  if [[ $parts == *" weak "* ]]; then
    [[ $parts == *" 3d "* ]] || record_run 3d-1gpu env STARPU_NCUDA=1 "$here/run.sh" jacobi3d $j3
    for mode in device mpi; do record_run "3d-weak-${gpus}rank-$mode" "${ranks[@]}" $gpus $mode jacobi3d $j3weak; done
  fi
  if [[ $parts == *" 2d "* ]]; then
    record_run 2d-1gpu env STARPU_NCUDA=1 "$here/run.sh" jacobi2d $j2
    for mode in device mpi; do record_run "2d-${gpus}rank-$mode" "${ranks[@]}" $gpus $mode jacobi2d $j2; done
  fi
done
mpi_stepping_table "$rows"
