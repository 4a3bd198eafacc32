#!/usr/bin/env bash
# gpu_stencils (no sweep) with the patched StarPU (lib) and the unpatched blocking one (lib-unpatched), in turn.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"; out=${OUT:-/tmp/out}
n=0
for L in lib lib-unpatched lib lib-unpatched; do
  n=$((n + 1))
  echo "== run $n: $L"
  BUNDLE_LIBS=$L timeout 140 ./run.sh gpu_stencils --apps ${APPS:-jacobi2d,jacobi3d} --rounds 3 --no-sweep --json-out $out/stencils-$n-$L.json > $out/stencils-$n-$L.txt 2>&1
  grep -E "^(app|jacobi|hotspot|life|pathfinder) " $out/stencils-$n-$L.txt
done
