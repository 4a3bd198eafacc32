#pragma once
// The CPU implementation of a skewed-slab task (codelets/skewed_args.hpp):
// copy the touched slabs into one window of contiguous planes, advance the
// task's leaning range of planes step by step (each step reads the buffer of
// its parity and writes the other), and copy the updated fields back. The
// window makes the planes of different slabs one strided array, so the
// stencil's Neighbourhood reaches across slab edges.
#include <starpu.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "../skewed_args.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze {

namespace skewed_detail {

// Sets the cells outside the domain of window planes [from, to] (global
// plane numbers, clipped to the window) of one field: first the ring of each
// in-domain plane from that plane, then whole planes beyond the domain's ends
// from the edge plane (clamp) or the constant.
template <typename T>
void fill_ring(T* field, const SkewedGeometry& g, Index window_first, Index window_planes, Index from, Index to) {
  const Index n = g.planes();
  from = std::max(from, window_first);
  to = std::min(to, window_first + window_planes - 1);
  const bool constant = g.boundary.kind == BoundaryKind::constant;
  const T value = static_cast<T>(g.boundary.value);
  const Index rx = g.radius[0], nx = g.domain[0];
  const bool has_y = g.axis == 2;
  const Index ry = has_y ? g.radius[1] : 0, ny = has_y ? g.domain[1] : 1;
  const Index rows = g.plane_cells / g.plane_row;
  for (Index plane = std::max<Index>(from, 0); plane <= std::min(to, n - 1); ++plane) {
    T* p = field + (plane - window_first) * g.plane_cells;
    for (Index y = 0; y < rows; ++y) {
      const bool row_outside = y < ry || y >= ny + ry;
      const Index source_y = std::clamp(y, ry, ny + ry - 1);
      for (Index x = 0; x < g.plane_row; ++x) {
        if (!row_outside && x >= rx && x < nx + rx) {
          x = nx + rx - 1;  // the row's inside cells stay
          continue;
        }
        p[y * g.plane_row + x] = constant ? value : p[source_y * g.plane_row + std::clamp(x, rx, nx + rx - 1)];
      }
    }
  }
  for (Index plane = from; plane <= to; ++plane) {
    if (plane >= 0 && plane < n) continue;
    T* p = field + (plane - window_first) * g.plane_cells;
    if (constant) {
      std::fill_n(p, g.plane_cells, value);
    } else {
      const T* edge = field + (std::clamp<Index>(plane, 0, n - 1) - window_first) * g.plane_cells;
      std::copy_n(edge, g.plane_cells, p);
    }
  }
}

}  // namespace skewed_detail

template <Stencil S>
void skewed_task_cpu(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  SkewedTaskArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const SkewedGeometry& g = *args.geometry;
  const Index n = g.planes(), r = g.radius[g.axis], pc = g.plane_cells;
  const int fields = g.updated_fields, constants = g.constant_fields;
  const int slabs = args.last_slab - args.first_slab + 1;
  const Index first_plane = args.first_slab * g.slab;
  const Index last_plane = args.last_slab * g.slab + g.planes_of(args.last_slab) - 1;
  // The window: the touched slabs' planes, and the planes beyond the domain's
  // ends where it reaches them.
  const Index window_first = first_plane == 0 ? -r : first_plane;
  const Index window_last = last_plane == n - 1 ? n - 1 + r : last_plane;
  const Index window_planes = window_last - window_first + 1;
  const Index field = window_planes * pc;  // cells between a window's fields
  std::vector<T> updated(2 * fields * field), read_only(constants > 0 ? constants * field : 0);

  for (int i = 0; i < slabs; ++i) {
    const int s = args.first_slab + i;
    const Index planes = g.planes_of(s), offset = (s * g.slab - window_first) * pc;
    const T* home = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[i]));
    for (int b = 0; b < 2 * fields; ++b) std::copy_n(home + b * planes * pc, planes * pc, updated.data() + b * field + offset);
    if (constants == 0) continue;
    const T* fixed = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[slabs + i]));
    for (int c = 0; c < constants; ++c) std::copy_n(fixed + c * planes * pc, planes * pc, read_only.data() + c * field + offset);
  }
  for (int c = 0; c < constants; ++c) {
    skewed_detail::fill_ring(read_only.data() + c * field, g, window_first, window_planes, window_first, window_last);
  }

  const Index row = g.plane_row;
  const Index rows_inside = g.axis == 2 ? g.domain[1] : 1, ry = g.axis == 2 ? g.radius[1] : 0;
  for (Index t = 1; t <= args.steps; ++t) {
    const Index lo = std::max<Index>(0, args.first - args.lean * (t - 1));
    const Index hi = args.lean_top ? args.last - args.lean * (t - 1) : args.last;
    if (hi < lo) continue;
    const Index step = args.first_step + t - 1;
    T* in = updated.data() + (step % 2) * fields * field;
    T* out = updated.data() + ((step + 1) % 2) * fields * field;
    for (int f = 0; f < fields; ++f) skewed_detail::fill_ring(in + f * field, g, window_first, window_planes, lo - r, hi + r);
    const T* fixed = constants > 0 ? read_only.data() : nullptr;
    for (Index plane = lo; plane <= hi; ++plane) {
      for (Index y = 0; y < rows_inside; ++y) {
        const Index start = (plane - window_first) * pc + (y + ry) * row + g.radius[0];
        for (Index x = 0; x < g.domain[0]; ++x) {
          const Index at = start + x;
          const Neighbourhood<T> view{in + at, row, pc, field, fixed ? fixed + at : nullptr, field, step, row, pc};
          apply_update(*args.stencil, view, out + at, field);
        }
      }
    }
  }

  for (int i = 0; i < slabs; ++i) {
    const int s = args.first_slab + i;
    if (s > args.writes_until) break;
    const Index planes = g.planes_of(s), offset = (s * g.slab - window_first) * pc;
    T* home = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[i]));
    for (int b = 0; b < 2 * fields; ++b) std::copy_n(updated.data() + b * field + offset, planes * pc, home + b * planes * pc);
  }
}

}  // namespace trapeze

