#!/usr/bin/env bash
# Session 29, call 2: the plane trapezoid's walk split (this tree) against
# 181b9cf (bin/himeno-prev) on Himeno L in core and capped; capped plans;
# correctness (GPU equality subset, memcheck on the small cases, capped --verify).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/a APP=himeno SIZE=L STEPS=128 CAP=448 ROUNDS=3 BUILDS="himeno himeno-prev" PROFILE_SIZE=S RUN_TIMEOUT=60 ./device_ooc_builds.sh > "$OUT/a.txt" 2>&1
OUT=$OUT/c ROUNDS=2 VARIANTS="auto|;H8|--height 8;128x128x32 H8|--tile 128x128x32 --height 8;128x128x32 H12|--tile 128x128x32 --height 12;slab12 H6|--tile 256x256x12 --height 6;256x128x16 H6|--tile 256x128x16 --height 6" RUN_TIMEOUT=60 ./device_ooc_variants.sh > "$OUT/c.txt" 2>&1
STARPU_LIMIT_CUDA_MEM=56 timeout 60 ./run.sh himeno --devices gpu --size M --steps 40 --verify > "$OUT/verify.txt" 2>&1; echo "rc=$?" >> "$OUT/verify.txt"
STARPU_NCPU=2 timeout 200 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.Himeno:GpuEquality.BoxStencilsOfRadiusTwo:GpuEquality.StreamedTiles:GpuEquality.Jacobi3D:GpuEquality.CipFloat' > "$OUT/eq.txt" 2>&1; echo "rc=$?" >> "$OUT/eq.txt"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCPU=2 STARPU_NCUDA=1 timeout 150 ./run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter='GpuSanitizer.*' > "$OUT/memcheck.txt" 2>&1; echo "rc=$?" >> "$OUT/memcheck.txt"
echo "== verify"; tail -3 "$OUT/verify.txt"
echo "== eq"; grep -E '^\[  (PASSED|FAILED) |OK \]|FAILED|rc=' "$OUT/eq.txt" | tail -12
echo "== memcheck"; grep -E 'ERROR SUMMARY|PASSED|FAILED|rc=' "$OUT/memcheck.txt" | tail -5
for f in a c; do echo "== $f"; tail -10 "$OUT/$f.txt"; done
