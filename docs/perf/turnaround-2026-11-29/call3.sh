#!/usr/bin/env bash
# Call 3 (nvidia-h200), the committed tree: the equality suite and memcheck
# (GPU stage tasks without the chunk scratch), h = 1 against the plain loop
# for every stencil app (gpu_stencils --h1-only), and pathfinder on 2^25
# columns (two slabs now: its wall no longer fits one StarPU vector handle).
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $OUT/device.txt
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  echo "== gpu_equality_test"
  STARPU_NCPU=2 timeout 280 $b/run.sh gpu_equality_test --gtest_filter=-GpuSanitizer.* 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |FAILED|Failure"; echo "exit ${PIPESTATUS[0]}"
  echo "== memcheck"
  STARPU_NCPU=2 STARPU_NCUDA=1 timeout 120 $b/run.sh $sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
    $b/bin/gpu_equality_test --gtest_filter='GpuSanitizer.*:GpuEquality.SkewedSlabs' 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED|OK \]"; echo "exit ${PIPESTATUS[0]}"
} > $OUT/checks.txt 2>&1
timeout 200 $b/run.sh gpu_stencils --h1-only --rounds 1 --apps jacobi2d,jacobi3d,hotspot,life,pathfinder \
  --json-out $OUT/h1.json 2>/dev/null | tail -9 | tee $OUT/h1.txt
echo "== pathfinder 33554432 columns, 32 steps a submission" | tee -a $OUT/h1.txt
timeout 120 $b/run.sh gpu_stencils --h1-only --rounds 1 --apps pathfinder --pathfinder-columns 33554432 --pathfinder-steps 32 \
  --json-out $OUT/pathfinder-2-25.json 2>&1 | grep -v "round\|Warning" | tail -4 | tee -a $OUT/h1.txt
cat $OUT/checks.txt
echo "== pathfinder app, 2^25 columns, 128 steps (a 2^32-element wall), verified" | tee -a $OUT/checks.txt
timeout 150 $b/run.sh pathfinder --size 33554432 --steps 128 --devices gpu --verify --json 2>&1 | tail -2 \
  | python3 -c "import json,sys; l=sys.stdin.read().strip().splitlines()[-1]; d=json.loads(l); print({k: d.get(k) for k in ['tile','tiles','verified','height','kernel_height','seconds','gcups']})" 2>&1 | tee -a $OUT/checks.txt
