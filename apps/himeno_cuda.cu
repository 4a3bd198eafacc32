// himeno's stencil on CUDA workers.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/himeno.hpp"

TRAPEZE_CUDA_STENCIL(apps::Himeno)
