#pragma once
// Which stencils have CUDA implementations in this program. A stencil's CUDA
// codelets are compiled by nvcc in a .cu file of the application that holds
//     TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<float>)
// (trapeze/cuda_stencil.cuh), which registers them here when the
// program starts; StencilRun, compiled by the host compiler, finds them by the
// stencil's type. Without such a line (or without nvcc) the stencil runs on
// CPU workers only, with the same binary and results.
//
// The table is filled during static initialisation only and read afterwards,
// like a test framework's list of tests; it is the one process-wide table
// outside the Runtime object, because it describes the program, not a run.
#include <starpu.h>

#include <cstdint>
#include <typeinfo>

#include "trapeze/plan.hpp"
#include "trapeze/wavefront.hpp"

namespace trapeze {

struct CudaStencilFunctions {
  starpu_cuda_func_t stage = nullptr;  // a trapezoid stage (codelets/stage_args.hpp's buffers)
  // A skewed-slab task (codelets/skewed_args.hpp's buffers), registered with
  // the stage by TRAPEZE_CUDA_STENCIL.
  starpu_cuda_func_t skewed_task = nullptr;
  // Of an in-place sweep (trapeze/sweep.hpp), registered the same way by
  // TRAPEZE_CUDA_SWEEP (trapeze/cuda_sweep.cuh): one sweep of a tile
  // (codelets/sweep_args.hpp's buffers).
  starpu_cuda_func_t sweep_tile = nullptr;
  // Of a wavefront (trapeze/wavefront.hpp), by TRAPEZE_CUDA_WAVEFRONT
  // (trapeze/cuda_wavefront.cuh): one tile (codelets/wavefront_args.hpp's buffers).
  starpu_cuda_func_t wavefront_tile = nullptr;
  // How that codelet lays out a tile of rows x columns at a hyper-tile width
  // (bands, resident warps): what the width model needs of the kernel.
  WavefrontGeometry (*wavefront_geometry)(Index rows, Index columns, int width) = nullptr;
  // The rows a lane of that codelet may hold (the most, then fewer): a tile
  // banded for a GPU (trapeze/banded_layout.hpp) has lanes of one of them.
  int wavefront_lane_rows[2] = {0, 0};
  // The wavefront's layout conversion tasks on a GPU (codelets/banded_layout_args.hpp's
  // buffers): its cell inputs to the banded layout (null without cell inputs),
  // its output back to row-major.
  starpu_cuda_func_t wavefront_inputs_to_banded = nullptr;
  starpu_cuda_func_t wavefront_output_from_banded = nullptr;
  // Of an in-place sweep, with sweep_tile: how many blocks of its PeerWave
  // kernel the GPU holds at once at a hyper-tile width (the sweep width
  // model's P(w), trapeze/sweep_width_model.hpp).
  int (*sweep_resident_blocks)(int width) = nullptr;
};

// Returns true so a namespace-scope `const bool` can call it at start-up.
bool register_cuda_stencil(const std::type_info& stencil, const CudaStencilFunctions& functions);
const CudaStencilFunctions* find_cuda_stencil(const std::type_info& stencil);

template <typename S>
const CudaStencilFunctions* cuda_functions_of() {
  return find_cuda_stencil(typeid(S));
}

// Where a codelet's tasks may run (Plan::devices, SweepPlan::devices):
// automatic is the GPUs when the program has a CUDA codelet for `what` (a
// stencil, a sweep) and StarPU a CUDA worker, else the CPUs; gpu without
// either is an error saying which is missing.
std::uint32_t codelet_where(StageDevices devices, bool has_cuda_codelet, const char* what);

}  // namespace trapeze
