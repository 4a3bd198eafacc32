// life's stencils on CUDA workers: byte cells one at a time and four to a
// word, and 32 cells a word.
#include "trapeze/cuda_stencil.cuh"
#include "stencils/life.hpp"
#include "stencils/life_bits.hpp"
#include "stencils/life_byte_words.hpp"

TRAPEZE_CUDA_STENCIL(apps::Life)
TRAPEZE_CUDA_STENCIL(apps::LifeBits)
TRAPEZE_CUDA_STENCIL(apps::LifeByteWords)
