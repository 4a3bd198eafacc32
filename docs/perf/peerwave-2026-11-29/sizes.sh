#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
for r in 1 2; do for n in 2048 4096 8192; do for b in gpu_sweeps_old gpu_sweeps; do
  echo "== $b n=$n r$r"; timeout 60 "$here/run.sh" $b --size $n --sweeps 10 --widths 32 --rounds 3 --json /tmp/x.json 2>&1 | grep -E "^sor|^heat2d"
done; done; done
