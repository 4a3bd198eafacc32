#pragma once
// Wavefronts (trapeze/wavefront.hpp) on a GPU: seed 004's hyper-tiles swept
// by warps that synchronise with their peers (PeerWave), and the
// global-barrier baseline on the same hyper-tiles.
//
// A band is 32 lanes of a warp, each owning a few consecutive rows
// (8 or 16 for small cells, kept in registers). The warp walks the band's
// anti-diagonals: at step s lane k computes its rows at column s - k, top
// down, the first from lane k - 1's last row of the step before (up, a
// shuffle) and two steps before (up-left, the up it took one step earlier),
// the others from the row above in its own registers; left is its own value
// of the step before. Lane 0 takes the row above from the band above (or the
// tile's top strip). Seed 004's hyper-tile of band b and
// chunk q is the parallelogram of steps q*W .. q*W + W - 1: every lane works
// at every step except in the band's first and last hyper-tiles. Only what
// other bands or tasks read leaves the registers: the band's last row (for
// the band below), the tile's last column and last row (the strips), and the
// cells themselves only when the run keeps an output.
//
// PeerWave (wavefront_peerwave_kernel): persistent warps, as many as fit on
// the GPU at once, take bands b = warp, warp + warps, ... Before hyper-tile
// q a warp waits (spinning on a count the band above publishes after each of
// its hyper-tiles, release and acquire: peer_flags.cuh) until the band above
// has finished the columns its lane 0 reads there; no grid-wide barrier
// anywhere. The rows bands hand down live
// in a ring of (warps + 1) rows: band b + warps + 1 writes band b's slot
// only after band b + 1 has read it (see ring_rows).
//
// Baseline (wavefront_wave_kernel): one launch per wave d = lag * b + q of
// hyper-tiles (band b's chunk q reads band b - 1's chunks up to q + lag - 1), a warp
// per hyper-tile; the lanes' registers and folds go to memory between
// launches. The launch boundary is the barrier.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "cuda_check.cuh"
#include "peer_flags.cuh"
#include "trapeze/wavefront.hpp"

