// The test programs' wavefronts on CUDA workers.
#include "trapeze/cuda_wavefront.cuh"
#include "wavefronts/dynamic_time_warping.hpp"
#include "wavefronts/integral_histogram.hpp"
#include "wavefronts/smith_waterman.hpp"
#include "wavefronts/summed_area_table.hpp"

TRAPEZE_CUDA_WAVEFRONT(apps::SmithWaterman)
TRAPEZE_CUDA_WAVEFRONT(apps::DynamicTimeWarping)
TRAPEZE_CUDA_WAVEFRONT(apps::SummedAreaTable)
TRAPEZE_CUDA_WAVEFRONT(apps::IntegralHistogram<5>)
