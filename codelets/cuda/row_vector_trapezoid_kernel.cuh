#pragma once
// Kernel-level temporal blocking for 2-D stencils of radius 1 (star or box)
// of 4-byte cells in 16-byte groups: the 3-D 16-byte trapezoid (vector_trapezoid_kernel.cuh)
// with its walk along y. Why: the 2-D register trapezoid
// (plane_register_trapezoid_kernel.cuh) runs at the same G cell updates/s on
// an H100 and an H200 (2.3x and 1.6x their single-step rooflines, docs/PERF.md
// 2026-11-29): it is bound by instructions, and per cell and step it spends a
// shared store, two shared loads and a block-wide barrier on its x
// neighbours. Here a warp's 32 lanes own 4 cells each across x (a box 128
// cells wide), the x-neighbours are the lane's own registers and, across a
// group's edge, the next lane's (shuffles), and the y-neighbours are the
// lane's register queue: no shared memory and no barrier, each warp walks on
// its own. On the H200 (jacobi2d 16384^2, gpu_kernel_probe, 2026-11-29) 3.38x
// the single-step roofline at k = 8 against the register trapezoid's 1.47x
// at k = 8 and 1.64x at k = 16; through the runtime jacobi2d's automatic
// heights ran 2.07-2.09x faster (3.31-3.34x the roofline, docs/PERF.md).
// HotSpot's power map, read at the cell only, is loaded a group a step from
// device memory (L1 holds the K rows in flight): its automatic heights ran
// at 1.97-1.98x against the register trapezoid's 1.40x (H200, 2026-11-29).
//
// The walk: at iteration t a warp loads input row t, and step s (1..K)
// computes row t - s*ry from step s - 1, whose rows p - ry .. p + ry the lane
// keeps in registers. The box starts at a multiple of 4 cells, so tiles
// across x are too. Boundaries as in the 3-D kernel: a cell at the domain's
// edge takes its outside neighbour from itself (clamp) or the constant, only
// in the iterations whose warp needs it (three instantiations of one
// iteration, a branch uniform in the warp); along y the rows beyond the
// domain are handled as the 3-D kernel handles planes beyond z; periodic
// dimensions need nothing (the ghost zone, at least r*K wide, holds the
// wrapped cells).
//
// A box (Life on words: life_bits.hpp, life_byte_words.hpp) also reads the
// rows above and below across x: those rows take their x-neighbours the way
// the cell's own row does (their lane's registers, two more shuffles a row),
// and at a domain edge their own cell or the constant.
#include <cuda_runtime.h>

#include <type_traits>

#include "kernel_policy.hpp"
#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "vector_step_kernel.cuh"
#include "vector_trapezoid_kernel.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S, typename P, int K>
struct RowVectorTrapezoidShape {
  using T = typename S::value_type;
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]);
  static constexpr int box_x = 128;  // a warp of 4-cell groups
  // Boxes start at multiples of 4 cells: the tile across x is too.
  static constexpr int tile_x = (box_x - 2 * rx * K) / 4 * 4;
  static constexpr int depth = 2 * ry + 1;  // rows per step in registers
  // A read-only field read at the cell only (HotSpot's power map) is loaded
  // a group a step from device memory (L1 holds the rows the K steps share).
  static constexpr bool constant = constant_fields_of<S> == 1;
  // A box also reads the rows above and below across x (see the top).
  static constexpr bool diagonals = S::shape.kind == ShapeKind::box;
  static constexpr bool usable = S::dims == 2 && sizeof(T) == 4 && rx == 1 && ry == 1 && updated_fields_of<S> == 1 &&
                                 (constant_fields_of<S> == 0 || (constant && constants_at_cell_only_of<S>)) && K >= 2 &&
                                 tile_x > 0;
};

