#!/usr/bin/env bash
# Session 29, call 4: the out-of-core tile weighed by the GPU model among the
# automatic tile and two larger ones (this tree) against 0eb060a (bin/*-prev),
# automatic plans, in core and capped; capped --verify runs.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/h APP=himeno SIZE=L STEPS=128 CAP=448 ROUNDS=3 BUILDS="himeno himeno-prev" PROFILE_SIZE=S RUN_TIMEOUT=60 ./device_ooc_builds.sh > "$OUT/h.txt" 2>&1
OUT=$OUT/c APP=cip SIZE=16384 STEPS=256 CAP=1280 ROUNDS=2 BUILDS="cip cip-prev" PROFILE_SIZE=1024 RUN_TIMEOUT=60 ./device_ooc_builds.sh > "$OUT/c.txt" 2>&1
OUT=$OUT/j ROUNDS=2 RUN_TIMEOUT=60 ./device_ooc_builds.sh > "$OUT/j.txt" 2>&1
{
  STARPU_LIMIT_CUDA_MEM=56 timeout 60 ./run.sh himeno --devices gpu --size M --steps 40 --verify; echo "rc=$?"
  STARPU_LIMIT_CUDA_MEM=80 timeout 60 ./run.sh cip --devices gpu --size 4096x4096 --steps 64 --verify; echo "rc=$?"
  STARPU_LIMIT_CUDA_MEM=64 timeout 60 ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify; echo "rc=$?"
} > "$OUT/verify.txt" 2>&1
echo "== verify"; grep -E 'verified|differ|rc=|rror' "$OUT/verify.txt"
for f in h c j; do echo "== $f"; tail -6 "$OUT/$f.txt"; done
