// sor's sweep on CUDA workers: one line.
#include "trapeze/cuda_sweep.cuh"
#include "wavefronts/over_relaxation.hpp"

TRAPEZE_CUDA_SWEEP(apps::OverRelaxation)
