#pragma once
// Layout conversions on the GPU (seed 001: the DVMH run-time transposes and
// diagonalises arrays on the device "as fast as matrix transposition", at
// 75-90% of a copy), equal bit for bit to trapeze/layout.hpp's CPU reference.
//
// Transposition of two dimensions goes through a shared-memory tile, read
// along the input's fastest dimension and written along the output's, so both
// sides are whole cache lines; a batch dimension with strides of its own
// covers 3-D arrays, whether the exchanged dimensions are adjacent (x, y) or
// not (x, z). Exchanging the two slow dimensions (y, z) moves whole rows.
//
// Diagonalisation uses parallelogram tiles (the seed's figure): a block takes
// `tile_rows` consecutive rows and, of each, the cells of `tile_diagonals`
// consecutive anti-diagonals, so every row it reads is one contiguous run and
// every diagonal it writes is one contiguous run of the diagonal-major array.
// The main-diagonal layout is the anti-diagonal layout of the column-mirrored
// array: its rows are read right to left, still whole lines. The inverse
// conversions swap which side is read and which written.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "cuda_check.cuh"
#include "trapeze/layout.hpp"

namespace trapeze::cuda {

inline constexpr int layout_tile = 32;        // a transposition tile: 32 x 32 elements
inline constexpr int layout_block_rows = 8;   // its threads: 32 x 8, four elements each
// Diagonalisation tiles, rows x diagonals: towards the diagonal layout the
// writes are runs along diagonals (as long as the tile's rows), back they are
// runs along rows (as long as its diagonals). Measured on an H100
// (docs/PERF.md, 16384^2 floats): 64 x 128 tiles took diagonal -> row-major
// from 0.79 to 0.89 of the copy; row-major -> diagonal stayed at 0.67-0.77
// whatever the tile until blocks running together took the same diagonals
// in successive rows (diagonal order, the written side streamed): 0.91.
inline constexpr int to_diagonal_tile_rows = 128, to_diagonal_tile_diagonals = 64;
inline constexpr int from_diagonal_tile_rows = 64, from_diagonal_tile_diagonals = 128;

// out[b][c][r] = in[b][r][c] for r < rows, c < columns, b < batches, with
// element strides of each side's rows and batches (columns are contiguous in
// `in`, rows in `out`). BatchFastest: the batch is blockIdx.x, so blocks that
// run at once take neighbouring batches; else blockIdx.z (see launch_transpose).
template <typename T, bool BatchFastest>
__global__ void __launch_bounds__(layout_tile * layout_block_rows)
    transpose_tiles_kernel(const T* __restrict__ in, T* __restrict__ out, Index rows, Index columns, Index in_row_stride,
                           Index in_batch_stride, Index out_row_stride, Index out_batch_stride) {
  __shared__ T tile[layout_tile][layout_tile + 1];  // + 1: a column of the tile spans every bank
  const unsigned tile_c = BatchFastest ? blockIdx.y : blockIdx.x, tile_r = BatchFastest ? blockIdx.z : blockIdx.y;
  const Index b = BatchFastest ? blockIdx.x : blockIdx.z;
  const Index r0 = static_cast<Index>(tile_r) * layout_tile, c0 = static_cast<Index>(tile_c) * layout_tile;
  const T* src = in + b * in_batch_stride;
  T* dst = out + b * out_batch_stride;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
#pragma unroll
  for (int k = ty; k < layout_tile; k += layout_block_rows) {
    const Index r = r0 + k, c = c0 + tx;
    if (r < rows && c < columns) tile[k][tx] = src[r * in_row_stride + c];
  }
  __syncthreads();
#pragma unroll
  for (int k = ty; k < layout_tile; k += layout_block_rows) {
    const Index c = c0 + k, r = r0 + tx;
    if (r < rows && c < columns) dst[c * out_row_stride + r] = tile[tx][k];
  }
}

// The y and z dimensions exchanged: row (y, z) of x cells goes to row (z, y)
// of the output. A warp copies a row, a block eight consecutive rows of one
// z (contiguous on the read side), in 16-byte words when a row is a whole
// number of them (W = uint4), else cell by cell (W = T).
template <typename W>
__global__ void __launch_bounds__(256)
    swap_slow_dimensions_kernel(const W* __restrict__ in, W* __restrict__ out, Index words, Index ny, Index nz) {
  const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
  for (Index z = blockIdx.y; z < nz; z += gridDim.y) {
    const Index y = static_cast<Index>(blockIdx.x) * 8 + warp;
    if (y >= ny) continue;
    const W* src = in + (z * ny + y) * words;
    W* dst = out + (y * nz + z) * words;
    for (Index x = lane; x < words; x += 32) dst[x] = src[x];
  }
}

// Row-major <-> diagonal-major (anti-diagonal, or with `mirror` the main
// diagonal's direction) through a parallelogram tile: rows i0 .. i0 +
// TileRows - 1, anti-diagonals d0 .. d0 + TileDiagonals - 1 of the (mirrored)
// array: the side written gets the longer runs (a run's partly written
// sectors at its ends cost the memory a read besides the write). Each
// thread issues all of its reads before it stores any (they are in flight
// together), and a diagonal's place in the diagonal-major array is worked
// out once per diagonal, not per cell.
//
// DiagonalOrder: blocks that run at once take the same diagonals in
// successive rows (blockIdx.x is the row block, blockIdx.y the diagonal
// group u = i0 / D + tile; blocks outside the array return at once), so the
// diagonal-major side is streamed; otherwise they take successive diagonals
// of the same rows, and the row-major side is streamed.
template <typename T, bool ToDiagonal, int TileRows, int TileDiagonals, bool DiagonalOrder = false>
__global__ void __launch_bounds__(layout_tile * layout_block_rows)
    diagonal_tiles_kernel(const T* __restrict__ in, T* __restrict__ out, Index rows, Index columns, bool mirror) {
  constexpr int R = TileRows, D = TileDiagonals;
  constexpr int row_passes = R / layout_block_rows, diagonal_passes = D / layout_block_rows;
  constexpr int lanes_per_row = D / layout_tile, lanes_per_diagonal = R / layout_tile;
  extern __shared__ __align__(16) unsigned char diagonal_tile_bytes[];  // diagonal_tile_bytes<T, R, D>()
  T(*tile)[D + 1] = reinterpret_cast<T(*)[D + 1]>(diagonal_tile_bytes);
  const Index i0 = static_cast<Index>(DiagonalOrder ? blockIdx.x : blockIdx.y) * R;
  const Index d0 = DiagonalOrder ? static_cast<Index>(blockIdx.y) * D : i0 + static_cast<Index>(blockIdx.x) * D;
  if (DiagonalOrder && (d0 < i0 || d0 >= i0 + R - 1 + columns)) return;  // the tile meets no cell
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  // The row-major side: row i0 + r, cells of diagonals d0 + c (j = d - i).
  auto row_major = [&](int r, int c, Index& at) {
    const Index i = i0 + r, j = d0 + c - i;
    at = i * columns + (mirror ? columns - 1 - j : j);
    return i < rows && j >= 0 && j < columns;
  };
  // The diagonal side: diagonal d0 + c's first cell of row i0 is at base(c) + i0.
  auto diagonal_base = [&](int c) {
    const Index d = d0 + c;
    return anti_diagonal_start(d, rows, columns) - anti_diagonal_first_row(d, columns);
  };
  auto on_diagonal = [&](int c, int r) {
    const Index i = i0 + r, j = d0 + c - i;
    return i < rows && j >= 0 && j < columns;
  };
  if constexpr (ToDiagonal) {
    T v[row_passes][lanes_per_row] = {};
#pragma unroll
    for (int k = 0; k < row_passes; ++k) {
#pragma unroll
      for (int q = 0; q < lanes_per_row; ++q) {
        Index at = 0;
        if (row_major(ty + k * layout_block_rows, tx + q * layout_tile, at)) v[k][q] = in[at];
      }
    }
#pragma unroll
    for (int k = 0; k < row_passes; ++k) {
#pragma unroll
      for (int q = 0; q < lanes_per_row; ++q) tile[ty + k * layout_block_rows][tx + q * layout_tile] = v[k][q];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < diagonal_passes; ++k) {
      const int c = ty + k * layout_block_rows;
      const Index base = diagonal_base(c) + i0;
#pragma unroll
      for (int q = 0; q < lanes_per_diagonal; ++q) {
        const int r = tx + q * layout_tile;
        if (on_diagonal(c, r)) out[base + r] = tile[r][c];
      }
    }
  } else {
    T v[diagonal_passes][lanes_per_diagonal] = {};
#pragma unroll
    for (int k = 0; k < diagonal_passes; ++k) {
      const int c = ty + k * layout_block_rows;
      const Index base = diagonal_base(c) + i0;
#pragma unroll
      for (int q = 0; q < lanes_per_diagonal; ++q) {
        const int r = tx + q * layout_tile;
        if (on_diagonal(c, r)) v[k][q] = in[base + r];
      }
    }
#pragma unroll
    for (int k = 0; k < diagonal_passes; ++k) {
#pragma unroll
      for (int q = 0; q < lanes_per_diagonal; ++q) tile[tx + q * layout_tile][ty + k * layout_block_rows] = v[k][q];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < row_passes; ++k) {
#pragma unroll
      for (int q = 0; q < lanes_per_row; ++q) {
        const int r = ty + k * layout_block_rows, c = tx + q * layout_tile;
        Index at = 0;
        if (row_major(r, c, at)) out[at] = tile[r][c];
      }
    }
  }
}

namespace detail {

inline unsigned blocks_of(Index cells, Index per_block) { return static_cast<unsigned>((cells + per_block - 1) / per_block); }

// A batched transpose launch (see transpose_tiles_kernel). When a batch is
// nearer in memory than a row (x and z of a 3-D array exchanged: the batch
// is y), blocks that run together take neighbouring batches, so they read
// neighbouring memory: with the batch slowest they read rows megabytes apart
// (0.78 of the copy bandwidth against 0.93 for x and y on an H100).
template <typename T>
void launch_transpose(const T* in, T* out, Index rows, Index columns, Index batches, Index in_row_stride,
                      Index in_batch_stride, Index out_row_stride, Index out_batch_stride, cudaStream_t stream) {
  if (rows <= 0 || columns <= 0 || batches <= 0) return;
  const dim3 threads(layout_tile, layout_block_rows);
  if (batches > 1 && in_batch_stride < in_row_stride) {
    const dim3 blocks(static_cast<unsigned>(batches), blocks_of(columns, layout_tile), blocks_of(rows, layout_tile));
    transpose_tiles_kernel<T, true><<<blocks, threads, 0, stream>>>(in, out, rows, columns, in_row_stride, in_batch_stride,
                                                                    out_row_stride, out_batch_stride);
    TRAPEZE_CUDA_CHECK_LAUNCH("transpose_tiles_kernel");
    return;
  }
  for (Index b = 0; b < batches; b += 65535) {
    const Index count = batches - b < 65535 ? batches - b : 65535;
    const dim3 blocks(blocks_of(columns, layout_tile), blocks_of(rows, layout_tile), static_cast<unsigned>(count));
    transpose_tiles_kernel<T, false><<<blocks, threads, 0, stream>>>(in + b * in_batch_stride, out + b * out_batch_stride,
                                                                     rows, columns, in_row_stride, in_batch_stride,
                                                                     out_row_stride, out_batch_stride);
    TRAPEZE_CUDA_CHECK_LAUNCH("transpose_tiles_kernel");
  }
}

}  // namespace detail

template <typename T, int TileRows, int TileDiagonals>
constexpr int diagonal_tile_bytes() {
  return static_cast<int>(sizeof(T)) * TileRows * (TileDiagonals + 1);
}

// Row-major to diagonal-major (to_diagonal) or back, tiles of TileRows x
// TileDiagonals (multiples of 32).
template <typename T, int TileRows, int TileDiagonals, bool DiagonalOrder = false>
void launch_diagonal_tiles(const T* in, T* out, bool to_diagonal, bool mirror, Index rows, Index columns, cudaStream_t stream) {
  static_assert(!DiagonalOrder || TileRows % TileDiagonals == 0, "diagonal order needs rows a whole number of diagonal groups");
  const dim3 threads(layout_tile, layout_block_rows);
  // Block row i0 meets anti-diagonals i0 .. i0 + TileRows - 1 + columns - 1.
  const dim3 blocks = DiagonalOrder ? dim3(detail::blocks_of(rows, TileRows), detail::blocks_of(rows + columns - 1, TileDiagonals))
                                    : dim3(detail::blocks_of(columns + TileRows - 1, TileDiagonals), detail::blocks_of(rows, TileRows));
  constexpr int bytes = diagonal_tile_bytes<T, TileRows, TileDiagonals>();
  auto* kernel = to_diagonal ? &diagonal_tiles_kernel<T, true, TileRows, TileDiagonals, DiagonalOrder>
                             : &diagonal_tiles_kernel<T, false, TileRows, TileDiagonals, DiagonalOrder>;
  if (bytes > 48 * 1024) TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  kernel<<<blocks, threads, bytes, stream>>>(in, out, rows, columns, mirror);
  TRAPEZE_CUDA_CHECK_LAUNCH("diagonal_tiles_kernel");
}

// The default tiles of each direction, in cells of 4 bytes; larger cells
// halve them to stay within a block's static shared memory.
template <typename T>
void convert_diagonal(const T* in, T* out, bool to_diagonal, bool mirror, Index rows, Index columns, cudaStream_t stream) {
  constexpr int shrink = sizeof(T) > 4 ? 2 : 1;
  if (to_diagonal) {
    launch_diagonal_tiles<T, to_diagonal_tile_rows / shrink, to_diagonal_tile_diagonals, true>(in, out, true, mirror, rows, columns,
                                                                                              stream);
  } else {
    launch_diagonal_tiles<T, from_diagonal_tile_rows, from_diagonal_tile_diagonals / shrink>(in, out, false, mirror, rows, columns,
                                                                                           stream);
  }
}

// A rows x columns array from one 2-D layout into another on `stream`
// (row-major to or from each of the others; column-major and the diagonal
// layouts among themselves go through row-major in two launches, into `out`
// via `scratch` of the same size).
template <typename T>
void convert_layout_on_gpu(const T* in, Layout2D from, T* out, Layout2D to, Index rows, Index columns, cudaStream_t stream,
                           T* scratch = nullptr) {
  if (rows <= 0 || columns <= 0) return;
  if (from == to) {
    TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(out, in, sizeof(T) * static_cast<std::size_t>(rows * columns), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  if (from != Layout2D::row_major && to != Layout2D::row_major) {
    if (scratch == nullptr) {
      std::fprintf(stderr, "trapeze: a layout conversion between two layouts other than row-major needs scratch memory\n");
      std::abort();
    }
    convert_layout_on_gpu(in, from, scratch, Layout2D::row_major, rows, columns, stream);
    convert_layout_on_gpu(scratch, Layout2D::row_major, out, to, rows, columns, stream);
    return;
  }
  const Layout2D other = from == Layout2D::row_major ? to : from;
  if (other == Layout2D::column_major) {
    // Row-major rows x columns is column-major columns x rows, and back.
    if (from == Layout2D::row_major) detail::launch_transpose(in, out, rows, columns, 1, columns, 0, rows, 0, stream);
    else detail::launch_transpose(in, out, columns, rows, 1, rows, 0, columns, 0, stream);
    return;
  }
  convert_diagonal(in, out, from == Layout2D::row_major, other == Layout2D::diagonal, rows, columns, stream);
}

// A 3-D array of `extent` (x fastest) with dimensions a and b exchanged
// (trapeze::swap_dimensions), on `stream`.
template <typename T>
void swap_dimensions_on_gpu(const T* in, T* out, const Extent& extent, int a, int b, cudaStream_t stream) {
  if (a > b) std::swap(a, b);
  const Index nx = extent[0], ny = extent[1], nz = extent[2];
  if (nx <= 0 || ny <= 0 || nz <= 0) return;
  if (a == b) {
    TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(out, in, sizeof(T) * static_cast<std::size_t>(nx * ny * nz), cudaMemcpyDeviceToDevice, stream));
  } else if (a == 0 && b == 1) {
    // Each z plane: a y x x transpose into x x y.
    detail::launch_transpose(in, out, ny, nx, nz, nx, nx * ny, ny, nx * ny, stream);
  } else if (a == 0 && b == 2) {
    // Each y: the (z, x) slice, rows z strided by nx ny, into (x, z), rows x strided by ny nz.
    detail::launch_transpose(in, out, nz, nx, ny, nx * ny, nx, ny * nz, nz, stream);
  } else {
    const dim3 blocks(detail::blocks_of(ny, 8), static_cast<unsigned>(nz < 65535 ? nz : 65535));
    const std::size_t row_bytes = sizeof(T) * static_cast<std::size_t>(nx);
    const bool words = row_bytes % sizeof(uint4) == 0 && reinterpret_cast<std::uintptr_t>(in) % sizeof(uint4) == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % sizeof(uint4) == 0;
    if (words) {
      swap_slow_dimensions_kernel<uint4><<<blocks, 256, 0, stream>>>(reinterpret_cast<const uint4*>(in),
                                                                     reinterpret_cast<uint4*>(out),
                                                                     static_cast<Index>(row_bytes / sizeof(uint4)), ny, nz);
    } else {
      swap_slow_dimensions_kernel<T><<<blocks, 256, 0, stream>>>(in, out, nx, ny, nz);
    }
    TRAPEZE_CUDA_CHECK_LAUNCH("swap_slow_dimensions_kernel");
  }
}

}  // namespace trapeze::cuda
