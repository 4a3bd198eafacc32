#!/usr/bin/env bash
# Automatic plans under small GPU caps: they must run (and verify), not be refused by their own fit check.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
j() { python3 -c "
import json,sys
lines=[l for l in sys.stdin.read().splitlines() if l.startswith('{')]
if not lines: print('no report'); sys.exit()
d=json.loads(lines[-1]); print('verified', d.get('verified'), 'tile', d['tile'], 'H', d['height'], 'k', d['kernel_height'], 'ooc', d['out_of_core'], '%.3f s' % d['seconds'])"; }
./run.sh jacobi2d --devices gpu --size 4096 --steps 64 --json > /dev/null 2>&1
echo "jacobi2d 4096^2 96 steps cap 16: $(STARPU_LIMIT_CUDA_MEM=16 timeout 90 ./run.sh jacobi2d --devices gpu --size 4096 --steps 96 --verify --json 2>&1 | tee /tmp/j16.txt | j) $(grep -m1 error /tmp/j16.txt)"
echo "jacobi2d 4096^2 96 steps cap 24: $(STARPU_LIMIT_CUDA_MEM=24 timeout 90 ./run.sh jacobi2d --devices gpu --size 4096 --steps 96 --verify --json 2>&1 | j)"
echo "hotspot 4096^2 96 steps cap 32: $(STARPU_LIMIT_CUDA_MEM=32 timeout 90 ./run.sh hotspot --devices gpu --size 4096 --steps 96 --verify --json 2>&1 | j)"
echo "cip 2048^2 96 steps cap 32: $(STARPU_LIMIT_CUDA_MEM=32 TRAPEZE_STALL_SECONDS=20 timeout 90 ./run.sh cip --devices gpu --size 2048x2048 --steps 96 --verify --json 2>&1 | tee /tmp/c32.txt | j) $(grep -m1 -i "error\|no task" /tmp/c32.txt | cut -c1-200)"
echo "jacobi2d 16384^2 512 steps cap 256: $(STARPU_LIMIT_CUDA_MEM=256 timeout 90 ./run.sh jacobi2d --devices gpu --size 16384 --steps 512 --json 2>&1 | j)"