namespace trapeze::cuda {

inline constexpr int wavefront_block_warps = 4;  // bands a block sweeps side by side

// Rows each lane keeps in registers, one above the other at the same column:
// a step then makes that many cells from one shuffle, one column input and
// one progress flag, and a band of 32 lanes covers 32 times as many rows
// (fewer bands, so a shorter fill of the pipeline of bands). Small cells only:
// the rows live in registers.
// The kernels come in two sizes: the most rows a lane may keep (16 for
// small cells) and half as many; the codelet picks one per tile
// (wavefront_lane_rows_for): more rows mean fewer, taller bands, which pays
// on tall tiles and starves the GPU of bands on short ones.
template <Wavefront W>
inline constexpr int wavefront_most_lane_rows = sizeof(typename W::value_type) <= 16 ? 16
                                                : sizeof(typename W::value_type) <= 32 ? 4 : 1;
template <Wavefront W>
inline constexpr int wavefront_fewer_lane_rows = wavefront_most_lane_rows<W> > 1 ? wavefront_most_lane_rows<W> / 2 : 1;

// One tile task's data on the device (codelets/wavefront_args.hpp's buffers).
template <Wavefront W>
struct WavefrontTileDevice {
  using T = typename W::value_type;
  Index rows = 0;
  Index columns = 0;
  Index first_row = 0;  // global coordinates of cell (0, 0), passed to the update
  Index first_column = 0;
  T* top = nullptr;            // columns + 1: the corner and the row above; gets the tile's last row
  const T* left = nullptr;     // rows: the column left of the tile (read only)
  T* left_out = nullptr;       // rows: the tile's last column
  const row_input_of<W>* row_inputs = nullptr;
  const column_input_of<W>* column_inputs = nullptr;
  const cell_input_of<W>* cell_inputs = nullptr;
  Index cell_ld = 0;
  T* output = nullptr;  // rows x columns (output_ld), or null
  Index output_ld = 0;
  // Cell inputs and output in the banded layout (trapeze/banded_layout.hpp)
  // with lanes of the kernel's L rows, cell_ld and output_ld unused.
  bool banded = false;
};

struct WavefrontHyperTiles {
  int width;   // W: steps per hyper-tile
  int chunks;  // per band: ceil((columns + 31) / W)
  int bands;   // ceil(rows / band rows)
  // Hyper-tiles a band trails the band above: its chunk q reads columns up
  // to (q + 1) W - 1 of the row above, which the band above's last lane, 31
  // steps behind its lane 0, writes in its chunk q + ceil(31 / W).
  int lag;
};

inline WavefrontHyperTiles wavefront_hyper_tiles(Index rows, Index columns, int width, int lane_rows) {
  const Index band_rows = 32 * static_cast<Index>(lane_rows);
  return {width, static_cast<int>((columns + 31 + width - 1) / width), static_cast<int>((rows + band_rows - 1) / band_rows),
          1 + (31 + width - 1) / width};
}

// Shared memory of a block: the wavefront's parameters (read at every cell:
// a substitution matrix indexed per lane serialises in constant memory) and
// each warp's staged row above.
template <Wavefront W>
constexpr std::size_t wavefront_shared_bytes(int width) {
  using T = typename W::value_type;
  const std::size_t params = (sizeof(W) + alignof(T) - 1) / alignof(T) * alignof(T);
  return params + sizeof(T) * static_cast<std::size_t>(wavefront_block_warps) * static_cast<std::size_t>(width);
}

namespace detail {

// A value of lane - 1 (any trivially copyable type, word by word).
template <typename T>
__device__ T shuffle_up(const T& value) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned int w[words] = {};
  memcpy(w, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __shfl_up_sync(0xffffffffu, w[i], 1);
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

// A value other SMs wrote during the launch: loaded past L1 (__ldcg), word
// by word for any trivially copyable type.
template <typename T>
__device__ T load_past_l1(const T* p) {
  T out;
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    unsigned int w[sizeof(T) / 4];
#pragma unroll
    for (int i = 0; i < static_cast<int>(sizeof(T) / 4); ++i) w[i] = __ldcg(reinterpret_cast<const unsigned int*>(p) + i);
    memcpy(&out, w, sizeof(T));
  } else {
    const volatile unsigned char* from = reinterpret_cast<const volatile unsigned char*>(p);
    unsigned char b[sizeof(T)];
    for (int i = 0; i < static_cast<int>(sizeof(T)); ++i) b[i] = from[i];
    memcpy(&out, b, sizeof(T));
  }
  return out;
}

template <Wavefront W>
__device__ row_input_of<W> row_input(const WavefrontTileDevice<W>& t, Index r) {
  if constexpr (has_input_v<row_input_of<W>>) return t.row_inputs[r];
  else return {};
}
template <Wavefront W>
__device__ column_input_of<W> column_input(const WavefrontTileDevice<W>& t, Index c) {
  if constexpr (has_input_v<column_input_of<W>>) return t.column_inputs[c];
  else return {};
}
// Row-major: cell (r, c); banded: the cell at `at`, its index in the banded layout.
template <Wavefront W>
__device__ cell_input_of<W> cell_input(const WavefrontTileDevice<W>& t, Index r, Index c, Index at) {
  if constexpr (has_input_v<cell_input_of<W>>) return t.cell_inputs[t.banded ? at : r * t.cell_ld + c];
  else return {};
}

// A lane's registers between hyper-tiles.
template <Wavefront W, int L>
struct LaneState {
  typename W::value_type left[L];  // its rows' values of the last step (column -1 before it starts)
  typename W::value_type up_left;   // the up it took at the last step: the next step's up-left of its first row
  result_of<W> folded;
};

// The lane's state before its band's first step.
template <Wavefront W, int L>
__device__ LaneState<W, L> first_state(const WavefrontTileDevice<W>& t, int b) {
  using T = typename W::value_type;
  constexpr int lane_rows = L;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const Index band_row = static_cast<Index>(b) * (32 * L);
  const Index row = band_row + static_cast<Index>(lane) * lane_rows;
  LaneState<W, L> s;
#pragma unroll
  for (int r = 0; r < lane_rows; ++r) s.left[r] = row + r < t.rows ? t.left[row + r] : T{};
  // Up-left of step 0: lane k - 1's last row before its start (its left
  // boundary); lane 0's is the cell left of the row above the band.
  const T shifted = shuffle_up(s.left[lane_rows - 1]);
  s.up_left = lane != 0 ? shifted : b == 0 ? t.top[0] : t.left[band_row - 1];
  s.folded = result_of<W>{};
  return s;
}

// Hyper-tile q of band b: steps q*W .. q*W + W - 1. `above`: this warp's W
// staged values of the row above at columns q*W .. (filled here from
// `row_above`, the band above's ring row or the tile's top strip + 1).
// `row_below`: where the band's last row goes (the ring, or the top strip + 1
// for the tile's last band).
template <Wavefront W, int L>
__device__ void sweep_hyper_tile(const W& w, const WavefrontTileDevice<W>& t, const WavefrontHyperTiles& h, int b,
                                 int q, LaneState<W, L>& state, typename W::value_type* above,
                                 const typename W::value_type* row_above, typename W::value_type* row_below) {
  using T = typename W::value_type;
  constexpr int lane_rows = L;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const Index band_row = static_cast<Index>(b) * (32 * L);
  const Index row = band_row + static_cast<Index>(lane) * lane_rows;  // the lane's first row
  const Index last_row = min(band_row + 32 * L, t.rows) - 1;
  const Index base = static_cast<Index>(q) * h.width;
  // Global loads bypass L1 (__ldcg): other SMs write the band above's row
  // during the launch.
  for (int j = lane; j < h.width; j += 32) {
    const Index c = base + j;
    if (c < t.columns) above[j] = load_past_l1(row_above + c);
  }
  __syncwarp();
  const int rows_in = static_cast<int>(max(Index{0}, min(static_cast<Index>(lane_rows), t.rows - row)));
  row_input_of<W> own_row_input[lane_rows];
#pragma unroll
  for (int r = 0; r < lane_rows; ++r) own_row_input[r] = r < rows_in ? row_input(t, row + r) : row_input_of<W>{};
  const int last_here = static_cast<int>(last_row - row);  // the band's last row among the lane's, if in [0, lane_rows)
  T left[lane_rows];
#pragma unroll
  for (int r = 0; r < lane_rows; ++r) left[r] = state.left[r];
  T up_left = state.up_left;
  // 32-bit column arithmetic in the step loop (64-bit compares and adds
  // cost two instructions each, at every cell): tiles are at most 2^30
  // columns wide (WavefrontRun refuses wider ones).
  const int columns = static_cast<int>(t.columns);
  const int first = static_cast<int>(base) - lane;
  // The stores go through restrict pointers: without them every possible
  // store could alias the wavefront's parameters in shared memory, and each
  // cell reloaded them after it.
  T* __restrict__ const output = t.output;
  T* __restrict__ const left_out = t.left_out;
  T* __restrict__ const below = row_below;
  // Banded layout: at step base + j the lane's rows sit at slot (base + j)
  // mod columns of its band, 32 apart, beside the other lanes' (one division
  // per hyper-tile, then a wrap per step).
  const Index band_cells = static_cast<Index>(b) * t.columns;
  int slot = t.banded ? static_cast<int>(base % t.columns) : 0;
  for (int j = 0; j < h.width; ++j) {
    const int c = first + j;
    const Index at = (band_cells + slot) * (32 * L) + lane;
    if (t.banded && ++slot == columns) slot = 0;
    // Lane k - 1's last row at column c (it was there one step ago).
    const T from_above = shuffle_up(left[lane_rows - 1]);
    const T up = lane == 0 ? above[j] : from_above;
    if (static_cast<unsigned>(c) < static_cast<unsigned>(columns)) {
      const column_input_of<W> column_value = column_input(t, c);
      T diagonal = up_left, over = up;
#pragma unroll
      for (int r = 0; r < lane_rows; ++r) {
        if (r < rows_in) {
          const T value = w(WavefrontNeighbours<T>{over, left[r], diagonal, t.first_row + row + r, t.first_column + c},
                            own_row_input[r], column_value, cell_input(t, row + r, c, at + 32 * r));
          if constexpr (folds_result_v<W>) w.fold(state.folded, value);
          if (output) output[t.banded ? at + 32 * r : (row + r) * t.output_ld + c] = value;
          if (c == columns - 1) left_out[row + r] = value;
          if (r == last_here) below[c] = value;
          diagonal = left[r];
          over = value;
          left[r] = value;
        }
      }
    }
    up_left = up;
  }
#pragma unroll
  for (int r = 0; r < lane_rows; ++r) state.left[r] = left[r];
  state.up_left = up_left;
}

// Copies the wavefront into the block's shared memory; returns it.
template <Wavefront W>
__device__ const W& shared_wavefront(const W& w, unsigned char* shared) {
  if constexpr (sizeof(W) % 4 == 0) {
    const unsigned int* from = reinterpret_cast<const unsigned int*>(&w);
    unsigned int* to = reinterpret_cast<unsigned int*>(shared);
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(sizeof(W) / 4); i += static_cast<int>(blockDim.x)) to[i] = from[i];
  } else {
    const unsigned char* from = reinterpret_cast<const unsigned char*>(&w);
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(sizeof(W)); i += static_cast<int>(blockDim.x)) shared[i] = from[i];
  }
  __syncthreads();
  return *reinterpret_cast<const W*>(shared);
}

}  // namespace detail

