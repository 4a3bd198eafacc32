#!/usr/bin/env bash
# Sourced by the device scripts that start the bundle's apps under mpirun
# (needs $here, the bundle): `ranked APP ARGS...` runs a bundled program as
# one rank, on the machine's Open MPI library (it matches the machine's
# mpirun) and the bundle's libraries for the rest; `$mpi` is the launcher.
mpilib=$(dirname "$(ldconfig -p | awk '/libmpi.so.40 / {print $NF; exit}')" 2>/dev/null)
[ -f "$mpilib/libmpi.so.40" ] || mpilib=$(cd "$(dirname "$(command -v mpirun)")/../lib" && pwd)
ranked() {
  env LD_LIBRARY_PATH="$mpilib:${BUNDLE_LIBS:+$here/$BUNDLE_LIBS:}$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" \
    TRAPEZE_HOME="$here/trapeze-home" STARPU_SILENT=1 "$here/bin/$@"
}
export -f ranked; export here mpilib
mpi="mpirun --allow-run-as-root --oversubscribe --bind-to none"
# `start_rows NAME`: makes $out (OUT, or /tmp/out) and an empty $rows, $out/NAME.jsonl.
start_rows() {
  out=${OUT:-/tmp/out}; mkdir -p "$out"
  rows=$out/$1.jsonl; : > "$rows"
}
# `record_run NAME COMMAND...`: runs an app (300 s at most), appends its
# --json line as {"variant": NAME, "report": ...} to $rows (stderr to
# $out/err.log) and prints the start of it.
record_run() {
  local name=$1; shift
  local line; line=$(timeout 300 "$@" 2>>"$out/err.log" | grep '^{' | tail -1)
  echo "{\"variant\": \"$name\", \"report\": ${line:-null}}" >> "$rows"
  echo "$name: $(echo "$line" | cut -c1-160)"
}
# `mpi_stepping_table ROWS`: the table of a jsonl of {"variant", "report"}
# rows (the apps' --json lines): medians of the stepping time per variant
# (the whole run's where a run has no warm-up), against the variant named
# 1gpu, or PREFIX-1gpu for a variant PREFIX-..., with the node exchange, the
# verification and the checksums each variant gave; runs that printed no
# JSON line count as failed.
mpi_stepping_table() {
  python3 - "$1" <<'PY'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    by.setdefault(r["variant"], []).append(r["report"])
def base_of(variant):
    parts = variant.split("-")
    for cut in range(len(parts) - 1, 0, -1):
        name = "-".join(parts[:cut]) + "-1gpu"
        if name in by: return name
    return "1gpu"
def median_seconds(reports):
    key = "stepping_seconds" if reports[0].get("stepping_seconds") else "seconds"
    return statistics.median(x[key] for x in reports), sorted(x[key] for x in reports)
print(f"{'variant':28} {'n':>4} {'exchange':>8} {'tile':>16} {'H':>3} {'k':>2} {'step s':>8} {'spread':>15} {'x 1 GPU':>8} "
      f"{'whole s':>8} verified checksum")
for v, rs in by.items():
    ok = [x for x in rs if x]
    if not ok:
        print(f"{v:28} {len(rs):>4} FAILED (see err.log)"); continue
    m, s = median_seconds(ok)
    base = [x for x in by.get(base_of(v), []) if x]
    b = median_seconds(base)[0] if base else float("nan")
    print(f"{v:28} {len(ok)}/{len(rs):<2} {str(ok[0].get('node_exchange') or '-'):>8} {ok[0]['tile']:>16} {ok[0]['height']:>3} "
          f"{ok[0]['kernel_height']:>2} {m:8.3f} {s[0]:7.3f}-{s[-1]:7.3f} {b / m:8.3f} "
          f"{statistics.median(x['seconds'] for x in ok):8.3f} {','.join(sorted({str(x.get('verified')) for x in ok}))} "
          f"{','.join(sorted({str(x['checksum']) for x in ok}))}")
PY
}
# `jacobi3d_stepping_setup`: what the 2-rank jacobi3d scripts share: $size,
# $planes and $args from SIZE (2016x2016x2016), STEPS (126) and WARM (36
# steps of warm-up), then one run on one GPU that profiles the heights.
jacobi3d_stepping_setup() {
  size=${SIZE:-2016x2016x2016}
  planes=${size##*x}
  args="--devices gpu --size $size --steps ${STEPS:-126} --warmup-steps ${WARM:-36} --no-grid --json"
  nvidia-smi -L
  STARPU_NCUDA=1 timeout 300 "$here/run.sh" jacobi3d --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"
}
