#pragma once
// The CUDA implementation of a wavefront tile, the twin of
// codelets/cpu/wavefront_tile_cpu.hpp over the same buffers
// (codelets/wavefront_args.hpp): one PeerWave launch over the tile's
// hyper-tiles, its fold merged into the result, then the strips left as the
// CPU leaves them. Everything runs on the task's StarPU stream
// (STARPU_CUDA_ASYNC); scratch memory is allocated on it too.
#include <starpu.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.cuh"
#include "wavefront_peerwave_kernel.cuh"
#include "../wavefront_args.hpp"
#include "trapeze/wavefront.hpp"

namespace trapeze::cuda {

// Scratch of one task, freed on its stream.
template <typename T>
struct StreamScratch {
  T* data = nullptr;
  cudaStream_t stream;
  StreamScratch(std::size_t count, cudaStream_t s) : stream(s) {
    if (count > 0) TRAPEZE_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&data), sizeof(T) * count, stream));
  }
  ~StreamScratch() {
    if (data) TRAPEZE_CUDA_CHECK(cudaFreeAsync(data, stream));
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
};

// The ring of band rows (a row per resident warp: a wide tile's can be tens
// of GB) takes at most half the GPU's free memory; fewer warps run at once
// beyond that.
inline std::size_t wavefront_ring_bytes() {
  std::size_t free = 0, total = 0;
  TRAPEZE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free / 2;
}

// Blocks of a PeerWave launch over a tile of `columns` with hyper-tiles h:
// as many as the GPU holds at once, no more than the bands need, and no more
// than the ring of band rows leaves room for.
template <Wavefront W, int L>
int peerwave_blocks(const WavefrontHyperTiles& h, Index columns) {
  const std::size_t row_bytes = sizeof(typename W::value_type) * static_cast<std::size_t>(std::max<Index>(columns, 1));
  const int ring_blocks =
      static_cast<int>(std::max<std::size_t>(1, (wavefront_ring_bytes() / row_bytes) / wavefront_block_warps));
  return std::max(1, std::min({resident_wavefront_blocks<W, L>(h.width), ring_blocks,
                               (h.bands + wavefront_block_warps - 1) / wavefront_block_warps}));
}

// One tile with lanes of L rows: scratch, the PeerWave launch, the strips.
template <Wavefront W, int L>
void sweep_wavefront_tile(const W& w, WavefrontTileDevice<W> t, typename W::value_type* left, result_of<W>* result,
                          int width, cudaStream_t stream) {
  using T = typename W::value_type;
  using Result = result_of<W>;
  const WavefrontHyperTiles h = wavefront_hyper_tiles(t.rows, t.columns, width, L);
  const int blocks = peerwave_blocks<W, L>(h, t.columns);
  const int ring_rows = wavefront_ring_rows(h.bands, blocks);
  StreamScratch<T> left_out(static_cast<std::size_t>(t.rows), stream);
  StreamScratch<int> progress(static_cast<std::size_t>(h.bands), stream);
  StreamScratch<T> ring(static_cast<std::size_t>(ring_rows) * static_cast<std::size_t>(t.columns), stream);
  StreamScratch<Result> lane_results(
      folds_result_v<W> ? static_cast<std::size_t>(blocks) * 32 * wavefront_block_warps : 0, stream);
  t.left_out = left_out.data;
  launch_wavefront_peerwave<W, L>(w, t, h, blocks, progress.data, ring.data, ring_rows, lane_results.data, result, stream);
  // As the CPU leaves them: the top strip's corner is the left value of the
  // tile's last row (the tile below's up-left), the left strip the last column.
  TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(t.top, left + (t.rows - 1), sizeof(T), cudaMemcpyDeviceToDevice, stream));
  TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(left, left_out.data, sizeof(T) * static_cast<std::size_t>(t.rows),
                                     cudaMemcpyDeviceToDevice, stream));
}

