#!/usr/bin/env bash
# Session 33, call 2 (bundle of call 1: A main, B transfer_bandwidth, C B and
# a stage task 0.3 of the GPU). jacobi2d under 256 MiB: tile shapes of the
# same 8M cells at several H, and streamed without a cap (the same pipeline,
# no memory pressure). CIP under 1280 MiB: the three builds' automatic plans
# and an H sweep. Himeno L under 448 MiB: flat tiles against the automatic.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
J="jacobi2d --size 16384 --steps 512"; C="cip --size 16384 --steps 256"; H="himeno --size L --steps 128"
PROFILES="a|jacobi2d --size 1024 --steps 16;c|jacobi2d-C --size 1024 --steps 16;a|cip --size 1024 --steps 16;b|cip-B --size 1024 --steps 16;c|cip-C --size 1024 --steps 16;a|himeno --size S --steps 16" \
CASES="j: in core|a|0|$J
j: auto C|c|256|jacobi2d-C --size 16384 --steps 512
j: 4096x2048 H128|a|256|$J --tile 4096x2048 --height 128
j: 8192x1024 H96|a|256|$J --tile 8192x1024 --height 96
j: 8192x1024 H128|a|256|$J --tile 8192x1024 --height 128
j: 8192x1024 H180|a|256|$J --tile 8192x1024 --height 180
j: 16384x512 H64|a|256|$J --tile 16384x512 --height 64
j: 16384x512 H96|a|256|$J --tile 16384x512 --height 96
j: uncapped 4096x2048 H128|a|0|$J --tile 4096x2048 --height 128 --stream on
j: uncapped 8192x1024 H128|a|0|$J --tile 8192x1024 --height 128 --stream on
c: in core|a|0|$C
c: auto A|a|1280|$C
c: auto B|b|1280|cip-B --size 16384 --steps 256
c: auto C|c|1280|cip-C --size 16384 --steps 256
c: 4096x2048 H64|a|1280|$C --tile 4096x2048 --height 64
c: 4096x2048 H86|a|1280|$C --tile 4096x2048 --height 86
c: 4096x2048 H128|a|1280|$C --tile 4096x2048 --height 128
c: 8192x1024 H128|a|1280|$C --tile 8192x1024 --height 128
h: in core|a|0|$H
h: auto|a|448|$H
h: 128x128x32 H12|a|448|$H --tile 128x128x32 --height 12
h: 256x128x32 H8|a|448|$H --tile 256x128x32 --height 8
h: 512x128x16 H6|a|448|$H --tile 512x128x16 --height 6" ROUNDS=3 RUN_TIMEOUT=30 bash ./device_plans.sh
echo "total $(( $(date +%s) - start )) s"
