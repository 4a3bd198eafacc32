#pragma once
// Makes a stencil run on CUDA workers: in one .cu file of the application,
//
//   #include "trapeze/cuda_stencil.cuh"
//   #include "stencils/jacobi2d.hpp"
//   TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<float>)
//
// instantiates the runtime's kernels for the stencil's point-update function
// and registers them (trapeze/cuda_stencils.hpp), so StencilRun adds them to
// its codelets beside the CPU ones. No kernel code from the stencil's author.
#include <typeinfo>

#include "codelets/cuda/skewed_cuda.cuh"
#include "codelets/cuda/stage_cuda.cuh"
#include "trapeze/cuda_ipc.cuh"  // halo pieces between ranks of a node, GPU to GPU
#include "trapeze/cuda_stencils.hpp"

#define TRAPEZE_CUDA_CONCAT_INNER(a, b) a##b
#define TRAPEZE_CUDA_CONCAT(a, b) TRAPEZE_CUDA_CONCAT_INNER(a, b)
#define TRAPEZE_CUDA_STENCIL(...)                                                                      \
  [[maybe_unused]] static const bool TRAPEZE_CUDA_CONCAT(trapeze_cuda_stencil_registered_, __COUNTER__) = \
      ::trapeze::register_cuda_stencil(typeid(__VA_ARGS__), ::trapeze::CudaStencilFunctions{          \
                                           &::trapeze::cuda::stage_cuda<__VA_ARGS__>,                    \
                                           &::trapeze::cuda::skewed_task_cuda<__VA_ARGS__>});
