#pragma once
// The CUDA IPC calls of trapeze/cuda_ipc.hpp, compiled by nvcc in the
// application and registered once per program (an inline variable).
#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "trapeze/cuda_ipc.hpp"
#include "trapeze/error.hpp"

namespace trapeze::cuda_ipc {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw Error(std::string(what) + " failed: " + cudaGetErrorString(status));
}

inline void* allocate_shared(int device, std::size_t bytes, CudaIpcHandle& handle) {
  check(cudaSetDevice(device), "cudaSetDevice");
  void* allocation = nullptr;
  check(cudaMalloc(&allocation, bytes), "cudaMalloc of the node's halo mailboxes");
  cudaIpcMemHandle_t ipc;
  if (const cudaError_t status = cudaIpcGetMemHandle(&ipc, allocation); status != cudaSuccess) {
    cudaFree(allocation);
    check(status, "cudaIpcGetMemHandle");
  }
  static_assert(sizeof ipc == sizeof handle);
  std::memcpy(handle.data(), &ipc, sizeof ipc);
  return allocation;
}

inline void* open_shared(int device, const CudaIpcHandle& handle) {
  if (cudaSetDevice(device) != cudaSuccess) return nullptr;
  cudaIpcMemHandle_t ipc;
  std::memcpy(&ipc, handle.data(), sizeof ipc);
  void* mapped = nullptr;
  if (cudaIpcOpenMemHandle(&mapped, ipc, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clear it for StarPU's next check
    return nullptr;
  }
  return mapped;
}

inline void close_shared(int device, void* mapped) {
  cudaSetDevice(device);
  cudaIpcCloseMemHandle(mapped);
}

inline void free_shared(int device, void* allocation) {
  cudaSetDevice(device);
  cudaFree(allocation);
}

[[maybe_unused]] inline const bool registered =
    register_cuda_ipc({&allocate_shared, &open_shared, &close_shared, &free_shared});

}  // namespace trapeze::cuda_ipc
