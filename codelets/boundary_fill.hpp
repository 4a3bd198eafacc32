#pragma once
// Refreshes the cells of a padded tile buffer that lie outside the domain, after
// the fill and after every step of a trapezoid: clamp copies the edge plane of
// the current step, constant writes the value. Periodic ghosts are real cells
// (wrapped pieces) and need nothing. Dimensions are done in order x, y, z so a
// corner takes the corner cell's value, as clamping each index would.
#include <algorithm>

#include "codelets/tile_program.hpp"

namespace trapeze {

template <typename T>
void fill_boundary(T* buffer, const TileProgram& program, int fields) {
  if (program.boundary.kind == BoundaryKind::periodic) return;
  const Extent& p = program.padded;
  const Strides s = Strides::of(p);
  const Index field_stride = cell_count(p);
  const T value = static_cast<T>(program.boundary.value);
  const bool constant = program.boundary.kind == BoundaryKind::constant;
  for (int d = 0; d < max_dims; ++d) {
    if (program.ghost[d] == 0) continue;
    // padded coordinate of global 0 and of global N
    const Index first_inside = program.ghost[d] - program.tile.lo[d];
    const Index end_inside = first_inside + program.domain[d];
    struct Slab { Index lo, hi, edge; };
    const Slab slabs[2] = {{0, std::min(first_inside, p[d]), first_inside},
                           {std::max<Index>(end_inside, 0), p[d], end_inside - 1}};
    for (const Slab& slab : slabs) {
      if (slab.lo >= slab.hi) continue;
      Box region{{0, 0, 0}, p};
      region.lo[d] = slab.lo;
      region.hi[d] = slab.hi;
      for (int f = 0; f < fields; ++f) {
        T* field = buffer + f * field_stride;
        for (Index z = region.lo[2]; z < region.hi[2]; ++z) {
          for (Index y = region.lo[1]; y < region.hi[1]; ++y) {
            T* row = field + s.offset(0, y, z);
            if (d == 0) {  // a few cells at the start or end of the row
              const T edge = constant ? value : row[slab.edge];
              std::fill(row + slab.lo, row + slab.hi, edge);
            } else if (constant) {
              std::fill_n(row, p[0], value);
            } else {  // the whole row from the edge row of this dimension
              const T* edge_row = field + (d == 1 ? s.offset(0, slab.edge, z) : s.offset(0, y, slab.edge));
              std::copy_n(edge_row, p[0], row);
            }
          }
        }
      }
    }
  }
}

}  // namespace trapeze
