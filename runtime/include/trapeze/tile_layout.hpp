#pragma once
// What a tile task needs to know about its tile, fixed for the whole run: where
// the tile sits, how wide its ghost zone is, where each incoming halo piece
// lands in the padded buffer and which part of the tile each outgoing piece
// carries. Plain values: the planner fills one per tile, the CPU and CUDA
// kernels read it; neither needs the other.
#include <algorithm>
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

struct TileLayout {
  Box tile;                 // global coordinates
  Extent ghost{0, 0, 0};    // r*h per dimension
  Extent padded{1, 1, 1};   // tile extent + 2 * ghost
  Extent domain{1, 1, 1};
  Boundary boundary;
  Extent radius{0, 0, 0};
  int dims = 1;
  int updated_fields = 1;
  int constant_fields = 0;
  Index constant_planes = 1;
  // Slices of the slowest dimension the CPU's in-place sweep computes before
  // writing them back (see codelets/cpu/sweep_in_place.hpp).
  Index chunk_thickness = 1;
  std::vector<Box> input_destinations;  // one per input strip buffer, in task order
  std::vector<WrapCopy> self_wraps;     // periodic wrap onto the tile itself
  std::vector<Box> output_sources;      // one per output strip buffer, in task order

  Extent tile_extent() const { return tile.extent(); }
  Index padded_cells() const { return cell_count(padded); }
  // One padded buffer: every updated field, tile + ghost zone.
  Index buffer_cells() const { return updated_fields * padded_cells(); }
  // The tile's own cells inside the padded buffer.
  Box interior() const { return Box{{0, 0, 0}, tile_extent()}.shifted(ghost); }
  // The domain [0, N) in padded coordinates; unbounded in periodic dimensions
  // (a periodic ghost cell is a real cell, wrapped).
  Box domain_in_padded() const {
    Box b;
    for (int d = 0; d < max_dims; ++d) {
      if (boundary.kind == BoundaryKind::periodic) {
        b.lo[d] = 0, b.hi[d] = padded[d];
      } else {
        b.lo[d] = ghost[d] - tile.lo[d], b.hi[d] = b.lo[d] + domain[d];
      }
    }
    return b;
  }
  // Slices of the chunk buffer the CPU sweep needs (two chunks, every field).
  Index chunk_cells() const {
    const int d = dims - 1;
    Index slice = 1;
    for (int e = 0; e < d; ++e) slice *= padded[e];
    return 2 * chunk_thickness * slice * updated_fields;
  }
};

// Where step k (1-based) of a stage computes, in padded coordinates, clipped to
// the domain in non-periodic dimensions (outside cells come from the boundary).
// shrink: the cells still valid after k steps; full: every cell whose stencil
// stays inside the buffer (seed 000's "compute as if the tile does not shrink,
// commit the valid part").
inline Box trapezoid_region(const TileLayout& p, TrapezoidMode mode, int k) {
  Box region;
  const Box inside = p.domain_in_padded();
  for (int d = 0; d < max_dims; ++d) {
    const Index inset = mode == TrapezoidMode::shrink ? p.radius[d] * k : p.radius[d];
    region.lo[d] = std::max(inset, inside.lo[d]);
    region.hi[d] = std::min(p.padded[d] - inset, inside.hi[d]);
  }
  return region;
}

}  // namespace trapeze
