#pragma once
// The plain sequential reference a wavefront run is checked against: every
// cell in row-major order from a whole (rows + 1) x (columns + 1) array whose
// row 0 and column 0 hold the boundary. It shares only the cell update with
// the tiled run, so equal results mean the tiles, strips and corners are right.
#include <vector>

#include "trapeze/wavefront.hpp"

namespace trapeze::reference {

// Fills `data.output` when it is not empty and returns the fold over all cells
// (NoResult for wavefronts that fold nothing); `last_cell`, when given,
// receives cell (rows - 1, columns - 1) of a non-empty space.
template <Wavefront W>
result_of<W> wavefront(const W& w, const WavefrontData<W>& data, typename W::value_type* last_cell = nullptr) {
  using T = typename W::value_type;
  const Index n = data.rows, m = data.columns, ld = m + 1;
  std::vector<T> cells(static_cast<std::size_t>((n + 1) * ld));
  for (Index j = -1; j < m; ++j) cells[j + 1] = w.boundary(-1, j);
  for (Index i = 0; i < n; ++i) cells[(i + 1) * ld] = w.boundary(i, -1);
  result_of<W> result{};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < m; ++j) {
      row_input_of<W> r{};
      column_input_of<W> c{};
      cell_input_of<W> x{};
      if constexpr (has_input_v<row_input_of<W>>) r = data.row_inputs[i];
      if constexpr (has_input_v<column_input_of<W>>) c = data.column_inputs[j];
      if constexpr (has_input_v<cell_input_of<W>>) x = data.cell_inputs[i * m + j];
      const WavefrontNeighbours<T> at{cells[i * ld + j + 1], cells[(i + 1) * ld + j], cells[i * ld + j], i, j};
      const T value = w(at, r, c, x);
      cells[(i + 1) * ld + j + 1] = value;
      if constexpr (folds_result_v<W>) w.fold(result, value);
      if (!data.output.empty()) data.output[i * m + j] = value;
    }
  }
  if (last_cell && n > 0 && m > 0) *last_cell = cells[n * ld + m];
  return result;
}

}  // namespace trapeze::reference
