// heat2d's sweep on CUDA workers: one line.
#include "trapeze/cuda_sweep.cuh"
#include "wavefronts/heat_2d.hpp"

TRAPEZE_CUDA_SWEEP(apps::Heat2D)
