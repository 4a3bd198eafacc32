#pragma once
// The 3-D single step for star stencils of 4-byte cells in 16-byte loads and
// stores (the 2-D one is vector_step_kernel.cuh; why 16 bytes: its header).
//
// A thread owns a group of 4 cells that starts at a multiple of 4 in the
// buffer, in `rows` rows of y, and walks `planes` planes of z, keeping its
// groups' z-neighbours in registers (one plane more than a step reads, so
// that the next plane's loads are in flight while this one is computed). The
// rows just above and below its own are 16-byte loads too. x-neighbours
// across a group's edge come from the next lanes by shuffles; a warp's first
// and last lanes only load, for their neighbours, so a warp commits 30
// groups. So a row of 129 groups (512 cells and a ghost of 2) takes 5 warps,
// and about 19% of the lanes commit nothing; two mappings with fewer idle
// lanes were slower on the H200 (jacobi3d 512^3, 3 rows x 4 planes, against
// this one's 0.837-0.839 of the copy roofline in the same runs): every lane
// committing, a block's warps side by side along a row and on into the next
// rows, loading across a warp's or row's edge where a plane's arithmetic
// needed it, 0.64; 30 lanes a warp along rows padded by one loading group
// each side and on into the next band of rows, a block's warps one above
// the other as here, 0.81-0.83 under every register cap, with 20 more
// registers a thread (docs/perf/packed-lanes-2026-11-29, calls 1 and 2).
// All 32 lanes committing (the first and last loading the cells beside the
// warp) reached 0.916 at best on rows 528 cells apart, against 0.922 for
// this mapping there (call 6). What held this step back was the rows: 516
// cells apart it reached 0.844, 528 apart (a multiple of 64 bytes) 0.922, so
// 3-D GPU tiles now have rows a multiple of 16 cells where that costs little
// (gpu_tile_ghost, stencil_shape.hpp).
//
// A window policy (VectorPlanePolicy's Window) walks nothing: a thread loads
// all its planes and the planes and rows around them before any arithmetic,
// so it reads (planes + 2) x rows + 2 x planes groups for rows x planes, and
// all its loads are in flight at once. It is the default: on the H200 3 rows
// x 4 planes reached 0.844 of the copy roofline against 0.787 for one plane
// of 2 rows (rows 516 cells apart), and 0.922-0.926 on rows 528 apart, the
// tiles' now (gpu_kernel_probe, docs/PERF.md, 2026-11-29).
//
// Walking one plane: every thread loads its 3 planes at once and L2 serves
// the z-neighbours. Walking z costs device memory its locality: on
// the H100 (gpu_kernel_probe, 512^3 floats, 2026-11-27) a float4 copy with
// these threads reached 0.99 of cudaMemcpy's bandwidth over 1 plane a thread,
// 0.95 over 4, 0.91 over 8, 0.78 over 32 and 0.72 over all 512, and this
// step 0.875 over 1 plane (2 rows a thread) against 0.77-0.82 over 4-16.
// L2 runs at 96% of its peak there (3.3x a copy's sectors read), yet three
// kernels that read less through it lost: planes asked of L2 ahead, a
// block's warps side by side in z trading planes through shared memory,
// and rows traded between a block's warps (0.48-0.87, docs/PERF.md,
// 2026-11-27).
//
// The launch's order. Blocks run along x, then y, then plane groups, so the
// planes two groups share are read again one whole group of the launch later;
// past the L2 they come from DRAM twice. The launch runs bands of rows of
// blocks through all their plane groups instead, bands sized by the L2
// (plane_bands.hpp): jacobi3d 1024^3 0.80 of the roofline in plain order,
// 0.93 in bands of 16 rows of blocks (H100, docs/PERF.md, 2026-12-07).
//
// Boundaries cost what the interior costs. Rows and planes are loaded at
// clamped positions, or replaced by the constant, which are the values the
// scalar kernels read there. In a row past the domain's edge each cell takes
// its inner neighbour's value, so all hold the edge cell's (clamp), or the
// constant. Periodic dimensions need nothing: the ghost zone holds the
// wrapped cells. So no block takes the per-cell path (update_near_boundary),
// which with 120 cells of x a warp would be half of them at 512 cells
// across. An earlier 16-byte 3-D step (docs/PERF.md, 2026-11-27) took that
// path for every block touching the domain's edge and reached 0.30-0.56 of
// the roofline.
#include <cuda_runtime.h>

#include "launch_geometry.hpp"
#include "update_values.cuh"
#include "vector_step_kernel.cuh"
#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S, typename P>
struct VectorPlaneShape {
  using T = typename S::value_type;
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]),
                       rz = static_cast<int>(S::shape.radius[2]);
  static constexpr int committed_groups = 30;  // of a warp's 32 lanes: the first and last only load
  static constexpr int block_groups = P::warps_x * committed_groups;
  static constexpr int block_rows = P::threads_y * P::rows;
  static constexpr bool usable = S::dims == 3 && sizeof(T) == 4 && rx <= 4 && S::shape.kind == ShapeKind::star;
};

