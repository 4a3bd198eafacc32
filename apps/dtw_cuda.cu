// dtw's tiles on CUDA workers: one line.
#include "trapeze/cuda_wavefront.cuh"
#include "wavefronts/dynamic_time_warping.hpp"

TRAPEZE_CUDA_WAVEFRONT(apps::DynamicTimeWarping)
