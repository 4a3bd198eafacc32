#pragma once
// The single-step kernel for 3-D stencils: a thread block owns a column of
// the domain (threads_x by threads_y * rows cells across, `planes` deep) and
// walks it along z, one plane per iteration. Each plane of the block's tile plus its
// ghost ring enters shared memory once; the 2r_z + 1 planes a step reads lie
// in a ring of shared planes, each plane stored twice (slots s and s + ring)
// so that any window of consecutive planes is contiguous and the stencil sees
// plain constant strides. Device memory is read about once per cell (plus the
// thin ghost ring), where a kernel reading its neighbours straight from device
// memory leans on L1 and L2 for the six neighbours of each cell.
//
// One barrier per plane: the ring holds one plane more than a window, so the
// plane stored for this iteration never overwrites one a slower thread of the
// block may still be reading. The loads of the next `prefetch` planes are in
// flight in registers while the current plane is computed.
//
// The boundary is applied as cells enter shared memory (the clamped
// position's value, or the constant), as in the trapezoid kernel.
#include <cuda_runtime.h>

#include <type_traits>
#include <utility>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S, typename P>
struct PlaneStreamShape {
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]),
                       rz = static_cast<int>(S::shape.radius[2]);
  static constexpr int tile_x = P::threads_x, tile_y = P::threads_y * P::rows;  // cells a block updates per plane
  static constexpr int pitch_x = tile_x + 2 * rx, pitch_y = tile_y + 2 * ry;
  static constexpr int plane = pitch_x * pitch_y;
  static constexpr int ring = 2 * rz + 2;              // planes in the ring
  static constexpr int field_cells = 2 * ring * plane;  // each stored twice
  static constexpr int loads = (plane + P::threads - 1) / P::threads;  // a plane's cells per thread
  static constexpr int fields = updated_fields_of<S>;
  static constexpr long long shared_bytes = static_cast<long long>(fields) * field_cells * sizeof(typename S::value_type);
};

template <Stencil S, typename P>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    plane_stream_kernel(S stencil, const typename S::value_type* __restrict__ in, typename S::value_type* __restrict__ out,
                        const typename S::value_type* __restrict__ constants, LaunchGeometry g,
                        typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = PlaneStreamShape<S, P>;
  constexpr int fields = Shape::fields, rx = Shape::rx, ry = Shape::ry, rz = Shape::rz, loads = Shape::loads;
  extern __shared__ __align__(16) unsigned char plane_ring_bytes[];  // Shape::shared_bytes
  T* const shared = reinterpret_cast<T*>(plane_ring_bytes);

  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int thread = ty * P::threads_x + tx;
  const int tile_x0 = g.region_lo[0] + static_cast<int>(blockIdx.x) * Shape::tile_x;
  const int tile_y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * Shape::tile_y;
  const int z_begin = g.region_lo[2] + static_cast<int>(blockIdx.z) * P::planes;
  const int z_end = min(z_begin + P::planes, g.region_hi[2]);
  const int out_x = tile_x0 + tx, out_y = tile_y0 + ty * P::rows;  // this thread's first cell
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);

  // The cells of a plane box (tile plus ghost ring) this thread loads, one
  // threads-wide stride apart, clamped into the domain once, here: per plane
  // only z changes.
  int box_at[loads];           // position in a shared plane, -1: none
  long long column_at[loads];  // the clamped x, y offset in device memory
  bool column_outside[loads];
