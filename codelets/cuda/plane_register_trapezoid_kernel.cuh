#pragma once
// Kernel-level temporal blocking for 3-D (and 2-D) star stencils (seed 000's ghost zone
// inside one launch, streamed along z as in "2.5-D blocking"): a block owns a
// box of threads_x by threads_y * rows cells across (its output tile plus a
// ghost ring of r*K per side) and walks z one input plane per iteration. At
// iteration t it loads input plane t, and step s (1..K) computes plane
// t - s*r_z of step s from step s - 1. A thread keeps, for each of its cells
// and each step below K, the 2r_z + 1 planes the next step reads along z in
// registers; only the x and y neighbours go through shared memory, one plane
// per step and iteration. Device memory sees about one read and one write per
// cell for K steps.
//
// Why one barrier per iteration: step s reads step s - 1's plane t - s*r_z,
// which step s - 1 stored r_z iterations earlier, so each step keeps r_z + 1
// shared planes and writes the one whose last reader finished before the
// previous barrier. Against plane_trapezoid_kernel.cuh (rings of planes in
// shared memory, each plane stored twice, a barrier per step per plane) this
// stores one plane per step and reads the z-neighbours from registers. K is a
// template parameter: the register queues are arrays indexed by constants.
//
// Box-shaped stencils read diagonal neighbours across planes, which the
// registers do not hold: they use plane_trapezoid_kernel.cuh.
//
// Read-only fields of a stencil that reads them only at its cell
// (constants_at_cell_only_of) are loaded once per input plane, beside the
// updated fields, and kept in a per-thread queue of K r_z + 1 planes: step s
// finds plane t - s*r_z's value there, where it would otherwise compute the
// address and read device memory at every step (HotSpot's power map). Fields
// with a plane per step (constant_planes > 1) are read from memory as before.
//
// The boundary costs nothing per cell: where each of a thread's x and y
// neighbours sits in a shared plane is worked out once, before the walk, moved
// to its clamped position outside the domain (the value the sequential
// reference pads with: the same step's value there) or to a cell holding the
// constant; loads take the clamped position's value or the constant; along z a step's plane below the domain becomes, once the
// step reaches the domain's first plane, that plane's value, and a plane above
// it repeats the last one (clamp), or is the constant. Cells outside the
// domain compute values no valid cell reads.
#include <cuda_runtime.h>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

// In 2-D the same walk runs along y with a box one cell deep across: the
// kernel's "across y" is then the domain's third dimension (extent 1) and its
// "z" the domain's y, so one code serves both.
template <Stencil S, typename P, int K>
struct RegisterTrapezoidShape {
  static constexpr int walk = S::dims - 1;               // the dimension a block walks
  static constexpr int across_y = S::dims == 3 ? 1 : 2;  // the box's second dimension across
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[across_y]),
                       rz = static_cast<int>(S::shape.radius[walk]);
  static constexpr int box_x = P::threads_x, box_y = P::threads_y * P::rows;
  // A plane's cells sit inside a ring of r that is never written: the box's
  // edge cells read it (their values are outside the valid trapezoid anyway).
  // One more cell after the plane holds the boundary constant, so a
  // neighbour outside the domain is a shared load like any other.
  static constexpr int pitch_x = box_x + 2 * rx, pitch_y = box_y + 2 * ry;
  static constexpr int constant_slot = pitch_x * pitch_y;
  static constexpr int plane = constant_slot + 1;
  static constexpr int buffers = rz + 1;  // shared planes per step
  static constexpr int depth = 2 * rz + 1;  // planes per cell and step in registers
  static constexpr int neighbours = 2 * (rx + ry);  // a star's x and y neighbours
  static constexpr int fields = updated_fields_of<S>;
  // Read-only fields kept in registers (see above), and how many planes of them.
  static constexpr int register_constants = constants_at_cell_only_of<S> ? constant_fields_of<S> : 0;
  static constexpr int constant_depth = K * rz + 1;
  static constexpr int tile_x = box_x - 2 * rx * K, tile_y = box_y - 2 * ry * K;
  static constexpr long long shared_bytes =
      static_cast<long long>(K) * buffers * fields * plane * static_cast<long long>(sizeof(typename S::value_type));
  static constexpr bool usable = (S::dims == 3 || (S::dims == 2 && box_y == 1)) && S::shape.kind == ShapeKind::star &&
                                 tile_x > 0 && tile_y > 0 && K >= 2;
};

