#pragma once
// A 3-D single step for star-shaped stencils ("2.5-D blocking"): a block owns
// a column of the domain (threads_x by threads_y * rows cells across,
// `planes` deep) and walks it along z. A thread keeps the z-neighbours of its
// own cells in registers (2r_z + 1 + P::prefetch planes of them: more than a
// step reads, so the next planes' loads are in flight while this one is computed); only
// the current plane, with its ghost ring, goes through shared memory, once,
// for the x and y neighbours. Against plane_stream_kernel.cuh (2r_z + 2 planes
// in shared memory, each stored twice) this stores one plane per plane and
// reads z-neighbours from registers. Two shared planes alternate, so one
// barrier per plane suffices: a plane's buffer is rewritten only after every
// thread has passed the barrier that follows its last reader.
//
// Box-shaped stencils read diagonal neighbours across planes, which this
// kernel does not keep: they use plane_stream_kernel.cuh.
#include <cuda_runtime.h>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S, typename P>
struct PlaneRegisterShape {
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]),
                       rz = static_cast<int>(S::shape.radius[2]);
  static constexpr int tile_x = P::threads_x, tile_y = P::threads_y * P::rows;
  static constexpr int pitch_x = tile_x + 2 * rx, pitch_y = tile_y + 2 * ry;
  static constexpr int plane = pitch_x * pitch_y;
  static constexpr int ring_cells = plane - tile_x * tile_y;               // the ghost ring of a plane
  static constexpr int ring_loads = (ring_cells + P::threads - 1) / P::threads;  // per thread
  static constexpr int depth = 2 * rz + 1 + P::prefetch;                   // planes a thread keeps
  static constexpr int fields = updated_fields_of<S>;
  static constexpr long long shared_bytes = static_cast<long long>(fields) * 2 * plane * sizeof(typename S::value_type);
  static constexpr bool usable = S::dims == 3 && S::shape.kind == ShapeKind::star;
};

template <Stencil S, typename P>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    plane_register_kernel(S stencil, const typename S::value_type* __restrict__ in,
                          typename S::value_type* __restrict__ out, const typename S::value_type* __restrict__ constants,
                          LaunchGeometry g, typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = PlaneRegisterShape<S, P>;
  constexpr int fields = Shape::fields, rx = Shape::rx, ry = Shape::ry, rz = Shape::rz, depth = Shape::depth;
  constexpr int rows = P::rows, ring_loads = Shape::ring_loads;
  extern __shared__ __align__(16) unsigned char plane_pair_bytes[];  // Shape::shared_bytes
  T* const shared = reinterpret_cast<T*>(plane_pair_bytes);

  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int thread = ty * P::threads_x + tx;
  const int tile_x0 = g.region_lo[0] + static_cast<int>(blockIdx.x) * Shape::tile_x;
  const int tile_y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * Shape::tile_y;
  const int z_begin = g.region_lo[2] + static_cast<int>(blockIdx.z) * P::planes;
  const int z_end = min(z_begin + P::planes, g.region_hi[2]);
  const int out_x = tile_x0 + tx, out_y = tile_y0 + ty * rows;  // this thread's first cell
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);

  // Where each loaded cell lies in device memory (x, y clamped into the
  // domain once, here) and in a shared plane: the thread's own cells, then its
  // share of the ghost ring (top rows, bottom rows, left and right columns).
  long long own_column[rows];
  bool own_outside[rows];
  int own_slot[rows];
  long long ring_column[ring_loads];
  bool ring_outside[ring_loads];
  int ring_slot[ring_loads];  // -1: none
  auto locate = [&](int bx, int by, long long& column, bool& outside_domain) {
    const int px = tile_x0 - rx + bx, py = tile_y0 - ry + by;
    const int cx = clamp_to(px, g.inside_lo[0], g.inside_hi[0]), cy = clamp_to(py, g.inside_lo[1], g.inside_hi[1]);
    column = cy * stride_y + cx;
    outside_domain = constant_boundary && (px != cx || py != cy);
  };
#pragma unroll
  for (int j = 0; j < rows; ++j) {
    const int bx = tx + rx, by = ty * rows + j + ry;
    own_slot[j] = by * Shape::pitch_x + bx;
    locate(bx, by, own_column[j], own_outside[j]);
  }
