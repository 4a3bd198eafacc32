#pragma once
// The plain sequential reference every run is checked against: the whole domain
// padded by the stencil radius, the boundary applied by direct index mapping,
// one loop nest per step. It shares only the point-update function and the
// Neighbourhood view with the tiled runtime, so equal results mean the tiling,
// halos and trapezoids are right.
#include <algorithm>
#include <utility>
#include <vector>

#include "trapeze/grid.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::reference {

namespace detail {

// Copies `cells` (the domain) into `padded` and sets the ring of width r from
// the boundary condition.
template <typename T>
void pad(const T* cells, const Extent& n, const Extent& r, const Boundary& boundary, T* padded) {
  const Extent p{n[0] + 2 * r[0], n[1] + 2 * r[1], n[2] + 2 * r[2]};
  auto value_at = [&](const Extent& global) {
    bool outside = false;
    Extent s{};
    for (int d = 0; d < max_dims; ++d) {
      outside |= global[d] < 0 || global[d] >= n[d];
      s[d] = boundary_source(global[d], n[d], boundary.kind);
    }
    return outside && boundary.kind == BoundaryKind::constant ? static_cast<T>(boundary.value)
                                                              : cells[s[0] + n[0] * (s[1] + n[1] * s[2])];
  };
  for (Index z = 0; z < p[2]; ++z) {
    for (Index y = 0; y < p[1]; ++y) {
      T* row = padded + p[0] * (y + p[1] * z);
      const Index gy = y - r[1], gz = z - r[2];
      const bool row_inside = gy >= 0 && gy < n[1] && gz >= 0 && gz < n[2];
      for (Index x = 0; x < p[0]; ++x) {
        const Index gx = x - r[0];
        if (row_inside && gx == 0) {  // the row's in-domain cells in one copy
          std::copy_n(cells + n[0] * (gy + n[1] * gz), n[0], row + x);
          x += n[0] - 1;
          continue;
        }
        row[x] = value_at({gx, gy, gz});
      }
    }
  }
}

}  // namespace detail

// Advances `grid` from step `first_step` (which time-varying read-only
// fields and Neighbourhood::step count from) by `steps` steps.
template <Stencil S>
void advance(const S& stencil, Grid<typename S::value_type>& grid, Index steps, Index first_step = 0) {
  using T = typename S::value_type;
  if (grid.constant_planes() > 1 && first_step + steps > grid.constant_planes()) {
    throw InvalidArgument("the grid's read-only fields have " + std::to_string(grid.constant_planes()) +
                          " planes (one per step), too few for " + std::to_string(first_step + steps) + " steps");
  }
  const Extent n = grid.extent();
  const Extent r = S::shape.radius;
  const Extent p{n[0] + 2 * r[0], n[1] + 2 * r[1], n[2] + 2 * r[2]};
  const Index padded_cells = cell_count(p);
  const int fields = grid.updated_count();
  const Index planes = grid.constant_planes();
  std::vector<T> in(fields * padded_cells), out(fields * padded_cells);
  std::vector<T> constants(grid.constant_count() * planes * padded_cells);
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (Index plane = 0; plane < planes; ++plane) {
      detail::pad(grid.constant(c).data() + plane * grid.cells(), n, r, grid.boundary(),
                  constants.data() + (c * planes + plane) * padded_cells);
    }
  }
  for (Index step = first_step; step < first_step + steps; ++step) {
    for (int f = 0; f < fields; ++f) {
      detail::pad(grid.updated(f).data(), n, r, grid.boundary(), in.data() + f * padded_cells);
    }
    const T* plane = constants.empty() ? nullptr : constants.data() + (planes > 1 ? step : 0) * padded_cells;
    for (Index z = 0; z < n[2]; ++z) {
      for (Index y = 0; y < n[1]; ++y) {
        for (Index x = 0; x < n[0]; ++x) {
          const Index at = (x + r[0]) + p[0] * ((y + r[1]) + p[1] * (z + r[2]));
          const Neighbourhood<T> view{in.data() + at, p[0], p[0] * p[1], padded_cells,
                                      plane ? plane + at : nullptr, planes * padded_cells, step, p[0], p[0] * p[1]};
          apply_update(stencil, view, out.data() + at, padded_cells);
        }
      }
    }
    for (int f = 0; f < fields; ++f) {
      for (Index z = 0; z < n[2]; ++z) {
        for (Index y = 0; y < n[1]; ++y) {
          for (Index x = 0; x < n[0]; ++x) {
            grid.updated(f)[grid.linear(x, y, z)] =
                out[f * padded_cells + (x + r[0]) + p[0] * ((y + r[1]) + p[1] * (z + r[2]))];
          }
        }
      }
    }
  }
}

}  // namespace trapeze::reference
