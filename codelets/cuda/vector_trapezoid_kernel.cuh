#pragma once
// Kernel-level temporal blocking for 3-D star stencils of 4-byte cells in
// 16-byte groups: the register trapezoid (plane_register_trapezoid_kernel.cuh)
// with a thread owning 4 cells across x instead of one. Why: that kernel is
// bound by instructions, not bytes (Nsight Compute on the H100: SM throughput
// 86%, DRAM 24%), and per cell and step it spends 4 shared loads and a shared
// store on neighbours. Here the x-neighbours are the thread's own registers
// and, across a group's edge, the next lane's (shuffles); the y-neighbours are
// the thread's own rows, except the rows just above and below its first and
// last, which are the only ones it shares through shared memory. So a step
// costs a group of 4 cells about 2 shuffles, and each thread 2 16-byte shared
// loads and 2 stores, whatever its rows. On the H100 (jacobi3d 512^3,
// gpu_kernel_probe, 2026-11-27) 1.60x the single-step roofline at k = 3 and
// 1.63x at k = 4, against the scalar register trapezoid's 1.17x at its best k.
//
// The walk is the register trapezoid's: a block owns a box of 128 cells (a
// warp of groups) by threads_y * rows rows (its output tile plus r*K per
// side) and walks z one input plane per iteration. At iteration t it loads
// input plane t, and step s (1..K) computes plane t - s*rz from step s - 1,
// whose planes p - rz .. p + rz the thread keeps in registers. The box starts
// at a multiple of 4 cells, so consecutive boxes move by a tile a multiple of
// 4 cells wide.
//
// Boundaries: cells outside the domain compute values no cell inside it
// reads, because a cell at the domain's edge takes its outside neighbour from
// itself (clamp: the value the sequential reference pads with is the edge
// cell's own, same step) or the constant instead of reading it. That swap
// costs a select per neighbour and cell, so only iterations that need it pay
// it: the iteration is instantiated three times (no edge; x-edges only; every
// edge and the planes beyond z) and each warp picks one per iteration (a
// branch uniform in the warp). Checking every iteration (register copies
// for the selects at every step, Nsight Compute: 1.4 moves per addition) the
// kernel reached 1.29x at k = 3; with an unchecked instantiation beside one
// checked for every edge 1.41x; with the three 1.60x.
// Along z the planes beyond the domain are handled as in the register
// trapezoid. Periodic dimensions need nothing: the ghost zone (at least r*K
// wide) holds the wrapped cells.
#include <cuda_runtime.h>

#include <type_traits>

#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "vector_step_kernel.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S, typename P, int K>
struct VectorTrapezoidShape {
  using T = typename S::value_type;
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]),
                       rz = static_cast<int>(S::shape.radius[2]);
  static constexpr int box_x = 128;  // a warp of 4-cell groups
  static constexpr int box_y = P::threads_y * P::rows;
  // Boxes start at multiples of 4 cells: the tile across x is too.
  static constexpr int tile_x = (box_x - 2 * rx * K) / 4 * 4, tile_y = box_y - 2 * ry * K;
  static constexpr int buffers = rz + 1;       // shared planes per step (one barrier an iteration)
  static constexpr int depth = 2 * rz + 1;     // planes per row and step in registers
  static constexpr int kept = P::rows == 1 ? 1 : 2;  // rows a thread shares: its first and last
  static constexpr long long shared_bytes =
      static_cast<long long>(K) * buffers * P::threads_y * kept * 32 * 4 * static_cast<long long>(sizeof(T));
  static constexpr bool usable = S::dims == 3 && sizeof(T) == 4 && S::shape.kind == ShapeKind::star && rx == 1 &&
                                 ry == 1 && updated_fields_of<S> == 1 && constant_fields_of<S> == 0 && K >= 2 &&
                                 tile_y > 0 && tile_x > 0;
};

// The first cell of the committed range's first tile across x: the largest
// c <= lo with c - rx*K a multiple of 4 (so every box starts a 16-byte group).
__host__ __device__ inline int vector_trapezoid_first_x(int lo, int offset) { return lo - ((lo - offset) & 3); }