// One launch over the whole tile. `progress`: h.bands ints, zero at launch
// (columns of each band's last row published); `ring`: ring_rows x columns
// values; `lane_results`: a result per thread of the grid.
template <Wavefront W, int L>
__global__ void wavefront_peerwave_kernel(W wavefront, WavefrontTileDevice<W> t, WavefrontHyperTiles h, int* progress,
                                          typename W::value_type* ring, int ring_rows, result_of<W>* lane_results) {
  using T = typename W::value_type;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const W& w = detail::shared_wavefront(wavefront, shared_bytes);
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) & 31;
  T* const above = reinterpret_cast<T*>(shared_bytes + (wavefront_shared_bytes<W>(h.width) -
                                                        sizeof(T) * wavefront_block_warps * h.width)) + warp * h.width;
  const int warps = static_cast<int>(gridDim.x) * wavefront_block_warps;
  result_of<W> folded{};
  for (int b = static_cast<int>(blockIdx.x) * wavefront_block_warps + warp; b < h.bands; b += warps) {
    detail::LaneState<W, L> state = detail::first_state<W, L>(t, b);
    const bool last_band = b == h.bands - 1;
    const T* row_above = b == 0 ? t.top + 1 : ring + static_cast<std::size_t>((b - 1) % ring_rows) * t.columns;
    T* row_below = last_band ? t.top + 1 : ring + static_cast<std::size_t>(b % ring_rows) * t.columns;
    for (int q = 0; q < h.chunks; ++q) {
      // Lane 0 reads columns up to q*W + W - 1 of the row above.
      if (b > 0 && lane == 0) {
        detail::wait_for(progress + b - 1, static_cast<int>(min(static_cast<Index>(q + 1) * h.width, t.columns)));
      }
      __syncwarp();
      detail::sweep_hyper_tile<W, L>(w, t, h, b, q, state, above, row_above, row_below);
      // The last row's cells out before the count that lets the band below read them.
      __syncwarp();
      if (lane == 0 && !last_band) {
        const Index done = static_cast<Index>(q + 1) * h.width - 31;  // lane 31 is 31 steps behind lane 0
        detail::publish(progress + b, static_cast<int>(max(Index{0}, min(done, t.columns))));
      }
    }
    if constexpr (folds_result_v<W>) w.merge(folded, state.folded);
  }
  if constexpr (folds_result_v<W>) lane_results[blockIdx.x * blockDim.x + threadIdx.x] = folded;
}

