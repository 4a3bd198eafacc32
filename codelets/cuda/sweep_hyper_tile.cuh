#pragma once
// In-place sweeps (trapeze/sweep.hpp) on a GPU: seed 004's hyper-tiles, what
// the PeerWave kernels (sweep_peerwave_kernel.cuh) and the global-barrier
// baseline (sweep_wave_kernel.cuh) share: the tile, the hyper-tiles, their
// staging in shared memory, their steps and their store.
//
// A band is 32 rows, one per lane of a warp. A hyper-tile of band b and
// chunk q is the parallelogram in which lane k computes columns
// q*C - k .. q*C - k + C - 1, one per step: at every step all 32 lanes work
// (the first and last chunks excepted, where columns fall outside the tile).
// A warp copies its parallelogram into shared memory (each lane's row
// segment plus its right neighbour, the row above and the row below the
// band; cp.async, coalesced), sweeps it there, and stores it back coalesced.
// At step s lane k computes (k, c): up is lane k-1's value of the step
// before (a shuffle; lane 0 takes the staged row above, already this
// sweep's), left its own value of the step before, right the next staged
// cell, down lane k+1's right (a shuffle; lane 31 takes the staged row
// below, still the last sweep's). Each cell sees the same five values as in
// the sequential loop.
//
// The steps of a band are one warp's chain of dependent instructions: on an
// H200 the copy in with a test per cell, the steps and the store took 3.3,
// 2.2 and 1.3 of a hyper-tile's 9 us (docs/PERF.md, 2026-11-29). Hyper-tiles
// inside the tile (all but the last chunks of a band and a short last band)
// are copied, swept and stored without tests.
#include <cuda_runtime.h>

#include <cstddef>

#include "async_copy.cuh"
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

}  // namespace detail

}  // namespace trapeze::cuda