// Whether lanes of the most rows suit a tile of `rows`: when its bands of
// 32 x most rows still number at least half the warps the GPU holds at once.
// Measured on an H100, Smith-Waterman protein, kernels alone (docs/PERF.md):
// 16 rows a lane against 8 at 65536^2 47 against 68 G cells/s, at 262144^2
// 189 against 257, at 1048576^2 576 against 487; this rule picks 8, 8, 16.
template <Wavefront W>
bool most_lane_rows_suit(Index rows, int width) {
  constexpr int most = wavefront_most_lane_rows<W>;
  const Index bands = (rows + 32 * most - 1) / (32 * most);
  const Index warps = static_cast<Index>(resident_wavefront_blocks<W, most>(width)) * wavefront_block_warps;
  return 2 * bands >= warps;
}

// The lanes' rows a tile of `rows` gets at this width (the codelet's choice).
template <Wavefront W>
bool takes_most_lane_rows(Index rows, int width) {
  if constexpr (wavefront_most_lane_rows<W> == wavefront_fewer_lane_rows<W>) {
    return true;
  } else {
    return most_lane_rows_suit<W>(rows, width);
  }
}

// How the codelet lays out a tile of rows x columns at this width, for the
// hyper-tile width model (runtime/include/trapeze/hyper_tile_width_model.hpp):
// its bands' rows and the warps it keeps resident.
template <Wavefront W>
WavefrontGeometry wavefront_geometry(Index rows, Index columns, int width) {
  auto geometry = [&]<int L>() {
    const WavefrontHyperTiles h = wavefront_hyper_tiles(rows, columns, width, L);
    return WavefrontGeometry{static_cast<double>(rows), static_cast<double>(columns), 32 * L,
                             peerwave_blocks<W, L>(h, columns) * wavefront_block_warps};
  };
  if (takes_most_lane_rows<W>(rows, width)) return geometry.template operator()<wavefront_most_lane_rows<W>>();
  return geometry.template operator()<wavefront_fewer_lane_rows<W>>();
}

template <Wavefront W>
void wavefront_tile_cuda(void* buffers[], void* cl_arg) {
  using T = typename W::value_type;
  using Result = result_of<W>;
  WavefrontTileArgs<W> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const cudaStream_t stream = starpu_cuda_get_local_stream();
  const WavefrontTaskBuffers<W> b = wavefront_task_buffers<W>(buffers, args);
  WavefrontTileDevice<W> t;
  t.rows = args.rows;
  t.columns = args.columns;
  t.first_row = args.first_row;
  t.first_column = args.first_column;
  t.top = b.top;
  t.left = b.left;
  t.row_inputs = b.row_inputs;
  t.column_inputs = b.column_inputs;
  t.cell_inputs = b.cell_inputs;
  t.cell_ld = b.cell_ld;
  t.output = b.output;
  t.output_ld = b.output_ld;
  t.banded = args.banded_lane_rows > 0;
  T* const left = b.left;
  Result* const result = b.result;
  if (t.rows == 0 || t.columns == 0) return;
  // A banded tile was laid out for lanes of the rows the run chose for it (the codelet's own choice,
  // wavefront_geometry, unless the plan set it): the kernel's lanes must hold as many.
  if (t.banded && args.banded_lane_rows != wavefront_most_lane_rows<W> &&
      args.banded_lane_rows != wavefront_fewer_lane_rows<W>) {
    std::fprintf(stderr, "trapeze: a banded wavefront tile with lanes of %d rows; the GPU kernels of this cell type take %d or %d\n",
                 args.banded_lane_rows, wavefront_most_lane_rows<W>, wavefront_fewer_lane_rows<W>);
    std::abort();
  }
  if (t.banded ? args.banded_lane_rows == wavefront_most_lane_rows<W>
               : takes_most_lane_rows<W>(t.rows, args.hyper_tile_width)) {
    sweep_wavefront_tile<W, wavefront_most_lane_rows<W>>(*args.wavefront, t, left, result, args.hyper_tile_width, stream);
  } else {
    sweep_wavefront_tile<W, wavefront_fewer_lane_rows<W>>(*args.wavefront, t, left, result, args.hyper_tile_width, stream);
  }
}

}  // namespace trapeze::cuda
