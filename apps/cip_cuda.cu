// cip's scheme on CUDA workers.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/cip.hpp"

TRAPEZE_CUDA_STENCIL(apps::Cip<float>)
TRAPEZE_CUDA_STENCIL(apps::Cip<double>)
