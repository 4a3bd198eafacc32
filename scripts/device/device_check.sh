#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# One device run: GPU tests, then the task window and checkpoint/restart on the GPU; a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
run=$here/run.sh
nvidia-smi -L
start=$(date +%s)
STARPU_NCPU=2 "$here/run_gpu_tests.sh" > "$out/gpu_tests.log" 2>&1; tests=$?
echo "gpu tests rc=$tests ($(( $(date +%s) - start )) s)"; grep -E "PASSED|FAILED|ERROR SUMMARY|Hazard|tests," "$out/gpu_tests.log" | head -12
cd "$out"
# Task window on CUDA workers: 20000 steps through a window of 64 tasks, verified against the CPU reference.
"$run" jacobi2d --size 1000x700 --steps 20000 --height 1 --window 64 --verify --json > window.json 2> window.err; w=$?
echo "window rc=$w $(python3 -c "import json; d=json.load(open('window.json')); print('verified', d['verified'], 'devices', d['devices'], 'peak MB', d['peak_memory_bytes']>>20, 'gcups', round(d['gcups'],2))" 2>&1)"
# Checkpoint on the GPU, killed, restarted; compared with an uninterrupted run through the text output.
args="--size 2000x1500 --steps 6000 --height 8"
"$run" jacobi2d $args --output whole.txt > whole.log 2>&1
"$run" jacobi2d $args --checkpoint state.h5 --checkpoint-every 500 > killed.log 2>&1 &
pid=$!
for i in $(seq 1 3000); do [ -f state.h5 ] && break; sleep 0.01; done
sleep 0.7; kill -9 $pid; wait $pid; killed=$?
"$run" jacobi2d $args --restart state.h5 --output restarted.txt --verify --json > restart.json 2> restart.err; r=$?
same=$(cmp -s whole.txt restarted.txt && echo identical || echo DIFFERENT)
echo "checkpoint: killed rc=$killed restart rc=$r first_step=$(python3 -c "import json; print(json.load(open('restart.json'))['first_step'])" 2>&1) verified=$(python3 -c "import json; print(json.load(open('restart.json'))['verified'])" 2>&1) restart vs uninterrupted: $same"
cat restart.err | head -3
cd "$here" && tar czf "$out/homes.tgz" starpu-home trapeze-home
echo "total $(( $(date +%s) - start )) s"