namespace trapeze {

// What a skewed run's scatter and gather tasks copy between the grid and one
// slab: the grid's fields (row-major, unpadded), the parity buffer the slab
// holds them in.
template <typename T>
struct SkewedCopyArgs {
  const SkewedGeometry* geometry;
  T* const* updated;         // the grid's updated fields
  const T* const* constants;  // the grid's read-only fields
  int slab;
  int parity;                // the buffer the grid's step goes to (scatter) or comes from (gather)
};

// Calls copy(grid row index, slab cell index) for every row of slab s.
template <typename Copy>
void for_each_slab_row(const SkewedGeometry& g, int s, Copy copy) {
  const bool has_y = g.axis == 2;
  const Index rows = has_y ? g.domain[1] : 1, nx = g.domain[0];
  for (Index p = 0; p < g.planes_of(s); ++p) {
    const Index plane = s * g.slab + p;
    for (Index y = 0; y < rows; ++y) {
      const Index grid_row = has_y ? nx * (y + g.domain[1] * plane) : nx * plane;
      copy(grid_row, p * g.plane_cells + (has_y ? (y + g.radius[1]) * g.plane_row : 0) + g.radius[0]);
    }
  }
}

// Buffers: the slab's updated buffer (W), [its read-only buffer (W)].
template <typename T>
void skewed_scatter_cpu(void* buffers[], void* cl_arg) {
  SkewedCopyArgs<T> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const SkewedGeometry& g = *args.geometry;
  const Index planes = g.planes_of(args.slab), nx = g.domain[0];
  T* updated = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  T* fixed = g.constant_fields > 0 ? reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[1])) : nullptr;
  for_each_slab_row(g, args.slab, [&](Index grid_row, Index at) {
    for (int f = 0; f < g.updated_fields; ++f) {
      std::copy_n(args.updated[f] + grid_row, nx,
                  updated + (args.parity * g.updated_fields + f) * planes * g.plane_cells + at);
    }
    for (int c = 0; c < g.constant_fields; ++c) {
      std::copy_n(args.constants[c] + grid_row, nx, fixed + c * planes * g.plane_cells + at);
    }
  });
}

// Buffers: the slab's updated buffer (R).
template <typename T>
void skewed_gather_cpu(void* buffers[], void* cl_arg) {
  SkewedCopyArgs<T> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const SkewedGeometry& g = *args.geometry;
  const Index planes = g.planes_of(args.slab), nx = g.domain[0];
  const T* updated = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  for_each_slab_row(g, args.slab, [&](Index grid_row, Index at) {
    for (int f = 0; f < g.updated_fields; ++f) {
      std::copy_n(updated + (args.parity * g.updated_fields + f) * planes * g.plane_cells + at, nx,
                  args.updated[f] + grid_row);
    }
  });
}

}  // namespace trapeze
