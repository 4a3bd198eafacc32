#pragma once
// Kernel-level temporal blocking (seed 000, section 3.3): a thread block loads
// its output box plus a ghost zone of r*k per side into shared memory,
// advances it k steps there, and commits only the output box: "compute as if
// the tile does not shrink, commit the valid part". Launches of k >= 2 steps
// use it; one step goes to single_step_kernel.cuh, which needs no shared
// memory (this kernel still computes k = 1 correctly: the probes compare them).
//
// The boundary is applied where a cell enters shared memory: an out-of-domain
// cell loads the value of its clamped position (clamp) or the constant, and at
// every later step it takes the update of its clamped position (clamp; the
// value that cell has at that step, as the sequential reference pads it) or
// keeps the constant. So the tile's device buffers never need their outside
// cells refreshed, and no boundary kernel runs between steps.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

// The box's cells into shared memory. `Inside`: the whole box lies in the
// domain (most blocks), so no cell needs the boundary and the loop is a plain
// strided copy; otherwise out-of-domain cells take their clamped position's
// value or the constant.
template <bool Inside, typename P, typename T, int Fields>
__device__ inline void load_box(const T* __restrict__ in, T* shared, const LaunchGeometry& g, int x0, int y0, int z0,
                                int width, int height, int depth, int pitch_x, int pitch_y, int box_cells, T outside) {
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
  for (int z = static_cast<int>(threadIdx.z); z < depth; z += P::threads_z) {
    const int pz = z0 + z, cz = Inside ? pz : clamp_to(pz, g.inside_lo[2], g.inside_hi[2]);
    // Rows unrolled, so several rows' loads are in flight before the first
    // is stored (a row is only one or two loads per thread: latency-bound
    // otherwise, ncu: half the cycles waiting on L1TEX).
#pragma unroll 4
    for (int y = static_cast<int>(threadIdx.y); y < height; y += P::threads_y) {
      const int py = y0 + y, cy = Inside ? py : clamp_to(py, g.inside_lo[1], g.inside_hi[1]);
      const bool row_outside = !Inside && (pz != cz || py != cy);
      const T* row = in + cz * stride_z + cy * stride_y;
      T* shared_row = shared + (z * pitch_y + y) * pitch_x;
      for (int x = static_cast<int>(threadIdx.x); x < width; x += P::threads_x) {
        const int px = x0 + x, cx = Inside ? px : clamp_to(px, g.inside_lo[0], g.inside_hi[0]);
        const bool use_constant = !Inside && constant_boundary && (row_outside || px != cx);
#pragma unroll
        for (int f = 0; f < Fields; ++f) shared_row[f * box_cells + x] = use_constant ? outside : row[f * g.padded_cells + cx];
      }
    }
  }
}

// Step i of k over the shared box: the cells inset r*i, into `next`, or
// (the last step) into the output buffer, whose box this is.
template <bool Inside, typename P, Stencil S>
__device__ inline void step_box(const S& stencil, const typename S::value_type* current, typename S::value_type* next,
                                typename S::value_type* __restrict__ out, const typename S::value_type* plane,
                                const LaunchGeometry& g, int i, bool last, int x0, int y0, int z0, int width, int height,
                                int depth, int pitch_x, int pitch_y, int box_cells, typename S::value_type outside) {
  using T = typename S::value_type;
  constexpr int fields = updated_fields_of<S>;
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
  const long long step = g.first_step + i - 1;
  const int lo_x = g.radius[0] * i, lo_y = g.radius[1] * i, lo_z = g.radius[2] * i;
  const Index plane_pitch = static_cast<Index>(pitch_x) * pitch_y;
  const long long destination_field_stride = last ? g.padded_cells : box_cells;
  constexpr int rows = P::rows;
  const int hi_x = width - lo_x, hi_y = height - lo_y;
  for (int z = lo_z + static_cast<int>(threadIdx.z); z < depth - lo_z; z += P::threads_z) {
    const int pz = z0 + z, cz = Inside ? pz : clamp_to(pz, g.inside_lo[2], g.inside_hi[2]);
    // One row per thread: rows unrolled, so several rows' loads are in flight.
#pragma unroll(rows == 1 ? 4 : 1)
    for (int y = lo_y + static_cast<int>(threadIdx.y) * rows; y < hi_y; y += P::threads_y * rows) {
      for (int x = lo_x + static_cast<int>(threadIdx.x); x < hi_x; x += P::threads_x) {
        const int px = x0 + x, cx = Inside ? px : clamp_to(px, g.inside_lo[0], g.inside_hi[0]);
        UpdateValues<S> values[rows];
#pragma unroll
        for (int j = 0; j < rows; ++j) {
          if (rows > 1 && y + j >= hi_y) continue;
          const int py = y0 + y + j, cy = Inside ? py : clamp_to(py, g.inside_lo[1], g.inside_hi[1]);
          if (!Inside && constant_boundary && (pz != cz || py != cy || px != cx)) {
            values[j] = uniform_values<S>(outside);
            continue;
          }
          // In the domain this is the cell itself; outside (clamp) its clamped position.
          const T* source = current + ((cz - z0) * pitch_y + (cy - y0)) * pitch_x + (cx - x0);
          const Neighbourhood<T> at{source, pitch_x, plane_pitch, box_cells,
                                    plane ? plane + cz * stride_z + cy * stride_y + cx : nullptr,
                                    g.constant_field_stride, step, stride_y, stride_z};
          values[j] = update_values(stencil, at);
        }
#pragma unroll
        for (int j = 0; j < rows; ++j) {
          if (rows > 1 && y + j >= hi_y) continue;
          T* destination = last ? out + pz * stride_z + (y0 + y + j) * stride_y + x0 + x
                                : next + (z * pitch_y + y + j) * pitch_x + x;
#pragma unroll
          for (int f = 0; f < fields; ++f) destination[f * destination_field_stride] = values[j][f];
        }
      }
    }
  }
}

