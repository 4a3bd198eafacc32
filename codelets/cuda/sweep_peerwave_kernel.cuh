#pragma once
// In-place sweeps (trapeze/sweep.hpp) on a GPU: seed 004's hyper-tiles swept
// by warps that synchronise with their peers, and the global-barrier
// baseline on the same hyper-tiles.
//
// A band is 32 rows, one per lane of a warp. A hyper-tile of band b and
// chunk q is the parallelogram in which lane k computes columns
// q*C - k .. q*C - k + C - 1, one per step: at every step all 32 lanes work
// (the first and last chunks excepted, where columns fall outside the tile).
// The warp copies its parallelogram into shared memory (each lane's row
// segment plus its right neighbour, the row above and the row below the
// band; cp.async, coalesced), sweeps it there, and stores it back coalesced.
// At step s lane k computes (k, c): up is lane k-1's value of the step
// before (a shuffle; lane 0 takes the staged row above, already this
// sweep's), left its own value of the step before, right the next staged
// cell, down lane k+1's right (a shuffle; lane 31 takes the staged row
// below, still the last sweep's). Each cell sees the same five values as in
// the sequential loop.
//
// A band is one warp, so a hyper-tile's time is the length of one warp's
// instruction stream: on an H200 the copy in with a test per cell, the steps
// and the store took 3.3, 2.2 and 1.3 of a hyper-tile's 9 us (docs/PERF.md,
// 2026-11-29). Hyper-tiles inside the tile (all but the last chunks of a
// band and a short last band) are copied, swept and stored without tests.
//
// PeerWave (sweep_peerwave_kernel): persistent warps, as many as fit on the
// GPU at once, take the work items (sweep t, band b) in order t * bands + b,
// in turn, and sweep each item's chunks left to right, keeping their last
// values in registers. Only the row above waits for the band above; the
// rest of chunk q + 1 is copied into a second stage of shared memory while
// the warp waits, and of chunk q's rows the band below reads only row 31,
// which goes out and is published first. Before chunk q an item waits
// (spinning on the counts other warps publish after each chunk) until the
// band above in its sweep has row 31 of chunks 0..q+1 out (its lane 31 is
// then past every column lane 0 reads), and until the sweep before has what
// chunk q + 1 reads (wait_for_last_sweep). No grid-wide barrier anywhere: a
// band starts as soon as its neighbours are far enough ahead, and several
// sweeps are in flight at once in one launch (a kernel-level trapezoid of
// sweeps).
//
// Baseline (sweep_wave_kernel): one launch per wave d = 2b + q of
// hyper-tiles of one sweep (band b - 1 must be a chunk ahead of band b, so
// waves are skewed by two per band); a warp per hyper-tile, the same copy,
// steps and store, its first values loaded from memory. The launch boundary
// is the barrier, and nothing can be copied before it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "async_copy.cuh"
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

// Shared memory: a stage holds a hyper-tile's 32 skewed rows of C + 1 cells
// (own[k * (C + 1) + j] is cell (k, q*C - k + j)) and its row below; the
// row above follows. The baseline's warp has one stage, PeerWave's two.
constexpr std::size_t sweep_stage_elements(int chunk) {
  return static_cast<std::size_t>(sweep_band_rows) * (chunk + 1) + static_cast<std::size_t>(chunk);
}
template <typename T>
constexpr std::size_t sweep_shared_bytes(int chunk) {
  return sizeof(T) * (sweep_stage_elements(chunk) + static_cast<std::size_t>(chunk));
}
template <typename T>
constexpr std::size_t peerwave_shared_bytes(int chunk) {
  return sizeof(T) * (2 * sweep_stage_elements(chunk) + static_cast<std::size_t>(chunk));
}

