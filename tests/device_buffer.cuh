#pragma once
// Device memory for the GPU suites' direct kernel launches: freed with its owner.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "codelets/cuda/cuda_check.cuh"

namespace tests {

template <typename T>
struct Device {
  T* data = nullptr;
  explicit Device(std::size_t n) { TRAPEZE_CUDA_CHECK(cudaMalloc(&data, sizeof(T) * (n > 0 ? n : 1))); }
  ~Device() { cudaFree(data); }
  Device(Device&& other) noexcept : data(std::exchange(other.data, nullptr)) {}
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
};

}  // namespace tests
