#pragma once
// In-place sweeps (trapeze/sweep.hpp) on a GPU: seed 004's hyper-tiles swept
// by warps that synchronise with their peers, and the global-barrier
// baseline on the same hyper-tiles.
//
// A band is 32 rows, one per lane of a warp. A hyper-tile of band b and
// chunk q is the parallelogram in which lane k computes columns
// q*C - k .. q*C - k + C - 1, one per step: at every step all 32 lanes work
// (the first and last chunks excepted, where columns fall outside the tile).
// At step s lane k computes (k, c): up is lane k-1's value of the step before
// (a shuffle; lane 0 reads the band above, already this sweep's), left is its
// own value of the step before, right (k, c + 1) it loads (and keeps as the
// next step's own cell), down is lane k+1's right (a shuffle; lane 31 reads
// the band below, still the last sweep's). Each cell is read once and
// written once, and sees the same five values as in the sequential loop.
//
// PeerWave (sweep_peerwave_kernel): persistent warps, as many as fit on the
// GPU at once, take bands g, g + G, g + 2G, ... and sweep each band's chunks
// left to right, keeping their last values in registers. Before chunk q a
// warp waits until the band above has finished chunks q + 1 (its lane 31 is
// then past every column lane 0 reads); after each chunk it publishes its
// count. No grid-wide barrier: a band starts as soon as the one above it is
// two chunks ahead. The band below never overtakes: it waits on this band.
//
// Baseline (sweep_wave_kernel): one launch per wave d = 2b + q of
// hyper-tiles (band b - 1 must be a chunk ahead of band b, so waves are
// skewed by two per band); a warp per hyper-tile, its first values loaded
// from memory. The launch boundary is the barrier.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "trapeze/sweep.hpp"

namespace trapeze::cuda {

inline constexpr int sweep_band_rows = 32;   // a warp's lanes, one row each
inline constexpr int sweep_warps_per_block = 4;

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

namespace detail {

// One hyper-tile (band b, chunk q) by one warp. `previous`: the lane's value
// left of its first column (carried from the chunk before, or loaded).
template <InPlaceSweep S>
__device__ void sweep_hyper_tile(const S& sweep, const SweepTile<typename S::value_type>& t, int chunk, int b,
                                 int q, typename S::value_type& previous) {
  using T = typename S::value_type;
  const int k = static_cast<int>(threadIdx.x) & 31;
  const Index row = static_cast<Index>(b) * sweep_band_rows + k;
  const bool row_in = row < t.rows;
  T* const cells = t.cells + (row_in ? row : 0) * t.ld;
  const T* const above = row > 0 ? t.cells + (row - 1) * t.ld : nullptr;
  const T* const below = row + 1 < t.rows ? t.cells + (row + 1) * t.ld : nullptr;
  const Index first = static_cast<Index>(q) * chunk - k;
  T self = row_in && first >= 0 && first < t.columns ? cells[first] : T{};
  for (int s = 0; s < chunk; ++s) {
    const Index c = first + s;
    // Loaded by every lane with a row whose right neighbour exists: lane
    // k - 1 takes it as its down at this step.
    T right{};
    if (row_in && c + 1 >= 0) right = c + 1 < t.columns ? cells[c + 1] : t.right[row];
    const T from_below = __shfl_down_sync(0xffffffffu, right, 1);
    const T from_above = __shfl_up_sync(0xffffffffu, previous, 1);
    const bool in = row_in && c >= 0 && c < t.columns;
    if (in) {
      const T up = k > 0 ? from_above : (row == 0 ? t.up[c] : __ldcg(above + c));
      const T down = row + 1 == t.rows ? t.down[c] : (k < 31 ? from_below : below[c]);
      const T left = c == 0 ? t.left[row] : previous;
      const T value = sweep(SweepNeighbours<T>{up, left, self, down, right, t.first_row + row, t.first_column + c});
      cells[c] = value;
      previous = value;
    }
    self = right;
  }
}

// The value left of a lane's first column in chunk q, from memory.
template <typename T>
__device__ T value_before(const SweepTile<T>& t, int chunk, int b, int q) {
  const int k = static_cast<int>(threadIdx.x) & 31;
  const Index row = static_cast<Index>(b) * sweep_band_rows + k;
  const Index c = static_cast<Index>(q) * chunk - k - 1;
  if (row >= t.rows || c < 0 || c >= t.columns) return T{};
  return t.cells[row * t.ld + c];
}

}  // namespace detail

// `progress`: one int per band, zero at launch: chunks the band has finished.
template <InPlaceSweep S>
__global__ void sweep_peerwave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int* progress) {
  using T = typename S::value_type;
  const int warps = static_cast<int>(gridDim.x) * sweep_warps_per_block;
  const int warp = static_cast<int>(blockIdx.x) * sweep_warps_per_block + static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  for (int b = warp; b < h.bands; b += warps) {
    T previous{};
    for (int q = 0; q < h.chunks; ++q) {
      if (b > 0) {
        const int needed = min(q + 2, h.chunks);
        if (lane == 0) {
          while (*reinterpret_cast<volatile int*>(progress + b - 1) < needed) {
          }
          __threadfence();
        }
        __syncwarp();
      }
      detail::sweep_hyper_tile(sweep, t, h.chunk, b, q, previous);
      // Every lane's cells out before the count that lets the band below read them.
      __threadfence();
      __syncwarp();
      if (lane == 0) atomicExch(progress + b, q + 1);
    }
  }
}

