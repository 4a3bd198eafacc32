#pragma once
// The GPU layout conversions (codelets/cuda/layout_kernels.cuh) behind host
// vectors, for gpu_layout_test.cpp; compiled by nvcc in layouts_cuda.cu.
#include <vector>

#include "trapeze/banded_layout.hpp"
#include "trapeze/layout.hpp"

namespace tests {

// Whether a CUDA device is there to run them.
bool cuda_device_present();

template <typename T>
std::vector<T> gpu_convert_layout(const std::vector<T>& in, trapeze::Layout2D from, trapeze::Layout2D to,
                                  trapeze::Index rows, trapeze::Index columns);

template <typename T>
std::vector<T> gpu_swap_dimensions(const std::vector<T>& in, const trapeze::Extent& extent, int a, int b);

// A tile (rows of `ld` cells) to the banded layout (layout.cells() cells,
// padding poisoned), and a banded copy back into a poisoned tile of rows x ld.
template <typename T>
std::vector<T> gpu_to_banded(const std::vector<T>& tile, trapeze::Index ld, const trapeze::BandedLayout& layout);
template <typename T>
std::vector<T> gpu_from_banded(const std::vector<T>& banded, const trapeze::BandedLayout& layout, trapeze::Index ld);

// The cells of an integral histogram of 5 bins: a cell too large for the shared tile.
struct TwentyByteCell {
  unsigned int word[5];
};

}  // namespace tests
