#pragma once
// Makes a wavefront run on CUDA workers: in one .cu file of the application,
//
//   #include "trapeze/cuda_wavefront.cuh"
//   #include "wavefronts/smith_waterman.hpp"
//   TRAPEZE_CUDA_WAVEFRONT(apps::SmithWaterman)
//
// instantiates the runtime's PeerWave kernel for the wavefront's cell update
// (its operator(), and fold/merge when it folds a result, declared
// TRAPEZE_HOST_DEVICE) and registers it (trapeze/cuda_stencils.hpp), so
// WavefrontRun adds it to its codelet beside the CPU one. No kernel code from
// the wavefront's author.
#include <typeinfo>

#include "codelets/cuda/wavefront_tile_cuda.cuh"
#include "trapeze/cuda_stencils.hpp"

#define TRAPEZE_CUDA_WAVEFRONT_CONCAT_INNER(a, b) a##b
#define TRAPEZE_CUDA_WAVEFRONT_CONCAT(a, b) TRAPEZE_CUDA_WAVEFRONT_CONCAT_INNER(a, b)
#define TRAPEZE_CUDA_WAVEFRONT(...)                                                                        \
  [[maybe_unused]] static const bool TRAPEZE_CUDA_WAVEFRONT_CONCAT(trapeze_cuda_wavefront_registered_,    \
                                                                   __COUNTER__) =                         \
      ::trapeze::register_cuda_stencil(                                                                   \
          typeid(__VA_ARGS__),                                                                            \
          ::trapeze::CudaStencilFunctions{nullptr, nullptr, &::trapeze::cuda::wavefront_tile_cuda<__VA_ARGS__>,    \
                                          &::trapeze::cuda::wavefront_geometry<__VA_ARGS__>});
