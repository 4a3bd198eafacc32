#!/usr/bin/env bash
# Session 31, call 2 (bundle of 6c60a28): (1) the 3-D bound of
# one_gpu_bands (0e49b60), never run on a GPU: jacobi3d 640^3 and Himeno L,
# short and long runs, the automatic plan against one tile and 8 slabs
# given by hand (heights automatic in all three); (2) CIP 16384^2 capped to
# a quarter against in core, more rounds. Interleaved rounds, medians.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
rows=$OUT/runs.jsonl; : > "$rows"
run() {  # case cap args...
  local label=$1 cap=$2; shift 2
  local line env_args=()
  [ "$cap" -gt 0 ] && env_args=(STARPU_LIMIT_CUDA_MEM="$cap")
  line=$(env "${env_args[@]}" TRAPEZE_HOME=$PWD/home timeout 90 ./run.sh "$@" --devices gpu --json 2>"$OUT/last-err.txt" | grep '^{' | tail -1)
  [ -z "$line" ] && { echo "== $label"; tail -3 "$OUT/last-err.txt"; } >> "$OUT/no-report.txt"
  echo "{\"case\": \"$label\", \"report\": ${line:-null}}" >> "$rows"
}
TRAPEZE_HOME=$PWD/home timeout 240 ./run.sh jacobi3d --devices gpu --size 128 --steps 16 > /dev/null 2>&1
TRAPEZE_HOME=$PWD/home timeout 240 ./run.sh himeno --devices gpu --size S --steps 16 > /dev/null 2>&1
TRAPEZE_HOME=$PWD/home timeout 240 ./run.sh cip --devices gpu --size 1024 --steps 16 > /dev/null 2>&1
ONE="--tile 100000x100000x100000"
three=()
for steps in 64 512; do
  three+=("j3 $steps auto|0|jacobi3d --size 640 --steps $steps"
          "j3 $steps one tile|0|jacobi3d --size 640 --steps $steps $ONE"
          "j3 $steps 8 slabs|0|jacobi3d --size 640 --steps $steps --tile 640x640x80")
done
for steps in 128 512; do
  three+=("h $steps auto|0|himeno --size L --steps $steps"
          "h $steps one tile|0|himeno --size L --steps $steps $ONE"
          "h $steps 8 slabs|0|himeno --size L --steps $steps --tile 100000x100000x65")
done
for round in 1 2; do
  for c in "${three[@]}"; do
    IFS='|' read -r label cap argline <<< "$c"; read -r -a args <<< "$argline"
    run "$label" "$cap" "${args[@]}"
  done
done
for round in 1 2 3 4 5; do
  run "c in core" 0 cip --size 16384 --steps 256
  run "c cap 1280" 1280 cip --size 16384 --steps 256
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["case"], []).append(r["report"])
med = {c: statistics.median(x["seconds"] for x in rep if x) for c, rep in by.items() if any(rep)}
print(f"{'case':18} {'tile':>14} {'tiles':>5} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'speed vs':>9}")
for c, rep in by.items():
    rep = [x for x in rep if x]
    if not rep: print(f"{c:18} no report"); continue
    s = sorted(x["seconds"] for x in rep); r = rep[0]
    group = " ".join(c.split()[:2])
    ref = med.get(group + " one tile") if not c.startswith("c ") else med.get("c in core")
    print(f"{c:18} {r['tile']:>14} {r['tiles']:5} {r['height']:4} {r['kernel_height']:3} {len(s):2} {med[c]:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {ref / med[c] if ref else float('nan'):9.3f}")
PY
cat "$OUT/no-report.txt" 2>/dev/null | head
