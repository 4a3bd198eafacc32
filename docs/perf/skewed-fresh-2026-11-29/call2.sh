#!/usr/bin/env bash
# Session 38, call 2: the session's tree (fresh end-parity buffers, the
# leaning planes in one place, the GPU suites from one CMake function).
# 1. The GPU label and compute-sanitizer (run_gpu_tests.sh).
# 2. Himeno L 128 steps --skew auto, in core and under 448 MiB, 4 rounds
#    interleaved: this tree (himeno) against call 1's build with its switch
#    off (himeno-prev: session 37's behaviour) and a diagnostic build whose
#    scatter and gather tasks copy nothing (himeno-nocopy: wrong results,
#    timing only: how much of the capped run's loss is the CPU scatter).
# 3. 3-pass probes under 448 MiB (2:43, 3:43) with the stall guard.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
printf '#!/usr/bin/env bash\nTRAPEZE_DIAG_NO_COPY=1 exec "$(dirname "$0")/himeno-nocopy-bin" "$@"\n' > bin/himeno-nocopy
chmod +x bin/himeno-nocopy
export TRAPEZE_STALL_SECONDS=8
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16;c|himeno-nocopy --size S --steps 16" \
CASES="h: new in core|n|0|himeno $H --skew auto
h: prev in core|p|0|himeno-prev $H --skew auto
h: nocopy in core|c|0|himeno-nocopy $H --skew auto
h: new capped|n|448|himeno $H --skew auto
h: prev capped|p|448|himeno-prev $H --skew auto
h: nocopy capped|c|448|himeno-nocopy $H --skew auto" ROUNDS=4 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -8
export TRAPEZE_HOME=$PWD/trapeze-home-n
for skew in 2:43 3:43; do
  out=$(STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno $H --skew $skew --devices gpu --json 2>&1)
  echo "skew $skew capped 448 rc $? $(grep -o '"seconds":[0-9.]*\|"pcie_bytes":[0-9.e+]*' <<< "$out" | paste -sd' ') $(grep -v '^{' <<< "$out" | tail -1 | cut -c1-120)"
done 2>&1 | tee "$OUT/three-passes.txt"
out=$(STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --size L --steps 40 --skew auto --devices gpu --verify --json 2>&1)
echo "verify capped rc $? $(grep -o '"verified":[a-z]*' <<< "$out")" | tee -a "$OUT/three-passes.txt"
echo "tests start at $(( $(date +%s) - start )) s"
STARPU_NCPU=2 ./run_gpu_tests.sh > "$OUT/gpu_tests.log" 2>&1; echo "gpu tests rc=$?"
grep -E "PASSED|FAILED|ERROR SUMMARY|Hazard|tests,|exit" "$OUT/gpu_tests.log" | head -16
echo "total $(( $(date +%s) - start )) s"
