#pragma once
// GPU memory that other processes of the node map (CUDA IPC), for halo pieces
// between MPI ranks of one node (trapeze/node_exchange.hpp). The runtime is
// compiled by the host compiler without the CUDA runtime library, so, like a
// stencil's kernels (trapeze/cuda_stencils.hpp), these calls are compiled by
// nvcc in the application (trapeze/cuda_ipc.cuh, which cuda_stencil.cuh
// includes) and registered here at start-up. Without them (no nvcc, or no
// CUDA stencil in the program) halo pieces between ranks go through MPI.
#include <array>
#include <cstddef>

namespace trapeze {

using CudaIpcHandle = std::array<char, 64>;  // cudaIpcMemHandle_t's bytes

struct CudaIpcFunctions {
  // cudaMalloc of `bytes` on `device` and its handle for other processes.
  // Throws trapeze::Error naming the failed call.
  void* (*allocate_shared)(int device, std::size_t bytes, CudaIpcHandle& handle) = nullptr;
  // Maps another process's allocation into this one, with `device` current
  // (peer access enabled); null when CUDA refuses (no peer access between the
  // two GPUs, or a GPU this process does not see).
  void* (*open_shared)(int device, const CudaIpcHandle& handle) = nullptr;
  void (*close_shared)(int device, void* mapped) = nullptr;
  void (*free_shared)(int device, void* allocation) = nullptr;
};

// Returns true so a namespace-scope `const bool` can call it at start-up.
bool register_cuda_ipc(const CudaIpcFunctions& functions);
// Null when the program registered none.
const CudaIpcFunctions* find_cuda_ipc();

}  // namespace trapeze