template <Stencil S, typename P, int K>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    plane_register_trapezoid_kernel(S stencil, const typename S::value_type* __restrict__ in,
                                    typename S::value_type* __restrict__ out,
                                    const typename S::value_type* __restrict__ constants, LaunchGeometry g,
                                    typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = RegisterTrapezoidShape<S, P, K>;
  static_assert(Shape::usable, "the register trapezoid takes 2-D and 3-D star stencils whose box leaves an output tile");
  constexpr int fields = Shape::fields, rx = Shape::rx, ry = Shape::ry, rz = Shape::rz, depth = Shape::depth;
  constexpr int rows = P::rows, buffers = Shape::buffers, neighbours = Shape::neighbours;
  constexpr int walk = Shape::walk, across_y = Shape::across_y;
  // The stencil's neighbourhood as a small box in its own axes (x, y, z; in
  // 2-D the walk is its y): walk_pitch is one step along the walk in it.
  constexpr int wx = 2 * rx + 1, win_y = S::dims == 3 ? 2 * ry + 1 : 2 * rz + 1, win_z = S::dims == 3 ? 2 * rz + 1 : 1;
  constexpr int box = wx * win_y * win_z, walk_pitch = S::dims == 3 ? wx * win_y : wx;
  constexpr int centre = rz * walk_pitch + ry * wx + rx;
  extern __shared__ __align__(16) unsigned char register_trapezoid_bytes[];  // Shape::shared_bytes
  T* const shared = reinterpret_cast<T*>(register_trapezoid_bytes);

  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int tile_x0 = g.region_lo[0] + static_cast<int>(blockIdx.x) * Shape::tile_x;
  const int tile_y0 = g.region_lo[across_y] + static_cast<int>(blockIdx.y) * Shape::tile_y;
  const int x0 = tile_x0 - rx * K, y0 = tile_y0 - ry * K;  // the box's origin, padded coordinates
  const int tile_x_end = min(tile_x0 + Shape::tile_x, g.region_hi[0]);
  const int tile_y_end = min(tile_y0 + Shape::tile_y, g.region_hi[across_y]);
  const int walk_planes = g.walk_planes > 0 ? g.walk_planes : P::planes;
  const int z_begin = g.region_lo[walk] + static_cast<int>(blockIdx.z) * walk_planes;
  const int z_end = min(z_begin + walk_planes, g.region_hi[walk]);
  const long long stride_y = g.padded[0], stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const long long across_stride = across_y == 1 ? stride_y : stride_z, walk_stride = walk == 2 ? stride_z : stride_y;
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
  const bool clamp_boundary = g.boundary == static_cast<int>(BoundaryKind::clamp);
  const bool periodic = g.boundary == static_cast<int>(BoundaryKind::periodic);
  // Loads stay in the buffer and, outside a periodic dimension, in the domain.
  int load_lo[3], load_hi[3];
#pragma unroll
  for (int d = 0; d < 3; ++d) load_lo[d] = max(g.inside_lo[d], 0), load_hi[d] = min(g.inside_hi[d], g.padded[d]);

  // Everything about this thread's cells that does not change along z,
  // worked out once: where its column is in device memory, and where each
  // x and y neighbour is in a shared plane (moved to its clamped position
  // outside the domain, or to the constant's cell).
  const int bx = tx, by_first = ty * rows;
  const int px = x0 + bx;
  long long column[rows];
  bool own_outside[rows];
  int own_slot[rows];
  int neighbour[rows][neighbours];
#pragma unroll
  for (int j = 0; j < rows; ++j) {
    const int by = by_first + j, py = y0 + by;
    column[j] = static_cast<long long>(clamp_to(py, load_lo[across_y], load_hi[across_y])) * across_stride +
                clamp_to(px, load_lo[0], load_hi[0]);
    own_outside[j] = constant_boundary && (px < g.inside_lo[0] || px >= g.inside_hi[0] || py < g.inside_lo[across_y] ||
                                           py >= g.inside_hi[across_y]);
    own_slot[j] = (by + ry) * Shape::pitch_x + bx + rx;
#pragma unroll
    for (int n = 0; n < neighbours; ++n) {
      // n: x offsets -rx .. -1, 1 .. rx, then y offsets likewise.
      const bool along_x = n < 2 * rx;
      const int m = along_x ? n : n - 2 * rx, r = along_x ? rx : ry;
      const int offset = m < r ? m - r : m - r + 1;
      int nx = px + (along_x ? offset : 0), ny = py + (along_x ? 0 : offset);
      const bool outside_domain =
          nx < g.inside_lo[0] || nx >= g.inside_hi[0] || ny < g.inside_lo[across_y] || ny >= g.inside_hi[across_y];
      if (constant_boundary && outside_domain) {
        neighbour[j][n] = Shape::constant_slot;
        continue;
      }
      if (!periodic) nx = clamp_to(nx, g.inside_lo[0], g.inside_hi[0]), ny = clamp_to(ny, g.inside_lo[across_y], g.inside_hi[across_y]);
      const int sx = clamp_to(nx - x0, -rx, Shape::box_x + rx), sy = clamp_to(ny - y0, -ry, Shape::box_y + ry);
      neighbour[j][n] = (sy + ry) * Shape::pitch_x + sx + rx;
    }
  }
  // The constant's cell of every shared plane (read only once a barrier has passed).
  for (int i = ty * P::threads_x + tx; i < K * buffers * fields; i += P::threads) {
    shared[i * Shape::plane + Shape::constant_slot] = outside;
  }
  auto load = [&](int j, int t, int f) -> T {
    const bool outside_z = constant_boundary && (t < g.inside_lo[walk] || t >= g.inside_hi[walk]);
    const long long cz = clamp_to(t, load_lo[walk], load_hi[walk]);
    return own_outside[j] || outside_z ? outside : in[f * g.padded_cells + cz * walk_stride + column[j]];
  };
  // Shared plane of step s (0 .. K - 1) written at iteration t.
  auto shared_plane = [&](int s, int t) {
    const int slot = ((t % buffers) + buffers) % buffers;
    return shared + (s * buffers + slot) * fields * Shape::plane;
  };

  // queue[s][f][j][q]: step s's value of field f, row j, plane newest - depth + 1 + q.
  // Zeros until the walk fills them: the first planes of each step are
  // computed from them and never reach a valid cell, but an uninitialised
  // register carried around the loop lets the compiler assume anything of it
  // (seen: wrong results).
  T queue[K][fields][rows][depth];
#pragma unroll
  for (int s = 0; s < K; ++s) {
#pragma unroll
    for (int f = 0; f < fields; ++f) {
#pragma unroll
      for (int j = 0; j < rows; ++j) {
#pragma unroll
        for (int q = 0; q < depth; ++q) queue[s][f][j][q] = T{};
      }
    }
  }
  // Input planes t + 1 .. t + ahead, in flight during iteration t: a load
  // from device memory takes longer than one iteration's arithmetic.
  constexpr int ahead = P::prefetch;
  T next[ahead][fields][rows];
  const int t_first = z_begin - rz * K, t_end = z_end + rz * K;
#pragma unroll
  for (int a = 0; a < ahead; ++a) {
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int f = 0; f < fields; ++f) next[a][f][j] = t_first + a < t_end ? load(j, t_first + a, f) : T{};
    }
  }
  // The read-only fields at this thread's cells, plane by plane beside the
  // input: constant_queue[c][j][q] is plane t - constant_depth + 1 + q
  // (plane t itself is read by no step of iteration t).
  constexpr int register_constants = Shape::register_constants, constant_depth = Shape::constant_depth;
  constexpr int queued_constants = register_constants > 0 ? register_constants : 1;
  const bool constants_in_registers = register_constants > 0 && constants != nullptr && g.constant_planes == 1;
  auto load_constant = [&](int j, int t, int c) -> T {
    const long long at = static_cast<long long>(clamp_to(t, 0, g.padded[walk])) * walk_stride +
                         static_cast<long long>(clamp_to(y0 + by_first + j, 0, g.padded[across_y])) * across_stride +
                         clamp_to(px, 0, g.padded[0]);
    return constants[c * g.constant_field_stride + at];
  };
  T constant_queue[queued_constants][rows][constant_depth];