template <Stencil S, typename P, int K>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    row_vector_trapezoid_kernel(S stencil, const typename S::value_type* __restrict__ in,
                                typename S::value_type* __restrict__ out,
                                const typename S::value_type* __restrict__ constants, LaunchGeometry g,
                                typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = RowVectorTrapezoidShape<S, P, K>;
  static_assert(Shape::usable, "the 2-D 16-byte trapezoid takes stencils of radius 1, one field of 4-byte cells");
  constexpr int ry = Shape::ry, depth = Shape::depth;
  constexpr int wx = 3, wy = 2 * ry + 1, box = wx * wy, centre = ry * wx + 1;
  constexpr unsigned warp = 0xffffffffu;

  const int lane = static_cast<int>(threadIdx.x);
  const int tile = static_cast<int>(blockIdx.x) * P::warps + static_cast<int>(threadIdx.y);  // this warp's tile across x
  const int first_x = vector_trapezoid_first_x(g.region_lo[0], K);
  const int tile_x0 = first_x + tile * Shape::tile_x;
  if (tile_x0 >= g.region_hi[0]) return;  // no barrier below: a warp with no tile leaves
  const int commit_lo = max(tile_x0, g.region_lo[0]), commit_hi = min(tile_x0 + Shape::tile_x, g.region_hi[0]);
  const int box_x0 = tile_x0 - K;  // a multiple of 4
  const int x0 = box_x0 + 4 * lane;
  // Groups past the buffer load its first or last group (never committed, never read by a committed cell).
  const int loaded_x = 4 * clamp_to(x0 >> 2, 0, g.padded[0] / 4);
  const int walk_rows = g.walk_planes > 0 ? g.walk_planes : P::planes;
  const int y_begin = g.region_lo[1] + static_cast<int>(blockIdx.y) * walk_rows;
  const int y_end = min(y_begin + walk_rows, g.region_hi[1]);
  const long long stride_y = g.padded[0];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
  const bool clamp_boundary = g.boundary == static_cast<int>(BoundaryKind::clamp);
  const int y_lo = max(g.inside_lo[1], 0), y_hi = min(g.inside_hi[1], g.padded[1]);
  // Which of this lane's 4 cells is the domain's first (last) column; the
  // branch on x_edge (this warp's box holds a column edge) is uniform in a warp.
  const int left_edge = g.inside_lo[0] - x0, right_edge = g.inside_hi[0] - 1 - x0;
  const bool x_edge = (g.inside_lo[0] >= box_x0 && g.inside_lo[0] < box_x0 + Shape::box_x) ||
                      (g.inside_hi[0] - 1 >= box_x0 && g.inside_hi[0] - 1 < box_x0 + Shape::box_x);
  const bool commits = x0 + 4 > commit_lo && x0 < commit_hi;

  auto load = [&](int t) {
    Quad<T> q;
    if (constant_boundary && (t < g.inside_lo[1] || t >= g.inside_hi[1])) {
#pragma unroll
      for (int c = 0; c < 4; ++c) q.v[c] = outside;
    } else {
      q = *reinterpret_cast<const Quad<T>*>(in + clamp_to(t, y_lo, y_hi) * stride_y + loaded_x);
    }
    return q;
  };

  // queue[s][q]: step s's group in row newest - depth + 1 + q (zeros until the
  // walk fills them: see plane_register_trapezoid_kernel.cuh).
  Quad<T> queue[K][depth];
#pragma unroll
  for (int s = 0; s < K; ++s) {
#pragma unroll
    for (int q = 0; q < depth; ++q) {
#pragma unroll
      for (int c = 0; c < 4; ++c) queue[s][q].v[c] = T{};
    }
  }
  const int t_first = y_begin - ry * K, t_end = y_end + ry * K;
  // Input rows t .. t + ahead - 1, loaded during the iterations before t.
  constexpr int ahead = P::ahead;
  Quad<T> next[ahead];
#pragma unroll
  for (int a = 0; a < ahead; ++a) next[a] = load(min(t_first + a, t_end - 1));

  // One iteration: input row t, then steps 1 .. K, in one of three checks: 2
  // where a step's row is at or past the domain's edge along y (neighbours
  // swapped at every edge, rows beyond the domain handled), 1 where only the
  // warp's box holds an edge across x, 0 elsewhere, most of a large domain,
  // without a test or a select per cell. The same code, instantiated three
  // times, so the values are bit for bit equal.
  auto iteration = [&](int t, auto checks) {
    constexpr int check = decltype(checks)::value;
    constexpr bool check_x = check >= 1, check_y = check == 2;
#pragma unroll
    for (int q = 0; q < depth - 1; ++q) queue[0][q] = queue[0][q + 1];
    queue[0][depth - 1] = next[0];
#pragma unroll
    for (int a = 0; a < ahead - 1; ++a) next[a] = next[a + 1];
    if (t + ahead < t_end) next[ahead - 1] = load(t + ahead);
#pragma unroll
    for (int s = 1; s <= K; ++s) {
      const int p = t - s * ry;
      const long long step = g.first_step + s - 1;
      Quad<T> values;
      bool computed = true;
      if constexpr (check_y) {
        const bool below = p < g.inside_lo[1], above = p >= g.inside_hi[1];  // never in a periodic buffer
        if (constant_boundary && (below || above)) {
#pragma unroll
          for (int c = 0; c < 4; ++c) values.v[c] = outside;
          computed = false;
        } else if (s < K && clamp_boundary && above) {
          values = queue[s][depth - 1];  // the domain's last row of this step, the newest in the queue
          computed = false;
        }
      }
      if (computed) {
        Quad<T> constant_values{};
        if constexpr (Shape::constant) {
          const T* const plane = constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells;  // a plane a step, or one
          constant_values = *reinterpret_cast<const Quad<T>*>(plane + clamp_to(p, 0, g.padded[1]) * stride_y + loaded_x);
        }
        // The x-neighbours across the group's edges, of each row read across.
        T from_left[wy], from_right[wy];
#pragma unroll
        for (int dy = -ry; dy <= ry; ++dy) {
          if (Shape::diagonals || dy == 0) {
            from_left[dy + ry] = __shfl_up_sync(warp, queue[s - 1][ry + dy].v[3], 1);
            from_right[dy + ry] = __shfl_down_sync(warp, queue[s - 1][ry + dy].v[0], 1);
          }
        }
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          T window[box];
#pragma unroll
          for (int i = 0; i < box; ++i) window[i] = T{};  // a star reads no diagonal
#pragma unroll
          for (int dy = -ry; dy <= ry; ++dy) {
            const Quad<T>& row = queue[s - 1][ry + dy];
            window[(dy + ry) * wx + 1] = row.v[c];
            if (Shape::diagonals || dy == 0) {
              // At the domain's edge the outside neighbour is the row's own
              // cell (clamp: the reference clamps each coordinate) or the constant.
              const T own = constant_boundary ? outside : row.v[c];
              quad_x_neighbours<check_x>(row, from_left[dy + ry], from_right[dy + ry], c, left_edge, right_edge, own,
                                         window[(dy + ry) * wx], window[(dy + ry) * wx + 2]);
            }
          }
          const T* const at_cell = Shape::constant ? &constant_values.v[c] : nullptr;
          const Neighbourhood<T> n{window + centre, wx, wx * wy, box, at_cell, 1, step, 0, 0};
          values.v[c] = update_values(stencil, n)[0];
        }
      }
      if (s == K) {
        if (commits && p >= y_begin && p < y_end) store_quad(out + p * stride_y, x0, commit_lo, commit_hi, values);
      } else {
#pragma unroll
        for (int q = 0; q < depth - 1; ++q) queue[s][q] = queue[s][q + 1];
        queue[s][depth - 1] = values;
        if constexpr (check_y) {
          // Clamp: the rows above the domain's first are that row.
          if (clamp_boundary && p == g.inside_lo[1]) {
#pragma unroll
            for (int q = depth - 1 - ry; q < depth - 1; ++q) queue[s][q] = values;
          }
        }
      }
    }
  };

  // Iterations whose every step's row lies inside the domain along y, below
  // its first row (the clamp refills the queue there).
  const int plain_lo = g.inside_lo[1] + ry * K + 1, plain_hi = g.inside_hi[1] + ry;
  for (int t = t_first; t < t_end; ++t) {
    if (t < plain_lo || t >= plain_hi) {
      iteration(t, std::integral_constant<int, 2>{});
    } else if (x_edge) {
      iteration(t, std::integral_constant<int, 1>{});
    } else {
      iteration(t, std::integral_constant<int, 0>{});
    }
  }
}

}  // namespace trapeze::cuda
