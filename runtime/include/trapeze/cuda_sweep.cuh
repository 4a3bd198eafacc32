#pragma once
// Makes an in-place sweep run on CUDA workers: in one .cu file of the
// application,
//
//   #include "trapeze/cuda_sweep.cuh"
//   #include "wavefronts/heat_2d.hpp"
//   TRAPEZE_CUDA_SWEEP(apps::Heat2D)
//
// instantiates the runtime's PeerWave kernel for the sweep's cell update and
// registers it (trapeze/cuda_stencils.hpp), so SweepRun adds it to its
// codelet beside the CPU one. No kernel code from the sweep's author.
#include <typeinfo>

#include "codelets/cuda/sweep_tile_cuda.cuh"
#include "trapeze/cuda_stencils.hpp"

#define TRAPEZE_CUDA_SWEEP_CONCAT_INNER(a, b) a##b
#define TRAPEZE_CUDA_SWEEP_CONCAT(a, b) TRAPEZE_CUDA_SWEEP_CONCAT_INNER(a, b)
#define TRAPEZE_CUDA_SWEEP(...)                                                                              \
  [[maybe_unused]] static const bool TRAPEZE_CUDA_SWEEP_CONCAT(trapeze_cuda_sweep_registered_, __COUNTER__) = \
      ::trapeze::register_cuda_stencil(                                                                      \
          typeid(__VA_ARGS__),                                                                                \
          ::trapeze::CudaStencilFunctions{.sweep_tile = &::trapeze::cuda::sweep_tile_cuda<__VA_ARGS__>,       \
                                          .sweep_resident_blocks = &::trapeze::cuda::resident_peerwave_blocks<__VA_ARGS__>});
