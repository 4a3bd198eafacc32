#!/usr/bin/env bash
# Session 37, call 4: how deep the capped skewed run prefetches. A
# diagnostic build (himeno-w: d476b9b with the task window's 3 taken from
# TRAPEZE_SKEWED_WINDOW, not committed) under 448 MiB with 3, 4, 6 and 10
# skewed tasks in StarPU at once (each prefetches its new slab at
# submission), and in core with 3 and 6; interleaved, 3 rounds. Then FxT
# traces of the committed build in core at 4:32 and 4:128 (where 4 passes'
# 13% goes).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_STALL_SECONDS=8
for w in 3 4 6 10; do
  printf '#!/usr/bin/env bash\nTRAPEZE_SKEWED_WINDOW=%s exec "$(dirname "$0")/himeno-w" "$@"\n' "$w" > bin/himeno-w$w
  chmod +x bin/himeno-w$w
done
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: w3 in core|n|0|himeno-w3 $H --skew auto
h: w6 in core|n|0|himeno-w6 $H --skew auto
h: w3 capped|n|448|himeno-w3 $H --skew auto
h: w4 capped|n|448|himeno-w4 $H --skew auto
h: w6 capped|n|448|himeno-w6 $H --skew auto
h: w10 capped|n|448|himeno-w10 $H --skew auto" ROUNDS=3 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -8
timeout 40 ./run.sh himeno --devices gpu $H --skew 4:32 --json --trace "$OUT/trace-4-32" 2>&1 | tail -1 | cut -c1-80
timeout 40 ./run.sh himeno --devices gpu $H --skew 4:128 --json --trace "$OUT/trace-4-128" 2>&1 | tail -1 | cut -c1-80
echo "total $(( $(date +%s) - start )) s"
