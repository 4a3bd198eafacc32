#!/usr/bin/env bash
# Session 31, call 4 (bundle of 6c60a28): the GPU profiles of jacobi2d and
# CIP on this machine and StarPU's bus calibration, for predicting call 3's
# and call 1's plans offline; plus the automatic capped plans' predictions.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
for app in jacobi2d cip; do
  TRAPEZE_HOME=$PWD/home timeout 240 ./run.sh $app --devices gpu --size 1024 --steps 16 > /dev/null 2>&1
done
STARPU_LIMIT_CUDA_MEM=1280 TRAPEZE_HOME=$PWD/home ./run.sh cip --devices gpu --size 16384 --steps 256 --json 2>/dev/null | grep '^{' | tail -1 > "$OUT/cip-cap.json"
STARPU_LIMIT_CUDA_MEM=256 TRAPEZE_HOME=$PWD/home ./run.sh jacobi2d --devices gpu --size 16384 --steps 512 --json 2>/dev/null | grep '^{' | tail -1 > "$OUT/j-cap.json"
cp -r home "$OUT/home"
find starpu-home -name "*bus*" -o -name "*bandwidth*" -o -name "*latency*" | head -20 > "$OUT/starpu-files.txt"
mkdir -p "$OUT/starpu-bus"; find starpu-home -path "*bus*" -type f -exec cp {} "$OUT/starpu-bus/" \;
ls -R "$OUT" | head -40
