#pragma once
// The single-step kernel (k = 1). One step reads each cell's neighbours once,
// so staging them in shared memory buys nothing: the loads go straight to
// device memory and the caches (L1 within a block, L2 between neighbouring
// blocks) serve the reuse, so device memory sees about one read per cell. What
// decides the speed is how many loads are in flight, so each thread updates
// several cells (StreamPolicy::cells), evaluates all of them before storing any
// (their loads can all be issued at once), and indexes with constant strides.
//
// Cells whose neighbourhood leaves the domain (only in blocks at the domain's
// edge) copy their neighbours into a small local box at the clamped positions,
// or the constant: the same values the trapezoid kernel loads there.
#include <cuda_runtime.h>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

// The update of cell (x, y, z) from a local copy of its neighbourhood, every
// neighbour taken at its clamped position (clamp) or as the constant.
template <Stencil S>
__device__ UpdateValues<S> update_near_boundary(const S& stencil, const typename S::value_type* in,
                                                const typename S::value_type* plane, const LaunchGeometry& g, int x,
                                                int y, int z, long long step, typename S::value_type outside) {
  using T = typename S::value_type;
  constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]),
                rz = static_cast<int>(S::shape.radius[2]);
  constexpr int wx = 2 * rx + 1, wy = 2 * ry + 1, wz = 2 * rz + 1, box = wx * wy * wz;
  constexpr int fields = updated_fields_of<S>, constants = constant_fields_of<S>;
  T local[fields * box];
  T local_constants[constants > 0 ? constants * box : 1];
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
#pragma unroll
  for (int dz = -rz; dz <= rz; ++dz) {
#pragma unroll
    for (int dy = -ry; dy <= ry; ++dy) {
#pragma unroll
      for (int dx = -rx; dx <= rx; ++dx) {
        const int cx = clamp_to(x + dx, g.inside_lo[0], g.inside_hi[0]);
        const int cy = clamp_to(y + dy, g.inside_lo[1], g.inside_hi[1]);
        const int cz = clamp_to(z + dz, g.inside_lo[2], g.inside_hi[2]);
        const bool use_constant = constant_boundary && (cx != x + dx || cy != y + dy || cz != z + dz);
        const long long at = cz * stride_z + cy * stride_y + cx;
        // Read-only fields come from their own ghost zone, which the tile's
        // fill gave the boundary's values (the constant, a clamped or a
        // wrapped cell): the same values the host reads there.
        const long long unclamped = (z + dz) * stride_z + (y + dy) * stride_y + (x + dx);
        const int i = ((dz + rz) * wy + (dy + ry)) * wx + dx + rx;
#pragma unroll
        for (int f = 0; f < fields; ++f) local[f * box + i] = use_constant ? outside : in[f * g.padded_cells + at];
#pragma unroll
        for (int c = 0; c < constants; ++c) local_constants[c * box + i] = plane[c * g.constant_field_stride + unclamped];
      }
    }
  }
  constexpr int centre = (rz * wy + ry) * wx + rx;
  const Neighbourhood<T> at{local + centre, wx, wx * wy, box, constants > 0 ? local_constants + centre : nullptr,
                            box, step, wx, wx * wy};
  return update_values(stencil, at);
}

template <Stencil S, typename P>
__global__ void __launch_bounds__(P::threads, P::min_blocks) single_step_kernel(S stencil, const typename S::value_type* __restrict__ in,
                                                                  typename S::value_type* __restrict__ out,
                                                                  const typename S::value_type* __restrict__ constants,
                                                                  LaunchGeometry g, typename S::value_type outside) {
  using T = typename S::value_type;
  constexpr int fields = updated_fields_of<S>;
  constexpr int stream = S::dims - 1;         // the dimension a thread walks
  constexpr bool consecutive = S::dims > 1;   // its cells adjacent (2-D, 3-D) or a block's width apart (1-D)
  constexpr int threads[3] = {P::threads_x, P::threads_y, P::threads_z};
  constexpr int radius[3] = {static_cast<int>(S::shape.radius[0]), static_cast<int>(S::shape.radius[1]),
                             static_cast<int>(S::shape.radius[2])};
  const int thread[3] = {static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.z)};
  const int block[3] = {static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.z)};

  // The block's box, the thread's first cell, and whether any cell of the box
  // has a neighbour outside the domain (block-uniform).
  int first[3], box_hi[3];
  bool box_inside = true, thread_in_region = true;
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    const int extent = threads[d] * (d == stream ? P::cells : 1);
    const int box_lo = g.region_lo[d] + block[d] * extent;
    box_hi[d] = min(box_lo + extent, g.region_hi[d]);
    first[d] = box_lo + (d == stream && consecutive ? thread[d] * P::cells : thread[d]);
    box_inside = box_inside && box_lo - radius[d] >= g.inside_lo[d] && box_hi[d] + radius[d] <= g.inside_hi[d];
    if (d != stream) thread_in_region = thread_in_region && first[d] < box_hi[d];
  }
  if (!thread_in_region) return;

  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  constexpr int step_along = consecutive ? 1 : threads[stream];
  const long long stride_along = (stream == 0 ? 1 : stream == 1 ? stride_y : stride_z) * step_along;
  const long long origin = first[2] * stride_z + first[1] * stride_y + first[0];
  const long long step = g.first_step;
  const T* plane = constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
  auto cell_updated = [&](int j) { return first[stream] + j * step_along < box_hi[stream]; };
  auto fast = [&](int j) {
    const long long at = origin + j * stride_along;
    const Neighbourhood<T> n{in + at, stride_y, stride_z, g.padded_cells, plane ? plane + at : nullptr,
                             g.constant_field_stride, step, stride_y, stride_z};
    return update_values(stencil, n);
  };

  UpdateValues<S> values[P::cells];
  if (box_inside) {
#pragma unroll
    for (int j = 0; j < P::cells; ++j) {
      if (cell_updated(j)) values[j] = fast(j);
    }
  } else {
#pragma unroll
    for (int j = 0; j < P::cells; ++j) {
      if (!cell_updated(j)) continue;
      int c[3] = {first[0], first[1], first[2]};
      c[stream] += j * step_along;
      bool inside = true;
#pragma unroll
      for (int d = 0; d < 3; ++d) inside = inside && c[d] - radius[d] >= g.inside_lo[d] && c[d] + radius[d] < g.inside_hi[d];
      values[j] = inside ? fast(j) : update_near_boundary(stencil, in, plane, g, c[0], c[1], c[2], step, outside);
    }
  }
#pragma unroll
  for (int j = 0; j < P::cells; ++j) {
    if (!cell_updated(j)) continue;
#pragma unroll
    for (int f = 0; f < fields; ++f) out[f * g.padded_cells + origin + j * stride_along] = values[j][f];
  }
}

}  // namespace trapeze::cuda
