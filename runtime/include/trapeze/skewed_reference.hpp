#pragma once
// The skewed-slab schedule (trapeze/skewed_slabs.hpp) run in plain loops on
// the CPU: every task of every pass in order (passes up and down the axis
// in turn), each step of a task over its leaning range of planes, the
// double-buffered fields chosen by the parity of the step. It shares the
// point update, the padding and the Neighbourhood view with
// reference::advance, so equal results mean the schedule reads every plane
// at the step it should: this is what the tests check before any
// StarPU run of skewed slabs is, and what those runs are checked against.
#include <string>
#include <vector>

#include "trapeze/error.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/skewed_slabs.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::reference {

namespace detail {

// Sets the cells outside the domain of the padded planes [first, last]
// (padded coordinates along `axis`) from the in-domain cells of the same
// buffer, as pad() does from the grid.
template <typename T>
void fill_ring(T* padded, const Extent& n, const Extent& r, const Boundary& boundary, int axis, Index first,
               Index last) {
  const Extent p{n[0] + 2 * r[0], n[1] + 2 * r[1], n[2] + 2 * r[2]};
  Extent lo{0, 0, 0}, hi{p[0] - 1, p[1] - 1, p[2] - 1};
  lo[axis] = first;
  hi[axis] = last;
  for (Index z = lo[2]; z <= hi[2]; ++z) {
    for (Index y = lo[1]; y <= hi[1]; ++y) {
      for (Index x = lo[0]; x <= hi[0]; ++x) {
        const Extent global{x - r[0], y - r[1], z - r[2]};
        bool outside = false;
        Extent source{};
        for (int d = 0; d < max_dims; ++d) {
          outside |= global[d] < 0 || global[d] >= n[d];
          source[d] = boundary_source(global[d], n[d], boundary.kind) + r[d];
        }
        if (!outside) continue;
        padded[x + p[0] * (y + p[1] * z)] = boundary.kind == BoundaryKind::constant
                                                ? static_cast<T>(boundary.value)
                                                : padded[source[0] + p[0] * (source[1] + p[1] * source[2])];
      }
    }
  }
}

}  // namespace detail

// Advances `grid` by `steps` steps from `first_step` in passes of
// slabs.height() steps (the last pass may be shorter). Throws
// InvalidArgument when the slabs do not match the grid's skewed axis or its
// boundary wraps.
template <Stencil S>
void advance_skewed(const S& stencil, Grid<typename S::value_type>& grid, const SkewedSlabs& slabs, Index steps,
                    Index first_step = 0) {
  using T = typename S::value_type;
  const Extent n = grid.extent();
  const Extent r = S::shape.radius;
  const int axis = skewed_axis(grid.dims());
  if (slabs.planes() != n[axis] || slabs.radius() != r[axis]) {
    throw InvalidArgument("skewed slabs of " + std::to_string(slabs.planes()) + " planes and radius " +
                          std::to_string(slabs.radius()) + " do not match the grid's axis " + std::to_string(axis) +
                          " (" + std::to_string(n[axis]) + " planes, radius " + std::to_string(r[axis]) + ")");
  }
  if (grid.boundary().kind == BoundaryKind::periodic) {
    throw InvalidArgument("skewed slabs need a boundary that does not wrap, got periodic");
  }
  if (grid.constant_planes() > 1 && first_step + steps > grid.constant_planes()) {
    throw InvalidArgument("the grid's read-only fields have " + std::to_string(grid.constant_planes()) +
                          " planes (one per step), too few for " + std::to_string(first_step + steps) + " steps");
  }
  const Extent p{n[0] + 2 * r[0], n[1] + 2 * r[1], n[2] + 2 * r[2]};
  const Index padded_cells = cell_count(p);
  const int fields = grid.updated_count();
  const Index planes = grid.constant_planes();
  std::vector<T> constants(grid.constant_count() * planes * padded_cells);
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (Index plane = 0; plane < planes; ++plane) {
      detail::pad(grid.constant(c).data() + plane * grid.cells(), n, r, grid.boundary(),
                  constants.data() + (c * planes + plane) * padded_cells);
    }
  }
  // buffers[s % 2] holds a plane at step s.
  std::vector<T> buffers[2] = {std::vector<T>(fields * padded_cells), std::vector<T>(fields * padded_cells)};
  for (int f = 0; f < fields; ++f) {
    detail::pad(grid.updated(f).data(), n, r, grid.boundary(), buffers[first_step % 2].data() + f * padded_cells);
  }
  for (Index done = 0, pass = 0; done < steps; done += slabs.height(), ++pass) {
    const Index pass_steps = std::min(slabs.height(), steps - done);
    for (int j = 0; j < slabs.count(); ++j) {
      for (Index t = 1; t <= pass_steps; ++t) {
        const PlaneRange range = slabs.updated(j, t, SkewedSlabs::runs_down(pass));
        if (range.empty()) continue;
        const Index step = first_step + done + t - 1;
        T* in = buffers[step % 2].data();
        T* out = buffers[(step + 1) % 2].data();
        for (int f = 0; f < fields; ++f) {
          detail::fill_ring(in + f * padded_cells, n, r, grid.boundary(), axis, range.first,
                            range.last + 2 * r[axis]);
        }
        const T* plane = constants.empty() ? nullptr : constants.data() + (planes > 1 ? step : 0) * padded_cells;
        Extent lo{0, 0, 0}, hi{n[0] - 1, n[1] - 1, n[2] - 1};
        lo[axis] = range.first;
        hi[axis] = range.last;
        for (Index z = lo[2]; z <= hi[2]; ++z) {
          for (Index y = lo[1]; y <= hi[1]; ++y) {
            for (Index x = lo[0]; x <= hi[0]; ++x) {
              const Index at = (x + r[0]) + p[0] * ((y + r[1]) + p[1] * (z + r[2]));
              const Neighbourhood<T> view{in + at, p[0], p[0] * p[1], padded_cells,
                                          plane ? plane + at : nullptr, planes * padded_cells, step, p[0],
                                          p[0] * p[1]};
              apply_update(stencil, view, out + at, padded_cells);
            }
          }
        }
      }
    }
  }
  const T* last = buffers[(first_step + steps) % 2].data();
  for (int f = 0; f < fields; ++f) {
    for (Index z = 0; z < n[2]; ++z) {
      for (Index y = 0; y < n[1]; ++y) {
        for (Index x = 0; x < n[0]; ++x) {
          grid.updated(f)[grid.linear(x, y, z)] =
              last[f * padded_cells + (x + r[0]) + p[0] * ((y + r[1]) + p[1] * (z + r[2]))];
        }
      }
    }
  }
}

}  // namespace trapeze::reference