// Wave d of the baseline: hyper-tiles (b, q) with lag * b + q = d, a warp each.
// `rows`: h.bands x columns values (every band's last row); `states`: a lane
// state per thread of h.bands bands.
template <Wavefront W, int L>
__global__ void wavefront_wave_kernel(W wavefront, WavefrontTileDevice<W> t, WavefrontHyperTiles h, int d,
                                      typename W::value_type* rows, detail::LaneState<W, L>* states) {
  using T = typename W::value_type;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const W& w = detail::shared_wavefront(wavefront, shared_bytes);
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) & 31;
  T* const above = reinterpret_cast<T*>(shared_bytes + (wavefront_shared_bytes<W>(h.width) -
                                                        sizeof(T) * wavefront_block_warps * h.width)) + warp * h.width;
  const int first_band = max(0, (d - h.chunks + h.lag) / h.lag);
  const int b = first_band + static_cast<int>(blockIdx.x) * wavefront_block_warps + warp;
  const int q = d - h.lag * b;
  if (b >= h.bands || q < 0 || q >= h.chunks) return;
  detail::LaneState<W, L>& saved = states[static_cast<std::size_t>(b) * 32 + lane];
  detail::LaneState<W, L> state = q == 0 ? detail::first_state<W, L>(t, b) : saved;
  const T* row_above = b == 0 ? t.top + 1 : rows + static_cast<std::size_t>(b - 1) * t.columns;
  T* row_below = b == h.bands - 1 ? t.top + 1 : rows + static_cast<std::size_t>(b) * t.columns;
  detail::sweep_hyper_tile<W, L>(w, t, h, b, q, state, above, row_above, row_below);
  saved = state;
}

