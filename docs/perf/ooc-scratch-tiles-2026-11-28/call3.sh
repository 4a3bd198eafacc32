#!/usr/bin/env bash
# Session 31, call 3 (bundle of 6c60a28): CIP 16384^2, 256 steps, capped
# to a quarter (1280 MiB): the blocking factor the model chose (one stage
# of H 256 on 2048^2 tiles) against lower heights given by hand, and in
# core; interleaved rounds, medians.
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
TRAPEZE_HOME=$PWD/home timeout 240 ./run.sh cip --devices gpu --size 1024 --steps 16 > /dev/null 2>&1
C="cip --size 16384 --steps 256"
for round in 1 2 3 4; do
  run "in core" 0 $C
  run "cap auto" 1280 $C
  run "cap H 128" 1280 $C --height 128
  run "cap H 86" 1280 $C --height 86
  run "cap H 64" 1280 $C --height 64
  run "cap H 32" 1280 $C --height 32
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["case"], []).append(r["report"])
med = {c: statistics.median(x["seconds"] for x in rep if x) for c, rep in by.items() if any(rep)}
print(f"{'case':10} {'tile':>11} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'model s':>8} {'vs core':>8}")
for c, rep in by.items():
    rep = [x for x in rep if x]
    if not rep: print(f"{c:10} no report"); continue
    s = sorted(x["seconds"] for x in rep); r = rep[0]
    model = (r.get("predicted_seconds_per_step") or 0) * r["steps"]
    print(f"{c:10} {r['tile']:>11} {r['height']:4} {r['kernel_height']:3} {len(s):2} {med[c]:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {model:8.3f} {med['in core'] / med[c]:8.3f}")
PY
cat "$OUT/no-report.txt" 2>/dev/null | head; true
