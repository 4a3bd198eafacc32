#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# StarPU's clean-buffer rule (STARPU_MINIMUM_CLEAN_BUFFERS / TARGET: write
# dirty GPU chunks back to main memory while under 5% of them are clean),
# which the Runtime now turns off unless the user sets it: the runtime's
# default ("off") against StarPU's (5/10) on one GPU, interleaved, 2 rounds:
# jacobi3d 1792^3 in 2 and 16 tiles (in core), jacobi2d 32768^2 in core and
# out of core (STARPU_LIMIT_CUDA_MEM a quarter of the domain). Stepping after
# a warm-up, PCIe bytes. Table last; rows in $OUT/clean_buffers.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
rows=$out/clean_buffers.jsonl; : > "$rows"
export STARPU_NCUDA=1
"$here/run.sh" jacobi3d --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"  # height profiles
"$here/run.sh" jacobi2d --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"
run() {  # name rule command...
  local name=$1 rule=$2; shift 2
  local line
  if [ "$rule" = starpu ]; then
    line=$(STARPU_MINIMUM_CLEAN_BUFFERS=5 STARPU_TARGET_CLEAN_BUFFERS=10 timeout 120 "$@" 2>>"$out/err.log" | grep '^{' | tail -1)
  else
    line=$(timeout 120 "$@" 2>>"$out/err.log" | grep '^{' | tail -1)
  fi
  echo "{\"variant\": \"$name $rule\", \"report\": ${line:-null}}" >> "$rows"
  echo "$name $rule: $(echo "$line" | cut -c1-120)"
}
j3="--devices gpu --size 1792x1792x1792 --steps 128 --warmup-steps 32 --no-grid --json"
j2="--devices gpu --size 32768x32768 --steps 256 --warmup-steps 64 --no-grid --json"
for round in 1 2; do
  for rule in off starpu; do
    run "jacobi3d 2 tiles" $rule "$here/run.sh" jacobi3d $j3
    run "jacobi3d 16 tiles" $rule "$here/run.sh" jacobi3d $j3 --tile 1792x1792x112
    run "jacobi2d in core" $rule "$here/run.sh" jacobi2d $j2
    run "jacobi2d capped" $rule env STARPU_LIMIT_CUDA_MEM=1024 "$here/run.sh" jacobi2d $j2
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
print(f"{'variant':28} {'n':>2} {'tile':>16} {'H':>3} {'k':>2} {'ooc':>5} {'step s':>8} {'spread':>15} {'whole s':>8} {'PCIe GB':>8} checksum")
for v, rs in by.items():
    s = sorted(x["stepping_seconds"] for x in rs)
    print(f"{v:28} {len(rs):>2} {rs[0]['tile']:>16} {rs[0]['height']:>3} {rs[0]['kernel_height']:>2} {str(rs[0]['out_of_core']):>5} "
          f"{statistics.median(s):8.3f} {s[0]:7.3f}-{s[-1]:7.3f} {statistics.median(x['seconds'] for x in rs):8.3f} "
          f"{statistics.median(x['pcie_bytes'] for x in rs) / 1e9:8.1f} {','.join(sorted({x['checksum'] for x in rs}))}")
PY
