#!/usr/bin/env bash
# Session 40, call 5: the wavefront PeerWave kernel on the sweep kernel's release/acquire counts
# (codelets/cuda/peer_flags.cuh) instead of volatile spins, __threadfence and atomicExch: the GPU wavefront
# tests, smith-waterman --verify on the GPU, old (c3cef2e) against new interleaved, then the sanitizers.
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
STARPU_NCPU=2 timeout 150 $R gpu_wavefront_test > "$out/test.log" 2>&1; echo "== gpu_wavefront_test exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$out/test.log" | tr '\n' ' ')"
for a in protein dna; do
  echo "smith-waterman $a: $($R smith-waterman --size 20000 --alphabet $a --devices gpu --verify --json 2>&1 | tail -1 | grep -oE '"(verified|score)":[a-z0-9]*' | tr '\n' ' ')"
done
for r in 1 2; do for b in gpu_wavefronts_old gpu_wavefronts; do
  timeout 60 $R $b --size 65536 --alphabet protein --widths 32,64 --lane-rows 16 --rounds 2 --json "$out/$b-$r.json" > "$out/one.txt" 2>&1
  echo "== $b r$r exit $?"; tail -3 "$out/one.txt"
done; done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  STARPU_NCUDA=1 timeout 70 $R $san --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/gpu_wavefront_test" \
    --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*' > "$out/$tool.log" 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$tool.log" | tr '\n' ' ')"
done
rm -f "$out/one.txt"
