#!/usr/bin/env bash
# A first look on a GPU machine, from a bundle (scripts/make_gpu_bundle.sh):
# the GPU tests, then jacobi2d/jacobi3d/hotspot/life/pathfinder throughput over
# kernel-level heights, one line each. Logs go to $OUT when set.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle=${BUNDLE:-$here/gpu-bundle}
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv,noheader
gcups() { "$bundle/run.sh" "$@" --json 2>&1 | python3 -c 'import json,sys
for line in sys.stdin:
    line=line.strip()
    if line.startswith("{"):
        d=json.loads(line); print(f"{d[\"app\"]:10} {d[\"size\"]:>12} H={d[\"height\"]:<3} k={d[\"kernel_height\"]:<3} tile={d[\"tile\"]:>14} {d[\"gcups\"]:9.2f} GCUPS {d[\"seconds\"]:.3f} s devices={d[\"devices\"]}")
    else: print(line)'; }
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  timeout "${TEST_TIMEOUT:-400}" "$bundle/run_gpu_tests.sh" >"$out/gpu_tests.log" 2>&1
  echo "gpu tests: exit $?"; grep -E "PASSED|FAILED|SKIPPED|ERROR SUMMARY|error|Failure" "$out/gpu_tests.log" | head -30
fi
for k in ${KS:-1 2 4 8 16}; do gcups jacobi2d --size 16384 --steps 64 --height 16 --kernel-height "$k"; done
for k in 1 2 4; do gcups jacobi3d --size 512 --steps 32 --height 8 --kernel-height "$k"; done
for k in 1 4 8; do gcups hotspot --size 16384 --steps 64 --height 16 --kernel-height "$k"; done
for k in 1 4 8; do gcups life --size 16384 --steps 64 --height 16 --kernel-height "$k"; done
for k in 1 4 8; do gcups pathfinder --size 4000000 --steps 256 --height 16 --kernel-height "$k"; done