namespace detail {

template <typename T>
__device__ int rows_of_band(const SweepTile<T>& t, int b) {
  return static_cast<int>(min(static_cast<Index>(sweep_band_rows), t.rows - static_cast<Index>(b) * sweep_band_rows));
}

// Whether every cell hyper-tile (b, q) copies in, sweeps and stores is a cell
// of the tile: 32 rows, columns q*C - 31 .. q*C + C (the last one each row's
// right neighbour at the last step).
template <typename T>
__device__ bool inside_tile(const SweepTile<T>& t, int chunk, int b, int q) {
  const Index base = static_cast<Index>(q) * chunk;
  return rows_of_band(t, b) == sweep_band_rows && base >= sweep_band_rows - 1 && base + chunk < t.columns;
}

// Cell (k, c) of band b's parallelogram into shared memory: the tile's cell,
// the right strip just past the last column, for k == band_rows < 32 the
// row below a short last band (skewed like a row of the band, so its last
// lane takes down from a shuffle like every other lane), or zero.
template <typename T>
__device__ void copy_staged_cell(const SweepTile<T>& t, Index band_row, Index c, int k, int band_rows, T* to) {
  if (k < band_rows) {
    if (c >= 0 && c < t.columns) return copy_to_shared_async(to, t.cells + (band_row + k) * t.ld + c);
    if (c == t.columns) return copy_to_shared_async(to, t.right + band_row + k);
  } else if (k == band_rows && band_rows < sweep_band_rows && c >= 0 && c < t.columns) {
    return copy_to_shared_async(to, t.down + c);
  }
  *to = T{};
}

// Hyper-tile (b, q)'s 32 skewed rows of C + 1 cells and its row below (the
// last sweep's) into a stage, asynchronously. Lane j copies column j of
// every row (coalesced); column C, each row's right neighbour at the last
// step, a row a lane.
template <typename T>
__device__ void copy_hyper_tile(const SweepTile<T>& t, int chunk, int b, int q, T* own, T* below) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int stride = chunk + 1;
  const Index band_row = static_cast<Index>(b) * sweep_band_rows;
  const Index base = static_cast<Index>(q) * chunk;
  if (inside_tile(t, chunk, b, q)) {
    const T* const corner = t.cells + band_row * t.ld + base;  // row k's cell j is corner[k * (ld - 1) + j]
    const Index skewed_ld = t.ld - 1;
    for (int j = lane; j < chunk; j += 32) {
#pragma unroll 8
      for (int k = 0; k < sweep_band_rows; ++k) copy_to_shared_async(own + k * stride + j, corner + k * skewed_ld + j);
    }
    copy_to_shared_async(own + lane * stride + chunk, corner + lane * skewed_ld + chunk);
  } else {
    const int band_rows = rows_of_band(t, b);
    for (int j = lane; j < chunk; j += 32) {
      for (int k = 0; k < sweep_band_rows; ++k) copy_staged_cell(t, band_row, base - k + j, k, band_rows, own + k * stride + j);
    }
    copy_staged_cell(t, band_row, base - lane + chunk, lane, band_rows, own + lane * stride + chunk);
  }
  const Index row_below = band_row + sweep_band_rows;
  for (int j = lane; j < chunk; j += 32) {
    const Index d = base - (sweep_band_rows - 1) + j;
    if (d < 0 || d >= t.columns) continue;  // lane 31's cell there is outside the tile: never stored
    if (row_below < t.rows) copy_to_shared_async(below + j, t.cells + row_below * t.ld + d);
    else if (row_below == t.rows) copy_to_shared_async(below + j, t.down + d);
  }
}

// Hyper-tile (b, q)'s row above (this sweep's), asynchronously.
template <typename T>
__device__ void copy_row_above(const SweepTile<T>& t, int chunk, int b, int q, T* above) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const Index band_row = static_cast<Index>(b) * sweep_band_rows;
  const Index base = static_cast<Index>(q) * chunk;
  for (int j = lane; j < chunk; j += 32) {
    const Index c = base + j;
    if (c < t.columns) copy_to_shared_async(above + j, band_row == 0 ? t.up + c : t.cells + (band_row - 1) * t.ld + c);
  }
}

// The C steps of hyper-tile (b, q) in shared memory. At step s lane
// k computes (k, q*C - k + s). Branch-free (lanes would otherwise diverge at
// lane 0, lane 31 and the tile's edges every step): every lane computes, and
// outside the tile a lane keeps its values. `previous` enters a row's first
// chunk as the boundary left of the row, which is then column 0's left.
template <bool Inside, InPlaceSweep S>
__device__ void sweep_steps(const S& sweep, const SweepTile<typename S::value_type>& t, int chunk, int b, int q,
                            typename S::value_type& previous, typename S::value_type* own,
                            const typename S::value_type* above, const typename S::value_type* below) {
  using T = typename S::value_type;
  const int k = static_cast<int>(threadIdx.x) & 31;
  const Index row = static_cast<Index>(b) * sweep_band_rows + k;
  const bool row_in = k < rows_of_band(t, b);
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
    if constexpr (Inside) {
      mine[s] = value;
      previous = value;
    } else {
      const bool in = row_in && c >= 0 && c < t.columns;
      mine[s] = in ? value : self;
      previous = in ? value : previous;
    }
  }
}

