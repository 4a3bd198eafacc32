#pragma once
// Kernel-level temporal blocking for 3-D stencils, streamed along z (the
// plane-stream kernel of plane_stream_kernel.cuh, k steps deep). A block owns
// a box of box_x by box_y cells across: its output tile plus a ghost ring of
// r*k per side. It walks z one input plane per tick; at tick t it loads input
// plane t into ring 0, then step i (1..k) computes its plane t - i*r_z from
// ring i-1 into ring i, each over the box inset r*i; step k writes the tile's
// cells to device memory. Device memory sees about one read and one write per
// cell for k steps, as the 2-D trapezoid kernel, without a 3-D box in shared
// memory (whose ghost shell, (8 + 2k)^3 for 8^3 cells, is most of its loads).
//
// Rings: 2r_z + 1 planes, each stored twice (slots s and s + ring) so that a
// window of consecutive planes is contiguous and the stencil sees constant
// strides. A barrier after the load and after each step but the last: every
// ring slot is rewritten only after a barrier separates it from its last
// reader. Step k needs no ring (it writes device memory), so k rings in all.
//
// The boundary: input cells load their clamped position's value or the
// constant, as in the other kernels. Across x and y a later step's outside
// cell is the update at its clamped position (clamp) or keeps the constant.
// Across z a step's plane below the domain is the domain's first plane of the
// same step, which is computed later: the step skips those planes and, when
// it computes the first plane, stores it into their slots too; above the
// domain it copies the last plane, still in its ring.
#include <cuda_runtime.h>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S, typename P>
struct PlaneTrapezoidShape {
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]),
                       rz = static_cast<int>(S::shape.radius[2]);
  static constexpr int plane = P::box_x * P::box_y;
  static constexpr int ring = 2 * rz + 1;              // planes in a ring
  static constexpr int field_cells = 2 * ring * plane;  // each stored twice
  static constexpr int fields = updated_fields_of<S>;
  // The output tile across x and y for k steps (may be empty: no such launch).
  static constexpr int tile_x(int k) { return P::box_x - 2 * rx * k; }
  static constexpr int tile_y(int k) { return P::box_y - 2 * ry * k; }
  static constexpr long long shared_bytes(int k) {
    return static_cast<long long>(k) * fields * field_cells * static_cast<long long>(sizeof(typename S::value_type));
  }
};

