#pragma once
// The plain sequential loop of an in-place sweep (trapeze/sweep.hpp): the
// reference every tiled run must equal bit for bit, since each cell is
// computed from the same five values by the same function.
#include <span>
#include <vector>

#include "trapeze/error.hpp"
#include "trapeze/sweep.hpp"

namespace trapeze::reference {

template <InPlaceSweep S>
void sweeps(const S& sweep, std::span<typename S::value_type> grid, Index rows, Index columns, Index count) {
  using T = typename S::value_type;
  if (rows < 0 || columns < 0 || static_cast<Index>(grid.size()) != rows * columns) {
    throw InvalidArgument("a sweep's grid must hold rows x columns values");
  }
  // The boundary ring, once: it never changes.
  std::vector<T> above(static_cast<std::size_t>(columns)), below(static_cast<std::size_t>(columns));
  for (Index j = 0; j < columns; ++j) {
    above[j] = sweep.boundary(-1, j);
    below[j] = sweep.boundary(rows, j);
  }
  for (Index t = 0; t < count; ++t) {
    for (Index i = 0; i < rows; ++i) {
      T* row = grid.data() + i * columns;
      const T* up = i > 0 ? row - columns : above.data();
      const T* down = i + 1 < rows ? row + columns : below.data();
      T left = sweep.boundary(i, -1);
      for (Index j = 0; j < columns; ++j) {
        const T right = j + 1 < columns ? row[j + 1] : sweep.boundary(i, columns);
        const T value = sweep(SweepNeighbours<T>{up[j], left, row[j], down[j], right, i, j});
        row[j] = value;
        left = value;
      }
    }
  }
}

}  // namespace trapeze::reference
