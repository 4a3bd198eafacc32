#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
for r in 1 2; do for pad in 0 30000 100000; do
  echo "== pad $pad r$r"; PAD=$pad timeout 60 "$here/run.sh" gpu_sweeps_pad --size 16384 --sweeps 10 --widths 32 --rounds 2 --json /tmp/x.json 2>&1 | grep -E "^sor|^heat|rror"
done; done
