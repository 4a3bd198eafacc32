#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Task traces on the GPU machine (issue 13): CPU timelines of a trapezoid run
# and an h = 1 run on 8 CPU workers, a GPU run's timeline, and what tracing
# costs (scripts/trace_overhead.py, interleaved; with nofxt-lib/ in the bundle,
# also what a StarPU built with FxT costs untraced). Traces go to $OUT; draw
# them here with scripts/timeline.py. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/run.sh
out=${OUT:-/tmp/trace-out}
mkdir -p "$out"
for h in 8 1; do
  STARPU_NCPU=8 "$run" jacobi2d --devices cpu --size 4096 --tile 512x512 --height "$h" --steps 32 --verify \
    --trace "$out/cpu-h$h" 2>&1 | grep -v "FxT is enabled"
done
"$run" jacobi2d --size 8192 --steps 64 --verify --trace "$out/gpu" 2>&1 | grep -v "FxT is enabled"
export LD_LIBRARY_PATH="$here/lib:/usr/local/cuda/lib64"
export STARPU_HOME=$here/starpu-home TRAPEZE_HOME=$here/trapeze-home STARPU_SILENT=1
nofxt=()
[ -d "$here/nofxt-lib" ] && nofxt=(--nofxt-lib "$here/nofxt-lib")
python3 "$here/trace_overhead.py" "$here/bin/jacobi2d" --rounds 5 "${nofxt[@]}" \
  --case "--devices cpu --size 2048 --tile 128x128 --height 1 --steps 32" \
  --case "--devices cpu --size 4096 --tile 512x512 --height 8 --steps 32" \
  --case "--devices gpu --size 8192 --steps 256" | tee "$out/trace-overhead.txt"
