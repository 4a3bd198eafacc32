#pragma once
// One time step of a stencil over a box of a tile's padded buffer, in place, on
// a CPU core. A step must read old values while it writes new ones, so the box
// is cut along its slowest dimension into chunks of `chunk_thickness` slices:
// chunk i is computed into a small chunk buffer (it stays in the core's L2),
// and written back over the tile once chunk i+1 is computed, since chunk i+1 is
// the last to read chunk i's old values (chunks are at least the radius thick).
// Memory traffic is that of a sweep between two buffers (the tile read once and
// written once), and the host keeps one padded buffer per tile instead of two.
//
// The innermost loop is over x with unit stride, so it vectorises once the
// update function is inlined.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "trapeze/stencil.hpp"
#include "trapeze/tile_layout.hpp"

namespace trapeze {

namespace detail {

// Rows a sweep prefetches ahead of the farthest row its updates read. A 2-D
// or 3-D sweep reads several rows at once (r above, r below, and in 3-D the
// slices around); on the development VM's cores (AMD EPYC) the hardware
// prefetcher fell behind those streams, most of all in place: one core swept
// jacobi2d 4096^2 in place at 2.54 G cells/s and between two buffers at 3.50
// (benchmarks/in_place_patterns), and with one software prefetch per cache
// line of the row 4 rows beyond the farthest read, in place at 4.58
// (docs/PERF.md, 2026-11-26). 1-D sweeps are one stream, which the hardware
// follows.
inline constexpr Index prefetch_rows_ahead = 4;

template <typename T>
void prefetch_for_reading(const T* base, Index elements_ahead) {
  // Integer arithmetic: the address may lie past the buffer (a prefetch never faults).
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(base) +
                                                    static_cast<std::uintptr_t>(elements_ahead) * sizeof(T)),
                     0, 3);
}

// Cells [x0, x1) of one row: a function of its own with restrict pointers, so
// the update vectorises across cells.
template <Stencil S>
inline void update_row(const S& stencil, const typename S::value_type* __restrict in_row,
                       typename S::value_type* __restrict out_row, const typename S::value_type* constant_row, Index x0,
                       Index x1, const Strides& s, Index field_stride, Index out_field_stride, Index constant_field_stride,
                       Index step) {
  using T = typename S::value_type;
  for (Index x = x0; x < x1; ++x) {
    const Neighbourhood<T> at{in_row + x,   s.y,  s.z, field_stride, constant_row ? constant_row + x : nullptr,
                              constant_field_stride, step, s.y, s.z};
    apply_update(stencil, at, out_row + x, out_field_stride);
  }
}

// New values of `part` into `out`, whose cell for padded offset o is out[o - shift].
template <Stencil S>
void sweep_into(const S& stencil, const typename S::value_type* __restrict in, typename S::value_type* __restrict out,
                Index shift, Index out_field_stride, const typename S::value_type* constants,
                Index constant_field_stride, const Extent& padded, const Box& part, Index step) {
  using T = typename S::value_type;
  const Strides s = Strides::of(padded);
  const Index field_stride = cell_count(padded);
  // Elements from a cell to what is prefetched for it: the farthest row read
  // (the last row of the farthest slice), prefetch_rows_ahead rows on.
  constexpr int d = S::dims - 1;
  const Index ahead = d == 0 ? 0
                      : d == 1 ? (S::shape.radius[1] + prefetch_rows_ahead) * s.y
                               : S::shape.radius[2] * s.z + prefetch_rows_ahead * s.y;
  constexpr Index line = std::max<Index>(1, Index{64} / static_cast<Index>(sizeof(T)));
  constexpr Index block = std::max<Index>(line, Index{256} / static_cast<Index>(sizeof(T)));
  for (Index z = part.lo[2]; z < part.hi[2]; ++z) {
    for (Index y = part.lo[1]; y < part.hi[1]; ++y) {
      const Index row = s.offset(0, y, z);
      const T* in_row = in + row;
      T* out_row = out + (row - shift);
      const T* constant_row = constants ? constants + row : nullptr;
      if constexpr (d == 0) {
        update_row(stencil, in_row, out_row, constant_row, part.lo[0], part.hi[0], s, field_stride, out_field_stride,
                   constant_field_stride, step);
      } else {
        // 256 bytes at a time, after a prefetch of each of their lines ahead in every field read.
        for (Index x0 = part.lo[0]; x0 < part.hi[0]; x0 += block) {
          for (Index l = 0; l < block; l += line) {
            for (int f = 0; f < updated_fields_of<S>; ++f) prefetch_for_reading(in_row + f * field_stride, x0 + l + ahead);
            if (constant_row) {
              for (int c = 0; c < constant_fields_of<S>; ++c) {
                prefetch_for_reading(constant_row + c * constant_field_stride, x0 + l + ahead);
              }
            }
          }
          update_row(stencil, in_row, out_row, constant_row, x0, std::min(x0 + block, part.hi[0]), s, field_stride,
                     out_field_stride, constant_field_stride, step);
        }
      }
    }
  }
}

template <typename T>
void write_back(T* buffer, const T* chunk, Index shift, Index chunk_field_stride, const Extent& padded,
                const Box& part, int fields) {
  const Strides s = Strides::of(padded);
  const Index field_stride = cell_count(padded);
  const std::size_t row_bytes = static_cast<std::size_t>(part.hi[0] - part.lo[0]) * sizeof(T);
  for (int f = 0; f < fields; ++f) {
    for (Index z = part.lo[2]; z < part.hi[2]; ++z) {
      for (Index y = part.lo[1]; y < part.hi[1]; ++y) {
        const Index at = s.offset(part.lo[0], y, z);
        std::memcpy(buffer + f * field_stride + at, chunk + f * chunk_field_stride + (at - shift), row_bytes);
      }
    }
  }
}

}  // namespace detail

// `chunks` holds layout.chunk_cells() elements; `constants` is the step's
// constant plane (or null), constant fields `constant_field_stride` apart.
template <Stencil S>
void sweep_in_place(const S& stencil, typename S::value_type* buffer, const typename S::value_type* constants,
                    Index constant_field_stride, const TileLayout& layout, const Box& region, Index step,
                    typename S::value_type* chunks) {
  if (region.empty()) return;
  const int d = layout.dims - 1;
  Index slice = 1;
  for (int e = 0; e < d; ++e) slice *= layout.padded[e];
  const Index thickness = layout.chunk_thickness;
  const Index chunk_field_stride = thickness * slice;
  typename S::value_type* chunk[2] = {chunks, chunks + chunk_field_stride * layout.updated_fields};
  Box previous{};
  int which = 0;
  for (Index a = region.lo[d]; a < region.hi[d]; a += thickness) {
    Box part = region;
    part.lo[d] = a;
    part.hi[d] = std::min(a + thickness, region.hi[d]);
    detail::sweep_into(stencil, buffer, chunk[which], a * slice, chunk_field_stride, constants, constant_field_stride,
                       layout.padded, part, step);
    if (a > region.lo[d]) {
      detail::write_back(buffer, chunk[1 - which], previous.lo[d] * slice, chunk_field_stride, layout.padded, previous,
                         layout.updated_fields);
    }
    previous = part;
    which = 1 - which;
  }
  detail::write_back(buffer, chunk[1 - which], previous.lo[d] * slice, chunk_field_stride, layout.padded, previous,
                     layout.updated_fields);
}

}  // namespace trapeze
