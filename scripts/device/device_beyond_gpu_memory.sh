#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 11: one real run whose domain is at least RATIO (default 1.2) times the
# GPU's memory, on that GPU, never holding the domain twice on the host
# (jacobi2d --no-grid: tiles generate their initial cells, final cells go into
# a checksum), verified against the checksum of the sequential reference
# computed band by band on this machine's cores (--verify; VERIFY=0 leaves it
# out, for a run whose checksum an earlier verified run already gave). First a small
# capped run of the same path (--no-grid under STARPU_LIMIT_CUDA_MEM) so a
# failure shows at once, then the big one. Table last; JSON lines in $OUT.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
ratio=${RATIO:-1.2}
steps=${STEPS:-32}
app=${APP:-jacobi2d}
json_line() { grep '^{' | tail -1; }
table=""
add() { table+="$1"$'\n'; echo "$1"; }
summary() {
  python3 -c "
import json, sys
d = json.loads(sys.argv[1])
print('verified', d['verified'], 'checksum', d['checksum'], 'out_of_core', d['out_of_core'], 'tile', d['tile'],
      'H', d['height'], 'k', d['kernel_height'], 'domain %.1f GB' % (d['domain_bytes'] / 1e9),
      'GPU %.1f GB' % (d['gpu_memory_bytes'] / 1e9), 'PCIe %.1f GB' % (d['pcie_bytes'] / 1e9),
      'host peak %.1f GB' % (d['peak_memory_bytes'] / 1e9), '%.3f s' % d['seconds'], 'GCUPS %.1f' % d['gcups'])" "$1" 2>&1 | tail -1
}

nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$out/gpu.txt"
grep -E 'MemTotal|MemAvailable' /proc/meminfo | tee "$out/meminfo.txt"
gpu_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)

# The same path, small and under a cap, in 2-D and 3-D (SMALL=0 skips them).
if [ "${SMALL:-1}" = 1 ]; then
line=$(STARPU_LIMIT_CUDA_MEM=48 timeout 120 "$here/run.sh" jacobi2d --devices gpu --no-grid --size 4099x4093 --steps 40 \
       --verify --json 2>"$out/err-small2d.txt" | json_line)
add "small jacobi2d 4099x4093, 40 steps, cap 48 MiB: $(summary "$line")"
line=$(STARPU_LIMIT_CUDA_MEM=40 timeout 120 "$here/run.sh" jacobi3d --devices gpu --no-grid --size 257x251x263 --steps 12 \
       --verify --json 2>"$out/err-small3d.txt" | json_line)
add "small jacobi3d 257x251x263, 12 steps, cap 40 MiB: $(summary "$line")"
fi

# The big one: a square of float cells (4 B each) of at least ratio x the GPU's memory.
# SIDE overrides the size (a shorter rehearsal of the same command).
side=${SIDE:-}
[ -n "$side" ] || side=$(python3 -c "import math; b = $ratio * $gpu_mib * 2**20; s = math.ceil(math.sqrt(b / 4) / 256) * 256; print(s)")
add "GPU memory ${gpu_mib} MiB; domain ${side}^2 float = $(python3 -c "print('%.1f GB, %.3fx the GPU' % ($side**2 * 4 / 1e9, $side**2 * 4 / ($gpu_mib * 2**20)))")"
start=$(date +%s)
timeout "${BIG_TIMEOUT:-560}" "$here/run.sh" "$app" --devices gpu --no-grid --size "${side}x${side}" --steps "$steps" \
  $( [ "${VERIFY:-1}" = 1 ] && echo --verify ) --progress --json > "$out/big.jsonl" 2> "$out/big-err.txt"
rc=$?
line=$(json_line < "$out/big.jsonl")
add "big $app ${side}^2, $steps steps (exit $rc after $(( $(date +%s) - start )) s): $(summary "$line")"
tr '\r' '\n' < "$out/big-err.txt" | grep -v '^$' | tail -5
echo "== table"; printf '%s' "$table"
