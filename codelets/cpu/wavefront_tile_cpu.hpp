#pragma once
// The CPU implementation of a wavefront tile: row by row, each cell from the
// row above (kept in the top strip, updated in place) and the cell to its
// left, so a tile touches its strips once and needs no scratch. After the
// last row the top strip holds exactly what the tile below reads: the
// tile's last row, preceded by the left strip's last value (its up-left
// corner). Buffers as in codelets/wavefront_args.hpp.
#include <starpu.h>

#include "../wavefront_args.hpp"
#include "trapeze/wavefront.hpp"

namespace trapeze {

template <Wavefront W>
void wavefront_tile_cpu(void* buffers[], void* cl_arg) {
  using T = typename W::value_type;
  using RowInput = row_input_of<W>;
  using ColumnInput = column_input_of<W>;
  using CellInput = cell_input_of<W>;
  using Result = result_of<W>;
  WavefrontTileArgs<W> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const W& wavefront = *args.wavefront;
  int next = 0;
  T* top = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  T* left = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  Result* result = nullptr;
  if constexpr (folds_result_v<W>) result = reinterpret_cast<Result*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  const RowInput* row_inputs = nullptr;
  const ColumnInput* column_inputs = nullptr;
  const CellInput* cell_inputs = nullptr;
  Index cell_ld = 0;
  if constexpr (has_input_v<RowInput>) {
    row_inputs = reinterpret_cast<const RowInput*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  }
  if constexpr (has_input_v<ColumnInput>) {
    column_inputs = reinterpret_cast<const ColumnInput*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  }
  if constexpr (has_input_v<CellInput>) {
    cell_inputs = reinterpret_cast<const CellInput*>(STARPU_MATRIX_GET_PTR(buffers[next]));
    cell_ld = STARPU_MATRIX_GET_LD(buffers[next++]);
  }
  T* output = nullptr;
  Index output_ld = 0;
  if (args.output) {
    output = reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[next]));
    output_ld = STARPU_MATRIX_GET_LD(buffers[next++]);
  }
  Result folded{};
  if constexpr (folds_result_v<W>) folded = *result;
  for (Index r = 0; r < args.rows; ++r) {
    const Index i = args.first_row + r;
    RowInput row_input{};
    if constexpr (has_input_v<RowInput>) row_input = row_inputs[r];
    T up_left = top[0];
    top[0] = left[r];
    for (Index c = 0; c < args.columns; ++c) {
      ColumnInput column_input{};
      if constexpr (has_input_v<ColumnInput>) column_input = column_inputs[c];
      CellInput cell_input{};
      if constexpr (has_input_v<CellInput>) cell_input = cell_inputs[r * cell_ld + c];
      const T up = top[c + 1];
      const T value = wavefront(WavefrontNeighbours<T>{up, top[c], up_left, i, args.first_column + c}, row_input,
                                column_input, cell_input);
      if constexpr (folds_result_v<W>) wavefront.fold(folded, value);
      if (output) output[r * output_ld + c] = value;
      up_left = up;
      top[c + 1] = value;
    }
    left[r] = top[args.columns];
  }
  if constexpr (folds_result_v<W>) *result = folded;
}

}  // namespace trapeze
