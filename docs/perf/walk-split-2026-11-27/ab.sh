#!/usr/bin/env bash
# Walk split (codelets/cuda/walk_split.hpp) against the policy's fixed walk
# (bin/jacobi2d-policy: the same tree with walk_planes_per_block returning the
# policy's planes): correctness, out-of-core jacobi2d 16384^2 capped to a quarter,
# in core, interleaved rounds; then the in-core stencils benchmark.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
run() { timeout "${RUN_TIMEOUT:-120}" ./run.sh "$@"; }
STARPU_NCPU=2 timeout 200 ./run.sh gpu_equality_test --gtest_filter=-GpuSanitizer.* > "$out/equality.txt" 2>&1; echo "gpu_equality_test rc=$?"
grep -E "^\[  (PASSED|FAILED)" "$out/equality.txt"
STARPU_NCUDA=1 timeout 200 ./run.sh "$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)" --tool memcheck --error-exitcode 9 --print-limit 20 \
  "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*' > "$out/memcheck.txt" 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.txt" | head -5
size=16384; steps=512; cap=256
common=(--devices gpu --size $size --steps $steps --json)
for b in jacobi2d jacobi2d-policy; do
  echo "verify $b (capped to 16 MiB of a 4096^2 domain): $(STARPU_LIMIT_CUDA_MEM=16 run $b --devices gpu --size 4096 --steps 96 --verify --json 2>&1 | tail -1 | cut -c1-300)"
  echo "verify $b in core 3000x2000 (uneven walks): $(run $b --devices gpu --size 3000x2000 --height 64 --kernel-height 16 --steps 100 --verify --json 2>&1 | tail -1 | cut -c1-200)"
done
probe=$(STARPU_LIMIT_CUDA_MEM=$cap run jacobi2d "${common[@]}" 2>/dev/null | tail -1); echo "probe: $probe"
tile=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['tile'])" "$probe")
height=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['height'])" "$probe")
kernel=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['kernel_height'])" "$probe")
rows=$out/ab.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core cap cap-policy same same-policy capH192 capH256; do
    case $v in
      core) line=$(run jacobi2d "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
      cap) line=$(STARPU_LIMIT_CUDA_MEM=$cap run jacobi2d "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
      cap-policy) line=$(STARPU_LIMIT_CUDA_MEM=$cap run jacobi2d-policy "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
      same) line=$(run jacobi2d "${common[@]}" --tile "$tile" --height "$height" --kernel-height "$kernel" 2>>"$out/err.log" | tail -1) ;;
      same-policy) line=$(run jacobi2d-policy "${common[@]}" --tile "$tile" --height "$height" --kernel-height "$kernel" 2>>"$out/err.log" | tail -1) ;;
      capH*) line=$(STARPU_LIMIT_CUDA_MEM=$cap run jacobi2d "${common[@]}" --height "${v#capH}" 2>>"$out/err.log" | tail -1) ;;
    esac
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
    echo "round $round $v: $(echo "$line" | cut -c1-160)"
  done
done
timeout 240 ./run.sh gpu_stencils --apps jacobi2d,jacobi3d --rounds 2 --no-sweep --json-out "$out/stencils.json" > "$out/stencils.txt" 2>&1; echo "gpu_stencils rc=$?"
tail -6 "$out/stencils.txt"
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
base = statistics.median(x["seconds"] for x in by["core"]) if "core" in by else None
print(f"{'variant':12} {'tile':>11} {'H':>4} {'k':>3} {'median s':>9} {'spread':>13} {'GCUPS':>7} {'PCIe GB':>8} {'vs core':>7}")
for v, rep in by.items():
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    print(f"{v:12} {r['tile']:>11} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x['gcups'] for x in rep):7.1f} {statistics.median(x['pcie_bytes'] for x in rep)/1e9:8.2f} "
          f"{base / m if base else 0:7.3f}")
PY
