#pragma once
// In-place sweeps (trapeze/sweep.hpp) on a GPU: seed 004's hyper-tiles swept
// by warps that synchronise with their peers, and the global-barrier
// baseline on the same hyper-tiles.
//
// A band is 32 rows, one per lane of a warp. A hyper-tile of band b and
// chunk q is the parallelogram in which lane k computes columns
// q*C - k .. q*C - k + C - 1, one per step: at every step all 32 lanes work
// (the first and last chunks excepted, where columns fall outside the tile).
// The warp stages its parallelogram in shared memory with coalesced loads
// (each lane's row segment plus its right neighbour, the row above and the
// row below the band), sweeps it there, and stores it back coalesced. At
// step s lane k computes (k, c): up is lane k-1's value of the step before
// (a shuffle; lane 0 takes the staged row above, already this sweep's), left
// its own value of the step before, right the next staged cell, down lane
// k+1's right (a shuffle; lane 31 takes the staged row below, still the last
// sweep's). Each cell sees the same five values as in the sequential loop.
//
// PeerWave (sweep_peerwave_kernel): persistent warps, as many as fit on the
// GPU at once, take the work items (sweep t, band b) in order t * bands + b,
// in turn, and sweep each item's chunks left to right, keeping their last
// values in registers. Before chunk q an item waits (spinning on flags
// other warps publish after each chunk) until the band above in its sweep
// has finished chunks 0..q+1 (its lane 31 is then past every column lane 0
// reads), and in the sweep before, its own band has finished chunks
// 0..q+1 (the old values it reads) and the band below chunks 0..q (the old
// row below, which that band has also read before this item overwrites the
// row it read as its up). No grid-wide barrier anywhere: a band starts as
// soon as its neighbours are far enough ahead, and several sweeps are in
// flight at once in one launch (a kernel-level trapezoid of sweeps).
//
// Baseline (sweep_wave_kernel): one launch per wave d = 2b + q of
// hyper-tiles of one sweep (band b - 1 must be a chunk ahead of band b, so
// waves are skewed by two per band); a warp per hyper-tile, its first values
// loaded from memory. The launch boundary is the barrier.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.cuh"
#include "trapeze/sweep.hpp"

