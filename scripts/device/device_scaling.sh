#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 14: strong and weak scaling on 1, 2, 4 (and 8) GPUs of one machine,
# in one process (STARPU_NCUDA=G, trapeze-owner) and with one MPI rank per
# GPU, auto heights, generated grids (--no-grid: no rank or process ever holds
# the domain, and the weak runs' domains do not fit one host grid anyway).
#  - jacobi2d and jacobi3d float: strong scaling on the largest domain that
#    fits one GPU, weak scaling on that domain per GPU (doubled along the
#    dimensions in turn, slowest first); each run times its steps after a
#    warm-up (--warmup-steps: the field already on the GPUs) and the whole
#    run (generation, uploads, steps, downloads, checksums);
#  - Smith-Waterman of one long pair over all GPUs (a row of tiles per GPU);
#  - checksums (scores) of every variant of a domain equal (MPI bit-exact
#    against one GPU); bytes StarPU moved between GPUs against the
#    partitioner's prediction; the scaling model (scripts/scaling_model.py)
#    beside the measurements, fed the run's own 1-GPU stepping rate.
# Interleaved rounds (every variant once per round), medians; a run that
# would start after DEADLINE seconds is skipped, so the table always prints.
# JSON rows in $OUT/scaling.jsonl, the table as $OUT/scaling_table.json; a table last.
# Env: GPUS (every GPU), APPS ("jacobi2d jacobi3d sw"), KINDS ("strong weak"),
# MPI (1), ROUNDS (2), J2 (90112:320:64, side:steps:warm-up steps), DEVICES (gpu),
# J3 (2016:128:32), SW ("1048576": the pairs' lengths), COUNTS ("1 2 4 8": GPU
# counts, those above GPUS left out), VERIFY (1: the small verified runs first), DEADLINE (540).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
rows=$out/scaling.jsonl; : > "$rows"
start=$(date +%s)
nvidia-smi -L
nvidia-smi topo -m 2>/dev/null | head -6
gpus=${GPUS:-$(nvidia-smi -L | grep -c '^GPU')}
counts=; for g in ${COUNTS:-1 2 4 8}; do [ "$g" -le "$gpus" ] && counts="$counts $g"; done
source "$here/mpi_ranked.sh"
deadline=${DEADLINE:-540}
devices=${DEVICES:-gpu}  # cpu: a dry run of the flow on a machine without GPUs
record() {  # name round command...
  local name=$1 round=$2; shift 2
  local now=$(( $(date +%s) - start ))
  if [ "$now" -ge "$deadline" ]; then echo "round $round $name: skipped at ${now}s (DEADLINE $deadline)"; return; fi
  local line t0=$(date +%s%N)
  # No run outlasts the deadline by more than a minute: the table must print.
  line=$(timeout $(( deadline + 60 - now )) "$@" 2>>"$out/err.log" | grep '^{' | tail -1)
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  local wall=$(( ms / 1000 )).$(printf %03d $(( ms % 1000 )))
  case "$line" in \{*) ;; *) echo "round $round $name: no report"; line= ;; esac
  echo "{\"variant\": \"$name\", \"round\": $round, \"wall\": $wall, \"report\": ${line:-null}}" >> "$rows"
  echo "round $round $name (${wall} s at ${now} s): $(echo "$line" | cut -c1-150)"
}
# The size of a weak run on G GPUs: the 1-GPU side doubled along the
# dimensions in turn, slowest first (2-D: y then x; 3-D: z, y, x).
weak_size() {  # dims side gpus
  local dims=$1 n=$2 g=$3 e=(1 1 1) d=$(( $1 - 1 ))
  while [ "$g" -gt 1 ]; do e[$d]=$(( e[d] * 2 )); g=$(( g / 2 )); d=$(( d == 0 ? dims - 1 : d - 1 )); done
  if [ "$dims" = 2 ]; then echo "$(( n * e[0] ))x$(( n * e[1] ))"; else echo "$(( n * e[0] ))x$(( n * e[1] ))x$(( n * e[2] ))"; fi
}
# G ranks get the first G GPUs (the runtime deals the visible GPUs to the
# local ranks; STARPU_NCUDA=1 would put every rank on GPU 0).
visible() { seq -s, 0 $(( $1 - 1 )); }
apps=${APPS:-jacobi2d jacobi3d sw}
# The GPU cost models (auto heights, widths) are profiled once per GPU kind
# and app; profile them here, outside the timed runs.
for app in $apps; do
  case $app in
    jacobi2d|jacobi3d) STARPU_NCUDA=1 timeout 300 "$here/run.sh" $app --devices $devices --steps 16 --json >/dev/null 2>>"$out/err.log" ;;
  esac
