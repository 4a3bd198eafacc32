#pragma once
// The plain sequential reference a wavefront run is checked against: every
// cell in row-major order, from the previous row (starting as row -1, the
// boundary) and the current one, so it needs O(columns) memory however many
// rows there are. It shares only the cell update with the tiled run, so equal
// results mean the tiles, strips and corners are right.
#include <utility>
#include <vector>

#include "trapeze/wavefront.hpp"

namespace trapeze::reference {

// Fills `data.output` when it is not empty and returns the fold over all cells
// (NoResult for wavefronts that fold nothing); `last_cell`, when given,
// receives cell (rows - 1, columns - 1) of a non-empty space.
template <Wavefront W>
result_of<W> wavefront(const W& w, const WavefrontData<W>& data, typename W::value_type* last_cell = nullptr) {
  using T = typename W::value_type;
  const Index n = data.rows, m = data.columns;
  // previous[j + 1] is cell (i - 1, j); previous[0] is column -1.
  std::vector<T> previous(static_cast<std::size_t>(m + 1)), current(static_cast<std::size_t>(m + 1));
  for (Index j = -1; j < m; ++j) previous[j + 1] = w.boundary(-1, j);
  result_of<W> result{};
  for (Index i = 0; i < n; ++i) {
    current[0] = w.boundary(i, -1);
    for (Index j = 0; j < m; ++j) {
      row_input_of<W> r{};
      column_input_of<W> c{};
      cell_input_of<W> x{};
      if constexpr (has_input_v<row_input_of<W>>) r = data.row_inputs[i];
      if constexpr (has_input_v<column_input_of<W>>) c = data.column_inputs[j];
      if constexpr (has_input_v<cell_input_of<W>>) x = data.cell_inputs[i * m + j];
      const WavefrontNeighbours<T> at{previous[j + 1], current[j], previous[j], i, j};
      const T value = w(at, r, c, x);
      current[j + 1] = value;
      if constexpr (folds_result_v<W>) w.fold(result, value);
      if (!data.output.empty()) data.output[i * m + j] = value;
    }
    std::swap(previous, current);
  }
  if (last_cell && n > 0 && m > 0) *last_cell = previous[m];
  return result;
}

}  // namespace trapeze::reference