#pragma unroll
  for (int l = 0; l < loads; ++l) {
    const int b = thread + l * P::threads;
    const int by = b / Shape::pitch_x, bx = b % Shape::pitch_x;
    box_at[l] = b < Shape::plane ? b : -1;
    const int px = tile_x0 - rx + bx, py = tile_y0 - ry + by;
    const int cx = clamp_to(px, g.inside_lo[0], g.inside_hi[0]), cy = clamp_to(py, g.inside_lo[1], g.inside_hi[1]);
    column_at[l] = cy * stride_y + cx;
    column_outside[l] = constant_boundary && (px != cx || py != cy);
  }

  // Planes in flight: `prefetch` register sets, set s holding every
  // prefetch-th plane, so each set's index is known at compile time.
  constexpr int prefetch = P::prefetch;
  T fetched[prefetch][loads][fields];
  auto fetch = [&](auto set, int pz) {
    const int cz = clamp_to(pz, g.inside_lo[2], g.inside_hi[2]);
    const bool plane_outside = constant_boundary && cz != pz;
#pragma unroll
    for (int l = 0; l < loads; ++l) {
      if (box_at[l] < 0) continue;
      const T* cell = in + cz * stride_z + column_at[l];
#pragma unroll
      for (int f = 0; f < fields; ++f) {
        fetched[decltype(set)::value][l][f] = plane_outside || column_outside[l] ? outside : cell[f * g.padded_cells];
      }
    }
  };
  // Plane pz goes to ring slot q and q + ring, q counted from the block's first plane.
  auto put = [&](auto set, int pz) {
    const int q = (pz - z_begin + rz) % Shape::ring;
#pragma unroll
    for (int l = 0; l < loads; ++l) {
      if (box_at[l] < 0) continue;
#pragma unroll
      for (int f = 0; f < fields; ++f) {
        T* slot = shared + f * Shape::field_cells + q * Shape::plane + box_at[l];
        slot[0] = fetched[decltype(set)::value][l][f];
        slot[Shape::ring * Shape::plane] = fetched[decltype(set)::value][l][f];
      }
    }
  };
  using First = std::integral_constant<int, 0>;

  for (int pz = z_begin - rz; pz < z_begin + rz; ++pz) {
    fetch(First{}, pz);
    put(First{}, pz);
  }
  [&]<int... Set>(std::integer_sequence<int, Set...>) {
    ((z_begin + Set < z_end ? fetch(std::integral_constant<int, Set>{}, z_begin + Set + rz) : void()), ...);
  }(std::make_integer_sequence<int, prefetch>{});

  const long long step = g.first_step;
  const T* plane = constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
  auto iteration = [&](auto set, int z) {
    put(set, z + rz);
    if (z + prefetch < z_end) fetch(set, z + prefetch + rz);
    __syncthreads();
    // The window z - rz .. z + rz starts at slot (z - z_begin) % ring.
    const int first_slot = (z - z_begin) % Shape::ring;
    const T* centre = shared + (first_slot + rz) * Shape::plane + (ty * P::rows + ry) * Shape::pitch_x + tx + rx;
    const long long at = z * stride_z + out_y * stride_y + out_x;
    // All rows evaluated before any is stored: a row's upper neighbour is the
    // next row's centre, loaded once.
    UpdateValues<S> values[P::rows];
    const bool column_in_region = out_x < g.region_hi[0];
#pragma unroll
    for (int j = 0; j < P::rows; ++j) {
      if (!column_in_region || out_y + j >= g.region_hi[1]) continue;  // no constants to read there
      const Neighbourhood<T> n{centre + j * Shape::pitch_x, Shape::pitch_x, Shape::plane, Shape::field_cells,
                               plane ? plane + at + j * stride_y : nullptr, g.constant_field_stride, step, stride_y,
                               stride_z};
      values[j] = update_values(stencil, n);
    }
    if (column_in_region) {
#pragma unroll
      for (int j = 0; j < P::rows; ++j) {
        if (out_y + j >= g.region_hi[1]) break;
#pragma unroll
        for (int f = 0; f < fields; ++f) out[f * g.padded_cells + at + j * stride_y] = values[j][f];
      }
    }
  };
  for (int z = z_begin; z < z_end; z += prefetch) {
    [&]<int... Set>(std::integer_sequence<int, Set...>) {
      ((z + Set < z_end ? iteration(std::integral_constant<int, Set>{}, z + Set) : void()), ...);
    }(std::make_integer_sequence<int, prefetch>{});
  }
}

}  // namespace trapeze::cuda