done
echo "profiles made at $(( $(date +%s) - start )) s"
# Correctness on every GPU at a small size: one process and one rank a GPU,
# against the sequential reference (the generated grid's, band by band).
if [ "$gpus" -gt 1 ] && [ "${VERIFY:-1}" = 1 ]; then
  for app in $apps; do
    case $app in jacobi2d) small="--size 4096 --steps 48" ;; jacobi3d) small="--size 256 --steps 24" ;; *) continue ;; esac
    record "$app-verify-${gpus}gpu" 0 env STARPU_NCUDA=$gpus timeout 120 "$here/run.sh" $app --devices $devices $small --no-grid --verify --json
    [ "${MPI:-1}" = 1 ] && record "$app-verify-${gpus}rank" 0 env CUDA_VISIBLE_DEVICES=$(visible $gpus) timeout 120 $mpi -np $gpus bash -c 'ranked "$@"' ranked $app --devices $devices $small --no-grid --verify --json
  done
fi
IFS=: read -r j2side j2steps j2warm <<<"${J2:-90112:320:64}"
IFS=: read -r j3side j3steps j3warm <<<"${J3:-2016:128:32}"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for app in $apps; do
    if [ "$app" = sw ]; then
      for length in ${SW:-1048576}; do
        args="--size $length --alphabet protein --devices $devices --width 32 --json"
        for g in $counts; do
          record "sw-$length-${g}gpu" "$round" env STARPU_NCUDA=$g timeout 200 "$here/run.sh" smith-waterman $args
          [ "$g" -gt 1 ] && [ "${MPI:-1}" = 1 ] && record "sw-$length-${g}rank" "$round" env CUDA_VISIBLE_DEVICES=$(visible $g) timeout 200 $mpi -np $g bash -c 'ranked "$@"' ranked smith-waterman $args
        done
      done
      continue
    fi
    if [ "$app" = jacobi2d ]; then dims=2 side=$j2side steps=$j2steps warm=$j2warm; else dims=3 side=$j3side steps=$j3steps warm=$j3warm; fi
    for kind in ${KINDS:-strong weak}; do
      for g in $counts; do
        [ "$kind" = weak ] && [ "$g" = 1 ] && continue  # the strong 1-GPU run is weak's base too
        if [ "$kind" = strong ]; then size=$(weak_size $dims "$side" 1); else size=$(weak_size $dims "$side" "$g"); fi
        args="--devices $devices --size $size --steps $steps --warmup-steps $warm --no-grid --json"
        record "$app-$kind-${g}gpu" "$round" env STARPU_NCUDA=$g timeout 300 "$here/run.sh" $app $args
        [ "$g" -gt 1 ] && [ "${MPI:-1}" = 1 ] && record "$app-$kind-${g}rank" "$round" env CUDA_VISIBLE_DEVICES=$(visible $g) timeout 300 $mpi -np $g bash -c 'ranked "$@"' ranked $app $args
      done
    done
  done
done
tail -5 "$out/err.log" 2>/dev/null
python3 - "$rows" "$out/scaling_table.json" "$here/../scripts" <<'PY'
import json, re, statistics, sys
sys.path.insert(0, sys.argv[3])
import scaling_model
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by, walls = {}, {}
for r in rows:
    if r["report"]:
        by.setdefault(r["variant"], []).append(r["report"])
        walls.setdefault(r["variant"], []).append(r["wall"])
def med(values):
    return statistics.median(values) if values else float("nan")
def stepping(v):
    return med([x["stepping_seconds"] for x in by.get(v, []) if x.get("stepping_seconds")])
def whole(v):
    return med([x["seconds"] for x in by.get(v, [])])
table = []
print(f"{'variant':22} {'n':>2} {'size':>17} {'H':>3} {'k':>2} {'step s':>8} {'spread':>15} {'whole s':>8} "
      f"{'wall s':>7} {'GCUPS':>7} {'x 1GPU':>7} {'whole x':>7} {'eff':>6} {'model':>13} {'GPU-GPU GB':>10} {'pred GB':>8} check")
