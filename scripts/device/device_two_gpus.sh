#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Two GPUs of one node (issue 12), on nvidia-h100-x2 or nvidia-h200-x2:
# jacobi2d and jacobi3d float on 1 GPU (STARPU_NCUDA=1), on 2 GPUs in one
# process, and on 2 MPI ranks (one GPU each, chosen by the runtime),
# interleaved rounds, medians of the apps' own seconds; the checksums of the
# three must be equal (bit for bit); the bytes StarPU moved between the GPUs
# against one cut's halo; then the scheduling policies on 2 GPUs.
# JSON rows in $OUT/two_gpus.jsonl, the table also as $OUT/two_gpus_table.json; a table last.
# Env: ROUNDS (3; 0 skips the scaling part), J2 (65536x65536:1024), J3 (1536x1536x1536:256),
# GPU_COUNTS ("1 2": GPUs of the one-process variants), MPI (1: add the 2-rank variant), POLICIES ("trapeze-owner lws dmda eager"),
# POLICY_ROUNDS (2), POLICY_APPS ("jacobi2d"), POLICY_J2 (J2's size:steps),
# COPIES ("auto": TRAPEZE_COPY_THREADS values to interleave, e.g. "auto 1"; a
# variant with N gets "-copyN" in its name and is compared with 1 GPU at N;
# the 2-rank variant runs with the first value only), MPI_SCHEDS (empty: the
# 2-rank variant under the default policy; e.g. "eager trapeze-owner": one
# 2-rank variant per policy, named "-2rank-<policy>", for border tiles first
# across ranks), LIBS ("lib": bundle folders of StarPU builds to interleave,
# e.g. "lib lib-blocking"; a variant with another folder than lib gets
# "-<folder>" in its name and is compared with 1 GPU on the same folder).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
rows=$out/two_gpus.jsonl; : > "$rows"
nvidia-smi -L
nvidia-smi topo -m 2>/dev/null | head -5
source "$here/mpi_ranked.sh"
mpi="$mpi -np 2"
# The GPU height profiles, made once and cached in the bundle (one GPU and two).
for app in jacobi2d jacobi3d; do
  for g in 1 2; do STARPU_NCUDA=$g timeout 300 "$here/run.sh" $app --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"; done
done
record() {  # name round command...
  local name=$1 round=$2; shift 2
  local line
  line=$("$@" 2>>"$out/err.log" | tail -1)
  case "$line" in \{*) ;; *) echo "round $round $name: no report ($line)"; line= ;; esac
  echo "{\"variant\": \"$name\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  echo "round $round $name: $(echo "$line" | cut -c1-200)"
}
IFS=: read -r j2size j2steps <<<"${J2:-65536x65536:1024}"
IFS=: read -r j3size j3steps <<<"${J3:-1536x1536x1536:256}"
copies_list=${COPIES:-auto}; first_copies=${copies_list%% *}
for round in $(seq 1 "${ROUNDS:-3}"); do
  [ "${ROUNDS:-3}" = 0 ] && break
  for app in jacobi2d jacobi3d; do
    if [ "$app" = jacobi2d ]; then size=$j2size steps=$j2steps; else size=$j3size steps=$j3steps; fi
    args="--devices gpu --size $size --steps $steps --checksum --json"
    for libs in ${LIBS:-lib}; do
    export BUNDLE_LIBS=$libs
    for copies in $copies_list; do
      if [ "$copies" = auto ]; then suffix= copy_env=(); else suffix=-copy$copies copy_env=(TRAPEZE_COPY_THREADS=$copies); fi
      [ "$libs" = lib ] || suffix=$suffix-$libs
      for g in ${GPU_COUNTS:-1 2}; do
        record "$app-${g}gpu$suffix" "$round" env "${copy_env[@]}" STARPU_NCUDA=$g timeout 300 "$here/run.sh" $app $args
      done
      if [ "${MPI:-1}" = 1 ] && [ "$copies" = "$first_copies" ]; then
        for sched in ${MPI_SCHEDS:-default}; do
          if [ "$sched" = default ]; then name=$app-2rank$suffix sched_env=(); else name=$app-2rank-$sched$suffix sched_env=(STARPU_SCHED=$sched); fi
          record "$name" "$round" env "${copy_env[@]}" "${sched_env[@]}" timeout 300 $mpi bash -c 'ranked "$@"' ranked $app $args
        done
      fi
    done
    done
    unset BUNDLE_LIBS
  done
