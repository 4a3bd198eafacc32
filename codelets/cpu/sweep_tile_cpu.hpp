#pragma once
// The CPU implementation of an in-place sweep over one tile (buffers as in
// codelets/sweep_args.hpp): the tile's cells in row-major order, exactly
// the sequential loop's order restricted to the tile, so every cell sees the
// same five values as in trapeze/sweep_reference.hpp. Then the tile copies
// its edges into the strips its neighbours read.
#include <starpu.h>

#include <cstring>

#include "../sweep_args.hpp"
#include "trapeze/sweep.hpp"

namespace trapeze {

template <InPlaceSweep S>
void sweep_tile(const S& sweep, typename S::value_type* tile, Index ld, Index rows, Index columns,
                const typename S::value_type* up, const typename S::value_type* left,
                const typename S::value_type* down, const typename S::value_type* right, Index first_row,
                Index first_column) {
  using T = typename S::value_type;
  for (Index r = 0; r < rows; ++r) {
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
  sweep_tile(*args.sweep, tile, ld, rows, columns, strip(1), strip(2), strip(3), strip(4), args.first_row,
             args.first_column);
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
