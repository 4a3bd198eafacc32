#pragma once
// Refreshes the cells of a padded tile buffer that lie outside the domain, after
// the fill and after every step of a trapezoid: clamp copies the edge plane of
// the current step, constant writes the value. Only the `needed` cells (what
// the next step reads: its region grown by the radius) are refreshed: a ghost
// zone r*h wide outside the domain is otherwise rewritten whole at every step,
// which at large h cost as much as the step itself in 3-D. Periodic ghosts are real cells
// (wrapped pieces) and need nothing. Dimensions are done in order x, y, z so a
// corner takes the corner cell's value, as clamping each index would.
#include <algorithm>

#include "trapeze/tile_layout.hpp"

namespace trapeze {

template <typename T>
void fill_boundary(T* buffer, const TileLayout& program, int fields, const Box& needed) {
  if (program.boundary.kind == BoundaryKind::periodic) return;
  const Extent& p = program.padded;
  const Strides s = Strides::of(p);
  const Index field_stride = cell_count(p);
  const T value = static_cast<T>(program.boundary.value);
  const bool constant = program.boundary.kind == BoundaryKind::constant;
  Box within = needed;  // the needed cells, clipped to the buffer
  for (int d = 0; d < max_dims; ++d) within.lo[d] = std::max<Index>(within.lo[d], 0), within.hi[d] = std::min(within.hi[d], p[d]);
  for (int d = 0; d < max_dims; ++d) {
    if (program.ghost[d] == 0) continue;
    // padded coordinate of global 0 and of global N
    const Index first_inside = program.ghost[d] - program.tile.lo[d];
    const Index end_inside = first_inside + program.domain[d];
    struct Slab { Index lo, hi, edge; };
    const Slab slabs[2] = {{within.lo[d], std::min(first_inside, within.hi[d]), first_inside},
                           {std::max(end_inside, within.lo[d]), within.hi[d], end_inside - 1}};
    for (const Slab& slab : slabs) {
      if (slab.lo >= slab.hi) continue;
      Box region = within;
      region.lo[d] = slab.lo;
      region.hi[d] = slab.hi;
      const Index row_length = within.hi[0] - within.lo[0];
      for (int f = 0; f < fields; ++f) {
        T* field = buffer + f * field_stride;
        for (Index z = region.lo[2]; z < region.hi[2]; ++z) {
          for (Index y = region.lo[1]; y < region.hi[1]; ++y) {
            T* row = field + s.offset(0, y, z);
            if (d == 0) {  // a few cells at the start or end of the row
              const T edge = constant ? value : row[slab.edge];
              std::fill(row + slab.lo, row + slab.hi, edge);
            } else if (constant) {
              std::fill_n(row + within.lo[0], row_length, value);
            } else {  // the needed part of the row from the edge row of this dimension
              const T* edge_row = field + (d == 1 ? s.offset(0, slab.edge, z) : s.offset(0, y, slab.edge));
              std::copy_n(edge_row + within.lo[0], row_length, row + within.lo[0]);
            }
          }
        }
      }
    }
  }
}

}  // namespace trapeze