// Cell c's x neighbours in a lane's group of 4 (both 16-byte trapezoids,
// here and row_vector_trapezoid_kernel.cuh): the group's own cells, or across
// its edges the next lanes' (from_left, from_right: shuffles by the whole
// warp). With CheckX a cell at the domain's edge (c == left_edge or
// right_edge) takes `own` (itself under clamp, the constant) for the
// neighbour outside.
template <bool CheckX, typename T>
__device__ __forceinline__ void quad_x_neighbours(const Quad<T>& here, T from_left, T from_right, int c, int left_edge,
                                                  int right_edge, T own, T& left, T& right) {
  left = c > 0 ? here.v[c - 1] : from_left;
  right = c < 3 ? here.v[c + 1] : from_right;
  if constexpr (CheckX) {
    left = c == left_edge ? own : left;
    right = c == right_edge ? own : right;
  }
}

template <Stencil S, typename P, int K>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    vector_trapezoid_kernel(S stencil, const typename S::value_type* __restrict__ in,
                            typename S::value_type* __restrict__ out, LaunchGeometry g,
                            typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = VectorTrapezoidShape<S, P, K>;
  static_assert(Shape::usable, "the 16-byte trapezoid takes 3-D star stencils of radius 1 across, 4-byte cells");
  constexpr int rows = P::rows, rz = Shape::rz, depth = Shape::depth, buffers = Shape::buffers, kept = Shape::kept;
  constexpr int wx = 3, wy = 3, wz = 2 * rz + 1, box = wx * wy * wz, centre = (rz * wy + 1) * wx + 1;
  constexpr unsigned warp = 0xffffffffu;
  extern __shared__ __align__(16) unsigned char vector_trapezoid_bytes[];  // Shape::shared_bytes
  Quad<T>* const shared = reinterpret_cast<Quad<T>*>(vector_trapezoid_bytes);

  const int lane = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int first_x = vector_trapezoid_first_x(g.region_lo[0], K);
  const int tile_x0 = first_x + static_cast<int>(blockIdx.x) * Shape::tile_x;
  const int commit_lo = max(tile_x0, g.region_lo[0]), commit_hi = min(tile_x0 + Shape::tile_x, g.region_hi[0]);
  const int box_x0 = tile_x0 - K;  // a multiple of 4
  const int x0 = box_x0 + 4 * lane;
  // Groups past the buffer load its first or last group (never committed, never read by a committed cell).
  const int loaded_x = 4 * clamp_to(x0 >> 2, 0, g.padded[0] / 4);
  const int tile_y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * Shape::tile_y;
  const int tile_y_end = min(tile_y0 + Shape::tile_y, g.region_hi[1]);
  const int y_first = tile_y0 - K + ty * rows;
  const int walk_planes = g.walk_planes > 0 ? g.walk_planes : P::planes;
  const int z_begin = g.region_lo[2] + static_cast<int>(blockIdx.z) * walk_planes;
  const int z_end = min(z_begin + walk_planes, g.region_hi[2]);
  const long long stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);
  const bool clamp_boundary = g.boundary == static_cast<int>(BoundaryKind::clamp);
  // Rows and planes load inside the domain (outside a periodic dimension) and the buffer.
  const int y_lo = max(g.inside_lo[1], 0), y_hi = min(g.inside_hi[1], g.padded[1]);
  const int z_lo = max(g.inside_lo[2], 0), z_hi = min(g.inside_hi[2], g.padded[2]);
  int row_at[rows];  // where row j's group starts in a plane (a plane's cells fit an int)
