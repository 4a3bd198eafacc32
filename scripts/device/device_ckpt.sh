#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Checkpoint on the GPU, killed mid-run at two moments, restarted; compared with an uninterrupted run (text output, shortest round-trip floats).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"; cd "$out"
run=$here/run.sh
args="--size 1024x1024 --steps 200000 --height 8"
s=$(date +%s.%N); "$run" jacobi2d $args --output whole.txt --json > whole.json 2>&1; e=$(date +%s.%N)
echo "uninterrupted: $(python3 -c "import json; d=json.load(open('whole.json')); print('devices', d['devices'], 'seconds', round(d['seconds'],2), 'gcups', round(d['gcups'],1))") wall $(python3 -c "print(round($e-$s,2))")"
for delay in 0.3 1.0; do
  rm -f state.h5
  "$run" jacobi2d $args --checkpoint state.h5 --checkpoint-every 20000 > killed.log 2>&1 &
  pid=$!
  for i in $(seq 1 3000); do [ -f state.h5 ] && break; sleep 0.01; done
  sleep $delay; kill -9 $pid 2>/dev/null; wait $pid; killed=$?
  "$run" jacobi2d $args --restart state.h5 --output restarted.txt --json > restart.json 2> restart.err; r=$?
  same=$(cmp -s whole.txt restarted.txt && echo identical || echo DIFFERENT)
  echo "delay $delay: killed rc=$killed (137 = SIGKILL) restart rc=$r first_step=$(python3 -c "import json; print(json.load(open('restart.json'))['first_step'])" 2>&1) restart vs uninterrupted: $same"
done
rm -f whole.txt restarted.txt
