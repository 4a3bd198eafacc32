#!/usr/bin/env bash
# Session 34, call 2: the skewed-slab probe (skewed_probe.cu, built here with
# nvcc -O3 -arch=sm_90 -fmad=false -o docs/perf/skewed-himeno-2026-11-28/skewed_probe
# docs/perf/skewed-himeno-2026-11-28/skewed_probe.cu; the binary was carried,
# not committed) for Himeno L under a quarter cap.
set -uo pipefail
d=docs/perf/skewed-himeno-2026-11-28
nvidia-smi -L
for steps in 128 512; do
  timeout 120 $d/skewed_probe 448 $steps 5 "8:16 8:24 8:32 4:32 4:40 2:48" 2>&1 | tee "$OUT/probe-$steps.txt"
done