namespace trapeze::cuda {

inline constexpr int sweep_band_rows = 32;  // a warp's lanes, one row each

// A tile in device memory and its four neighbour strips.
template <typename T>
struct SweepTile {
  T* cells;
  Index ld;
  Index rows;
  Index columns;
  Index first_row;  // global coordinates of cell (0, 0), passed to the update
  Index first_column;
  const T* up;     // columns values: the row above (this sweep's)
  const T* left;   // rows values: the column left of the tile (this sweep's)
  const T* down;   // columns values: the row below (the last sweep's)
  const T* right;  // rows values: the column right of the tile (the last sweep's)
};

struct HyperTiles {
  int chunk;   // C: columns per lane per hyper-tile
  int chunks;  // per band: ceil((columns + 31) / C)
  int bands;   // ceil(rows / 32)
};

inline HyperTiles hyper_tiles(Index rows, Index columns, int chunk) {
  return {chunk, static_cast<int>((columns + sweep_band_rows - 1 + chunk - 1) / chunk),
          static_cast<int>((rows + sweep_band_rows - 1) / sweep_band_rows)};
}

// Shared memory of one warp (one block): its parallelogram (32 rows of C + 1,
// skewed), the row above and the row below.
template <typename T>
constexpr std::size_t sweep_shared_bytes(int chunk) {
  return sizeof(T) * (static_cast<std::size_t>(sweep_band_rows + 1) * (chunk + 1) + 2 * static_cast<std::size_t>(chunk));
}

namespace detail {

// Cell (k, q*C - k + j) of band b's parallelogram as a hyper-tile stages it:
// the tile's cell, the right strip just past the last column, for k ==
// band_rows < 32 the row below a short last band (skewed like a row of the
// band, so its last lane takes down from a shuffle like every other lane),
// or zero. Global loads bypass L1 (__ldcg): other SMs write these cells
// during the launch.
template <typename T>
__device__ T staged_cell(const SweepTile<T>& t, int chunk, int b, int q, int k, int j, int band_rows) {
  const Index band_row = static_cast<Index>(b) * sweep_band_rows;
  const Index c = static_cast<Index>(q) * chunk - k + j;
  if (k < band_rows) {
    if (c >= 0 && c < t.columns) return __ldcg(t.cells + (band_row + k) * t.ld + c);
    if (c == t.columns) return t.right[band_row + k];
  } else if (k == band_rows && band_rows < sweep_band_rows && c >= 0 && c < t.columns) {
    return t.down[c];
  }
  return T{};
}

template <typename T>
__device__ int rows_of_band(const SweepTile<T>& t, int b) {
  return static_cast<int>(min(static_cast<Index>(sweep_band_rows), t.rows - static_cast<Index>(b) * sweep_band_rows));
}

// Column j of the 33 staged rows (j >= chunk: zeros), every load in flight
// before the first is used: in-order issue would otherwise wait out each
// load's latency in turn.
template <typename T>
__device__ void load_staged_column(const SweepTile<T>& t, int chunk, int b, int q, int j, int band_rows,
                                   T (&v)[sweep_band_rows + 1]) {
#pragma unroll
  for (int k = 0; k <= sweep_band_rows; ++k) v[k] = j < chunk ? staged_cell(t, chunk, b, q, k, j, band_rows) : T{};
}

// The hyper-tile's row above (this sweep's) and row below (the last sweep's) into shared memory.
template <typename T>
__device__ void stage_above_and_below(const SweepTile<T>& t, int chunk, int b, int q, T* above, T* below) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const Index band_row = static_cast<Index>(b) * sweep_band_rows;
  const Index base = static_cast<Index>(q) * chunk;
  for (int j = lane; j < chunk; j += 32) {
    const Index c = base + j;
    if (c < t.columns) above[j] = band_row == 0 ? t.up[c] : __ldcg(t.cells + (band_row - 1) * t.ld + c);
    const Index d = base - 31 + j;
    const Index row_below = band_row + sweep_band_rows;
    if (d >= 0 && d < t.columns) {
      if (row_below < t.rows) below[j] = __ldcg(t.cells + row_below * t.ld + d);
      else if (row_below == t.rows) below[j] = t.down[d];
    }
  }
}

// The C steps of hyper-tile (b, q) in shared memory. At step s lane
// k computes (k, q*C - k + s). Branch-free (lanes would otherwise diverge at
// lane 0, lane 31 and the tile's edges every step): every lane computes, and
// a lane outside the tile keeps its values. `previous` enters a row's first
// chunk as the boundary left of the row, which is then column 0's left.
template <InPlaceSweep S>
__device__ void sweep_steps(const S& sweep, const SweepTile<typename S::value_type>& t, int chunk, int b, int q,
                            int band_rows, typename S::value_type& previous, typename S::value_type* own,
                            const typename S::value_type* above, const typename S::value_type* below) {
  using T = typename S::value_type;
  const int k = static_cast<int>(threadIdx.x) & 31;
  const Index row = static_cast<Index>(b) * sweep_band_rows + k;
  const bool row_in = k < band_rows;
  const Index first = static_cast<Index>(q) * chunk - k;
  T* const mine = own + k * (chunk + 1);
  for (int s = 0; s < chunk; ++s) {
    const Index c = first + s;
    const T self = mine[s];
    const T right = mine[s + 1];
    const T from_below = __shfl_down_sync(0xffffffffu, right, 1);
    const T from_above = __shfl_up_sync(0xffffffffu, previous, 1);
    const T up = k > 0 ? from_above : above[s];
    const T down = k < 31 ? from_below : below[s];
    const T value = sweep(SweepNeighbours<T>{up, previous, self, down, right, t.first_row + row, t.first_column + c});
    const bool in = row_in && c >= 0 && c < t.columns;
    mine[s] = in ? value : self;
    previous = in ? value : previous;
  }
}

// The hyper-tile's cells from shared memory back to the tile, coalesced.
template <typename T>
__device__ void store_hyper_tile(const SweepTile<T>& t, int chunk, int b, int q, int band_rows, const T* own) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int stride = chunk + 1;
  const Index band_row = static_cast<Index>(b) * sweep_band_rows;
  const Index base = static_cast<Index>(q) * chunk;
  for (int j0 = 0; j0 < chunk; j0 += 32) {
    const int j = j0 + lane;
    T v[sweep_band_rows];
#pragma unroll
    for (int r = 0; r < sweep_band_rows; ++r) v[r] = j < chunk ? own[r * stride + j] : T{};
#pragma unroll
    for (int r = 0; r < sweep_band_rows; ++r) {
      const Index c = base - r + j;
      if (r < band_rows && j < chunk && c >= 0 && c < t.columns) t.cells[(band_row + r) * t.ld + c] = v[r];
    }
  }
}

