#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Himeno and CIP out of core (issue 11): capped runs against the CPU
# reference (--verify), and the blocking factor: heights under the cap
# against the automatic one, interleaved rounds, medians. A table last.
# Env: ROUNDS (2), HEIGHTS ("2 4 8 16 32").
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run() { timeout "${RUN_TIMEOUT:-120}" "$here/run.sh" "$@"; }
out=${OUT:-/tmp/out}; mkdir -p "$out"
rows=$out/seed_codes_check.jsonl; : > "$rows"
brief() { python3 -c "
import json, sys
line = sys.stdin.read().strip().splitlines()
r = json.loads(line[-1]) if line and line[-1].startswith('{') else None
print('no report' if r is None else ' '.join(f'{k}={r.get(k)}' for k in ('size', 'tile', 'height', 'kernel_height', 'seconds', 'verified', 'out_of_core', 'gosa', 'max_error_after_turns')))"; }
for app in himeno cip; do run $app --devices gpu --steps 16 --json >/dev/null 2>&1; done
echo "himeno M, cap 56 MiB: $(STARPU_LIMIT_CUDA_MEM=56 run himeno --devices gpu --size M --steps 40 --verify --json 2>/dev/null | brief)"
echo "cip 4096^2, cap 80 MiB: $(STARPU_LIMIT_CUDA_MEM=80 run cip --devices gpu --size 4096x4096 --steps 64 --verify --json 2>/dev/null | brief)"
echo "cip 1024^2 one turn (6428 steps), in core: $(run cip --devices gpu --size 1024x1024 --steps 6428 --json 2>/dev/null | brief)"
echo "cip 2048^2, cap 20 MiB (60 s limit): $(RUN_TIMEOUT=60 STARPU_LIMIT_CUDA_MEM=20 run cip --devices gpu --size 2048x2048 --steps 96 --json 2>/dev/null | brief)"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for h in auto ${HEIGHTS:-2 4 8 16 32}; do
    line=$(STARPU_LIMIT_CUDA_MEM=448 run himeno --devices gpu --size L --steps 128 --height "$h" --json 2>/dev/null | tail -1)
    echo "{\"height\": \"$h\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
    echo "round $round himeno L cap 448 MiB H=$h: $(echo "$line" | brief)"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]:
        by.setdefault(r["height"], []).append(r["report"])
auto = statistics.median(x["seconds"] for x in by["auto"]) if "auto" in by else None
print(f"== himeno L (512x256x256), 128 steps, STARPU_LIMIT_CUDA_MEM=448 MiB (a quarter of its 14 arrays)")
print(f"{'H':>5} {'tile':>12} {'k':>3} {'median s':>9} {'spread':>15} {'PCIe GB':>8} {'auto/this':>9}")
for h, reports in by.items():
    s = sorted(x["seconds"] for x in reports)
    m = statistics.median(s)
    r = reports[0]
    print(f"{h:>5} {r['tile']:>12} {r['kernel_height']:>3} {m:9.3f} {s[0]:7.3f}-{s[-1]:7.3f} "
          f"{statistics.median(x['pcie_bytes'] for x in reports)/1e9:8.1f} {(m / auto if auto else float('nan')):9.3f}")
PY
