#!/usr/bin/env bash
# Runs from inside the GPU bundle (scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/).
# Wavefronts on the GPU (issue 10): the GPU wavefront tests, compute-sanitizer
# on their small cases (SANITIZE=1), the PeerWave kernel against the
# global-barrier baseline on one long Smith-Waterman pair (gpu_wavefronts,
# kernels alone), then smith-waterman through Trapeze on the GPU and on the
# CPU workers of the same machine. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
size=${SIZE:-65536}
widths=${WIDTHS:-32,64,128,256}
rounds=${ROUNDS:-3}
export STARPU_NCPU=${STARPU_NCPU:-2}
echo "== gpu_wavefront_test"
timeout 300 "$here/run.sh" gpu_wavefront_test 2>&1 | tail -15
if [ "${SANITIZE:-0}" = 1 ]; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool"
    timeout 300 "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
      "$here/bin/gpu_wavefront_test" --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*' 2>&1 | tail -4
  done
fi
unset STARPU_NCPU
for n in $size ${LARGE:-}; do
  for alphabet in ${ALPHABETS:-protein dna}; do
    echo "== gpu_wavefronts $alphabet $n"
    timeout 400 "$here/run.sh" gpu_wavefronts --size "$n" --alphabet "$alphabet" --widths "$widths" --rounds "$rounds" --lane-rows "${LANE_ROWS:-8,16}" \
      --json "$out/gpu_wavefronts_${alphabet}_$n.json" 2>&1 | tail -8 | tee "$out/gpu_wavefronts_${alphabet}_$n.txt"
  done
done
if [ -n "${HUGE:-}" ]; then
  echo "== smith-waterman through Trapeze on the GPU, $HUGE x $HUGE protein"
  timeout 300 "$here/run.sh" smith-waterman --size "$HUGE" --alphabet protein --devices gpu --json 2>/dev/null | tail -1 \
    | tee "$out/smith_waterman_huge.json"
fi
echo "== smith-waterman through Trapeze, $size x $size protein"
for v in ${APP_VARIANTS:-gpu cpu gpu cpu}; do
  case $v in gpu) args=(--devices gpu) ;; gpu*) args=(--devices gpu --width "${v#gpu}") ;; *) args=(--devices cpu --tile 2048) ;; esac
  timeout 300 "$here/run.sh" smith-waterman --size "$size" --alphabet protein "${args[@]}" --json 2>/dev/null | tail -1 \
    | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print(f\"$v tile={r['tile']} score={r['score']} s={r['seconds']:.4f} gcups={r['gcups']:.1f} workers={r.get('cpu_workers')}/{r.get('cuda_workers')}\")"
done | tee "$out/smith_waterman_app.txt"
if [ -n "${NCU:-}" ]; then
  # Where the PeerWave kernel's warps wait: one launch at --size $NCU.
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  timeout 300 "$ncu" --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
    --kernel-name regex:wavefront_peerwave --launch-count 1 "$here/run.sh" gpu_wavefronts --size "$NCU" --widths 32 \
    --rounds 1 --json "$out/ncu_run.json" > "$out/ncu.txt" 2>&1
  echo "ncu: exit $?"
  grep -E 'Throughput|Occupancy|Stall|Warp Cycles|Registers|Issued|Eligible|Active Warps|Duration|Bank|No Eligible|Issue Slot' "$out/ncu.txt" | head -40
fi
if [ -n "${PARASAIL:-}" ]; then
  # parasail on every core of this machine, beside Trapeze's CPU codelet (--size $PARASAIL).
  cores=$(nproc)
  echo "== smith_waterman_vs_parasail --size $PARASAIL --threads $cores"
  timeout 400 "$here/run.sh" smith_waterman_vs_parasail --size "$PARASAIL" --rounds 2 --threads "$cores" \
    --json "$out/smith_waterman_vs_parasail.json" 2>&1 | tail -13 | tee "$out/smith_waterman_vs_parasail.txt"
fi
