#pragma once
// The arguments the planner packs into in-place sweep tile tasks (by value),
// shared by every implementation of the codelet.
//
// Buffers of a tile task, in order:
//   tile (RW, matrix rows x cols inside the grid),
//   up (R, vector of cols: the row above, from this sweep, or the boundary),
//   left (R, vector of rows: the column left of the tile, from this sweep),
//   down (R, vector of cols: the row below, from the previous sweep),
//   right (R, vector of rows: the column right of the tile, previous sweep),
//   then the strips the tile publishes for its neighbours, each only where
//   that neighbour exists: [last row (W)] for the tile below in this sweep,
//   [last column (W)] for the tile to the right in this sweep, [first row
//   (W)] for the tile above in the next sweep, [first column (W)] for the
//   tile to the left in the next sweep.
#include "trapeze/geometry.hpp"

namespace trapeze {

template <typename S>
struct SweepTileArgs {
  const S* sweep;
  Index first_row;     // global coordinates of the tile's top-left cell
  Index first_column;
  bool publishes_last_row;
  bool publishes_last_column;
  bool publishes_first_row;
  bool publishes_first_column;
  int hyper_tile_width;  // GPU: columns per lane per hyper-tile
  int sweeps;            // sweeps this task makes (> 1 only for a grid in one tile)
};

}  // namespace trapeze