template <Stencil S, typename P>
__global__ void __launch_bounds__(P::threads, P::min_blocks) trapezoid_kernel(S stencil, const typename S::value_type* __restrict__ in,
                                                                typename S::value_type* __restrict__ out,
                                                                const typename S::value_type* __restrict__ constants,
                                                                LaunchGeometry g, typename S::value_type outside) {
  using T = typename S::value_type;
  constexpr int fields = updated_fields_of<S>;
  extern __shared__ unsigned char shared_bytes[];
  T* const shared = reinterpret_cast<T*>(shared_bytes);

  const int k = g.steps;
  const int ghost_x = g.radius[0] * k, ghost_y = g.radius[1] * k, ghost_z = g.radius[2] * k;
  const int pitch_x = P::out_x + 2 * ghost_x, pitch_y = P::out_y + 2 * ghost_y;
  const int box_cells = pitch_x * pitch_y * (P::out_z + 2 * ghost_z);
  const int out_x0 = g.region_lo[0] + static_cast<int>(blockIdx.x) * P::out_x;
  const int out_y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * P::out_y;
  const int out_z0 = g.region_lo[2] + static_cast<int>(blockIdx.z) * P::out_z;
  // The shared box's origin and extent in padded coordinates.
  const int x0 = out_x0 - ghost_x, y0 = out_y0 - ghost_y, z0 = out_z0 - ghost_z;
  const int width = min(out_x0 + P::out_x, g.region_hi[0]) - out_x0 + 2 * ghost_x;
  const int height = min(out_y0 + P::out_y, g.region_hi[1]) - out_y0 + 2 * ghost_y;
  const int depth = min(out_z0 + P::out_z, g.region_hi[2]) - out_z0 + 2 * ghost_z;
  // Block-uniform: the box needs no boundary anywhere.
  const bool inside = x0 >= g.inside_lo[0] && x0 + width <= g.inside_hi[0] && y0 >= g.inside_lo[1] &&
                      y0 + height <= g.inside_hi[1] && z0 >= g.inside_lo[2] && z0 + depth <= g.inside_hi[2];

  if (inside) {
    load_box<true, P, T, fields>(in, shared, g, x0, y0, z0, width, height, depth, pitch_x, pitch_y, box_cells, outside);
  } else {
    load_box<false, P, T, fields>(in, shared, g, x0, y0, z0, width, height, depth, pitch_x, pitch_y, box_cells, outside);
  }
  __syncthreads();

  T* current = shared;
  T* next = shared + fields * box_cells;
  for (int i = 1; i <= k; ++i) {
    const bool last = i == k;
    const long long step = g.first_step + i - 1;
    const T* plane = constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
    if (inside) {
      step_box<true, P>(stencil, current, next, out, plane, g, i, last, x0, y0, z0, width, height, depth, pitch_x, pitch_y,
                        box_cells, outside);
    } else {
      step_box<false, P>(stencil, current, next, out, plane, g, i, last, x0, y0, z0, width, height, depth, pitch_x,
                         pitch_y, box_cells, outside);
    }
    if (!last) {
      __syncthreads();
      T* swap = current;
      current = next;
      next = swap;
    }
  }
}

}  // namespace trapeze::cuda
