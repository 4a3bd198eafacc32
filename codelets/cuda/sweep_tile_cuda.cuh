#pragma once
// The CUDA implementation of one sweep over a tile, the twin of
// codelets/cpu/sweep_tile_cpu.hpp over the same buffers
// (codelets/sweep_args.hpp): the PeerWave kernel over the tile's hyper-tiles,
// then the edges copied into the strips the neighbours read. Everything runs
// on the task's StarPU stream (STARPU_CUDA_ASYNC).
#include <starpu.h>

#include "cuda_check.cuh"
#include "sweep_peerwave_kernel.cuh"
#include "../sweep_args.hpp"
#include "trapeze/sweep.hpp"

namespace trapeze::cuda {

template <InPlaceSweep S>
void sweep_tile_cuda(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  SweepTileArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const cudaStream_t stream = starpu_cuda_get_local_stream();
  const auto strip = [&](int b) { return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[b])); };
  SweepTile<T> tile{reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[0])),
                    static_cast<Index>(STARPU_MATRIX_GET_LD(buffers[0])),
                    static_cast<Index>(STARPU_MATRIX_GET_NY(buffers[0])),
                    static_cast<Index>(STARPU_MATRIX_GET_NX(buffers[0])),
                    args.first_row, args.first_column, strip(1), strip(2), strip(3), strip(4)};
  const HyperTiles h = hyper_tiles(tile.rows, tile.columns, args.hyper_tile_width);
  int* progress = nullptr;
  const std::size_t flags = static_cast<std::size_t>(h.bands) * static_cast<std::size_t>(args.sweeps);
  TRAPEZE_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&progress), sizeof(int) * flags, stream));
  launch_sweep_peerwave(*args.sweep, tile, h, args.sweeps, progress, resident_peerwave_blocks<S>(h.chunk), stream);
  TRAPEZE_CUDA_CHECK(cudaFreeAsync(progress, stream));
  const std::size_t pitch = sizeof(T) * static_cast<std::size_t>(tile.ld);
  const auto rows = static_cast<std::size_t>(tile.rows), columns = static_cast<std::size_t>(tile.columns);
  int next = 5;
  if (args.publishes_last_row) {
    TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(strip(next++), tile.cells + (rows - 1) * tile.ld, columns * sizeof(T),
                                       cudaMemcpyDeviceToDevice, stream));
  }
  if (args.publishes_last_column) {
    TRAPEZE_CUDA_CHECK(cudaMemcpy2DAsync(strip(next++), sizeof(T), tile.cells + columns - 1, pitch, sizeof(T), rows,
                                         cudaMemcpyDeviceToDevice, stream));
  }
  if (args.publishes_first_row) {
    TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(strip(next++), tile.cells, columns * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }
  if (args.publishes_first_column) {
    TRAPEZE_CUDA_CHECK(cudaMemcpy2DAsync(strip(next++), sizeof(T), tile.cells, pitch, sizeof(T), rows,
                                         cudaMemcpyDeviceToDevice, stream));
  }
}

}  // namespace trapeze::cuda
