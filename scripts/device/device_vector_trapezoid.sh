#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The 16-byte 3-D trapezoid's run (codelets/cuda/vector_trapezoid_kernel.cuh):
# the instruction mix of its k = 3 kernel and of the scalar register
# trapezoid's (cuobjdump), then device_final_gpu.sh with the 3-D equality
# tests and the sanitizers, the probe's trapezoid variants (bit-exact checks
# against the scalar kernel under every boundary) and jacobi3d through the
# runtime. Logs in $OUT, a table last.
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
  mix vector_trapezoid_kernel "PolicyILi16ELi2ELi64ELi1EEELi3E" Jacobi3D
  mix plane_register_trapezoid_kernel "PolicyILi64ELi8ELi4ELi64ELi1ELi2EEELi3E" Jacobi3D
} > "$out/sass_mix.txt" 2>&1
cat "$out/sass_mix.txt"
TESTS=${TESTS:-equality} \
  EQUALITY_FILTER=${EQUALITY_FILTER:-GpuEquality.TrapezoidsOnRowsOfFourCells3D:GpuEquality.Jacobi3D:GpuEquality.LargeTilesManyBlocks:GpuEquality.SingleStepsOnRowsOfFourCells} \
  PROBE_ONLY=${PROBE_ONLY:-vec-trapezoid,rows 516 apart,reg-trapezoid default (t64x8} PROBE_ROUNDS=${PROBE_ROUNDS:-5} \
  APPS=${APPS:-jacobi3d} "$here/device_final_gpu.sh"
echo "== sass"; cat "$out/sass_mix.txt"