// One hyper-tile (band b, chunk q) by one warp. `previous`: the lane's value
// left of its first column (carried from the chunk before, or loaded).
// Shared memory: own[k * stride + j] is cell (k, q*C - k + j), row 32 the row
// below a short last band; then the row above and the row below. Column C
// (each row's right neighbour at the last step) is loaded a row a lane in
// the same batch as the first 32 columns: loading it as a 33rd column took a
// second round trip to memory (one lane's), and with it PeerWave and the
// baseline ran 9-13% slower (docs/PERF.md, 2026-11-27).
template <InPlaceSweep S>
__device__ void sweep_hyper_tile(const S& sweep, const SweepTile<typename S::value_type>& t, int chunk, int b,
                                 int q, typename S::value_type& previous, typename S::value_type* shared) {
  using T = typename S::value_type;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int stride = chunk + 1;
  T* const own = shared;
  T* const above = shared + (sweep_band_rows + 1) * stride;
  T* const below = above + chunk;
  const int band_rows = rows_of_band(t, b);
  const T right_column = staged_cell(t, chunk, b, q, lane, chunk, band_rows);
  const T right_of_row_below = lane == 0 ? staged_cell(t, chunk, b, q, sweep_band_rows, chunk, band_rows) : T{};
  for (int j0 = 0; j0 < chunk; j0 += 32) {
    T v[sweep_band_rows + 1];
    load_staged_column(t, chunk, b, q, j0 + lane, band_rows, v);
#pragma unroll
    for (int k = 0; k <= sweep_band_rows; ++k) {
      if (j0 + lane < chunk) own[k * stride + j0 + lane] = v[k];
    }
  }
  own[lane * stride + chunk] = right_column;
  if (lane == 0) own[sweep_band_rows * stride + chunk] = right_of_row_below;
  stage_above_and_below(t, chunk, b, q, above, below);
  __syncwarp();
  sweep_steps(sweep, t, chunk, b, q, band_rows, previous, own, above, below);
  __syncwarp();
  store_hyper_tile(t, chunk, b, q, band_rows, own);
  __syncwarp();
}

// The value left of a lane's first column in chunk q, from memory.
template <typename T>
__device__ T value_before(const SweepTile<T>& t, int chunk, int b, int q) {
  const int k = static_cast<int>(threadIdx.x) & 31;
  const Index row = static_cast<Index>(b) * sweep_band_rows + k;
  const Index c = static_cast<Index>(q) * chunk - k - 1;
  if (row >= t.rows || c >= t.columns) return T{};
  if (c < 0) return t.left[row];  // a row's left boundary enters as the value before column 0
  return __ldcg(t.cells + row * t.ld + c);
}

__device__ inline void wait_for(const int* flag, int count) {
  while (*reinterpret_cast<const volatile int*>(flag) < count) {
  }
}

}  // namespace detail

// `sweeps` sweeps of the tile in one launch, one warp per block.
// `progress`: sweeps x bands ints, zero at launch: chunks each item finished.
template <InPlaceSweep S>
__global__ void sweep_peerwave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int sweeps,
                                      int* progress) {
  using T = typename S::value_type;
  extern __shared__ unsigned char shared_bytes[];
  T* const shared = reinterpret_cast<T*>(shared_bytes);
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const long long items = static_cast<long long>(sweeps) * h.bands;
  for (long long item = blockIdx.x; item < items; item += gridDim.x) {
    const int sweep_index = static_cast<int>(item / h.bands);
    const int b = static_cast<int>(item % h.bands);
    int* const mine = progress + item;
    const Index row = static_cast<Index>(b) * sweep_band_rows + lane;
    T previous = row < t.rows ? t.left[row] : T{};
    for (int q = 0; q < h.chunks; ++q) {
      if (lane == 0) {
        const int ahead = min(q + 2, h.chunks);
        if (b > 0) detail::wait_for(mine - 1, ahead);
        if (sweep_index > 0) {
          detail::wait_for(mine - h.bands, ahead);
          if (b + 1 < h.bands) detail::wait_for(mine - h.bands + 1, min(q + 1, h.chunks));
        }
        __threadfence();
      }
      __syncwarp();
      detail::sweep_hyper_tile(sweep, t, h.chunk, b, q, previous, shared);
      // Every lane's cells out before the count that lets the others read them.
      __threadfence();
      __syncwarp();
      if (lane == 0) atomicExch(mine, q + 1);
    }
  }
}