#pragma unroll
  for (int j = 0; j < rows; ++j) row_at[j] = clamp_to(y_first + j, y_lo, y_hi) * g.padded[0] + loaded_x;

  // The domain's edges among this thread's cells: which of its 4 cells is the
  // first (last) column, which of its rows the first (last) row; the branches
  // on x_edge (the block's box holds a column edge) and y_edge (this warp's
  // rows hold a row edge) are uniform in a warp.
  const int left_edge = g.inside_lo[0] - x0, right_edge = g.inside_hi[0] - 1 - x0;
  const int up_edge = g.inside_lo[1] - y_first, down_edge = g.inside_hi[1] - 1 - y_first;
  const bool x_edge = (g.inside_lo[0] >= box_x0 && g.inside_lo[0] < box_x0 + Shape::box_x) ||
                      (g.inside_hi[0] - 1 >= box_x0 && g.inside_hi[0] - 1 < box_x0 + Shape::box_x);
  const bool y_edge = (up_edge >= 0 && up_edge < rows) || (down_edge >= 0 && down_edge < rows);

  // Shared rows of step s (0 .. K - 1), written at iteration t: each thread's first and last row.
  auto shared_rows = [&](int s, int t) {
    const int slot = ((t % buffers) + buffers) % buffers;
    return shared + (s * buffers + slot) * P::threads_y * kept * 32;
  };
  const int ty_up = max(ty - 1, 0), ty_down = min(ty + 1, P::threads_y - 1);  // the box's edge rows read their own
  auto load = [&](int j, int t) {
    Quad<T> q;
    if (constant_boundary && (t < g.inside_lo[2] || t >= g.inside_hi[2])) {
#pragma unroll
      for (int c = 0; c < 4; ++c) q.v[c] = outside;
    } else {
      q = *reinterpret_cast<const Quad<T>*>(in + clamp_to(t, z_lo, z_hi) * stride_z + row_at[j]);
    }
    return q;
  };

  // queue[s][j][q]: step s's group in row j, plane newest - depth + 1 + q
  // (zeros until the walk fills them: see plane_register_trapezoid_kernel.cuh).
  Quad<T> queue[K][rows][depth];
#pragma unroll
  for (int s = 0; s < K; ++s) {
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int q = 0; q < depth; ++q) {
#pragma unroll
        for (int c = 0; c < 4; ++c) queue[s][j][q].v[c] = T{};
      }
    }
  }
  const int t_first = z_begin - rz * K, t_end = z_end + rz * K;
  // Input planes t .. t + ahead - 1, loaded during the iterations before t:
  // a load from device memory takes longer than an iteration's arithmetic.
  constexpr int ahead = P::ahead;
  Quad<T> next[ahead][rows];
#pragma unroll
  for (int a = 0; a < ahead; ++a) {
#pragma unroll
    for (int j = 0; j < rows; ++j) next[a][j] = load(j, min(t_first + a, t_end - 1));
  }

  // The store of step K's plane p: which of this thread's rows the tile commits.
  bool commits_row[rows];
