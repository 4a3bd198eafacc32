// The test programs' sweeps on CUDA workers.
#include "trapeze/cuda_sweep.cuh"
#include "wavefronts/heat_2d.hpp"
#include "wavefronts/over_relaxation.hpp"

TRAPEZE_CUDA_SWEEP(apps::Heat2D)
TRAPEZE_CUDA_SWEEP(apps::OverRelaxation)
