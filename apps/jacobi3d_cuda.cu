// jacobi3d's stencils on CUDA workers: one line each.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/jacobi3d.hpp"

TRAPEZE_CUDA_STENCIL(apps::Jacobi3D<float>)
TRAPEZE_CUDA_STENCIL(apps::Jacobi3D<double>)
