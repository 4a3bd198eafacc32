#pragma once
// What the GPU benchmarks time with: a device buffer and an event that free
// themselves, and the median of a sample.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "codelets/cuda/cuda_check.cuh"

namespace bench {

template <typename T>
struct DeviceBuffer {
  T* data = nullptr;
  explicit DeviceBuffer(std::size_t count) { TRAPEZE_CUDA_CHECK(cudaMalloc(&data, std::max<std::size_t>(1, count) * sizeof(T))); }
  ~DeviceBuffer() { cudaFree(data); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct Event {
  cudaEvent_t event{};
  Event() { TRAPEZE_CUDA_CHECK(cudaEventCreate(&event)); }
  ~Event() { cudaEventDestroy(event); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

inline double seconds_between(const Event& start, const Event& stop) {
  TRAPEZE_CUDA_CHECK(cudaEventSynchronize(stop.event));
  float ms = 0;
  TRAPEZE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event, stop.event));
  return ms * 1e-3;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace bench
