#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out-of-core on one GPU (issue 11): is the blocking factor the model picks
# (the capped automatic run's height) within 95% of the best height? Heights
# HEIGHTS (and the automatic one) interleaved for ROUNDS rounds, jacobi2d float
# SIZE^2 with STARPU_LIMIT_CUDA_MEM a quarter of the domain; first a capped
# run checked against the CPU reference. KH: the kernel height of every run
# (default: each run's own choice for its height). JSON rows in $OUT; a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
run() { timeout "${RUN_TIMEOUT:-120}" "$here/run.sh" "$@"; }
json_line() { grep '^{' | tail -1; }
size=${SIZE:-16384}; steps=${STEPS:-512}; rounds=${ROUNDS:-3}
heights=${HEIGHTS:-"64 80 128 160 192"}
cap=$(( size * size * 4 / 1048576 / 4 ))
log=$out/heights_log.txt; : > "$log"
say() { echo "$*" | tee -a "$log"; }
vsize=${VERIFY_SIZE:-4096}; vcap=$(( vsize * vsize * 4 / 1048576 / 4 ))
say "verify capped to $vcap MiB: $(STARPU_LIMIT_CUDA_MEM=$vcap run jacobi2d --devices gpu --size "$vsize" --steps 96 --verify --json 2>&1 | json_line)"
say "verify hotspot capped: $(STARPU_LIMIT_CUDA_MEM=$(( vcap * 2 )) run hotspot --devices gpu --size "$vsize" --steps 96 --verify --json 2>&1 | json_line)"
rows=$out/heights.jsonl; : > "$rows"
for round in $(seq 1 "$rounds"); do
  for h in auto $heights; do
    line=$(STARPU_LIMIT_CUDA_MEM=$cap run jacobi2d --devices gpu --size "$size" --steps "$steps" --json --height "$h" ${KH:+--kernel-height "$KH"} 2>/dev/null | json_line)
    echo "{\"height\": \"$h\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
    say "round $round h=$h: $(echo "$line" | cut -c1-200)"
  done
done
python3 - "$rows" "$size" "$cap" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]:
        by.setdefault(r["height"], []).append(r["report"])
med = {h: statistics.median(x["seconds"] for x in v) for h, v in by.items()}
best = min(med.values())
print(f"== jacobi2d float {sys.argv[2]}^2, STARPU_LIMIT_CUDA_MEM={sys.argv[3]} MiB")
print(f"{'height':>8} {'H':>4} {'k':>3} {'median s':>9} {'spread':>15} {'PCIe GB':>8} {'vs best':>8}")
for h, v in by.items():
    s = sorted(x["seconds"] for x in v)
    print(f"{h:>8} {v[0]['height']:>4} {v[0]['kernel_height']:>3} {med[h]:9.4f} {s[0]:7.4f}-{s[-1]:7.4f} {statistics.median(x['pcie_bytes'] for x in v)/1e9:8.2f} {best/med[h]:8.3f}")
PY
