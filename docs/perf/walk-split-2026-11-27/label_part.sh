#!/usr/bin/env bash
# After the walk split: ranks on GPUs (mpi_gpu_test.py) and racecheck on the
# sanitizer subset of the equality suite (every app's kernels on small tiles).
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
. "$here/mpi_ranked.sh"
LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  timeout 200 python3 "$here/tests/mpi_gpu_test.py" "$here/bin" > "$out/mpi_gpu.txt" 2>&1; echo "mpi_gpu_test rc=$?"
tail -4 "$out/mpi_gpu.txt"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 STARPU_NCPU=2 timeout 200 ./run.sh "$sanitizer" --tool racecheck --error-exitcode 9 --print-limit 20 \
  "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*' > "$out/racecheck.txt" 2>&1; echo "racecheck rc=$?"
grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$out/racecheck.txt" | head -4
