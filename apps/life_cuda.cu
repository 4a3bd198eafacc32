// life's stencils on CUDA workers: byte cells and 32 cells a word.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/life.hpp"
#include "stencils/life_bits.hpp"

TRAPEZE_CUDA_STENCIL(apps::Life)
TRAPEZE_CUDA_STENCIL(apps::LifeBits)
