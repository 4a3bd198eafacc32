// smith-waterman's tiles on CUDA workers: one line.
#include "trapeze/cuda_wavefront.cuh"
#include "wavefronts/smith_waterman.hpp"

TRAPEZE_CUDA_WAVEFRONT(apps::SmithWaterman)
