#pragma once
// Which cells each tile needs from which other tile: for a consumer tile, its
// box grown by the ghost width g = r*h, cut by every producer tile (wrapped
// around periodic dimensions). Each non-empty cut is a piece: the producer
// publishes exactly write(producer) ∩ read(consumer) (seed 002's rule) as its
// own StarPU handle, so the consumer depends on exactly the tiles it reads.
// A ghost wider than a neighbouring tile simply reaches further tiles.
#include <vector>

#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

struct HaloPiece {
  int producer = 0;
  int consumer = 0;
  Box source;       // in the producer tile's local coordinates
  Box destination;  // in the consumer's padded (tile + ghost) coordinates
};

struct TileHalo {
  std::vector<int> inputs;      // pieces this tile reads from other tiles
  std::vector<int> self_wraps;  // pieces it reads from itself (periodic wrap)
  std::vector<int> outputs;     // pieces it publishes for other tiles
};

struct HaloLayout {
  std::vector<HaloPiece> pieces;
  std::vector<TileHalo> tiles;
};

// A lower bound on the pieces every tile reads, computed without building the
// layout: along each dimension a tile has at least min(n - 1, ceil(g / t))
// neighbours within its ghost zone on one side, even at the domain's edge.
// Lets a planner refuse a tiling whose halo bookkeeping alone cannot fit
// before spending minutes (and gigabytes) on listing its pieces.
Index minimum_pieces_per_tile(const Tiling& tiling, const Extent& ghost);

// Throws trapeze::Error when a periodic ghost zone would wrap around the
// domain more than once (ghost width larger than the domain extent).
HaloLayout build_halo_layout(const Tiling& tiling, const Extent& ghost, BoundaryKind boundary);

}  // namespace trapeze
