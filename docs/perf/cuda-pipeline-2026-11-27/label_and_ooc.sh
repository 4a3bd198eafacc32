#!/usr/bin/env bash
# The GPU label under the patched StarPU (CUDA pipeline kept with blocking drivers), then out-of-core variants.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}
nvidia-smi -L
timeout 420 ./run_gpu_tests.sh > $out/gpu-label.txt 2>&1; echo "run_gpu_tests rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|failures|Error|error:" $out/gpu-label.txt | grep -v "perfmodels" | head -30
OUT=$out SIZE=16384 STEPS=512 ROUNDS=2 VARIANTS="core core-same cap capH64 capH192 capH256" ./device_out_of_core.sh > $out/ooc.txt 2>&1
tail -9 $out/ooc.txt
