#!/usr/bin/env bash
# Session 30, call 7 (bundle of 103bb63): jacobi2d capped to 256 MiB with
# long-row tiles that pass the fit check, against the automatic capped plan
# and in core (8 bands), 2048 steps; then compute-sanitizer racecheck on the
# sweep and wavefront subsets that call 1's 300 s cut short.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
V="auto|;8192x1024 H64|--tile 8192x1024 --height 64;8192x512 H64|--tile 8192x512 --height 64;16384x512 H32|--tile 16384x512 --height 32;16384x256 H64|--tile 16384x256 --height 64"
OUT=$OUT/j APP=jacobi2d SIZE=16384 STEPS=2048 CAP=256 ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/j.txt" 2>&1
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  STARPU_NCUDA=1 STARPU_NCPU=2 timeout 200 ./run.sh "$sanitizer" --tool racecheck --error-exitcode 9 --print-limit 20 \
    "$PWD/bin/gpu_sweep_test" --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*'; echo "sweep racecheck exit $?"
  STARPU_NCUDA=1 STARPU_NCPU=2 timeout 150 ./run.sh "$sanitizer" --tool racecheck --error-exitcode 9 --print-limit 20 \
    "$PWD/bin/gpu_wavefront_test" --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*'; echo "wavefront racecheck exit $?"
} > "$OUT/racecheck.txt" 2>&1
echo "== j"; tail -8 "$OUT/j.txt"
grep -E "RACECHECK SUMMARY|exit|PASSED|FAILED" "$OUT/racecheck.txt"
cat "$OUT"/*/no-report-* 2>/dev/null | head -10
