// hotspot's stencil on CUDA workers.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/hotspot.hpp"

TRAPEZE_CUDA_STENCIL(apps::Hotspot)
