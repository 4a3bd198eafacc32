// The radius-2 box stencils of the GPU equality tests on CUDA workers
// (gpu_equality_test alone: the other suites that take stencils_cuda.cu do
// not need their kernels compiled).
#include "trapeze/cuda_stencil.cuh"
#include "weighted_box.hpp"

TRAPEZE_CUDA_STENCIL(tests::WeightedBox<2, 2>)
TRAPEZE_CUDA_STENCIL(tests::WeightedBox<1, 2>)
