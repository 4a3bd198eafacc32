#pragma once
// The CPU implementation of an in-place sweep over one tile (buffers as in
// codelets/sweep_args.hpp), then the tile's edges copied into the strips its
// neighbours read.
//
// In row-major order every cell waits for the one before it (its left
// neighbour), so a core runs one chain of dependent operations: SOR's eight
// took about 30 cycles a cell. Rows therefore go in stripes of
// `sweep_lanes` rows swept along their anti-diagonals: at step s, lane k
// computes cell (k, s - k) of the stripe from lane k - 1's previous value
// (up, already this sweep's), its own previous value (left), and the cell,
// the row below and the cell to the right as they are in memory (not yet
// this sweep's: lane k + 1 and lane k itself reach them one step later).
// The lanes of one step are independent chains the core overlaps. Every cell
// still sees the same five values as in the sequential loop
// (trapeze/sweep_reference.hpp), so results are identical, bit for bit.
// Rows left over after the last whole stripe go one by one.
#include <starpu.h>

#include <algorithm>
#include <cstring>

#include "../sweep_args.hpp"
#include "trapeze/sweep.hpp"

namespace trapeze {

inline constexpr int sweep_lanes = 6;

namespace detail {

// One stripe of `Lanes` rows starting at row r of the tile.
template <int Lanes, InPlaceSweep S>
void sweep_stripe(const S& sweep, typename S::value_type* tile, Index ld, Index rows, Index columns, Index r,
                  const typename S::value_type* up, const typename S::value_type* left,
                  const typename S::value_type* down, const typename S::value_type* right, Index first_row,
                  Index first_column) {
  using T = typename S::value_type;
  T* const base = tile + r * ld;
  const T* const above = r > 0 ? base - ld : up;
  const T* const below = r + Lanes < rows ? base + Lanes * ld : down;
  T previous[Lanes]{};  // lane k's value of the step before
  // Lanes go from the last to the first so that lane k reads lane k - 1's
  // value of the previous step before lane k - 1 replaces it.
  const auto any_step = [&](Index s) {
    for (int k = Lanes - 1; k >= 0; --k) {
      const Index c = s - k;
      if (c < 0 || c >= columns) continue;
      T* const row = base + k * ld;
      const T* const next_row = k + 1 < Lanes ? row + ld : below;
      const T value = sweep(SweepNeighbours<T>{k == 0 ? above[c] : previous[k - 1], c == 0 ? left[r + k] : previous[k],
                                               row[c], next_row[c], c + 1 < columns ? row[c + 1] : right[r + k],
                                               first_row + r + k, first_column + c});
      row[c] = value;
      previous[k] = value;
    }
  };
  const Index steps = columns + Lanes - 1;
  Index s = 0;
  for (; s < std::min<Index>(Lanes, steps); ++s) any_step(s);
  // Every lane inside the tile, away from its first and last column.
  for (; s + 1 < columns; ++s) {
#pragma GCC unroll 16
    for (int k = Lanes - 1; k >= 0; --k) {
      const Index c = s - k;
      T* const row = base + k * ld;
      const T* const next_row = k + 1 < Lanes ? row + ld : below;
      const T value = sweep(SweepNeighbours<T>{k == 0 ? above[c] : previous[k - 1], previous[k], row[c], next_row[c],
                                               row[c + 1], first_row + r + k, first_column + c});
      row[c] = value;
      previous[k] = value;
    }
  }
  for (; s < steps; ++s) any_step(s);
}

}  // namespace detail

template <InPlaceSweep S>
void sweep_tile(const S& sweep, typename S::value_type* tile, Index ld, Index rows, Index columns,
                const typename S::value_type* up, const typename S::value_type* left,
                const typename S::value_type* down, const typename S::value_type* right, Index first_row,
                Index first_column) {
  using T = typename S::value_type;
  Index r = 0;
  for (; r + sweep_lanes <= rows; r += sweep_lanes) {
    detail::sweep_stripe<sweep_lanes>(sweep, tile, ld, rows, columns, r, up, left, down, right, first_row,
                                      first_column);
  }
  for (; r < rows; ++r) {
    T* row = tile + r * ld;
    const T* above = r > 0 ? row - ld : up;
    const T* below = r + 1 < rows ? row + ld : down;
    const Index i = first_row + r;
    T before = left[r];
    // The last column reads its right neighbour from the strip: kept out of
    // the loop so the loop has no branch.
    for (Index c = 0; c + 1 < columns; ++c) {
      before = row[c] = sweep(SweepNeighbours<T>{above[c], before, row[c], below[c], row[c + 1], i, first_column + c});
    }
    const Index c = columns - 1;
    row[c] = sweep(SweepNeighbours<T>{above[c], before, row[c], below[c], right[r], i, first_column + c});
  }
}

template <InPlaceSweep S>
void sweep_tile_cpu(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  SweepTileArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  T* tile = reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[0]));
  const Index ld = STARPU_MATRIX_GET_LD(buffers[0]);
  const Index columns = STARPU_MATRIX_GET_NX(buffers[0]);
  const Index rows = STARPU_MATRIX_GET_NY(buffers[0]);
  const auto strip = [&](int b) { return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[b])); };
  for (int k = 0; k < args.sweeps; ++k) {
    sweep_tile(*args.sweep, tile, ld, rows, columns, strip(1), strip(2), strip(3), strip(4), args.first_row,
               args.first_column);
  }
  int next = 5;
  if (args.publishes_last_row) std::memcpy(strip(next++), tile + (rows - 1) * ld, columns * sizeof(T));
  if (args.publishes_last_column) {
    T* out = strip(next++);
    for (Index r = 0; r < rows; ++r) out[r] = tile[r * ld + columns - 1];
  }
  if (args.publishes_first_row) std::memcpy(strip(next++), tile, columns * sizeof(T));
  if (args.publishes_first_column) {
    T* out = strip(next++);
    for (Index r = 0; r < rows; ++r) out[r] = tile[r * ld];
  }
}

}  // namespace trapeze