// Rows first..end-1 of hyper-tile (b, q) from its stage back to the tile,
// coalesced (lane j stores column j of each row).
template <typename T>
__device__ void store_rows(const SweepTile<T>& t, int chunk, int b, int q, const T* own, int first, int end) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int stride = chunk + 1;
  const Index band_row = static_cast<Index>(b) * sweep_band_rows;
  const Index base = static_cast<Index>(q) * chunk;
  if (inside_tile(t, chunk, b, q)) {
    T* const corner = t.cells + band_row * t.ld + base;
    const Index skewed_ld = t.ld - 1;
    for (int j = lane; j < chunk; j += 32) {
#pragma unroll 8
      for (int r = first; r < end; ++r) corner[r * skewed_ld + j] = own[r * stride + j];
    }
    return;
  }
  // At the tile's edges: every row's cell read before the first store (the
  // baseline's every wave has such a hyper-tile, and its slowest one sets
  // the wave's time).
  const int band_rows = rows_of_band(t, b);
  for (int j0 = 0; j0 < chunk; j0 += 32) {
    const int j = j0 + lane;
    T v[sweep_band_rows];
#pragma unroll
    for (int r = 0; r < sweep_band_rows; ++r) v[r] = r >= first && r < end && j < chunk ? own[r * stride + j] : T{};
#pragma unroll
    for (int r = 0; r < sweep_band_rows; ++r) {
      const Index c = base - r + j;
      if (r >= first && r < end && r < band_rows && j < chunk && c >= 0 && c < t.columns) {
        t.cells[(band_row + r) * t.ld + c] = v[r];
      }
    }
  }
}

// The steps of hyper-tile (b, q), staged in `own`, `above` and `below`.
// `previous`: the lane's value left of its first column.
template <InPlaceSweep S>
__device__ void sweep_staged_steps(const S& sweep, const SweepTile<typename S::value_type>& t, int chunk, int b, int q,
                                   typename S::value_type& previous, typename S::value_type* own,
                                   const typename S::value_type* above, const typename S::value_type* below) {
  if (inside_tile(t, chunk, b, q)) {
    sweep_steps<true>(sweep, t, chunk, b, q, previous, own, above, below);
  } else {
    sweep_steps<false>(sweep, t, chunk, b, q, previous, own, above, below);
  }
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

// Flags between warps: a warp's lanes store, __syncwarp(), then lane 0
// publishes a count with release semantics; a waiting lane 0 spins on relaxed
// loads and reads the count once more with acquire semantics, then
// __syncwarp() hands the order to its lanes (CUTLASS's semaphores do the
// same) instead of a __threadfence() (fence.sc) on both sides.
__device__ inline int relaxed_flag(const int* flag) {
  int value;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

__device__ inline int acquired_flag(const int* flag) {
  int value;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

__device__ inline void wait_for(const int* flag, int count) {
  while (relaxed_flag(flag) < count) {
  }
  (void)acquired_flag(flag);  // what the release of this count (or a later one) published is now visible
}

__device__ inline void publish(int* flag, int count) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(flag), "r"(count) : "memory");
}

// A PeerWave item publishes q + 1 when chunk q's row 31 (the row the band
// below reads) is in memory, before its other rows, and chunks + 1 at its
// end: a count c says rows 31 of chunks 0..c-1 and all rows of chunks
// 0..c-2 are there. So before chunk q an item needs from the sweep before its
// own band's count at q + 3 (the old values of chunks 0..q+1 it reads) and
// the band below's at q + 2 (the old row below, chunks 0..q, which that band
// has also copied before this item overwrites the row it read as its up).
__device__ inline void wait_for_last_sweep(const int* mine, const HyperTiles& h, int sweep, int b, int q) {
  if (sweep == 0) return;
  wait_for(mine - h.bands, min(q + 3, h.chunks + 1));
  if (b + 1 < h.bands) wait_for(mine - h.bands + 1, min(q + 2, h.chunks + 1));
}

}  // namespace detail