// Wave d of the baseline: hyper-tiles (b, q) with 2b + q = d, a warp (block) each.
template <InPlaceSweep S>
__global__ void sweep_wave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int d) {
  using T = typename S::value_type;
  extern __shared__ unsigned char shared_bytes[];
  const int first_band = max(0, (d - h.chunks + 2) / 2);
  const int b = first_band + static_cast<int>(blockIdx.x);
  const int q = d - 2 * b;
  if (b >= h.bands || q < 0 || q >= h.chunks) return;
  T previous = detail::value_before(t, h.chunk, b, q);
  detail::sweep_hyper_tile(sweep, t, h.chunk, b, q, previous, reinterpret_cast<T*>(shared_bytes));
}

// How many warps (blocks) of sweep_peerwave_kernel<S> are on the GPU at
// once: the persistent kernel must not start more (a waiting warp would hold
// the SM its predecessor needs). Also lifts the kernels' shared-memory limit.
template <InPlaceSweep S>
int resident_sweep_warps(int chunk) {
  using T = typename S::value_type;
  const int bytes = static_cast<int>(sweep_shared_bytes<T>(chunk));
  int device = 0, sms = 0, blocks_per_sm = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(sweep_peerwave_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(sweep_wave_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  TRAPEZE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, sweep_peerwave_kernel<S>, 32, bytes));
  if (blocks_per_sm < 1) {
    std::fprintf(stderr, "trapeze: a hyper-tile %d columns wide needs %d bytes of shared memory: more than a block may have\n",
                 chunk, bytes);
    std::abort();
  }
  return sms * blocks_per_sm;
}

// `sweeps` sweeps of a tile in one PeerWave launch; `progress` holds
// sweeps * h.bands ints of device memory (zeroed here, on the stream).
template <InPlaceSweep S>
void launch_sweep_peerwave(const S& sweep, const SweepTile<typename S::value_type>& t, const HyperTiles& h, int sweeps,
                           int* progress, int resident_warps, cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0 || sweeps == 0) return;
  const std::size_t items = static_cast<std::size_t>(sweeps) * static_cast<std::size_t>(h.bands);
  TRAPEZE_CUDA_CHECK(cudaMemsetAsync(progress, 0, sizeof(int) * items, stream));
  const int blocks = static_cast<int>(std::min<std::size_t>(items, static_cast<std::size_t>(resident_warps)));
  sweep_peerwave_kernel<S><<<blocks, 32, sweep_shared_bytes<typename S::value_type>(h.chunk), stream>>>(
      sweep, t, h, sweeps, progress);
  TRAPEZE_CUDA_CHECK_LAUNCH("sweep_peerwave_kernel");
}

// One sweep of a tile by the baseline: a launch per wave (call
// resident_sweep_warps first: it sets the shared-memory limit).
template <InPlaceSweep S>
void launch_sweep_waves(const S& sweep, const SweepTile<typename S::value_type>& t, const HyperTiles& h,
                        cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0) return;
  const int waves = 2 * (h.bands - 1) + h.chunks;
  const std::size_t bytes = sweep_shared_bytes<typename S::value_type>(h.chunk);
  for (int d = 0; d < waves; ++d) {
    const int first_band = std::max(0, (d - h.chunks + 2) / 2);
    const int last_band = std::min(h.bands - 1, d / 2);
    if (last_band < first_band) continue;
    sweep_wave_kernel<S><<<last_band - first_band + 1, 32, bytes, stream>>>(sweep, t, h, d);
    TRAPEZE_CUDA_CHECK_LAUNCH("sweep_wave_kernel");
  }
}

}  // namespace trapeze::cuda