#pragma unroll
  for (int c = 0; c < queued_constants; ++c) {
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int q = 0; q < constant_depth; ++q) constant_queue[c][j][q] = T{};
    }
  }
  __syncthreads();  // the constants' cells
  for (int t = t_first; t < t_end; ++t) {
    // Step 0: input plane t, already loaded; plane t + ahead's loads go out now.
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int f = 0; f < fields; ++f) {
#pragma unroll
        for (int q = 0; q < depth - 1; ++q) queue[0][f][j][q] = queue[0][f][j][q + 1];
        queue[0][f][j][depth - 1] = next[0][f][j];
#pragma unroll
        for (int a = 0; a < ahead - 1; ++a) next[a][f][j] = next[a + 1][f][j];
        next[ahead - 1][f][j] = t + ahead < t_end ? load(j, t + ahead, f) : T{};
      }
      if (constants_in_registers) {
#pragma unroll
        for (int c = 0; c < register_constants; ++c) {
#pragma unroll
          for (int q = 0; q < constant_depth - 1; ++q) constant_queue[c][j][q] = constant_queue[c][j][q + 1];
          // Plane t: no step reads it before the next iteration, so its
          // load is in flight while this one computes.
          constant_queue[c][j][constant_depth - 1] = load_constant(j, t, c);
        }
      }
    }
    {
      T* const target = shared_plane(0, t);
#pragma unroll
      for (int j = 0; j < rows; ++j) {
#pragma unroll
        for (int f = 0; f < fields; ++f) target[f * Shape::plane + own_slot[j]] = queue[0][f][j][depth - 1];
      }
    }
    // Steps 1 .. K: plane p = t - s*rz from step s - 1, whose plane p sits in
    // the shared buffer written rz iterations ago and whose planes p - rz ..
    // p + rz are this thread's queue for step s - 1.
