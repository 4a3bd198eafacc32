// tests/gpu_layouts.hpp on the device: copy in, convert, copy out; the output
// is poisoned first, so a cell the kernel never writes cannot pass.
#include <cuda_runtime.h>

#include <cstdint>

#include "codelets/cuda/banded_layout_kernels.cuh"
#include "codelets/cuda/layout_kernels.cuh"
#include "device_buffer.cuh"
#include "gpu_layouts.hpp"

namespace tests {

namespace {

template <typename T, typename Launch>
std::vector<T> on_device(const std::vector<T>& in, Launch launch) {
  Device<T> from(in.size()), to(in.size()), scratch(in.size());
  TRAPEZE_CUDA_CHECK(cudaMemcpy(from.data, in.data(), sizeof(T) * in.size(), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemset(to.data, 0xA5, sizeof(T) * in.size()));
  launch(from.data, to.data, scratch.data);
  TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<T> out(in.size());
  TRAPEZE_CUDA_CHECK(cudaMemcpy(out.data(), to.data, sizeof(T) * in.size(), cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace

bool cuda_device_present() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

template <typename T>
std::vector<T> gpu_convert_layout(const std::vector<T>& in, trapeze::Layout2D from, trapeze::Layout2D to,
                                  trapeze::Index rows, trapeze::Index columns) {
  return on_device(in, [&](const T* a, T* b, T* scratch) {
    trapeze::cuda::convert_layout_on_gpu(a, from, b, to, rows, columns, nullptr, scratch);
  });
}

template <typename T>
std::vector<T> gpu_swap_dimensions(const std::vector<T>& in, const trapeze::Extent& extent, int a, int b) {
  return on_device(in, [&](const T* x, T* y, T*) { trapeze::cuda::swap_dimensions_on_gpu(x, y, extent, a, b, nullptr); });
}

template <typename T, bool ToBanded>
std::vector<T> banded_on_device(const std::vector<T>& in, std::size_t out_size, trapeze::Index ld,
                                const trapeze::BandedLayout& layout) {
  Device<T> from(in.size()), to(out_size);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(from.data, in.data(), sizeof(T) * in.size(), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemset(to.data, 0xA5, sizeof(T) * out_size));
  trapeze::cuda::launch_banded_conversion<T, ToBanded>(from.data, to.data, ld, layout, nullptr);
  TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<T> out(out_size);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(out.data(), to.data, sizeof(T) * out_size, cudaMemcpyDeviceToHost));
  return out;
}

template <typename T>
std::vector<T> gpu_to_banded(const std::vector<T>& tile, trapeze::Index ld, const trapeze::BandedLayout& layout) {
  return banded_on_device<T, true>(tile, static_cast<std::size_t>(layout.cells()), ld, layout);
}

template <typename T>
std::vector<T> gpu_from_banded(const std::vector<T>& banded, const trapeze::BandedLayout& layout, trapeze::Index ld) {
  return banded_on_device<T, false>(banded, static_cast<std::size_t>(layout.rows * ld), ld, layout);
}

#define TESTS_GPU_BANDED(T)                                                                                     \
  template std::vector<T> gpu_to_banded<T>(const std::vector<T>&, trapeze::Index, const trapeze::BandedLayout&); \
  template std::vector<T> gpu_from_banded<T>(const std::vector<T>&, const trapeze::BandedLayout&, trapeze::Index);
TESTS_GPU_BANDED(std::uint8_t)
TESTS_GPU_BANDED(std::uint32_t)
TESTS_GPU_BANDED(std::uint64_t)
TESTS_GPU_BANDED(TwentyByteCell)

#define TESTS_GPU_LAYOUTS(T)                                                                                                  \
  template std::vector<T> gpu_convert_layout<T>(const std::vector<T>&, trapeze::Layout2D, trapeze::Layout2D, trapeze::Index, \
                                                trapeze::Index);                                                              \
  template std::vector<T> gpu_swap_dimensions<T>(const std::vector<T>&, const trapeze::Extent&, int, int);
TESTS_GPU_LAYOUTS(std::uint8_t)
TESTS_GPU_LAYOUTS(float)
TESTS_GPU_LAYOUTS(double)

}  // namespace tests
