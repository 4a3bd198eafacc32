#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The 16-byte 3-D trapezoid's run (codelets/cuda/vector_trapezoid_kernel.cuh):
# the instruction mix of its k = 3 kernel and of the scalar register
# trapezoid's (cuobjdump); with NCU_KERNEL (a regex on mangled kernel names)
# one launch of that kernel under Nsight Compute (stall reasons, executed
# instructions by opcode); then, with FULL=1 (default), device_final_gpu.sh
# with the 3-D equality tests and the sanitizers, the probe's trapezoid
# variants (bit-exact checks against the scalar kernel under every boundary)
# and jacobi3d through the runtime, or with FULL=0 the probe alone. Logs in
# $OUT, a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
cuobjdump -sass "$here/bin/gpu_kernel_probe" > "$out/probe.sass" 2>&1
# Opcode counts of one kernel's SASS: the functions whose mangled name holds all the given texts.
mix() {
  awk -v a="$1" -v b="$2" -v c="$3" '
    /Function :/ { keep = index($0, a) && index($0, b) && index($0, c); next }
    keep && /\/\*[0-9a-f]+\*\// { line = $0; sub(/.*\*\/ +/, "", line); sub(/^@!?U?P[0-9T] +/, "", line);
                                  split(line, w, /[ .;]/); op[w[1]]++ }
    END { for (o in op) print op[o], o }' "$out/probe.sass" | sort -rn > "$out/mix.tmp"
  echo "$1 $2: $(awk '{ n += $1 } END { print n }' "$out/mix.tmp") instructions; $(head -16 "$out/mix.tmp" | tr '\n' ' ')"
}
{
  mix vector_trapezoid_kernel "PolicyILi16ELi2ELi64ELi1ELi1ELi1EEELi3E" Jacobi3D
  mix plane_register_trapezoid_kernel "PolicyILi64ELi8ELi4ELi64ELi1ELi2EEELi3E" Jacobi3D
} > "$out/sass_mix.txt" 2>&1
cat "$out/sass_mix.txt"
if [ -n "${NCU_KERNEL:-}" ]; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  ncu_args=(--clock-control none --kernel-name-base mangled -k "regex:$NCU_KERNEL" --launch-count 1
            --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats
            --metrics "smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio")
  TRAPEZE_PROBE_ONLY="${NCU_PROBE_ONLY:-vec-trapezoid}" TRAPEZE_PROBE_ROUNDS=1 timeout 150 "$ncu" "${ncu_args[@]}" \
    "$here/run.sh" gpu_kernel_probe > "$out/ncu.txt" 2>&1
  echo "ncu: exit $?"
  grep -E 'stalled|Issued|Eligible|Registers|smsp__inst|dram__|duration|Warp Cycles' "$out/ncu.txt" | awk '$NF != "0" && $NF != "0.00"' | head -40
fi
if [ "${FULL:-1}" = 1 ]; then
  TESTS=${TESTS:-equality} \
    EQUALITY_FILTER=${EQUALITY_FILTER:-GpuEquality.TrapezoidsOnRowsOfFourCells3D:GpuEquality.Jacobi3D:GpuEquality.LargeTilesManyBlocks:GpuEquality.SingleStepsOnRowsOfFourCells} \
    PROBE_ONLY=${PROBE_ONLY:-vec-trapezoid,rows 516 apart,reg-trapezoid default (t64x8} PROBE_ROUNDS=${PROBE_ROUNDS:-5} \
    APPS=${APPS:-jacobi3d} "$here/device_final_gpu.sh"
else
  TRAPEZE_PROBE_ONLY="${PROBE_ONLY:-vec-trapezoid,rows 516 apart}" TRAPEZE_PROBE_ROUNDS=${PROBE_ROUNDS:-5} timeout 200 \
    "$here/run.sh" gpu_kernel_probe > "$out/probe.txt" 2>&1
  echo "gpu_kernel_probe: exit $?"
  echo "== table"; grep -E '^(stencil|jacobi3d|kernels alone|vec-trapezoid)' "$out/probe.txt"
fi
echo "== sass"; cat "$out/sass_mix.txt"
