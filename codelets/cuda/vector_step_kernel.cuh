#pragma once
// The 2-D single step in 16-byte loads and stores, for 4-byte cells on rows
// whose pitch is a multiple of 4 cells. What decides a single step's speed is
// how many bytes each thread has in flight: on the H100 (gpu_kernel_probe,
// 16384^2 floats, 2026-11-27) a copy kernel moving one float a thread reached
// 0.80 of cudaMemcpy's bandwidth and one moving a float4 a thread 1.00; the
// scalar single step (single_step_kernel.cuh) 0.87, and jacobi2d by hand in
// float4s 0.99.
//
// A thread owns a group of 4 cells that starts at a multiple of 4 in the
// buffer, in `rows` rows one above the other. With the pitch a multiple of 4
// the groups of all rows line up, so the rows above and below are whole
// 16-byte loads the thread's cells share. A group may hold cells outside the
// launch's region (the ghost zone's, or another thread's region edge): they
// are loaded, never stored. Neighbours across a group's left and right edges
// come from the neighbouring lanes' registers (shuffles); the warp's first and
// last lanes load them. Blocks whose box reaches past the domain's edge take
// each cell's neighbourhood at clamped positions (update_near_boundary), as the
// scalar kernel does, so both give the same values bit for bit.
#include <cuda_runtime.h>

#include <cstdint>

#include "launch_geometry.hpp"
#include "single_step_kernel.cuh"
#include "update_values.cuh"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

// Rows: rows of groups a thread updates. A thread loads its rows and the
// rows beside them, so more rows read less through L2, but hold more
// registers. gpu_kernel_probe, 16384^2 floats, fractions of the copy
// bandwidth: on the H100 (2026-11-27) jacobi2d with 2 rows 0.99, with 1 row
// 0.94. On the H200, whose L2 is the H100's and whose DRAM is 1.4x faster
// (docs/PERF.md, 2026-11-29): jacobi2d with 4 rows 0.924, 2 rows 0.878, 1 row
// 0.793, 8 rows 0.660; HotSpot, whose power map is one more row a row read,
// with 2 rows 0.936 and 4 rows 0.876. So 4 for a radius-1 stencil of one field
// and no constant fields, 2 for the rest (wider or multi-field stencils hold
// still more a row; not measured). The probe instantiates others.
template <Stencil S>
inline constexpr int default_vector_step_rows =
    S::shape.radius[1] <= 1 && updated_fields_of<S> == 1 && constant_fields_of<S> == 0 ? 4 : 2;

template <Stencil S, int Rows = default_vector_step_rows<S>>
struct VectorStepShape {
  using T = typename S::value_type;
  static constexpr int rx = static_cast<int>(S::shape.radius[0]), ry = static_cast<int>(S::shape.radius[1]);
  static constexpr int rows = Rows;
  static constexpr int threads = 128;
  static constexpr int loaded = rows + 2 * ry;
  static constexpr int wx = 2 * rx + 1, wy = 2 * ry + 1, box = wx * wy;
  // x-neighbours within one group to each side; star stencils read them in their own row only.
  static constexpr bool usable = S::dims == 2 && sizeof(T) == 4 && rx <= 4;
  static constexpr bool star = S::shape.kind == ShapeKind::star;
};

template <typename T>
struct alignas(16) Quad {
  T v[4];
};

// A group of 4 cells starting at x0 into its row, the cells in [lo, hi)
// only: one 16-byte store where the whole group lies there.
template <typename T>
__device__ inline void store_quad(T* row, int x0, int lo, int hi, const Quad<T>& q) {
  if (x0 >= lo && x0 + 4 <= hi) {
    *reinterpret_cast<Quad<T>*>(row + x0) = q;
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (x0 + c >= lo && x0 + c < hi) row[x0 + c] = q.v[c];
    }
  }
}

// Field f of a group's 4 values into its row, the cells in the launch's region.
template <Stencil S>
__device__ inline void store_group(typename S::value_type* row, int x0, const LaunchGeometry& g,
                                   const UpdateValues<S> (&values)[4], int f) {
  Quad<typename S::value_type> q;
#pragma unroll
  for (int c = 0; c < 4; ++c) q.v[c] = values[c][f];
  store_quad(row, x0, g.region_lo[0], g.region_hi[0], q);
}

// Whether the launch's buffers allow 16-byte accesses: rows a multiple of 4
// cells apart (so fields, planes and buffers too) and 16-byte aligned pointers
// (the read-only fields' too, where the kernel loads them 16 bytes at a time).
template <typename T>
bool vector_step_fits(const LaunchGeometry& g, const T* in, const T* out, const T* constants = nullptr) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return g.padded[0] % 4 == 0 && aligned(in) && aligned(out) && aligned(constants);
}

