#pragma once
// Refreshes the cells of a padded tile buffer that lie outside the domain, after
// the fill and after every step of a trapezoid: clamp copies the edge plane of
// the current step, constant writes the value. Periodic ghosts are real cells
// (wrapped pieces) and need nothing. Dimensions are done in order x, y, z so a
// corner takes the corner cell's value, as clamping each index would.
#include "codelets/tile_program.hpp"

namespace trapeze {

template <typename T>
void fill_boundary(T* buffer, const TileProgram& program, int fields) {
  if (program.boundary.kind == BoundaryKind::periodic) return;
  const Extent& p = program.padded;
  const Strides s = Strides::of(p);
  const Index field_stride = cell_count(p);
  const T value = static_cast<T>(program.boundary.value);
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
            for (Index x = region.lo[0]; x < region.hi[0]; ++x) {
              if (program.boundary.kind == BoundaryKind::constant) {
                field[s.offset(x, y, z)] = value;
              } else {
                Extent edge{x, y, z};
                edge[d] = slab.edge;
                field[s.offset(x, y, z)] = field[s.offset(edge[0], edge[1], edge[2])];
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace trapeze
