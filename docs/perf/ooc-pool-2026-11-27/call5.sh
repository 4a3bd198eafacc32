#!/usr/bin/env bash
# Session 28, call 5: why the capped jacobi2d run is bimodal (about 0.43 s
# or 0.55-0.66 s, same plan). Suspect: the NUMA node of the pinned host tiles
# (allocated and pinned by the unbound main thread) against the GPU's node.
# Topology first; with several NUMA nodes, capped runs bound to the GPU's
# node, to the other node, and unbound, interleaved; the summary of each
# run's JSON (seconds, PCIe bytes) and where its time went.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
lscpu | grep -iE "^(CPU\(s\)|Socket|NUMA|Model name)" 
nvidia-smi topo -m 2>&1 | head -8
command -v numactl && numactl -H | head -6
last_json() { grep '^{' | tail -1; }
j=(jacobi2d --devices gpu --size 16384 --steps 512 --json)
nodes=$(lscpu | awk -F: '/^NUMA node\(s\)/ {gsub(/ /,"",$2); print $2}')
bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1 | tr 'A-F' 'a-f'); bus=${bus:4}
gpu_node=$(cat "/sys/bus/pci/devices/$bus/numa_node" 2>/dev/null || echo -1)
echo "NUMA nodes: $nodes, GPU 0's node: $gpu_node"
variants="core cap"
if [ "${nodes:-1}" -gt 1 ] && command -v numactl > /dev/null; then
  [ "$gpu_node" -ge 0 ] 2>/dev/null || gpu_node=0
  far=$(( gpu_node == 0 ? 1 : 0 ))
  variants="core cap cap-near cap-far"
fi
rows=$out/numa.jsonl; : > "$rows"
./run.sh "${j[@]}" > /dev/null 2>&1
for round in 1 2 3 4 5; do
  for v in $variants; do
    pre=(); lim=(STARPU_LIMIT_CUDA_MEM=256)
    case $v in core) lim=() ;; cap-near) pre=(numactl --cpunodebind=$gpu_node --membind=$gpu_node) ;; cap-far) pre=(numactl --cpunodebind=$far --membind=$far) ;; esac
    line=$(env "${lim[@]}" timeout 90 "${pre[@]}" ./run.sh "${j[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
# Two traced capped runs (unbound), for where a slow one's time goes.
for n in 1 2 3; do
  STARPU_LIMIT_CUDA_MEM=256 timeout 90 ./run.sh "${j[@]}" --trace "$out/trace-cap$n" 2>/dev/null | last_json | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print('traced cap $n', round(r['seconds'],4), round(r['pcie_bytes']/1e9,2))"
done
rm -f "$out"/trace-cap*/prof_file* "$out"/trace-cap*/*.trace 2>/dev/null
du -sh "$out"/trace-cap* 2>/dev/null
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], [])
    if r["report"]: by[r["variant"]].append(r["report"])
core = statistics.median(x["seconds"] for x in by["core"])
print(f"{'variant':9} {'n':>2} {'median s':>9} {'rounds (s)':>40} {'vs core':>7}")
for v, rep in by.items():
    s = [x["seconds"] for x in rep]; m = statistics.median(s)
    print(f"{v:9} {len(s):2} {m:9.4f} {' '.join('%.3f' % x for x in s):>40} {core / m:7.3f}")
PY
