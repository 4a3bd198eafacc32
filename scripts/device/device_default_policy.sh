#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Trapeze's default policy with a GPU (eager) against StarPU's lws (issue 9):
# the GPU tests under the default, then jacobi2d 8192² in 64 tiles and
# 16384² at h = 1 (seconds per step from two step counts), interleaved
# rounds, medians. A table last. SCHEDS="default trapeze-owner" compares
# others ("default": no STARPU_SCHED); TESTS=0 leaves the tests out.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"; cd "$out"
if [ "${TESTS:-1}" = 1 ]; then
STARPU_NCPU=2 timeout 300 "$here/run_gpu_tests.sh" > "$out/gpu_tests.log" 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |ERROR SUMMARY|RACECHECK SUMMARY|Failure" "$out/gpu_tests.log" | head -12
fi
field() { python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print(d['$1'])" 2>/dev/null || echo nan; }
echo "default scheduler reported: $("$run" jacobi2d --devices gpu --size 1024 --height 1 --kernel-height 1 --steps 4 --json | field scheduler)"
declare -A t
for round in 1 2 3 4 5; do
  for sched in ${SCHEDS:-default lws}; do
    env=(); [ $sched != default ] && env=(STARPU_SCHED=$sched)
    t[m-$sched]="${t[m-$sched]:-} $(env "${env[@]}" timeout 60 "$run" jacobi2d --devices gpu --size 8192 --tile 1024x1024 --height 8 --kernel-height 8 --steps 64 --json | field seconds)"
    for steps in 256 1280; do
      t[j-$sched-$steps]="${t[j-$sched-$steps]:-} $(env "${env[@]}" timeout 60 "$run" jacobi2d --devices gpu --size 16384 --height 1 --kernel-height 1 --steps $steps --json | field seconds)"
    done
  done
done
median() { printf '%s\n' $@ | sort -g | sed -n 3p; }
for sched in ${SCHEDS:-default lws}; do
  j=$(python3 -c "print('%.4f' % (($(median ${t[j-$sched-1280]}) - $(median ${t[j-$sched-256]})) / 1024 * 1e3))")
  echo "$sched: 64 tiles $(median ${t[m-$sched]}) s; jacobi2d 16384^2 h=1 ${j} ms/step"
done
for k in "${!t[@]}"; do echo "$k: ${t[$k]}"; done | sort
