// jacobi2d's stencils on CUDA workers: one line each.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/jacobi2d.hpp"

TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<float>)
TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<double>)
