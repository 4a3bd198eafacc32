#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Plans head to head: each case is one app run (a bundled program, a GPU
# memory cap, a GPU profile of its own), every case once a round, rounds
# interleaved, medians; a table last, each case against the first case of
# its group. Builds are compared by copying the other build's binary into
# bin/ under a second name (e.g. jacobi2d-prev) and giving it its own HOME:
# one profile cache shared by two builds is profiled again at every run.
# Env:
#   CASES    cases separated by ';' or newlines, each "label|home|cap|program args"
#            (label "group: name" groups cases, the group's first is its
#            reference; home names the GPU profile's TRAPEZE_HOME; cap in
#            MiB, 0 for none; --devices gpu --json are added)
#   PROFILES untimed runs before the rounds, "home|program args" each (';')
#   ROUNDS (3), RUN_TIMEOUT (s a run, 90), PROFILE_TIMEOUT (s, 240), ROWS
#   (file name under $OUT, plans.jsonl)
# A run without a report leaves its exit status and stderr's last lines in
# $OUT/no-report-<round>-<n>.txt.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
rounds=${ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "device_plans: ROUNDS must be a whole number > 0, got '$rounds'" >&2; exit 2; }
[ -n "${CASES:-}" ] || { echo "device_plans: CASES is empty (give 'label|home|cap|program args;...')" >&2; exit 2; }
split() { tr ';' '\n' <<< "$1" | sed 's/^[[:space:]]*//; /^$/d'; }
mapfile -t cases < <(split "$CASES")
mapfile -t profiles < <(split "${PROFILES:-}")
for c in "${cases[@]}"; do
  IFS='|' read -r label home cap argline <<< "$c"
  read -r -a args <<< "$argline"
  [ -n "$label" ] && [ -n "$home" ] || { echo "device_plans: case '$c' needs a label and a home" >&2; exit 2; }
  [[ $cap =~ ^[0-9]+$ ]] || { echo "device_plans: case '$label': cap must be a whole number of MiB (0: none), got '$cap'" >&2; exit 2; }
  [ -x "$here/bin/${args[0]:-}" ] || { echo "device_plans: case '$label': no program bin/${args[0]:-}" >&2; exit 2; }
done
home_dir() { echo "$here/trapeze-home-$1"; }
for p in "${profiles[@]}"; do
  IFS='|' read -r home argline <<< "$p"
  read -r -a args <<< "$argline"
  mkdir -p "$(home_dir "$home")"
  TRAPEZE_HOME=$(home_dir "$home") timeout "${PROFILE_TIMEOUT:-240}" "$here/run.sh" "${args[@]}" --devices gpu > /dev/null 2>&1 ||
    echo "device_plans: the profiling run '$p' ended with status $? (the timed runs will profile again)" >&2
done
rows=$out/${ROWS:-plans.jsonl}; : > "$rows"
failures=0
for round in $(seq "$rounds"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r label home cap argline <<< "$c"
    read -r -a args <<< "$argline"
    limit=(); [ "$cap" -gt 0 ] && limit=(STARPU_LIMIT_CUDA_MEM="$cap")
    mkdir -p "$(home_dir "$home")"
    err=$(mktemp); report=$(mktemp)
    env "${limit[@]}" TRAPEZE_HOME="$(home_dir "$home")" timeout "${RUN_TIMEOUT:-90}" "$here/run.sh" "${args[@]}" --devices gpu --json >"$report" 2>"$err"
    status=$?
    line=$(grep '^{' "$report" | tail -1)
    if [ -z "$line" ]; then
      failures=$(( failures + 1 ))
      { echo "case: $label, round $round, exit status $status (124: RUN_TIMEOUT)"; tail -5 "$err"; } > "$out/no-report-$round-$failures.txt"
    fi
    rm -f "$err" "$report"
    python3 -c 'import json, sys; print(json.dumps({"case": sys.argv[1], "home": sys.argv[2], "cap": int(sys.argv[3]), "round": int(sys.argv[4]), "report": json.loads(sys.argv[5]) if sys.argv[5] else None}))' \
      "$label" "$home" "$cap" "$round" "$line" >> "$rows"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["case"], [])
    if r["report"]: by[r["case"]].append(r["report"])
group_of = lambda label: label.split(":")[0] if ":" in label else ""
reference = {}
for label in by:  # the first case of each group, in the order given
    reference.setdefault(group_of(label), label)
median = {label: statistics.median(x["seconds"] for x in rep) for label, rep in by.items() if rep}
print("seconds: medians of interleaved rounds; 'vs ref': the group's first case's median over this one's")
print(f"{'case':32} {'tile':>14} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs ref':>7}")
for label, rep in by.items():
    if not rep:
        print(f"{label:32} no report"); continue
    s = sorted(x["seconds"] for x in rep); r = rep[0]
    ref = median.get(reference[group_of(label)])
    ratio = f"{ref / median[label]:7.3f}" if ref else f"{'-':>7}"
    # Wavefront apps report no heights (Smith-Waterman: a hyper-tile width instead).
    h, k = r.get("height", "-"), r.get("kernel_height", r.get("hyper_tile_width", "-"))
    print(f"{label:32} {r['tile']:>14} {h:>4} {k:>3} {len(s):2} {median[label]:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {ratio}")
PY
