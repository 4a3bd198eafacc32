// The apps' stencils on CUDA workers, for the suites that run them.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/cip.hpp"
#include "stencils/himeno.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/life_bits.hpp"
#include "stencils/life_byte_words.hpp"
#include "stencils/pathfinder.hpp"

TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<float>)
TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<double>)
TRAPEZE_CUDA_STENCIL(apps::Jacobi3D<float>)
TRAPEZE_CUDA_STENCIL(apps::Jacobi3D<double>)
TRAPEZE_CUDA_STENCIL(apps::Hotspot)
TRAPEZE_CUDA_STENCIL(apps::Life)
TRAPEZE_CUDA_STENCIL(apps::LifeBits)
TRAPEZE_CUDA_STENCIL(apps::LifeByteWords)
TRAPEZE_CUDA_STENCIL(apps::Pathfinder)
TRAPEZE_CUDA_STENCIL(apps::Himeno)
TRAPEZE_CUDA_STENCIL(apps::Cip<float>)
TRAPEZE_CUDA_STENCIL(apps::Cip<double>)
