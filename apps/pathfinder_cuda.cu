// pathfinder's stencil on CUDA workers.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/pathfinder.hpp"

TRAPEZE_CUDA_STENCIL(apps::Pathfinder)
