#pragma once
// The CPU implementation of a skewed-slab task (codelets/skewed_args.hpp):
// copy the slabs new to the ring window in, advance the task's leaning range
// of planes step by step (each step reads the buffer of its parity and
// writes the other), and copy the finished slabs out. The ring makes the
// planes of different slabs one strided array, so the stencil's
// Neighbourhood reaches across slab edges. Writes go to a plane's first slot;
// the twins of the first 2r slots are refreshed after each phase.
#include <starpu.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "../skewed_args.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze {

namespace skewed_detail {

// Copies the first 2r slots of a ring field to their twins.
template <typename T>
void refresh_twins(T* field, const SkewedGeometry& g) {
  const SkewedRing& ring = g.ring;
  std::copy_n(field, 2 * ring.radius * g.plane_cells, field + ring.planes * g.plane_cells);
}

// Sets the cells outside the domain of ring planes [from, to] (global plane
// numbers, -r .. n - 1 + r) of one field: first the ring of each in-domain
// plane from that plane, then whole planes beyond the domain's ends from the
// edge plane (clamp) or the constant. Leaves the twins to refresh_twins.
template <typename T>
void fill_ring(T* field, const SkewedGeometry& g, Index from, Index to) {
  const Index n = g.planes(), r = g.ring.radius;
  from = std::max(from, -r);
  to = std::min(to, n - 1 + r);
  const bool constant = g.boundary.kind == BoundaryKind::constant;
  const T value = static_cast<T>(g.boundary.value);
  const Index rx = g.radius[0], nx = g.domain[0];
  const bool has_y = g.axis == 2;
  const Index ry = has_y ? g.radius[1] : 0, ny = has_y ? g.domain[1] : 1;
  const Index rows = g.plane_cells / g.plane_row;
  for (Index plane = std::max<Index>(from, 0); plane <= std::min(to, n - 1); ++plane) {
    T* p = field + g.ring.slot(plane) * g.plane_cells;
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
    T* p = field + g.ring.slot(plane) * g.plane_cells;
    if (constant) {
      std::fill_n(p, g.plane_cells, value);
    } else {
      std::copy_n(field + g.ring.slot(std::clamp<Index>(plane, 0, n - 1)) * g.plane_cells, g.plane_cells, p);
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
  const SkewedRing& ring = g.ring;
  const Index pc = g.plane_cells, field = g.ring_field_cells();
  const int fields = g.updated_fields, constants = g.constant_fields;
  T* window = args.ring ? args.ring : reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  T* window_constants = g.window_constants ? window + 2 * fields * field : nullptr;
  const int start = static_cast<int>(args.first_step % 2), end = static_cast<int>((args.first_step + args.steps) % 2);

  // The new slabs, at the pass's first step, and their read-only fields
  // where the stencil reads them off its cell; then the cells outside the
  // domain of their planes, in both parities (a constant boundary's never
  // change; a clamped one's follow the steps).
  for (int s = args.in_first; s <= args.in_last; ++s) {
    const Index planes = g.planes_of(s);
    const T* home = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[args.in_buffer(s)]));
    const T* fixed =
        window_constants ? reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[args.constant_buffer(s)])) : nullptr;
    for (Index p = 0; p < planes; ++p) {
      const Index at = ring.slot(s * g.slab + p) * pc;
      for (int f = 0; f < fields; ++f) std::copy_n(home + (f * planes + p) * pc, pc, window + (start * fields + f) * field + at);
      for (int c = 0; fixed && c < constants; ++c) std::copy_n(fixed + (c * planes + p) * pc, pc, window_constants + c * field + at);
    }
    const auto [from, to] = g.ring_planes_of(s);
    for (int b = 0; b < 2 * fields; ++b) skewed_detail::fill_ring(window + b * field, g, from, to);
    for (int c = 0; window_constants && c < constants; ++c) skewed_detail::fill_ring(window_constants + c * field, g, from, to);
  }
  for (int b = 0; b < 2 * fields; ++b) skewed_detail::refresh_twins(window + b * field, g);
  for (int c = 0; window_constants && c < constants; ++c) skewed_detail::refresh_twins(window_constants + c * field, g);

  const Index row = g.plane_row, r = ring.radius;
  const Index rows_inside = g.axis == 2 ? g.domain[1] : 1, ry = g.axis == 2 ? g.radius[1] : 0;
  for (Index t = 1; t <= args.steps; ++t) {
    const auto [lo, hi] = args.planes.at(t, g.planes());
    if (hi < lo) continue;
    const Index step = args.first_step + t - 1;
    T* in = window + (step % 2) * fields * field;
    T* out = window + ((step + 1) % 2) * fields * field;
    for (int f = 0; f < fields; ++f) {
      skewed_detail::fill_ring(in + f * field, g, lo - r, hi + r);
      skewed_detail::refresh_twins(in + f * field, g);
    }
    for (Index plane = lo; plane <= hi; ++plane) {
      const Index read = ring.read_slot(plane) * pc, write = ring.slot(plane) * pc;
      // Read-only fields: from the ring, or where they are in their slab.
      const T* fixed = window_constants;
      Index fixed_stride = field, fixed_plane = read;
      if (!window_constants && constants > 0) {
        const int s = static_cast<int>(plane / g.slab);
        fixed = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[args.constant_buffer(s)]));
        fixed_stride = g.planes_of(s) * pc;
        fixed_plane = (plane - s * g.slab) * pc;
      }
      for (Index y = 0; y < rows_inside; ++y) {
        const Index start_cell = (y + ry) * row + g.radius[0];
        for (Index x = 0; x < g.domain[0]; ++x) {
          const Index cell = start_cell + x;
          const Neighbourhood<T> view{in + read + cell, row, pc, field,
                                      fixed ? fixed + fixed_plane + cell : nullptr, fixed_stride, step, row, pc};
          apply_update(*args.stencil, view, out + write + cell, field);
        }
      }
    }
    for (int f = 0; f < fields; ++f) skewed_detail::refresh_twins(out + f * field, g);
  }

  for (int s = args.out_first; s <= args.out_last; ++s) {
    const Index planes = g.planes_of(s);
    T* home = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[args.out_buffer(s)]));
    for (Index p = 0; p < planes; ++p) {
      const Index at = ring.slot(s * g.slab + p) * pc;
      for (int f = 0; f < fields; ++f) std::copy_n(window + (end * fields + f) * field + at, pc, home + (f * planes + p) * pc);
    }
  }
}

}  // namespace trapeze

namespace trapeze {

// What a skewed run's scatter and gather tasks copy between the grid and one
// slab: the grid's fields (row-major, unpadded), and the slab's buffer of
// the step they hold.
template <typename T>
struct SkewedCopyArgs {
  const SkewedGeometry* geometry;
  T* const* updated;         // the grid's updated fields
  const T* const* constants;  // the grid's read-only fields
  int slab;
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
                  updated + f * planes * g.plane_cells + at);
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
      std::copy_n(updated + f * planes * g.plane_cells + at, nx,
                  args.updated[f] + grid_row);
    }
  });
}

}  // namespace trapeze
