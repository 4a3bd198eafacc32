#!/usr/bin/env bash
# Session 37, call 5: the ring on one GPU allocated in SkewedRun's
# constructor, with the host slabs' pinning, instead of inside advance(): in
# call 4's trace the process's first GPU allocation took ~20 ms and the
# first GPU task waited for it while the first slabs were scattered. This
# build against call 3's (himeno-ord), Himeno L 128 steps in core and under
# 448 MiB, interleaved, 4 rounds; --verify; an FxT trace of each.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=8
for cap in 448 0; do
  limit=(); [ "$cap" -gt 0 ] && limit=(STARPU_LIMIT_CUDA_MEM=$cap)
  out=$(env "${limit[@]}" timeout 30 ./run.sh himeno --size L --steps 40 --skew auto --devices gpu --verify --json 2>&1)
  echo "verify cap $cap rc $? $(grep -o '"verified":[a-z]*' <<< "$out")"
done 2>&1 | tee "$OUT/log.txt"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;o|himeno-ord --size S --steps 16" \
CASES="h: skew auto in core|n|0|himeno $H --skew auto
h: ord skew auto in core|o|0|himeno-ord $H --skew auto
h: skew auto capped|n|448|himeno $H --skew auto
h: ord skew auto capped|o|448|himeno-ord $H --skew auto" ROUNDS=4 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -6
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-60
timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-in-core" 2>&1 | tail -1 | cut -c1-60
echo "total $(( $(date +%s) - start )) s"
