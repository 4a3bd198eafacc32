#pragma once
// Layouts of an array in memory (seed 001, the DVMH run-time's array
// reorganisation): a 2-D array of rows x columns stored row-major, column-major
// (transposed), or diagonal-major, anti-diagonal by anti-diagonal (cells with
// equal i + j together, the order a wavefront computes them in) or diagonal by
// diagonal (equal j - i: parallel to the main diagonal); within a diagonal,
// by increasing row. And 3-D arrays whose dimensions are permuted (any two
// exchanged, adjacent or not). The index maps here are the definition; the
// CPU conversions below are the reference the GPU kernels
// (codelets/cuda/layout_kernels.cuh) must equal bit for bit.
#include <algorithm>
#include <array>

#include "trapeze/geometry.hpp"
#include "trapeze/neighbourhood.hpp"  // TRAPEZE_HOST_DEVICE

namespace trapeze {

enum class Layout2D {
  row_major,      // (i, j) at i * columns + j
  column_major,   // at j * rows + i: the transpose
  anti_diagonal,  // by i + j, then i: parallel to the secondary diagonal
  diagonal,       // by j - i, from columns - 1 down (the column-mirrored array's
                  // anti-diagonals), then i: parallel to the main diagonal
};

// Cells of the anti-diagonals 0 .. d - 1 of a rows x columns array (d <= rows + columns - 1).
TRAPEZE_HOST_DEVICE inline Index anti_diagonal_start(Index d, Index rows, Index columns) {
  const Index shorter = rows < columns ? rows : columns, longer = rows < columns ? columns : rows;
  if (d <= shorter) return d * (d + 1) / 2;
  if (d <= longer) return shorter * (shorter + 1) / 2 + (d - shorter) * shorter;
  const Index tail = rows + columns - 1 - d;  // the diagonals left have tail, tail - 1, ..., 1 cells
  return rows * columns - tail * (tail + 1) / 2;
}

// The first row on anti-diagonal d.
TRAPEZE_HOST_DEVICE inline Index anti_diagonal_first_row(Index d, Index columns) {
  return d - columns + 1 > 0 ? d - columns + 1 : 0;
}

// Where (i, j) of a rows x columns array lies in `layout`.
TRAPEZE_HOST_DEVICE inline Index layout_index(Layout2D layout, Index i, Index j, Index rows, Index columns) {
  switch (layout) {
    case Layout2D::row_major: return i * columns + j;
    case Layout2D::column_major: return j * rows + i;
    case Layout2D::diagonal: j = columns - 1 - j; [[fallthrough]];  // the mirror's anti-diagonals
    case Layout2D::anti_diagonal: {
      const Index d = i + j;
      return anti_diagonal_start(d, rows, columns) + (i - anti_diagonal_first_row(d, columns));
    }
  }
  return 0;
}

// Copies a rows x columns array from one layout into another (CPU reference).
template <typename T>
void convert_layout(const T* in, Layout2D from, T* out, Layout2D to, Index rows, Index columns) {
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < columns; ++j) out[layout_index(to, i, j, rows, columns)] = in[layout_index(from, i, j, rows, columns)];
  }
}

// A 3-D array of extent {x, y, z} (x fastest) with dimensions a and b
// exchanged: cell (x, y, z) goes where the permuted array, of the permuted
// extent, keeps it (CPU reference).
inline Extent swapped_extent(const Extent& e, int a, int b) {
  Extent s = e;
  std::swap(s[a], s[b]);
  return s;
}

template <typename T>
void swap_dimensions(const T* in, T* out, const Extent& extent, int a, int b) {
  const Extent to = swapped_extent(extent, a, b);
  for (Index z = 0; z < extent[2]; ++z) {
    for (Index y = 0; y < extent[1]; ++y) {
      for (Index x = 0; x < extent[0]; ++x) {
        std::array<Index, 3> c{x, y, z};
        std::swap(c[a], c[b]);
        out[(c[2] * to[1] + c[1]) * to[0] + c[0]] = in[(z * extent[1] + y) * extent[0] + x];
      }
    }
  }
}

}  // namespace trapeze
