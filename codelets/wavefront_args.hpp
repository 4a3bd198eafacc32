#pragma once
// The arguments the planner packs into wavefront tile tasks (by value),
// shared by the CPU and CUDA implementations.
//
// Buffers of a tile task, in order:
//   top strip (RW, vector of cols + 1 values: the cell left of the tile's
//     top-left corner, then the row above the tile; left holding the tile's
//     last row, with the cell left of it, for the tile below),
//   left strip (RW, vector of rows values: the column left of the tile; left
//     holding the tile's last column for the tile to its right),
//   [result (RW, vector of one result) when the wavefront folds one],
//   [row inputs (R, vector of rows)], [column inputs (R, vector of cols)],
//   [cell inputs (R, matrix rows x cols)], [output (W, matrix rows x cols)];
// in the banded layout (banded_lane_rows > 0) the cell inputs and the
// output are banded copies instead (contiguous BandedLayout::cells() values,
// registered as a matrix of a band's cells by bands).
#include <starpu.h>

#include "trapeze/banded_layout.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/wavefront.hpp"

namespace trapeze {

template <typename W>
struct WavefrontTileArgs {
  const W* wavefront;
  Index first_row;     // global coordinates of the tile's top-left cell
  Index first_column;
  Index rows;
  Index columns;
  bool output;         // the task writes its cells to an output matrix
  int hyper_tile_width;  // GPU: steps per hyper-tile (WavefrontPlan::hyper_tile_width)
  // Cell inputs and output banded with lanes of this many rows
  // (trapeze/banded_layout.hpp); 0: row-major matrices.
  int banded_lane_rows;

  BandedLayout banded_layout() const { return {rows, columns, banded_lane_rows}; }
};

// A tile task's buffers in the order above, on whichever node the task runs
// (inputs a wavefront does not declare stay null).
template <Wavefront W>
struct WavefrontTaskBuffers {
  typename W::value_type* top = nullptr;
  typename W::value_type* left = nullptr;
  result_of<W>* result = nullptr;
  const row_input_of<W>* row_inputs = nullptr;
  const column_input_of<W>* column_inputs = nullptr;
  const cell_input_of<W>* cell_inputs = nullptr;
  Index cell_ld = 0;
  typename W::value_type* output = nullptr;
  Index output_ld = 0;  // row-major only, like cell_ld
};

template <Wavefront W>
WavefrontTaskBuffers<W> wavefront_task_buffers(void* buffers[], const WavefrontTileArgs<W>& args) {
  const bool banded = args.banded_lane_rows > 0;
  using T = typename W::value_type;
  WavefrontTaskBuffers<W> b;
  int next = 0;
  b.top = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  b.left = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  if constexpr (folds_result_v<W>) b.result = reinterpret_cast<result_of<W>*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  if constexpr (has_input_v<row_input_of<W>>) {
    b.row_inputs = reinterpret_cast<const row_input_of<W>*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  }
  if constexpr (has_input_v<column_input_of<W>>) {
    b.column_inputs = reinterpret_cast<const column_input_of<W>*>(STARPU_VECTOR_GET_PTR(buffers[next++]));
  }
  if constexpr (has_input_v<cell_input_of<W>>) {
    if (banded) {
      b.cell_inputs = reinterpret_cast<const cell_input_of<W>*>(STARPU_MATRIX_GET_PTR(buffers[next++]));
    } else {
      b.cell_inputs = reinterpret_cast<const cell_input_of<W>*>(STARPU_MATRIX_GET_PTR(buffers[next]));
      b.cell_ld = STARPU_MATRIX_GET_LD(buffers[next++]);
    }
  }
  if (args.output) {
    if (banded) {
      b.output = reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[next++]));
    } else {
      b.output = reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[next]));
      b.output_ld = STARPU_MATRIX_GET_LD(buffers[next++]);
    }
  }
  return b;
}

}  // namespace trapeze
