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

#include "codelets/cuda/banded_layout_kernels.cuh"
#include "codelets/cuda/wavefront_tile_cuda.cuh"
#include "trapeze/cuda_stencils.hpp"

namespace trapeze::cuda {

// The tile codelet, its layout for the width model, and the conversions of
// its cell inputs and output to and from the banded layout.
template <Wavefront W>
CudaStencilFunctions wavefront_functions() {
  CudaStencilFunctions f;
  f.wavefront_tile = &wavefront_tile_cuda<W>;
  f.wavefront_geometry = &wavefront_geometry<W>;
  f.wavefront_lane_rows[0] = wavefront_most_lane_rows<W>;
  f.wavefront_lane_rows[1] = wavefront_fewer_lane_rows<W>;
  if constexpr (has_input_v<cell_input_of<W>>) f.wavefront_inputs_to_banded = &to_banded_cuda<cell_input_of<W>>;
  f.wavefront_output_from_banded = &from_banded_cuda<typename W::value_type>;
  return f;
}

}  // namespace trapeze::cuda

#define TRAPEZE_CUDA_WAVEFRONT_CONCAT_INNER(a, b) a##b
#define TRAPEZE_CUDA_WAVEFRONT_CONCAT(a, b) TRAPEZE_CUDA_WAVEFRONT_CONCAT_INNER(a, b)
#define TRAPEZE_CUDA_WAVEFRONT(...)                                                                        \
  [[maybe_unused]] static const bool TRAPEZE_CUDA_WAVEFRONT_CONCAT(trapeze_cuda_wavefront_registered_,    \
                                                                   __COUNTER__) =                         \
      ::trapeze::register_cuda_stencil(typeid(__VA_ARGS__), ::trapeze::cuda::wavefront_functions<__VA_ARGS__>());
