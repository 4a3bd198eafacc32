#!/usr/bin/env bash
# Session 33, call 3: the committed change (StarPU's calibrated PCIe rate, a
# stage task 0.3 of the GPU) against in core and the best plans by hand of
# calls 1-2; then FxT task traces of jacobi2d streamed without a cap,
# 4096x2048 against 8192x1024 tiles at H 128 (why the wider tile ran 1.13x).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
J="jacobi2d --size 16384 --steps 512"; C="cip --size 16384 --steps 256"; H="himeno --size L --steps 128"
PROFILES="n|jacobi2d --size 1024 --steps 16;n|cip --size 1024 --steps 16;n|himeno --size S --steps 16" \
CASES="j: in core|n|0|$J
j: auto|n|256|$J
j: 8192x1024 H128|n|256|$J --tile 8192x1024 --height 128
j: 4096x2048 H128|n|256|$J --tile 4096x2048 --height 128
c: in core|n|0|$C
c: auto|n|1280|$C
c: 8192x1024 H128|n|1280|$C --tile 8192x1024 --height 128
c: 4096x2048 H64|n|1280|$C --tile 4096x2048 --height 64
h: in core|n|0|$H
h: auto|n|448|$H
h: 256x128x32 H8|n|448|$H --tile 256x128x32 --height 8" ROUNDS=3 RUN_TIMEOUT=30 bash ./device_plans.sh
export TRAPEZE_HOME=$PWD/trapeze-home-n
for t in 4096x2048 8192x1024; do
  timeout 60 ./run.sh $J --tile $t --height 128 --stream on --devices gpu --trace "$OUT/trace-$t" --json > "$OUT/trace-$t.json" 2> "$OUT/trace-$t.err"
  echo "trace $t exit $? $(grep -o '"seconds":[0-9.]*' "$OUT/trace-$t.json")"
done
unset TRAPEZE_HOME
du -sh "$OUT"/trace-*
echo "total $(( $(date +%s) - start )) s"