#pragma unroll
  for (int l = 0; l < ring_loads; ++l) {
    const int r = thread + l * P::threads;
    int bx = 0, by = 0;
    constexpr int band = ry * Shape::pitch_x;  // cells of the top (and of the bottom) rows
    if (r < band) {
      by = r / Shape::pitch_x, bx = r % Shape::pitch_x;
    } else if (r < 2 * band) {
      by = Shape::pitch_y - ry + (r - band) / Shape::pitch_x, bx = (r - band) % Shape::pitch_x;
    } else {
      const int side = r - 2 * band;  // left columns, then right columns
      const int column = side / Shape::tile_y, y = side % Shape::tile_y;
      by = ry + y;
      bx = column < rx ? column : Shape::tile_x + column;
    }
    ring_slot[l] = r < Shape::ring_cells ? by * Shape::pitch_x + bx : -1;
    locate(bx, by, ring_column[l], ring_outside[l]);
  }

  auto load = [&](long long column, bool outside_domain, int pz, int f) {
    const int cz = clamp_to(pz, g.inside_lo[2], g.inside_hi[2]);
    return outside_domain || (constant_boundary && cz != pz) ? outside : in[f * g.padded_cells + cz * stride_z + column];
  };

  // own[f][j][q]: field f of row j in plane z - rz + q (q = 0 .. depth - 1).
  T own[fields][rows][depth];
  T ring[fields][ring_loads];  // the ghost ring of the plane to store next
#pragma unroll
  for (int q = 0; q < depth - 1; ++q) {
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int f = 0; f < fields; ++f) own[f][j][q] = load(own_column[j], own_outside[j], z_begin - rz + q, f);
    }
  }
#pragma unroll
  for (int l = 0; l < ring_loads; ++l) {
#pragma unroll
    for (int f = 0; f < fields; ++f) ring[f][l] = ring_slot[l] >= 0 ? load(ring_column[l], ring_outside[l], z_begin, f) : T{};
  }

  const long long step = g.first_step;
  const T* plane = constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
  constexpr int wx = 2 * rx + 1, wy = 2 * ry + 1, wz = 2 * rz + 1, box = wx * wy * wz;
  constexpr int centre = (rz * wy + ry) * wx + rx;
  const bool column_in_region = out_x < g.region_hi[0];
  for (int z = z_begin; z < z_end; ++z) {
    // In flight during this plane: its successor's ring and the plane rz + 1 ahead.
    T ring_next[fields][ring_loads];
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int f = 0; f < fields; ++f) own[f][j][depth - 1] = load(own_column[j], own_outside[j], z + rz + P::prefetch, f);
    }
#pragma unroll
    for (int l = 0; l < ring_loads; ++l) {
#pragma unroll
      for (int f = 0; f < fields; ++f) {
        ring_next[f][l] = ring_slot[l] >= 0 && z + 1 < z_end ? load(ring_column[l], ring_outside[l], z + 1, f) : T{};
      }
    }
    T* const buffer = shared + ((z - z_begin) & 1) * Shape::plane;
#pragma unroll
    for (int f = 0; f < fields; ++f) {
      T* const field_plane = buffer + f * 2 * Shape::plane;
#pragma unroll
      for (int j = 0; j < rows; ++j) field_plane[own_slot[j]] = own[f][j][rz];
#pragma unroll
      for (int l = 0; l < ring_loads; ++l) {
        if (ring_slot[l] >= 0) field_plane[ring_slot[l]] = ring[f][l];
      }
    }
    __syncthreads();

    const long long at = z * stride_z + out_y * stride_y + out_x;
    UpdateValues<S> values[rows];
#pragma unroll
    for (int j = 0; j < rows; ++j) {
      if (!column_in_region || out_y + j >= g.region_hi[1]) continue;
      // The neighbourhood as a small local box (registers once the stencil is
      // inlined): the plane from shared memory, the z-neighbours from registers.
      T window[fields * box];
#pragma unroll
      for (int f = 0; f < fields; ++f) {
        const T* const cell = buffer + f * 2 * Shape::plane + own_slot[j];
#pragma unroll
        for (int dz = -rz; dz <= rz; ++dz) {
#pragma unroll
          for (int dy = -ry; dy <= ry; ++dy) {
#pragma unroll
            for (int dx = -rx; dx <= rx; ++dx) {
              const int i = ((dz + rz) * wy + (dy + ry)) * wx + dx + rx;
              window[f * box + i] = dz == 0 ? cell[dy * Shape::pitch_x + dx] : own[f][j][rz + dz];
            }
          }
        }
      }
      const Neighbourhood<T> n{window + centre, wx, wx * wy, box, plane ? plane + at + j * stride_y : nullptr,
                               g.constant_field_stride, step, stride_y, stride_z};
      values[j] = update_values(stencil, n);
    }
    if (column_in_region) {
#pragma unroll
      for (int j = 0; j < rows; ++j) {
        if (out_y + j >= g.region_hi[1]) break;
#pragma unroll
        for (int f = 0; f < fields; ++f) out[f * g.padded_cells + at + j * stride_y] = values[j][f];
      }
    }
#pragma unroll
    for (int q = 0; q < depth - 1; ++q) {
#pragma unroll
      for (int j = 0; j < rows; ++j) {
#pragma unroll
        for (int f = 0; f < fields; ++f) own[f][j][q] = own[f][j][q + 1];
      }
    }
#pragma unroll
    for (int l = 0; l < ring_loads; ++l) {
#pragma unroll
      for (int f = 0; f < fields; ++f) ring[f][l] = ring_next[f][l];
    }
  }
}

}  // namespace trapeze::cuda
