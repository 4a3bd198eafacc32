// sat's tiles on CUDA workers: one line.
#include "trapeze/cuda_wavefront.cuh"
#include "wavefronts/summed_area_table.hpp"

TRAPEZE_CUDA_WAVEFRONT(apps::SummedAreaTable)
