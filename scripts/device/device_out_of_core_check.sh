#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out-of-core correctness on one GPU (issue 11): the GPU test label, then
# apps with STARPU_LIMIT_CUDA_MEM about a quarter of their domain, each
# against the CPU reference (--verify), and a cap too small for one task,
# which must be refused in one line rather than evict and fetch forever.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
run() { timeout "${RUN_TIMEOUT:-150}" "$here/run.sh" "$@"; }
json_line() { grep '^{' | tail -1; }
table=""
add() { table+="$1"$'\n'; echo "$1"; }
STARPU_NCPU=2 run gpu_equality_test --gtest_filter=-GpuSanitizer.* > "$out/gpu_equality.txt" 2>&1; add "gpu_equality_test: exit $? ($(grep -E '^\[  PASSED|FAILED' "$out/gpu_equality.txt" | head -2 | tr '\n' ' '))"
STARPU_NCPU=2 run gpu_sweep_test > "$out/gpu_sweep.txt" 2>&1; add "gpu_sweep_test: exit $? ($(grep -E '^\[  PASSED|FAILED' "$out/gpu_sweep.txt" | head -2 | tr '\n' ' '))"
for c in "jacobi2d 64 --size 4096 --steps 96" "jacobi2d 256 --size 8192 --steps 200 --boundary periodic" \
         "jacobi3d 54 --size 384 --steps 48" "life 24 --size 8192 --steps 64" "hotspot 32 --size 4096 --steps 96"; do
  set -- $c; app=$1; cap=$2; shift 2
  line=$(STARPU_LIMIT_CUDA_MEM=$cap run "$app" --devices gpu "$@" --verify --json 2>"$out/err-$app.txt" | json_line)
  add "$app $* cap ${cap} MiB: $(python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('verified', d['verified'], 'out_of_core', d['out_of_core'], 'tile', d['tile'], 'H', d['height'], 'k', d['kernel_height'], 'PCIe GB %.2f' % (d['pcie_bytes']/1e9), 'GCUPS %.1f' % d['gcups'])" "$line" 2>&1 | tail -1)"
done
start=$(date +%s)
STARPU_LIMIT_CUDA_MEM=16 run jacobi2d --devices gpu --size 4096 --steps 96 > /dev/null 2> "$out/refused.txt"; rc=$?
add "cap 16 MiB on 4096^2: exit $rc after $(( $(date +%s) - start )) s: $(grep -v perfmodels "$out/refused.txt" | head -2)"
echo "== table"; printf '%s' "$table"