// Merges `count` folds into *result, one block of 32 threads: PeerWave's
// lane results (Part = result_of<W>) or the baseline's lane states (their
// `folded`).
template <Wavefront W, typename Part>
__global__ void wavefront_merge_kernel(W w, const Part* parts, long long count, result_of<W>* result) {
  __shared__ result_of<W> lane_parts[32];
  result_of<W> folded{};
  for (long long i = threadIdx.x; i < count; i += 32) {
    if constexpr (std::is_same_v<Part, result_of<W>>) w.merge(folded, parts[i]);
    else w.merge(folded, parts[i].folded);
  }
  lane_parts[threadIdx.x] = folded;
  __syncwarp();
  if (threadIdx.x == 0) {
    result_of<W> total = *result;
    for (int i = 0; i < 32; ++i) w.merge(total, lane_parts[i]);
    *result = total;
  }
}

// How many blocks of wavefront_peerwave_kernel<W> are on the GPU at once:
// the persistent kernel must not start more (a waiting warp would hold the
// SM its predecessor needs). Also lifts the kernels' shared-memory limit.
template <Wavefront W, int L>
int resident_wavefront_blocks(int width) {
  const int bytes = static_cast<int>(wavefront_shared_bytes<W>(width));
  int device = 0, sms = 0, blocks_per_sm = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(wavefront_peerwave_kernel<W, L>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(wavefront_wave_kernel<W, L>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  TRAPEZE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, wavefront_peerwave_kernel<W, L>,
                                                                   32 * wavefront_block_warps, bytes));
  if (blocks_per_sm < 1) {
    std::fprintf(stderr, "trapeze: a wavefront hyper-tile %d steps wide needs %d bytes of shared memory: more than a block may have\n",
                 width, bytes);
    std::abort();
  }
  return sms * blocks_per_sm;
}

