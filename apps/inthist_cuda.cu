// inthist's tiles on CUDA workers: one line per bin count it offers.
#include "trapeze/cuda_wavefront.cuh"
#include "wavefronts/integral_histogram.hpp"

TRAPEZE_CUDA_WAVEFRONT(apps::IntegralHistogram<8>)
TRAPEZE_CUDA_WAVEFRONT(apps::IntegralHistogram<16>)
TRAPEZE_CUDA_WAVEFRONT(apps::IntegralHistogram<32>)
TRAPEZE_CUDA_WAVEFRONT(apps::IntegralHistogram<64>)
