#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12, the MPI paths of session 17 on GPUs (nvidia-h200-x2 or nvidia-h100-x2):
#  1. --no-grid across ranks: jacobi2d 4096^2 and jacobi3d 256^3 on 2 ranks
#     with --verify (the banded reference dealt to the ranks), checksums equal
#     to the held-grid 1-GPU run's;
#  2. --no-grid on 1 GPU against 2 ranks (a GPU each), interleaved rounds,
#     medians of the apps' seconds: no grid to copy in or out, and no gather;
#  3. a checkpoint across 2 ranks: the run with --checkpoint every E steps
#     against the same run without, interleaved; the checkpoint restarted on
#     1 rank ends with the uninterrupted run's checksum.
# JSON rows in $OUT/mpi_paths.jsonl; a table last.
# Env: ROUNDS (3), J2 (49152x49152:1024), J3 (1024x1024x1024:512), CK (16384x16384:250:64, size:steps:every; steps not a multiple of every, so the restart has steps to run).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
rows=$out/mpi_paths.jsonl; : > "$rows"
nvidia-smi -L
source "$here/mpi_ranked.sh"
mpi2="$mpi -np 2"
record() {  # name round command...
  local name=$1 round=$2; shift 2
  local line
  line=$("$@" 2>>"$out/err.log" | grep '^{' | tail -1)
  [ -n "$line" ] || echo "round $round $name: no report"
  echo "{\"variant\": \"$name\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  echo "round $round $name: $(echo "$line" | cut -c1-160)"
}
# 1. Correctness on GPUs, small sizes.
record j2-held-1gpu 0 env STARPU_NCUDA=1 timeout 300 "$here/run.sh" jacobi2d --devices gpu --size 4096 --steps 64 --checksum --json
record j2-nogrid-2rank-verify 0 timeout 300 $mpi2 bash -c 'ranked "$@"' ranked jacobi2d --devices gpu --size 4096 --steps 64 --no-grid --verify --json
record j3-held-1gpu 0 env STARPU_NCUDA=1 timeout 300 "$here/run.sh" jacobi3d --devices gpu --size 256 --steps 32 --checksum --json
record j3-nogrid-2rank-verify 0 timeout 300 $mpi2 bash -c 'ranked "$@"' ranked jacobi3d --devices gpu --size 256 --steps 32 --no-grid --verify --json
# 2. and 3., interleaved.
IFS=: read -r j2size j2steps <<<"${J2:-49152x49152:1024}"
IFS=: read -r j3size j3steps <<<"${J3:-1024x1024x1024:512}"
IFS=: read -r cksize cksteps ckevery <<<"${CK:-16384x16384:250:64}"
ck=$out/checkpoint.h5
for round in $(seq 1 "${ROUNDS:-3}"); do
  for app in jacobi2d jacobi3d; do
    if [ "$app" = jacobi2d ]; then size=$j2size steps=$j2steps; else size=$j3size steps=$j3steps; fi
    args="--devices gpu --size $size --steps $steps --no-grid --json"
    record "$app-nogrid-1gpu" "$round" env STARPU_NCUDA=1 timeout 300 "$here/run.sh" $app $args
    record "$app-nogrid-2rank" "$round" timeout 300 $mpi2 bash -c 'ranked "$@"' ranked $app $args
  done
  args="--devices gpu --size $cksize --steps $cksteps --checksum --json"
  record ck-none-2rank "$round" timeout 300 $mpi2 bash -c 'ranked "$@"' ranked jacobi2d $args
  record ck-every-2rank "$round" timeout 300 $mpi2 bash -c 'ranked "$@"' ranked jacobi2d $args --checkpoint "$ck" --checkpoint-every "$ckevery"
  record ck-restart-1gpu "$round" env STARPU_NCUDA=1 timeout 300 "$here/run.sh" jacobi2d $args --restart "$ck"
done
tail -5 "$out/err.log" 2>/dev/null
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], []).append(r["report"] or {})
def med(name):
    s = [x["seconds"] for x in by.get(name, []) if "seconds" in x]
    return statistics.median(s) if s else float("nan")
def sums(name):
    return sorted({x.get("checksum") for x in by.get(name, [])})
print("\ncorrectness (small sizes)")
for a, b in (("j2-held-1gpu", "j2-nogrid-2rank-verify"), ("j3-held-1gpu", "j3-nogrid-2rank-verify")):
    x, y = (by.get(a) or [{}])[0], (by.get(b) or [{}])[0]
    print(f"{b:26} verified={y.get('verified')} checksum={y.get('checksum')} held 1 GPU={x.get('checksum')} "
          f"{'EQUAL' if x.get('checksum') and x.get('checksum') == y.get('checksum') else 'DIFFER'}")
print(f"\n{'variant':20} {'median s':>9} {'rounds':>6}  checksums")
for name in by:
    if name.startswith(("j2-", "j3-")): continue
    print(f"{name:20} {med(name):9.3f} {len(by[name]):6d}  {sums(name)}")
for app in ("jacobi2d", "jacobi3d"):
    print(f"{app} --no-grid: 2 ranks over 1 GPU {med(app + '-nogrid-1gpu') / med(app + '-nogrid-2rank'):.3f}x")
print(f"checkpoints across 2 ranks: {med('ck-every-2rank') / med('ck-none-2rank'):.3f}x the time without; "
      f"restart on 1 GPU ends as the uninterrupted run: {sums('ck-restart-1gpu') == sums('ck-none-2rank')}")
PY