// `sweeps` sweeps of the tile in one launch, one warp per block.
// `progress`: sweeps x bands ints, zero at launch: chunks each item finished.
// Chunk q + 1 is copied in while chunk q is swept, so before chunk q an item
// waits for the band above's chunks 0..q+1 in its sweep and for what chunk
// q + 1 needs from the sweep before.
template <InPlaceSweep S>
__global__ void sweep_peerwave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int sweeps,
                                      int* progress) {
  using T = typename S::value_type;
  extern __shared__ unsigned char shared_bytes[];
  T* const shared = reinterpret_cast<T*>(shared_bytes);
  const std::size_t stage_elements = sweep_stage_elements(h.chunk);
  T* const above = shared + 2 * stage_elements;
  const auto own = [&](int q) { return shared + (q & 1) * stage_elements; };
  const auto below = [&](int q) { return own(q) + sweep_band_rows * (h.chunk + 1); };
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const long long items = static_cast<long long>(sweeps) * h.bands;
  for (long long item = blockIdx.x; item < items; item += gridDim.x) {
    const int sweep_index = static_cast<int>(item / h.bands);
    const int b = static_cast<int>(item % h.bands);
    int* const mine = progress + item;
    const Index row = static_cast<Index>(b) * sweep_band_rows + lane;
    T previous = row < t.rows ? t.left[row] : T{};
    if (lane == 0) detail::wait_for_last_sweep(mine, h, sweep_index, b, 0);
    __syncwarp();
    detail::copy_hyper_tile(t, h.chunk, b, 0, own(0), below(0));
    for (int q = 0; q < h.chunks; ++q) {
      if (lane == 0) {
        if (b > 0) detail::wait_for(mine - 1, min(q + 2, h.chunks));
        if (q + 1 < h.chunks) detail::wait_for_last_sweep(mine, h, sweep_index, b, q + 1);
      }
      __syncwarp();
      detail::copy_row_above(t, h.chunk, b, q, above);
      wait_for_copies_to_shared();
      __syncwarp();
      detail::sweep_staged_steps(sweep, t, h.chunk, b, q, previous, own(q), above, below(q));
      __syncwarp();
      // The band below waits for row 31 only: it goes out first, the count
      // follows, then the other rows, and chunk q + 1's copy while the band
      // waits for the band above again.
      detail::store_rows(t, h.chunk, b, q, own(q), sweep_band_rows - 1, sweep_band_rows);
      __syncwarp();
      if (lane == 0) detail::publish(mine, q + 1);
      detail::store_rows(t, h.chunk, b, q, own(q), 0, sweep_band_rows - 1);
      if (q + 1 < h.chunks) detail::copy_hyper_tile(t, h.chunk, b, q + 1, own(q + 1), below(q + 1));
    }
    __syncwarp();
    if (lane == 0) detail::publish(mine, h.chunks + 1);
  }
}

// Wave d of the baseline: hyper-tiles (b, q) with 2b + q = d, a warp (block) each.
template <InPlaceSweep S>
__global__ void sweep_wave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int d) {
  using T = typename S::value_type;
  extern __shared__ unsigned char shared_bytes[];
  T* const own = reinterpret_cast<T*>(shared_bytes);
  T* const below = own + sweep_band_rows * (h.chunk + 1);
  T* const above = own + sweep_stage_elements(h.chunk);
  const int first_band = max(0, (d - h.chunks + 2) / 2);
  const int b = first_band + static_cast<int>(blockIdx.x);
  const int q = d - 2 * b;
  if (b >= h.bands || q < 0 || q >= h.chunks) return;
  T previous = detail::value_before(t, h.chunk, b, q);
  detail::copy_hyper_tile(t, h.chunk, b, q, own, below);
  detail::copy_row_above(t, h.chunk, b, q, above);
  wait_for_copies_to_shared();
  __syncwarp();
  detail::sweep_staged_steps(sweep, t, h.chunk, b, q, previous, own, above, below);
  __syncwarp();
  detail::store_rows(t, h.chunk, b, q, own, 0, sweep_band_rows);
}

// How many warps (blocks) of sweep_peerwave_kernel<S> are on the GPU at
// once: the persistent kernel must not start more (a waiting warp would hold
// the SM its predecessor needs). Also lifts the kernels' shared-memory limit.
template <InPlaceSweep S>
int resident_sweep_warps(int chunk) {
  using T = typename S::value_type;
  const int bytes = static_cast<int>(peerwave_shared_bytes<T>(chunk));
  int device = 0, sms = 0, blocks_per_sm = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(sweep_peerwave_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(sweep_wave_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(sweep_shared_bytes<T>(chunk))));
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
  sweep_peerwave_kernel<S><<<blocks, 32, peerwave_shared_bytes<typename S::value_type>(h.chunk), stream>>>(
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
