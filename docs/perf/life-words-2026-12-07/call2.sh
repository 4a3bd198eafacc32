#!/usr/bin/env bash
# Call 2, session 47 (any one GPU): what session 46's call 4 and call 5
# (docs/perf/h100-2026-12-07/) prepared and never ran, in one command:
#  1. issue 11: the blocking factor the model chooses under a quarter cap
#     against fixed heights (jacobi2d 16384^2, 512 and 2048 steps);
#  2. the MPI-on-GPUs test on this tree;
#  3. issue 14: Smith-Waterman's 2^21 and 2^20 pairs on ONE GPU, as one tile
#     and in the multi-GPU plans' narrow tiles (is the weak 2-GPU scaling
#     each narrow tile's pipeline fill and drain, with no second GPU?).
# Run from the repository root with the bundle (jacobi2d, hotspot, jacobi3d,
# life, cip, smith-waterman; scripts/device/*.sh) carried:
#   bash docs/perf/life-words-2026-12-07/call2.sh  (BUNDLE=gpu-bundle2: a second bundle)
set -uo pipefail
b=${BUNDLE:-gpu-bundle}
here=$PWD/$b
r=$OUT/r; mkdir -p $r/k $r/sw
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
J="jacobi2d --size 16384 --steps 512"; L="jacobi2d --size 16384 --steps 2048"
CASES="k 512: auto|h|256|$J
k 512: H 64|h|256|$J --height 64
k 512: H 96|h|256|$J --height 96
k 512: H 192|h|256|$J --height 192
k 512: H 256|h|256|$J --height 256
k 2048: auto|h|256|$L
k 2048: H 256|h|256|$L --height 256
k 2048: H 384|h|256|$L --height 384" \
PROFILES="h|jacobi2d --size 4096 --steps 16" ROUNDS=3 RUN_TIMEOUT=40 OUT=$r/k timeout 170 $b/device_plans.sh 2>&1 | tee $r/k/plans.txt | tail -10
echo "k sweep at $SECONDS s"
( cd $b && . ./mpi_ranked.sh &&
  LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  timeout 90 python3 tests/mpi_gpu_test.py "$here/bin" > $r/mpi_gpu.log 2>&1; echo "mpi gpu test exit $? at $SECONDS s" )
tail -2 $r/mpi_gpu.log
P="smith-waterman --alphabet protein --width 32"
CASES="sw 2^21: one tile|s|0|$P --size 2097152
sw 2^21: 1048576x131072|s|0|$P --size 2097152 --tile 1048576x131072
sw 2^21: 524288x131072|s|0|$P --size 2097152 --tile 524288x131072
sw 2^21: 2097152x131072|s|0|$P --size 2097152 --tile 2097152x131072
sw 2^21: 1048576x524288|s|0|$P --size 2097152 --tile 1048576x524288
sw 2^20: one tile|s|0|$P --size 1048576
sw 2^20: 524288x131072|s|0|$P --size 1048576 --tile 524288x131072" \
ROUNDS=2 RUN_TIMEOUT=40 OUT=$r/sw timeout $(( 585 - SECONDS )) $b/device_plans.sh 2>&1 | tee $r/sw/plans.txt | tail -10
tar -C $OUT -czf $OUT/call2.tgz r && rm -rf $r
echo "seconds $SECONDS"
