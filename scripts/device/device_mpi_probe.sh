#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# One device run (issues 9 and 12): the GPU tests; the kernels alone (the
# register-streaming 3-D single step against the default); the stencil apps
# under mpirun on the GPU machine (2 ranks sharing the GPU, and on its CPUs),
# compared with 1 rank bit for bit. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
run=$here/run.sh
nvidia-smi -L
start=$(date +%s)
STARPU_NCPU=2 timeout 300 "$here/run_gpu_tests.sh" > "$out/gpu_tests.log" 2>&1; tests=$?
echo "gpu tests rc=$tests ($(( $(date +%s) - start )) s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |ERROR SUMMARY|RACECHECK SUMMARY|Failure" "$out/gpu_tests.log" | head -12
timeout 240 "$run" gpu_kernel_probe > "$out/probe.txt" 2> "$out/probe.err"; echo "probe rc=$?"
# MPI: which Open MPI the machine has; the bundle's libmpi is Debian's (4.1.4).
command -v mpirun; mpirun --version 2>&1 | head -1; ldconfig -p | grep -m2 'libmpi.so'
# Under mpirun the machine's own Open MPI libraries go first (its mpirun and
# its plugins belong to them), the bundle's after.
mpilib=$(dirname "$(ldconfig -p | awk '/libmpi.so.40 / {print $NF; exit}')" 2>/dev/null)
[ -f "$mpilib/libmpi.so.40" ] || mpilib=$(cd "$(dirname "$(command -v mpirun)")/../lib" && pwd)
echo "MPI libraries from $mpilib"
ranked() {
  env LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" \
    TRAPEZE_HOME="$here/trapeze-home" STARPU_SILENT=1 "$here/bin/$@"
}
export -f ranked; export here mpilib
cd "$out"
mpi="mpirun --allow-run-as-root --oversubscribe --bind-to none"
table=""
for devices in gpu cpu; do
  for app_args in "jacobi2d --size 4097x3001 --steps 64 --tile 2048x1024 --height 8" \
                  "jacobi3d --size 257x255x253 --steps 16 --tile 128x128x64 --height 4" \
                  "hotspot --size 3001x2999 --steps 40 --tile 1024x1024 --height 8"; do
    set -- $app_args; app=$1; shift
    "$run" $app "$@" --devices $devices --verify --json --output one.txt > one.json 2> one.err; r1=$?
    $mpi -np 2 bash -c 'ranked "$@"' ranked $app "$@" --devices $devices --verify --json --output two.txt > two.json 2> two.err; r2=$?
    same=$(cmp -s one.txt two.txt && echo equal || echo DIFFERENT)
    line="$app $devices: 1 rank rc=$r1 $(python3 -c "import json; d=json.loads(open('one.json').read().splitlines()[-1]); print('verified', d['verified'], 'gcups %.2f' % d['gcups'])" 2>&1) | 2 ranks rc=$r2 $(python3 -c "import json; d=json.loads(open('two.json').read().splitlines()[-1]); print('verified', d['verified'], 'ranks', d['ranks'], 'gcups %.2f' % d['gcups'])" 2>&1) | output $same"
    echo "$line"; table+="$line"$'\n'
    [ $r2 = 0 ] || tail -5 two.err
  done
done
echo "== kernels alone"; tail -40 "$out/probe.txt"
echo "== mpi"; printf '%s' "$table"
echo "total $(( $(date +%s) - start )) s"