// Wave d of the baseline: hyper-tiles (b, q) with 2b + q = d, a warp each.
template <InPlaceSweep S>
__global__ void sweep_wave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int d) {
  using T = typename S::value_type;
  const int first_band = max(0, (d - h.chunks + 2) / 2);
  const int b = first_band + static_cast<int>(blockIdx.x) * sweep_warps_per_block + static_cast<int>(threadIdx.x) / 32;
  const int q = d - 2 * b;
  if (b >= h.bands || q < 0 || q >= h.chunks) return;
  T previous = detail::value_before(t, h.chunk, b, q);
  detail::sweep_hyper_tile(sweep, t, h.chunk, b, q, previous);
}

// How many warps of sweep_peerwave_kernel<S> are on the GPU at once: the
// persistent kernel must not start more (a waiting warp would hold the SM
// its predecessor needs).
template <InPlaceSweep S>
int resident_sweep_warps() {
  int device = 0, sms = 0, blocks_per_sm = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TRAPEZE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, sweep_peerwave_kernel<S>,
                                                                   32 * sweep_warps_per_block, 0));
  return std::max(1, sms * blocks_per_sm) * sweep_warps_per_block;
}

// One sweep of a tile by the PeerWave kernel; `progress` holds h.bands ints
// of device memory (zeroed here, on the stream).
template <InPlaceSweep S>
void launch_sweep_peerwave(const S& sweep, const SweepTile<typename S::value_type>& t, const HyperTiles& h,
                           int* progress, int resident_warps, cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0) return;
  TRAPEZE_CUDA_CHECK(cudaMemsetAsync(progress, 0, sizeof(int) * static_cast<std::size_t>(h.bands), stream));
  const int warps = std::min(h.bands, resident_warps);
  const int blocks = (warps + sweep_warps_per_block - 1) / sweep_warps_per_block;
  sweep_peerwave_kernel<S><<<blocks, 32 * sweep_warps_per_block, 0, stream>>>(sweep, t, h, progress);
  TRAPEZE_CUDA_CHECK_LAUNCH("sweep_peerwave_kernel");
}

// One sweep of a tile by the baseline: a launch per wave.
template <InPlaceSweep S>
void launch_sweep_waves(const S& sweep, const SweepTile<typename S::value_type>& t, const HyperTiles& h,
                        cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0) return;
  const int waves = 2 * (h.bands - 1) + h.chunks;
  for (int d = 0; d < waves; ++d) {
    const int first_band = std::max(0, (d - h.chunks + 2) / 2);
    const int last_band = std::min(h.bands - 1, d / 2);
    const int tiles = last_band - first_band + 1;
    if (tiles <= 0) continue;
    const int blocks = (tiles + sweep_warps_per_block - 1) / sweep_warps_per_block;
    sweep_wave_kernel<S><<<blocks, 32 * sweep_warps_per_block, 0, stream>>>(sweep, t, h, d);
    TRAPEZE_CUDA_CHECK_LAUNCH("sweep_wave_kernel");
  }
}

}  // namespace trapeze::cuda