template <Stencil S, typename P>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    plane_trapezoid_kernel(S stencil, const typename S::value_type* __restrict__ in,
                           typename S::value_type* __restrict__ out, const typename S::value_type* __restrict__ constants,
                           LaunchGeometry g, typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = PlaneTrapezoidShape<S, P>;
  constexpr int fields = Shape::fields, rx = Shape::rx, ry = Shape::ry, rz = Shape::rz;
  constexpr int ring = Shape::ring, plane = Shape::plane, field_cells = Shape::field_cells;
  extern __shared__ __align__(16) unsigned char plane_rings_bytes[];
  T* const rings = reinterpret_cast<T*>(plane_rings_bytes);  // ring i at rings + i * fields * field_cells

  const int k = g.steps;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int tile_x0 = g.region_lo[0] + static_cast<int>(blockIdx.x) * Shape::tile_x(k);
  const int tile_y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * Shape::tile_y(k);
  const int x0 = tile_x0 - rx * k, y0 = tile_y0 - ry * k;  // the box's origin, padded coordinates
  const int tile_x_end = min(tile_x0 + Shape::tile_x(k), g.region_hi[0]);
  const int tile_y_end = min(tile_y0 + Shape::tile_y(k), g.region_hi[1]);
  const int walk_planes = g.walk_planes > 0 ? g.walk_planes : P::planes;  // walk_split.hpp
  const int z_begin = g.region_lo[2] + static_cast<int>(blockIdx.z) * walk_planes;
  const int z_end = min(z_begin + walk_planes, g.region_hi[2]);
  const int t_first = z_begin - rz * k;  // the first input plane; slots count from it
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
  const bool clamp_boundary = g.boundary == static_cast<int>(BoundaryKind::clamp);

  auto slot_of = [&](int p) { return (p - t_first) % ring; };
  // Plane p of ring i (first copy; the second is ring * plane further).
  auto ring_plane = [&](int i, int p) { return rings + i * fields * field_cells + slot_of(p) * plane; };
  auto store_twice = [&](T* at, int f, T value) {
    at[f * field_cells] = value;
    at[f * field_cells + ring * plane] = value;
  };
  // The box cells a thread visits at inset (ix, iy): constant strides, one
  // pass across x when box_x == threads_x.
  auto for_box = [&](int ix, int iy, auto&& visit) {
    for (int by = iy + ty; by < P::box_y - iy; by += P::threads_y) {
      for (int bx = ix + tx; bx < P::box_x - ix; bx += P::threads_x) visit(bx, by);
    }
  };

  const int t_end = z_end + rz * k;  // one past the last input plane
  for (int t = t_first; t < t_end; ++t) {
    // Step 0: input plane t into ring 0.
    {
      const int cz = clamp_to(t, g.inside_lo[2], g.inside_hi[2]);
      const bool plane_outside = constant_boundary && cz != t;
      T* const target = ring_plane(0, t);
      for_box(0, 0, [&](int bx, int by) {
        const int px = x0 + bx, py = y0 + by;
        const int cx = clamp_to(px, g.inside_lo[0], g.inside_hi[0]), cy = clamp_to(py, g.inside_lo[1], g.inside_hi[1]);
        const bool use_constant = plane_outside || (constant_boundary && (px != cx || py != cy));
        const T* cell = in + cz * stride_z + cy * stride_y + cx;
#pragma unroll
        for (int f = 0; f < fields; ++f) store_twice(target + by * P::box_x + bx, f, use_constant ? outside : cell[f * g.padded_cells]);
      });
    }
    __syncthreads();
    for (int i = 1; i <= k; ++i) {
      const int p = t - i * rz;
      const bool wanted = p >= z_begin - (k - i) * rz && p < z_end + (k - i) * rz;
      const bool last = i == k;
      if (wanted) {
        const bool below = p < g.inside_lo[2], above = p >= g.inside_hi[2];
        T* const target = last ? nullptr : ring_plane(i, p);
        if (below || above) {
          // Out of the domain across z (never the last step: its planes are the region's).
          if (constant_boundary) {
            for_box(rx * i, ry * i, [&](int bx, int by) {
#pragma unroll
              for (int f = 0; f < fields; ++f) store_twice(target + by * P::box_x + bx, f, outside);
            });
          } else if (clamp_boundary && above) {
            const T* source = ring_plane(i, g.inside_hi[2] - 1);
            for_box(rx * i, ry * i, [&](int bx, int by) {
#pragma unroll
              for (int f = 0; f < fields; ++f) store_twice(target + by * P::box_x + bx, f, source[f * field_cells + by * P::box_x + bx]);
            });
          }
          // Clamp below: filled when the step computes the domain's first plane.
        } else {
          const long long step = g.first_step + i - 1;
          const T* const constant_plane =
              constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
          // The window p - rz .. p + rz of ring i - 1, contiguous from p - rz's slot.
          const T* const window_centre = rings + (i - 1) * fields * field_cells + (slot_of(p - rz) + rz) * plane;
          const bool first_plane = clamp_boundary && !last && p == g.inside_lo[2];
          for_box(rx * i, ry * i, [&](int bx, int by) {
            const int px = x0 + bx, py = y0 + by;
            const int cx = clamp_to(px, g.inside_lo[0], g.inside_hi[0]), cy = clamp_to(py, g.inside_lo[1], g.inside_hi[1]);
            UpdateValues<S> values;
            if (constant_boundary && (px != cx || py != cy)) {
              values = uniform_values<S>(outside);
            } else {
              // In the domain the cell itself; outside (clamp) its clamped position.
              const Neighbourhood<T> n{window_centre + (cy - y0) * P::box_x + (cx - x0), P::box_x, plane, field_cells,
                                       constant_plane ? constant_plane + p * stride_z + cy * stride_y + cx : nullptr,
                                       g.constant_field_stride, step, stride_y, stride_z};
              values = update_values(stencil, n);
            }
            if (last) {
              if (px >= tile_x0 && px < tile_x_end && py >= tile_y0 && py < tile_y_end && p >= z_begin && p < z_end) {
#pragma unroll
                for (int f = 0; f < fields; ++f) out[f * g.padded_cells + p * stride_z + py * stride_y + px] = values[f];
              }
              return;
            }
#pragma unroll
            for (int f = 0; f < fields; ++f) store_twice(target + by * P::box_x + bx, f, values[f]);
            if (first_plane) {
              for (int below_plane = p - rz; below_plane < p; ++below_plane) {
                if (below_plane < t_first) continue;
                T* const copy = ring_plane(i, below_plane) + by * P::box_x + bx;
#pragma unroll
                for (int f = 0; f < fields; ++f) store_twice(copy, f, values[f]);
              }
            }
          });
        }
      }
      if (!last) __syncthreads();
    }
  }
}

}  // namespace trapeze::cuda
