#!/usr/bin/env bash
# Streamed tiles with one device buffer, the second in the stage task's
# scratch buffer (bin/jacobi2d), against two device buffers per tile
# (bin/jacobi2d-two, the tree before): jacobi2d 16384^2 capped to 256 MiB,
# interleaved rounds; then capped --verify runs and the GPU equality cases.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
run() { timeout "${RUN_TIMEOUT:-60}" ./run.sh "$@"; }
last_json() { grep '^{' | tail -1; }
brief() { python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('verified', r['verified'], r['tile'], 'H', r['height'], 'k', r['kernel_height'], 's', round(r['seconds'],3))" "$1" 2>&1; }
for b in jacobi2d jacobi2d-two; do run $b --devices gpu --size 4096 --steps 64 --json >/dev/null 2>&1; done
j=(--devices gpu --size 16384 --steps 512 --json)
rows=$out/scratch.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core cap cap-two capH180 capH180-two; do
    b=jacobi2d; [[ $v == *-two ]] && b=jacobi2d-two
    env=(STARPU_LIMIT_CUDA_MEM=256); extra=()
    [ $v = core ] && env=()
    [[ $v == capH180* ]] && extra=(--height 180 --kernel-height 12)
    line=$(env "${env[@]}" ./run.sh $b "${j[@]}" "${extra[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
base = statistics.median(x["seconds"] for x in by["core"]) if "core" in by else None
print(f"{'variant':12} {'tile':>11} {'H':>4} {'k':>3} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs core':>7}")
for v, rep in by.items():
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    print(f"{v:12} {r['tile']:>11} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x['pcie_bytes'] for x in rep)/1e9:8.2f} {base / m if base else 0:7.3f}")
PY
echo "verify jacobi2d 8192^2 under 64 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=64 run jacobi2d --devices gpu --size 8192 --steps 300 --verify --json 2>/dev/null | last_json)")"
echo "verify cip 4096^2 under 80 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=80 run cip --devices gpu --size 4096 --steps 100 --verify --json 2>/dev/null | last_json)")"
echo "verify hotspot 4096^2 under 32 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=32 run hotspot --devices gpu --size 4096 --steps 100 --verify --json 2>/dev/null | last_json)")"
STARPU_NCPU=2 timeout 150 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.StreamedTiles*:GpuEquality.Jacobi2DFloat:GpuEquality.Jacobi3D' > "$out/equality.txt" 2>&1; echo "gpu_equality_test rc=$?"
grep -E "^\[  (PASSED|FAILED)|OK \]|FAILED  \]" "$out/equality.txt" | tail -6
STARPU_NCUDA=1 STARPU_NCPU=2 timeout 120 ./run.sh "$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)" --tool memcheck --error-exitcode 9 --print-limit 20 \
  "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*' > "$out/memcheck.txt" 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.txt" | head -3
