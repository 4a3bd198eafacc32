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
//   [cell inputs (R, matrix rows x cols)], [output (W, matrix rows x cols)].
#include "trapeze/geometry.hpp"

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
};

}  // namespace trapeze
