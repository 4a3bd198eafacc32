#!/usr/bin/env bash
# Blocking StarPU (lib), blocking with the CUDA pipeline kept (lib-pipeline), polling (lib-polling):
# jacobi2d 16384^2 512 steps in core and capped to a quarter; jacobi2d 32768^2 whole runs; pathfinder h = 1 against the plain loop.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}
f() { python3 -c "
import json,sys
d=json.loads(sys.stdin.read().strip().splitlines()[-1])
print('%.4f s %.1f GCUPS tile %s H %s k %s pcie %.2f GB' % (d['seconds'], d['gcups'], d['tile'], d['height'], d['kernel_height'], d.get('pcie_bytes',0)/1e9))" 2>/dev/null || echo "no report"; }
./run.sh jacobi2d --devices gpu --size 4096 --steps 64 --json > /dev/null 2>&1
for r in 1 2 3; do
  for L in lib lib-pipeline lib-polling; do
    echo "r$r $L core:   $(BUNDLE_LIBS=$L timeout 120 ./run.sh jacobi2d --devices gpu --size 16384 --steps 512 --json 2>>$out/err.log | f)"
    echo "r$r $L cap256: $(STARPU_LIMIT_CUDA_MEM=256 BUNDLE_LIBS=$L timeout 120 ./run.sh jacobi2d --devices gpu --size 16384 --steps 512 --json 2>>$out/err.log | f)"
    echo "r$r $L whole32768: $(BUNDLE_LIBS=$L timeout 120 ./run.sh jacobi2d --devices gpu --size 32768 --steps 256 --json 2>>$out/err.log | f)"
  done
done
for L in lib lib-pipeline lib-polling; do
  echo "== pathfinder $L"
  BUNDLE_LIBS=$L timeout 150 ./run.sh gpu_stencils --apps pathfinder --rounds 2 --no-sweep > $out/pf-$L.txt 2>&1
  grep -E "^(app|pathfinder)" $out/pf-$L.txt
done
grep -v "perfmodels/sampling" $out/err.log | sort | uniq -c | head
