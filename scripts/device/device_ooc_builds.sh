#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out of core (issue 11): two builds of one app head to head, in core and
# capped by STARPU_LIMIT_CUDA_MEM, interleaved rounds, medians; a table last.
# BUILDS names programs in bin/ (e.g. "jacobi2d jacobi2d-prev": copy the other
# build's binary there under a second name). Each build keeps its own GPU
# profile (one cache file shared by two builds is profiled again at every
# run, and each may choose another plan): PLAN fixes the plan for every run
# ("--height 180 --kernel-height 12", empty for automatic), so that the rows
# compare the builds and not their choices.
# Env: APP (jacobi2d), SIZE (16384; any --size, e.g. L for himeno, when CAP
# is given), STEPS (512), CAP (MiB; default a quarter of a float SIZE² domain),
# ROUNDS (5), BUILDS, PLAN. JSON rows in $OUT/ooc_builds.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
app=${APP:-jacobi2d}; size=${SIZE:-16384}; steps=${STEPS:-512}; rounds=${ROUNDS:-5}
builds=${BUILDS:-"$app ${app}-prev"}
if [ -z "${CAP:-}" ]; then
  [[ $size =~ ^[1-9][0-9]*$ ]] || { echo "device_ooc_builds: SIZE '$size' is not a whole number; give CAP (MiB) with it" >&2; exit 2; }
  cap=$(( size * size * 4 / 1048576 / 4 ))
else
  cap=$CAP
fi
read -r -a plan <<< "${PLAN:-}"
common=(--devices gpu --size "$size" --steps "$steps" --json)
last_json() { grep '^{' | tail -1; }
home_of() { echo "$here/trapeze-home-$1"; }
for b in $builds; do
  [ -x "$here/bin/$b" ] || { echo "device_ooc_builds: no program bin/$b (BUILDS='$builds')" >&2; exit 2; }
done
for value in "$steps" "$rounds" "$cap"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "device_ooc_builds: STEPS, ROUNDS and CAP must be whole numbers > 0, got '$value'" >&2; exit 2; }
done
nvidia-smi -L
for b in $builds; do
  mkdir -p "$(home_of "$b")"
  TRAPEZE_HOME=$(home_of "$b") timeout 120 "$here/run.sh" "$b" --devices gpu --size "${PROFILE_SIZE:-4096}" --steps 16 --json > /dev/null 2>&1
done
rows=$out/ooc_builds.jsonl; : > "$rows"
for round in $(seq "$rounds"); do
  for b in $builds; do
    for where in core cap; do
      limit=(); [ $where = cap ] && limit=(STARPU_LIMIT_CUDA_MEM=$cap)
      line=$(env "${limit[@]}" TRAPEZE_HOME="$(home_of "$b")" timeout "${RUN_TIMEOUT:-90}" "$here/run.sh" "$b" "${common[@]}" "${plan[@]}" 2>/dev/null | last_json)
      echo "{\"build\": \"$b\", \"where\": \"$where\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
    done
  done
done
python3 - "$rows" "$cap" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault((r["build"], r["where"]), [])
    if r["report"]: by[(r["build"], r["where"])].append(r["report"])
print(f"capped to {sys.argv[2]} MiB; seconds, medians of interleaved rounds")
print(f"{'build':16} {'where':5} {'tile':>12} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'cap/core':>8}")
for (b, where), rep in by.items():
    if not rep: print(f"{b:16} {where:5} no report"); continue
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    core = by.get((b, "core"))
    ratio = statistics.median(x["seconds"] for x in core) / m if where == "cap" and core else 1.0
    print(f"{b:16} {where:5} {r['tile']:>12} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {ratio:8.3f}")
PY