template <Stencil S, int Rows = default_vector_step_rows<S>>
__global__ void __launch_bounds__(VectorStepShape<S, Rows>::threads)
    vector_step_kernel(S stencil, const typename S::value_type* __restrict__ in, typename S::value_type* __restrict__ out,
                       const typename S::value_type* __restrict__ constants, LaunchGeometry g,
                       typename S::value_type outside) {
  using T = typename S::value_type;
  using Shape = VectorStepShape<S, Rows>;
  constexpr int rx = Shape::rx, ry = Shape::ry, rows = Shape::rows, loaded = Shape::loaded;
  constexpr int wx = Shape::wx, box = Shape::box, centre = ry * wx + rx;
  constexpr int fields = updated_fields_of<S>;
  constexpr unsigned warp = 0xffffffffu;

  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int block_group = (g.region_lo[0] >> 2) + static_cast<int>(blockIdx.x) * Shape::threads;
  const int group = block_group + static_cast<int>(threadIdx.x);
  const int x0 = 4 * group;
  const int groups_in_row = g.padded[0] / 4;
  const bool active = x0 < g.region_hi[0];  // the group holds a cell of the region
  const int y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * rows;
  const int y_end = min(y0 + rows, g.region_hi[1]);
  const long long stride_y = g.padded[0];
  const long long step = g.first_step;
  const T* plane = constants ? constants + (g.constant_planes > 1 ? step : 0) * g.padded_cells : nullptr;
  auto in_region = [&](int x) { return x >= g.region_lo[0] && x < g.region_hi[0]; };

  // Block-uniform: the box's cells and their neighbourhoods all inside the domain.
  const int box_x_lo = max(4 * block_group, g.region_lo[0]);
  const int box_x_hi = min(4 * (block_group + Shape::threads), g.region_hi[0]);
  const bool box_inside = box_x_lo - rx >= g.inside_lo[0] && box_x_hi + rx <= g.inside_hi[0] &&
                          y0 - ry >= g.inside_lo[1] && y_end + ry <= g.inside_hi[1];
  if (!box_inside) {
    if (!active) return;
#pragma unroll
    for (int j = 0; j < rows; ++j) {
      const int y = y0 + j;
      if (y >= y_end) break;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int x = x0 + c;
        if (!in_region(x)) continue;
        const UpdateValues<S> values = update_near_boundary(stencil, in, plane, g, x, y, 0, step, outside);
#pragma unroll
        for (int f = 0; f < fields; ++f) out[f * g.padded_cells + y * stride_y + x] = values[f];
      }
    }
    return;
  }

  // Rows y0 - ry .. y_end - 1 + ry lie in the domain, so in the buffer; every
  // lane loads its group where the row has one (inactive lanes too: their
  // cells are their neighbours' right-hand neighbours).
  Quad<T> own[fields][loaded], before[fields][loaded], after[fields][loaded];
#pragma unroll
  for (int r = 0; r < loaded; ++r) {
    const int y = y0 - ry + r;
    const bool row_read = y < y_end + ry;
#pragma unroll
    for (int f = 0; f < fields; ++f) {
      const T* row = in + f * g.padded_cells + y * stride_y;
      own[f][r] = row_read && group < groups_in_row ? *reinterpret_cast<const Quad<T>*>(row + x0) : Quad<T>{};
      // Only rows whose x-neighbours the stencil reads: its own rows for a star.
      if (Shape::star && (r < ry || r >= ry + rows)) continue;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        before[f][r].v[c] = __shfl_up_sync(warp, own[f][r].v[c], 1);
        after[f][r].v[c] = __shfl_down_sync(warp, own[f][r].v[c], 1);
      }
      if (lane == 0 && row_read && group >= 1) before[f][r] = *reinterpret_cast<const Quad<T>*>(row + x0 - 4);
      if (lane == 31 && row_read && group + 1 < groups_in_row) after[f][r] = *reinterpret_cast<const Quad<T>*>(row + x0 + 4);
    }
  }

  UpdateValues<S> values[rows][4];
#pragma unroll
  for (int j = 0; j < rows; ++j) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const int x = x0 + c, y = y0 + j;
      if (!active || y >= y_end || !in_region(x)) continue;
      // The neighbourhood as a small local box (registers once inlined).
      T window[fields * box];
#pragma unroll
      for (int f = 0; f < fields; ++f) {
#pragma unroll
        for (int dy = -ry; dy <= ry; ++dy) {
#pragma unroll
          for (int dx = -rx; dx <= rx; ++dx) {
            const int r = j + ry + dy, p = c + dx;
            const bool read = !Shape::star || dx == 0 || dy == 0;  // a star's corners are never read
            window[f * box + (dy + ry) * wx + dx + rx] =
                !read ? T{} : p < 0 ? before[f][r].v[p + 4] : p >= 4 ? after[f][r].v[p - 4] : own[f][r].v[p];
          }
        }
      }
      const long long at = y * stride_y + x;
      const Neighbourhood<T> n{window + centre, wx, box, box, plane ? plane + at : nullptr,
                               g.constant_field_stride, step, stride_y, stride_y * g.padded[1]};
      values[j][c] = update_values(stencil, n);
    }
  }
#pragma unroll
  for (int j = 0; j < rows; ++j) {
    const int y = y0 + j;
    if (!active || y >= y_end) continue;
#pragma unroll
    for (int f = 0; f < fields; ++f) store_group<S>(out + f * g.padded_cells + y * stride_y, x0, g, values[j], f);
  }
}

}  // namespace trapeze::cuda
