#pragma once
// What a tile task needs to know about its tile, fixed for the whole run: where
// the tile sits, how wide its ghost zone is, where each incoming halo piece
// lands in the padded buffer and which part of the tile each outgoing piece
// carries. The runtime builds one per tile; tasks get a pointer to it.
#include <vector>

#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/plan.hpp"
#include "trapeze/stencil_shape.hpp"

namespace trapeze {

struct WrapCopy {
  Box source;       // tile-local
  Box destination;  // padded
};

struct TileProgram {
  Box tile;       // global coordinates
  Extent ghost;   // r*h per dimension
  Extent padded;  // tile extent + 2 * ghost
  Extent domain;
  Boundary boundary;
  Extent radius;
  int updated_fields = 1;
  int constant_fields = 0;
  Index constant_planes = 1;
  Index buffer_stride = 0;  // elements from the first padded buffer to the second
  std::vector<Box> input_destinations;  // one per input strip buffer, in task order
  std::vector<WrapCopy> self_wraps;     // periodic wrap onto the tile itself
  std::vector<Box> output_sources;      // one per output strip buffer, in task order

  Extent tile_extent() const { return tile.extent(); }
  Index padded_cells() const { return cell_count(padded); }
  // The tile's own cells inside the padded buffer.
  Box interior() const { return Box{{0, 0, 0}, tile_extent()}.shifted(ghost); }
};

// Per-stage arguments, packed by value into the task.
template <typename S>
struct StageArgs {
  const TileProgram* program;
  const S* stencil;
  int steps;          // steps in this stage (h, or fewer for the last stage)
  Index first_step;   // global index of the stage's first step
  int current;        // which of the tile's two padded buffers holds the latest step
  bool publish;       // write outgoing strips after the stage
  TrapezoidMode mode;
};

struct PublishArgs {
  const TileProgram* program;
  int current;
};

}  // namespace trapeze
