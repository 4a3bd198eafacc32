#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# StarPU's default policy (lws) against trapeze-owner and eager on one GPU
# (issue 9): seconds per step at h = 1 from two step counts (the difference
# leaves out the uploads and downloads), jacobi2d 16384² and pathfinder 4M
# columns, beside the plain loops; then jacobi2d 8192² in 64 tiles, h = k = 8.
# Interleaved rounds, medians. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"; cd "$out"
timeout 120 "$run" gpu_stencils --plain-only --apps jacobi2d,pathfinder > plain.txt 2> plain.err; echo "plain loops rc=$?"
field() { python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print(d['$1'])" 2>/dev/null || echo nan; }
declare -A t
scheds="lws trapeze-owner eager"
for round in 1 2 3; do
  for sched in $scheds; do
    for steps in 256 1280; do
      t[j-$sched-$steps]="${t[j-$sched-$steps]:-} $(STARPU_SCHED=$sched timeout 60 "$run" jacobi2d --devices gpu --size 16384 --height 1 --kernel-height 1 --steps $steps --json | field seconds)"
    done
    for steps in 64 320; do
      t[p-$sched-$steps]="${t[p-$sched-$steps]:-} $(STARPU_SCHED=$sched timeout 60 "$run" pathfinder --devices gpu --size 4194304 --height 1 --kernel-height 1 --steps $steps --json | field seconds)"
    done
    t[m-$sched]="${t[m-$sched]:-} $(STARPU_SCHED=$sched timeout 60 "$run" jacobi2d --devices gpu --size 8192 --tile 1024x1024 --height 8 --kernel-height 8 --steps 64 --json | field seconds)"
  done
  echo "round $round done"
done
median() { printf '%s\n' $@ | sort -g | sed -n 2p; }
echo "== plain loops"; tail -8 plain.txt
echo "== seconds per step at h = 1 (difference of two step counts, medians of 3), and 64 tiles"
for sched in $scheds; do
  j=$(python3 -c "print('%.4f' % (($(median ${t[j-$sched-1280]}) - $(median ${t[j-$sched-256]})) / 1024 * 1e3))")
  p=$(python3 -c "print('%.4f' % (($(median ${t[p-$sched-320]}) - $(median ${t[p-$sched-64]})) / 256 * 1e3))")
  echo "$sched: jacobi2d ${j} ms/step, pathfinder ${p} ms/step, 64 tiles $(median ${t[m-$sched]}) s"
done
for k in "${!t[@]}"; do echo "$k: ${t[$k]}"; done | sort
