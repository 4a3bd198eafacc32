#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The task window on the GPU: default window against everything up front, interleaved, 4 rounds; a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/run.sh
for round in 1 2 3 4; do
  for w in 0 1000000000; do
    for case in "--size 1024 --height 1 --kernel-height 1 --steps 20000" "--size 8192 --height 8 --kernel-height 8 --steps 2000"; do
      s=$("$run" jacobi2d $case --window $w --json 2>/dev/null | grep '^{' | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['seconds'], d['devices'], d['tiles'])")
      echo "$round|$w|$case|$s"
    done
  done
done > /tmp/gw.txt
python3 - <<'PY'
import collections, statistics
rows=[l.strip().split('|') for l in open('/tmp/gw.txt')]
d=collections.defaultdict(list)
for r,w,case,s in rows: d[(case,w)].append(float(s.split()[0]))
print(open('/tmp/gw.txt').read())
for case in dict.fromkeys(c for _,_,c,_ in rows):
    a=d[(case,'0')]; b=d[(case,'1000000000')]
    ratios=[y/x for x,y in zip(a,b)]
    print(f"{case:55s} window {statistics.median(a):.3f}s  upfront {statistics.median(b):.3f}s  upfront/window {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})")
PY
