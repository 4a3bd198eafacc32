#pragma once
// The GPU layout conversions (codelets/cuda/layout_kernels.cuh) behind host
// vectors, for gpu_layout_test.cpp; compiled by nvcc in layouts_cuda.cu.
#include <vector>

#include "trapeze/layout.hpp"

namespace tests {

// Whether a CUDA device is there to run them.
bool cuda_device_present();

template <typename T>
std::vector<T> gpu_convert_layout(const std::vector<T>& in, trapeze::Layout2D from, trapeze::Layout2D to,
                                  trapeze::Index rows, trapeze::Index columns);

template <typename T>
std::vector<T> gpu_swap_dimensions(const std::vector<T>& in, const trapeze::Extent& extent, int a, int b);

}  // namespace tests