#pragma unroll
  for (int j = 0; j < rows; ++j) commits_row[j] = y_first + j >= tile_y0 && y_first + j < tile_y_end && x0 + 4 > commit_lo && x0 < commit_hi;
  // Shared rows this thread reads: the last of the thread above, the first of the one below.
  const int above_at = ty_up * kept * 32 + (kept - 1) * 32 + lane, below_at = ty_down * kept * 32 + lane;
  const int own_at = ty * kept * 32 + lane;

  // One iteration: input plane t, then steps 1 .. K, in one of three
  // checks: 2 where this warp's rows hold a domain edge across y or a step's
  // plane is at or past the domain's edge along z (neighbours swapped at
  // every edge, planes beyond the domain handled), 1 where only the block's
  // box holds an edge across x (x-neighbours swapped), 0 elsewhere, most of a
  // large domain, without a test or a select per cell. The same code,
  // instantiated three times, so the values are bit for bit equal.
  auto iteration = [&](int t, auto checks) {
    constexpr int check = decltype(checks)::value;
    constexpr bool check_x = check >= 1, check_yz = check == 2;
    // Step 0: input plane t; plane t + ahead's loads go out now.
#pragma unroll
    for (int j = 0; j < rows; ++j) {
#pragma unroll
      for (int q = 0; q < depth - 1; ++q) queue[0][j][q] = queue[0][j][q + 1];
      queue[0][j][depth - 1] = next[0][j];
#pragma unroll
      for (int a = 0; a < ahead - 1; ++a) next[a][j] = next[a + 1][j];
      if (t + ahead < t_end) next[ahead - 1][j] = load(j, t + ahead);
    }
    {
      Quad<T>* const target = shared_rows(0, t) + own_at;
      target[0] = queue[0][0][depth - 1];
      if (kept > 1) target[32] = queue[0][rows - 1][depth - 1];
    }
    // Steps 1 .. K: plane p = t - s*rz from step s - 1 (its plane p's shared
    // rows were written rz iterations ago; planes p - rz .. p + rz are the queue).
#pragma unroll
    for (int s = 1; s <= K; ++s) {
      const int p = t - s * rz;
      const long long step = g.first_step + s - 1;
      Quad<T> values[rows];
      bool computed = true;
      if constexpr (check_yz) {
        const bool below = p < g.inside_lo[2], above = p >= g.inside_hi[2];  // never in a periodic buffer
        if (constant_boundary && (below || above)) {
#pragma unroll
          for (int j = 0; j < rows; ++j) {
#pragma unroll
            for (int c = 0; c < 4; ++c) values[j].v[c] = outside;
          }
          computed = false;
        } else if (s < K && clamp_boundary && above) {
          // The domain's last plane of this step, the newest in the queue.
#pragma unroll
          for (int j = 0; j < rows; ++j) values[j] = queue[s][j][depth - 1];
          computed = false;
        }
      }
      if (computed) {
        const Quad<T>* const source = shared_rows(s - 1, t - rz);
        const Quad<T> above_rows = source[above_at], below_rows = source[below_at];
#pragma unroll
        for (int j = 0; j < rows; ++j) {
          const Quad<T>& here = queue[s - 1][j][rz];
          const Quad<T>& up_row = j > 0 ? queue[s - 1][j - 1][rz] : above_rows;
          const Quad<T>& down_row = j < rows - 1 ? queue[s - 1][j + 1][rz] : below_rows;
          const T from_left = __shfl_up_sync(warp, here.v[3], 1), from_right = __shfl_down_sync(warp, here.v[0], 1);
#pragma unroll
          for (int c = 0; c < 4; ++c) {
            T up = up_row.v[c], down = down_row.v[c];
            // A cell at the domain's edge takes its outside neighbour from itself (clamp) or the constant.
            const T own = constant_boundary ? outside : here.v[c];
            T left, right;
            quad_x_neighbours<check_x>(here, from_left, from_right, c, left_edge, right_edge, own, left, right);
            if constexpr (check_yz) {
              up = j == up_edge ? own : up;
              down = j == down_edge ? own : down;
            }
            T window[box];
#pragma unroll
            for (int i = 0; i < box; ++i) window[i] = T{};  // a star reads no diagonal
#pragma unroll
            for (int dz = -rz; dz <= rz; ++dz) window[((dz + rz) * wy + 1) * wx + 1] = queue[s - 1][j][rz + dz].v[c];
            window[centre - wx] = up;
            window[centre + wx] = down;
            window[centre - 1] = left;
            window[centre + 1] = right;
            const Neighbourhood<T> n{window + centre, wx, wx * wy, box, nullptr, 0, step, g.padded[0], stride_z};
            values[j].v[c] = update_values(stencil, n)[0];
          }
        }
      }
      if (s == K) {
        if (p >= z_begin && p < z_end) {
          T* const plane = out + p * stride_z;
#pragma unroll
          for (int j = 0; j < rows; ++j) {
            if (commits_row[j]) store_quad(plane + static_cast<long long>(y_first + j) * g.padded[0], x0, commit_lo, commit_hi, values[j]);
          }
        }
      } else {
#pragma unroll
        for (int j = 0; j < rows; ++j) {
#pragma unroll
          for (int q = 0; q < depth - 1; ++q) queue[s][j][q] = queue[s][j][q + 1];
          queue[s][j][depth - 1] = values[j];
          if constexpr (check_yz) {
            // Clamp: the planes below the domain are its first plane.
            if (clamp_boundary && p == g.inside_lo[2]) {
#pragma unroll
              for (int q = depth - 1 - rz; q < depth - 1; ++q) queue[s][j][q] = values[j];
            }
          }
        }
        Quad<T>* const target = shared_rows(s, t) + own_at;
        target[0] = values[0];
        if (kept > 1) target[32] = values[rows - 1];
      }
    }
  };

  // Iterations whose every step's plane lies inside the domain along z,
  // above its first plane (the clamp refills the queue there).
  const int plain_lo = g.inside_lo[2] + rz * K + 1, plain_hi = g.inside_hi[2] + rz;
#pragma unroll(P::unroll)
  for (int t = t_first; t < t_end; ++t) {
    if (y_edge || t < plain_lo || t >= plain_hi) {
      iteration(t, std::integral_constant<int, 2>{});
    } else if (x_edge) {
      iteration(t, std::integral_constant<int, 1>{});
    } else {
      iteration(t, std::integral_constant<int, 0>{});
    }
    __syncthreads();
  }
}

}  // namespace trapeze::cuda