done
IFS=: read -r p2size p2steps <<<"${POLICY_J2:-$j2size:$j2steps}"
for round in $(seq 1 "${POLICY_ROUNDS:-2}"); do
  for sched in ${POLICIES:-trapeze-owner lws dmda eager}; do
    for app in ${POLICY_APPS:-jacobi2d}; do
      if [ "$app" = jacobi2d ]; then size=$p2size steps=$p2steps; else size=$j3size steps=$j3steps; fi
      record "$app-2gpu-$sched" "$round" env STARPU_NCUDA=2 STARPU_SCHED=$sched timeout 300 "$here/run.sh" $app --devices gpu --size "$size" --steps "$steps" --json
    done
  done
done
tail -5 "$out/err.log" 2>/dev/null
python3 - "$rows" "$out/two_gpus_table.json" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]:
        by.setdefault(r["variant"], []).append(r["report"])
def med(v):
    return statistics.median(x["seconds"] for x in by[v]) if v in by else float("nan")
table = []
print(f"{'variant':32} {'n':>2} {'sched':>13} {'tile':>16} {'H':>3} {'k':>2} {'median s':>9} {'spread':>15} {'GCUPS':>7} {'GPU-GPU GB':>10} {'pred GB':>8} {'vs 1 GPU':>8} checksums")
for v, reports in by.items():
    s = sorted(x["seconds"] for x in reports)
    r = reports[0]
    app = v.split("-")[0]
    base = v.replace("2gpu", "1gpu").replace("2rank", "1gpu")
    for sched in ("-eager", "-trapeze-owner", "-lws", "-dmda"):
        if "2rank" in v:
            base = base.replace(sched, "")
    one = med(base)  # nan when the scaling part was skipped
    ext = [int(e) for e in r["size"].split("x")]
    stages = -(-r["steps"] // r["height"])
    # One cut across the slowest dimension: each stage sends a ghost of H
    # planes (radius 1) of the other dimensions each way.
    face = ext[0] * (ext[1] if len(ext) == 3 else 1)
    two = "-2gpu" in v or "-2rank" in v
    predicted = stages * 2 * r["height"] * face * 4 / 1e9 if two else 0.0
    sums = sorted({x.get("checksum") or "-" for x in reports})
    row = dict(variant=v, runs=len(s), scheduler=r.get("scheduler"), tile=r["tile"], height=r["height"],
               kernel_height=r["kernel_height"], median_seconds=statistics.median(s), min_seconds=s[0], max_seconds=s[-1],
               gcups=statistics.median(x["gcups"] for x in reports),
               gpu_to_gpu_gb=statistics.median(x["gpu_to_gpu_bytes"] for x in reports) / 1e9,
               predicted_gb=predicted, speedup_vs_1gpu=one / statistics.median(s), checksums=sums)
    table.append(row)
    print(f"{v:32} {len(s):>2} {str(r.get('scheduler')):>13} {r['tile']:>16} {r['height']:>3} {r['kernel_height']:>2} {row['median_seconds']:9.4f} "
          f"{s[0]:7.3f}-{s[-1]:7.3f} {row['gcups']:7.1f} {row['gpu_to_gpu_gb']:10.3f} {predicted:8.3f} {row['speedup_vs_1gpu']:8.3f} {','.join(sums)}")
json.dump(table, open(sys.argv[2], "w"), indent=1)
for app in ("jacobi2d", "jacobi3d"):
    sums = {x.get("checksum") for v in by if v.startswith(app + "-") for x in by[v]} - {None}
    if sums:
        print(f"{app}: {'checksums equal' if len(sums) == 1 else 'CHECKSUMS DIFFER: ' + ', '.join(map(str, sums))}")
PY