template <Stencil S, typename P>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    vector_plane_kernel(S stencil, const typename S::value_type* __restrict__ in, typename S::value_type* __restrict__ out,
                        const typename S::value_type* __restrict__ constants, LaunchGeometry g,
                        typename S::value_type outside, int band) {
  using T = typename S::value_type;
  using Shape = VectorPlaneShape<S, P>;
  constexpr int rx = Shape::rx, ry = Shape::ry, rz = Shape::rz, rows = P::rows;
  constexpr int depth = 2 * rz + 2;  // planes z - rz .. z + rz, and z + rz + 1 in flight
  constexpr int halo = 2 * ry;       // rows loaded for their neighbours only: ry above, ry below
  constexpr int wx = 2 * rx + 1, wy = 2 * ry + 1, wz = 2 * rz + 1, box = wx * wy * wz;
  constexpr int centre = (rz * wy + ry) * wx + rx;
  constexpr int fields = updated_fields_of<S>;
  constexpr unsigned warp = 0xffffffffu;

  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp_x = static_cast<int>(threadIdx.x) >> 5;
  const int group = (g.region_lo[0] >> 2) - 1 +
                    (static_cast<int>(blockIdx.x) * P::warps_x + warp_x) * Shape::committed_groups + lane;
  const int x0 = 4 * group;
  const int groups_in_row = g.padded[0] / 4;
  // Lanes past the buffer's row load its first or last group instead (never committed, never read as a neighbour of a committed cell).
  const int loaded_x = 4 * min(max(group, 0), groups_in_row - 1);
  const bool commits = lane >= 1 && lane <= Shape::committed_groups && x0 < g.region_hi[0] && x0 + 4 > g.region_lo[0];
  // The block's row of blocks and plane group in bands of `band` rows of
  // blocks (launch_vector_plane's grid: x, the band's rows under each plane
  // group, bands). One division a thread, against dozens of cells it updates.
  const int block_y = static_cast<int>(blockIdx.z) * band + static_cast<int>(blockIdx.y) % band;
  const int block_z = static_cast<int>(blockIdx.y) / band;
  const int y0 = g.region_lo[1] + (block_y * P::threads_y + static_cast<int>(threadIdx.y)) * rows;
  if (y0 >= g.region_hi[1]) return;  // the whole warp: its threads share threadIdx.y
  const int z_begin = g.region_lo[2] + block_z * P::planes;
  const int z_end = min(z_begin + P::planes, g.region_hi[2]);
  const long long stride_z = static_cast<long long>(g.padded[0]) * g.padded[1];
  const bool constant_boundary = g.boundary == static_cast<int>(BoundaryKind::constant);

  // Row r (0 .. rows + 2ry - 1) is y0 - ry + r: where its group starts in a
  // plane (a plane's cells fit an int), clamped into the domain, and whether
  // it is the constant instead.
  int row_at[rows + halo];
  bool row_outside[rows + halo];
#pragma unroll
  for (int r = 0; r < rows + halo; ++r) {
    const int y = y0 - ry + r, cy = clamp_to(y, g.inside_lo[1], g.inside_hi[1]);
    row_at[r] = cy * g.padded[0] + loaded_x;
    row_outside[r] = constant_boundary && cy != y;
  }
  // Plane z at its clamped position, and whether it is the constant instead.
  struct Plane {
    const T* cells;
    bool outside;
  };
  auto plane_at = [&](int z) {
    const int cz = clamp_to(z, g.inside_lo[2], g.inside_hi[2]);
    return Plane{in + cz * stride_z, constant_boundary && cz != z};
  };
  auto load = [&](const Plane& p, int r, int f) {
    Quad<T> q = *reinterpret_cast<const Quad<T>*>(p.cells + f * g.padded_cells + row_at[r]);
    const bool constant = p.outside || row_outside[r];
#pragma unroll
    for (int c = 0; c < 4; ++c) q.v[c] = constant ? outside : q.v[c];
    return q;
  };

  // Walking: column[f][j][q] is row j's group in plane z - rz + q (z the
  // plane being updated), around[f][0][h] the rows above (h < ry) and below
  // this plane's own, around[f][1] the next plane's. A window: column[f][j][q]
  // is row j's group in plane z_begin - rz + q, around[f][i] plane
  // z_begin + i's rows around, all loaded before any arithmetic.
  constexpr bool at_once = P::window;
  constexpr int held = at_once ? P::planes + 2 * rz : depth, around_planes = at_once ? P::planes : 2;
  Quad<T> column[fields][rows][held];
  Quad<T> around[fields][around_planes][halo > 0 ? halo : 1];
  auto around_row = [](int h) { return h < ry ? h : rows + h; };
#pragma unroll
  for (int q = 0; q < (at_once ? held : depth - 1); ++q) {
    const Plane p = plane_at(z_begin - rz + q);
#pragma unroll
    for (int f = 0; f < fields; ++f) {
#pragma unroll
      for (int j = 0; j < rows; ++j) column[f][j][q] = load(p, ry + j, f);
    }
  }
#pragma unroll
  for (int i = 0; i < (at_once ? P::planes : 1); ++i) {
    const Plane p = plane_at(z_begin + i);
#pragma unroll
    for (int f = 0; f < fields; ++f) {
#pragma unroll
      for (int h = 0; h < halo; ++h) around[f][i][h] = load(p, around_row(h), f);
    }
  }

  // Cells whose x-neighbours leave the domain (warp-divergent in a warp at its edge only).
  const bool x_edge = x0 - rx < g.inside_lo[0] || x0 + 3 + rx >= g.inside_hi[0];
  const long long step = g.first_step;
  const T* constant_plane = constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
  // Unrolled over the block's planes: the queue's moves become renamings.
#pragma unroll
  for (int i = 0; i < P::planes; ++i) {
    const int z = z_begin + i;
    if (z >= z_end) break;
    if (!at_once && z + 1 < z_end) {
      const Plane ahead = plane_at(z + rz + 1), next = plane_at(z + 1);
#pragma unroll
      for (int f = 0; f < fields; ++f) {
#pragma unroll
        for (int j = 0; j < rows; ++j) column[f][j][depth - 1] = load(ahead, ry + j, f);
#pragma unroll
        for (int h = 0; h < halo; ++h) around[f][1][h] = load(next, around_row(h), f);
      }
    }
    // This plane's place in column (its centre at here + rz) and in around.
    const int here = at_once ? i : 0;
    UpdateValues<S> values[rows][4];
#pragma unroll
    for (int j = 0; j < rows; ++j) {
      Quad<T> before[fields], after[fields];
#pragma unroll
      for (int f = 0; f < fields; ++f) {
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          before[f].v[c] = __shfl_up_sync(warp, column[f][j][here + rz].v[c], 1);
          after[f].v[c] = __shfl_down_sync(warp, column[f][j][here + rz].v[c], 1);
        }
      }
      // The cells at x0 - 4 .. x0 + 7 of this row and plane; past the
      // domain's left edge each takes the value of the cell to its right, so
      // all hold the one at inside_lo (clamp), or the constant, and the same
      // from the right edge.
      T row[fields][12];
#pragma unroll
      for (int f = 0; f < fields; ++f) {
#pragma unroll
        for (int c = 0; c < 4; ++c) row[f][c] = before[f].v[c], row[f][4 + c] = column[f][j][here + rz].v[c], row[f][8 + c] = after[f].v[c];
      }
      if (x_edge) {
#pragma unroll
        for (int f = 0; f < fields; ++f) {
#pragma unroll
          for (int p = 2; p >= -4; --p) {
            if (x0 + p < g.inside_lo[0]) row[f][p + 4] = constant_boundary ? outside : row[f][p + 5];
          }
#pragma unroll
          for (int p = 1; p <= 7; ++p) {
            if (x0 + p >= g.inside_hi[0]) row[f][p + 4] = constant_boundary ? outside : row[f][p + 3];
          }
        }
      }
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if (!commits || y0 + j >= g.region_hi[1]) continue;
        T window[fields * box];
#pragma unroll
        for (int f = 0; f < fields; ++f) {
#pragma unroll
          for (int b = 0; b < box; ++b) window[f * box + b] = T{};  // a star reads no diagonal neighbour
#pragma unroll
          for (int dz = -rz; dz <= rz; ++dz) window[f * box + ((dz + rz) * wy + ry) * wx + rx] = column[f][j][here + rz + dz].v[c];
#pragma unroll
          for (int dy = -ry; dy <= ry; ++dy) {
            if (dy == 0) continue;
            const int r = j + dy;
            window[f * box + (rz * wy + dy + ry) * wx + rx] =
                r < 0 ? around[f][here][ry + r].v[c]
                      : r >= rows ? around[f][here][r - rows + ry].v[c] : column[f][r][here + rz].v[c];
          }
#pragma unroll
          for (int dx = -rx; dx <= rx; ++dx) {
            if (dx != 0) window[f * box + (rz * wy + ry) * wx + dx + rx] = row[f][c + dx + 4];
          }
        }
        const long long at = z * stride_z + (y0 + j) * static_cast<long long>(g.padded[0]) + x0 + c;
        const Neighbourhood<T> n{window + centre, wx, wx * wy, box, constant_plane ? constant_plane + at : nullptr,
                                 g.constant_field_stride, step, g.padded[0], stride_z};
        values[j][c] = update_values(stencil, n);
      }
    }
    if (commits) {
      T* const out_plane = out + z * stride_z;
#pragma unroll
      for (int j = 0; j < rows; ++j) {
        if (y0 + j >= g.region_hi[1]) break;
#pragma unroll
        for (int f = 0; f < fields; ++f) store_group<S>(out_plane + f * g.padded_cells + (y0 + j) * g.padded[0], x0, g, values[j], f);
      }
    }
    if constexpr (!at_once) {
#pragma unroll
      for (int f = 0; f < fields; ++f) {
#pragma unroll
        for (int j = 0; j < rows; ++j) {
#pragma unroll
          for (int q = 0; q < depth - 1; ++q) column[f][j][q] = column[f][j][q + 1];
        }
#pragma unroll
        for (int h = 0; h < halo; ++h) around[f][0][h] = around[f][1][h];
      }
    }
  }
}

}  // namespace trapeze::cuda