// Rows of the ring PeerWave hands band rows down through: band b writes slot
// b % ring_rows, which band b - ring_rows wrote. With ring_rows = warps + 1,
// band b's warp finished band b - warps first, which waited for band
// b - warps - 1 = b - ring_rows to publish its whole row, and that band
// could publish its last columns only after reading all of the row above it,
// band b - ring_rows - 1's... so the row band b - ring_rows + 1 reads is read
// before band b overwrites the slot of b - ring_rows: every reader of a slot
// is done with it before the next writer starts.
inline int wavefront_ring_rows(int bands, int blocks) {
  return std::min(bands, blocks * wavefront_block_warps + 1);
}

// The whole tile in one PeerWave launch on `stream`, then the fold merged
// into `result` (device memory; ignored without a fold). Scratch: `progress`
// h.bands ints, `ring` ring_rows x columns values, `lane_results` blocks x
// 128 results.
template <Wavefront W, int L>
void launch_wavefront_peerwave(const W& w, const WavefrontTileDevice<W>& t, const WavefrontHyperTiles& h, int blocks,
                               int* progress, typename W::value_type* ring, int ring_rows, result_of<W>* lane_results,
                               result_of<W>* result, cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0) return;
  TRAPEZE_CUDA_CHECK(cudaMemsetAsync(progress, 0, sizeof(int) * static_cast<std::size_t>(h.bands), stream));
  wavefront_peerwave_kernel<W, L><<<blocks, 32 * wavefront_block_warps, wavefront_shared_bytes<W>(h.width), stream>>>(
      w, t, h, progress, ring, ring_rows, lane_results);
  TRAPEZE_CUDA_CHECK_LAUNCH("wavefront_peerwave_kernel");
  if constexpr (folds_result_v<W>) {
    wavefront_merge_kernel<W, result_of<W>><<<1, 32, 0, stream>>>(w, lane_results, static_cast<long long>(blocks) * 32 * wavefront_block_warps,
                                                    result);
    TRAPEZE_CUDA_CHECK_LAUNCH("wavefront_merge_kernel");
  }
}

// The same tile by the baseline: a launch per wave (call
// resident_wavefront_blocks first: it sets the shared-memory limit).
// Scratch: `rows` h.bands x columns values, `states` h.bands x 32 lane states.
template <Wavefront W, int L>
void launch_wavefront_waves(const W& w, const WavefrontTileDevice<W>& t, const WavefrontHyperTiles& h,
                            typename W::value_type* rows, detail::LaneState<W, L>* states, result_of<W>* result,
                            cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0) return;
  const int waves = h.lag * (h.bands - 1) + h.chunks;
  const std::size_t bytes = wavefront_shared_bytes<W>(h.width);
  for (int d = 0; d < waves; ++d) {
    const int first_band = std::max(0, (d - h.chunks + h.lag) / h.lag);
    const int last_band = std::min(h.bands - 1, d / h.lag);
    if (last_band < first_band) continue;
    const int blocks = (last_band - first_band + wavefront_block_warps) / wavefront_block_warps;
    wavefront_wave_kernel<W, L><<<blocks, 32 * wavefront_block_warps, bytes, stream>>>(w, t, h, d, rows, states);
    TRAPEZE_CUDA_CHECK_LAUNCH("wavefront_wave_kernel");
  }
  if constexpr (folds_result_v<W>) {
    // The lane states hold each lane's fold; merged like PeerWave's.
    wavefront_merge_kernel<W, detail::LaneState<W, L>><<<1, 32, 0, stream>>>(w, states, static_cast<long long>(h.bands) * 32,
                                                                            result);
    TRAPEZE_CUDA_CHECK_LAUNCH("wavefront_merge_kernel");
  }
}

}  // namespace trapeze::cuda
