#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Two GPUs in one process (issue 12), on nvidia-h200-x2: jacobi2d and
# jacobi3d float, 1 GPU (STARPU_NCUDA=1) against 2, interleaved rounds,
# medians; bytes StarPU moved between the GPUs against one cut's halo; then
# the scheduling policies on 2 GPUs. JSON rows in $OUT/two_gpus.jsonl; a table last.
# Env: ROUNDS (3; 0 skips the scaling part), J2 (32768x32768:1024), J3 (1024x1024x1024:256),
# POLICIES ("trapeze-owner lws dmda eager"), POLICY_ROUNDS (2), POLICY_APPS ("jacobi2d").
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run() { timeout "${RUN_TIMEOUT:-120}" "$here/run.sh" "$@"; }
out=${OUT:-/tmp/out}; mkdir -p "$out"
rows=$out/two_gpus.jsonl; : > "$rows"
nvidia-smi -L
# The GPU height profiles, made once uncapped and cached in the bundle.
for app in jacobi2d jacobi3d; do run $app --devices gpu --steps 16 --json >/dev/null 2>&1; done
record() {  # name round env... -- app args...
  local name=$1 round=$2; shift 2
  local line
  line=$(env "$@" 2>>"$out/err.log" | tail -1)
  echo "{\"variant\": \"$name\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  echo "round $round $name: $(echo "$line" | cut -c1-240)"
}
IFS=: read -r j2size j2steps <<<"${J2:-32768x32768:1024}"
IFS=: read -r j3size j3steps <<<"${J3:-1024x1024x1024:256}"
for round in $(seq 1 "${ROUNDS:-3}"); do
  [ "${ROUNDS:-3}" = 0 ] && break
  for g in 1 2; do
    record "jacobi2d-${g}gpu" "$round" STARPU_NCUDA=$g timeout 120 "$here/run.sh" jacobi2d --devices gpu --size "$j2size" --steps "$j2steps" --json
    record "jacobi3d-${g}gpu" "$round" STARPU_NCUDA=$g timeout 120 "$here/run.sh" jacobi3d --devices gpu --size "$j3size" --steps "$j3steps" --json
  done
done
for round in $(seq 1 "${POLICY_ROUNDS:-2}"); do
  for sched in ${POLICIES:-trapeze-owner lws dmda eager}; do
    for app in ${POLICY_APPS:-jacobi2d}; do
      if [ "$app" = jacobi2d ]; then size=$j2size steps=$j2steps; else size=$j3size steps=$j3steps; fi
      record "$app-2gpu-$sched" "$round" STARPU_NCUDA=2 STARPU_SCHED=$sched timeout 120 "$here/run.sh" $app --devices gpu --size "$size" --steps "$steps" --json
    done
  done
done
tail -3 "$out/err.log" 2>/dev/null
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]:
        by.setdefault(r["variant"], []).append(r["report"])
def med(v, key="seconds"):
    return statistics.median(x[key] for x in by[v]) if v in by else float("nan")
print(f"{'variant':24} {'n':>2} {'tile':>16} {'H':>4} {'k':>3} {'median s':>9} {'spread':>15} {'GCUPS':>7} {'GPU-GPU GB':>10} {'predicted GB':>12} {'vs 1 GPU':>8}")
for v, reports in by.items():
    s = sorted(x["seconds"] for x in reports)
    r = reports[0]
    app = v.split("-")[0]
    one = med(f"{app}-1gpu")  # nan when the scaling part was skipped
    ext = [int(e) for e in r["size"].split("x")]
    stages = -(-r["steps"] // r["height"])
    # One cut across the slowest dimension: each stage sends a ghost of H
    # planes (radius 1) of the other dimensions each way.
    face = ext[0] * (ext[1] if len(ext) == 3 else 1)
    predicted = stages * 2 * r["height"] * face * 4 / 1e9 if "2gpu" in v else 0.0
    print(f"{v:24} {len(s):>2} {r['tile']:>16} {r['height']:>4} {r['kernel_height']:>3} {statistics.median(s):9.4f} "
          f"{s[0]:7.3f}-{s[-1]:7.3f} {statistics.median(x['gcups'] for x in reports):7.1f} "
          f"{statistics.median(x['gpu_to_gpu_bytes'] for x in reports)/1e9:10.3f} {predicted:12.3f} {one / statistics.median(s):8.3f}")
PY