#pragma unroll
    for (int s = 1; s <= K; ++s) {
      const int p = t - s * rz;
      const long long step = g.first_step + s - 1;
      const bool below = p < g.inside_lo[walk], above = p >= g.inside_hi[walk];  // never in a periodic buffer
      const T* const source = shared_plane(s - 1, t - rz);
      const T* const constant_plane =
          constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
      // Every row of the box, also those outside step s's valid trapezoid:
      // skipping those (a branch per row, the same for a whole warp) cost
      // the H100 a quarter of the kernel's speed at k = 4.
      UpdateValues<S> values[rows];
#pragma unroll
      for (int j = 0; j < rows; ++j) {
        if (constant_boundary && (below || above)) {
          values[j] = uniform_values<S>(outside);
          continue;
        }
        if (s < K && clamp_boundary && above) {
          // The domain's last plane of this step, the newest in the queue.
#pragma unroll
          for (int f = 0; f < fields; ++f) values[j][f] = queue[s][f][j][depth - 1];
          continue;
        }
        T window[fields * box];
#pragma unroll
        for (int f = 0; f < fields; ++f) {
#pragma unroll
          for (int i = 0; i < box; ++i) window[f * box + i] = T{};  // a star reads no diagonal
#pragma unroll
          for (int dz = -rz; dz <= rz; ++dz) window[f * box + (dz + rz) * walk_pitch + ry * wx + rx] = queue[s - 1][f][j][rz + dz];
#pragma unroll
          for (int n = 0; n < neighbours; ++n) {
            const bool along_x = n < 2 * rx;
            const int m = along_x ? n : n - 2 * rx, r = along_x ? rx : ry;
            const int offset = m < r ? m - r : m - r + 1;
            const int i = rz * walk_pitch + (ry + (along_x ? 0 : offset)) * wx + rx + (along_x ? offset : 0);
            window[f * box + i] = source[f * Shape::plane + neighbour[j][n]];
          }
        }
        if (constants_in_registers) {
          T here[queued_constants];
#pragma unroll
          for (int c = 0; c < register_constants; ++c) here[c] = constant_queue[c][j][constant_depth - 1 - s * rz];
          const Neighbourhood<T> n{window + centre, wx, wx * win_y, box, here, 1, step, 0, 0};
          values[j] = update_values(stencil, n);
          continue;
        }
        // Read-only fields at the cell (clamped into the buffer: cells
        // outside it are never valid).
        const long long constant_at = static_cast<long long>(clamp_to(p, 0, g.padded[walk])) * walk_stride +
                                      static_cast<long long>(clamp_to(y0 + by_first + j, 0, g.padded[across_y])) * across_stride +
                                      clamp_to(px, 0, g.padded[0]);
        const Neighbourhood<T> n{window + centre, wx, wx * win_y, box, constant_plane ? constant_plane + constant_at : nullptr,
                                 g.constant_field_stride, step, stride_y, stride_z};
        values[j] = update_values(stencil, n);
      }
      if (s == K) {
        if (p >= z_begin && p < z_end && px >= tile_x0 && px < tile_x_end) {
#pragma unroll
          for (int j = 0; j < rows; ++j) {
            const int py = y0 + by_first + j;
            if (py < tile_y0 || py >= tile_y_end) continue;
#pragma unroll
            for (int f = 0; f < fields; ++f) out[f * g.padded_cells + p * walk_stride + py * across_stride + px] = values[j][f];
          }
        }
      } else {
        T* const target = shared_plane(s, t);
#pragma unroll
        for (int j = 0; j < rows; ++j) {
#pragma unroll
          for (int f = 0; f < fields; ++f) {
#pragma unroll
            for (int q = 0; q < depth - 1; ++q) queue[s][f][j][q] = queue[s][f][j][q + 1];
            queue[s][f][j][depth - 1] = values[j][f];
            // Clamp: the planes below the domain are its first plane.
            if (clamp_boundary && p == g.inside_lo[walk]) {
#pragma unroll
              for (int q = depth - 1 - rz; q < depth - 1; ++q) queue[s][f][j][q] = values[j][f];
            }
            target[f * Shape::plane + own_slot[j]] = values[j][f];
          }
        }
      }
    }
    __syncthreads();
  }
}

}  // namespace trapeze::cuda
