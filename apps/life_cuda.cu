// life's stencil on CUDA workers.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/life.hpp"

TRAPEZE_CUDA_STENCIL(apps::Life)