for v, reports in by.items():
    r = reports[0]
    parts = v.split("-")
    app, kind, where = parts[0], parts[1] if len(parts) > 2 else "", parts[-1]
    g = int(re.match(r"(\d+)(gpu|rank)$", where).group(1))
    row = dict(variant=v, runs=len(reports), size=r.get("size"), height=r.get("height"), kernel_height=r.get("kernel_height"),
               tile=r.get("tile"), scheduler=r.get("scheduler"), ranks=r.get("ranks"),
               median_whole_seconds=whole(v), min_whole_seconds=min(x["seconds"] for x in reports),
               max_whole_seconds=max(x["seconds"] for x in reports), median_wall_seconds=med(walls[v]),
               gpu_to_gpu_gb=med([x.get("gpu_to_gpu_bytes", 0) for x in reports]) / 1e9,
               predicted_exchange_gb=(med([x["predicted_exchange_bytes"] for x in reports]) / 1e9
                                      if r.get("predicted_exchange_bytes") is not None else None),
               checks=sorted({str(x.get("checksum") or f"{x.get('score')}/{x.get('last_cell')}") for x in reports}),
               verified=[x.get("verified") for x in reports])
    if app == "sw":
        base = f"sw-{kind}-1gpu"
        row.update(gcups=med([x["gcups"] for x in reports]), speedup=whole(base) / whole(v), efficiency=whole(base) / whole(v) / g)
        step_text = spread = "-"
        model_text = "-"
    elif kind in ("strong", "weak"):
        base = f"{app}-strong-1gpu"
        s = sorted(x["stepping_seconds"] for x in reports if x.get("stepping_seconds"))
        cells = 1
        for e in r["size"].split("x"):
            cells *= int(e)
        steps = r["steps"] - r["warmup_steps"]
        one_rate = None
        if base in by:
            b = by[base][0]
            base_cells = 1
            for e in b["size"].split("x"):
                base_cells *= int(e)
            one_rate = base_cells * (b["steps"] - b["warmup_steps"]) / stepping(base) / 1e9
        speedup = stepping(base) / stepping(v) * (cells / base_cells if base in by else float("nan"))
        row.update(median_stepping_seconds=stepping(v), min_stepping_seconds=s[0] if s else None,
                   max_stepping_seconds=s[-1] if s else None, gcups=cells * steps / stepping(v) / 1e9,
                   speedup=speedup, whole_speedup=whole(base) / whole(v) * (cells / base_cells if base in by else float("nan")),
                   efficiency=speedup / g)
        dims = 2 if app == "jacobi2d" else 3
        # The runtime's cut: slabs along the slowest dimension, one a GPU
        # (end GPUs send one strip, middle ones two); ranks through mailboxes.
        extent = tuple(int(e) for e in r["size"].split("x"))
        model = scaling_model.predict(app, g, extent, r["height"], r["kernel_height"], rate=one_rate,
                                      owners=(1,) * (dims - 1) + (g,), neighbours=min(2, g - 1),
                                      mailboxes=where.endswith("rank")) if one_rate else None
        if model:
            lo, hi = model["efficiency_no_overlap"], model["efficiency_overlap"]
            row.update(model_speedup_no_overlap=lo * g, model_speedup_overlap=hi * g)
            model_text = f"{lo * g:5.2f}-{hi * g:5.2f}x"
        else:
            model_text = "-"
        step_text = f"{stepping(v):8.3f}"
        spread = f"{s[0]:7.3f}-{s[-1]:7.3f}" if s else "-"
    else:  # small verified runs
        row.update(gcups=r.get("gcups"), speedup=float("nan"), efficiency=float("nan"))
        step_text = spread = model_text = "-"
    table.append(row)
    pred = row["predicted_exchange_gb"]
    check = ",".join(row["checks"]) + (" verified" if all(row["verified"]) else "")
    print(f"{v:22} {len(reports):>2} {str(r.get('size') or r.get('tile')):>17} {str(r.get('height', '-')):>3} {str(r.get('kernel_height', '-')):>2} "
          f"{step_text:>8} {spread:>15} {row['median_whole_seconds']:8.3f} {row['median_wall_seconds']:7.1f} {row['gcups'] or 0:7.1f} "
          f"{row.get('speedup', float('nan')):7.3f} {row.get('whole_speedup', float('nan')):7.3f} {row.get('efficiency', float('nan')):6.3f} "
          f"{model_text:>13} {row['gpu_to_gpu_gb']:10.3f} {pred if pred is not None else float('nan'):8.3f} {check}")
json.dump(table, open(sys.argv[2], "w"), indent=1)
# Bit-exactness: every variant of one domain (one process or ranks) the same checksum.
groups = {}
for v, reports in by.items():
    app = v.split("-")[0]
    for x in reports:
        key = (app, x.get("size") or f"{x.get('rows')}x{x.get('columns')}")
        groups.setdefault(key, set()).add(str(x.get("checksum") or f"{x.get('score')}/{x.get('last_cell')}"))
for (app, size), sums in sorted(groups.items()):
    print(f"{app} {size}: {'checksums equal' if len(sums) == 1 else 'CHECKSUMS DIFFER: ' + ', '.join(sorted(sums))}")
PY
echo "done at $(( $(date +%s) - start )) s"
