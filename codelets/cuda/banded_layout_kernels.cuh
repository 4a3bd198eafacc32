#pragma once
// Conversions between a row-major tile and seed 004's banded (hybrid
// row/diagonal-major) layout on the GPU, equal bit for bit to
// trapeze/banded_layout.hpp's CPU reference, and the StarPU CUDA functions
// that run them in a task (codelets/banded_layout_args.hpp's buffers).
//
// The layout pairs lane k's row with column s - k at slot s. A block takes
// one lane row j of one band and a run of S slots (to the banded layout) or
// S columns (back) for all 32 lanes through a shared tile. It reads the 32
// columns before its run (the slots after it) too, whole aligned lines, so
// that it writes every lane of each of its slots (every column of each
// lane's row): whole lines, none shared with another block. On an H100 this
// runs at 0.87-0.90 of the copy bandwidth both ways; reading only the run
// and sharing the skewed ends' writes with the neighbouring block ran at
// 0.82-0.90, and the first version (31 unaligned extra columns, 64-bit
// offsets and a wrap test per cell) at 0.55-0.70 (docs/PERF.md). Pointers
// step by a constant, and only the runs at a band's ends wrap round.
// Cells larger than 16 bytes (an integral histogram's bins) are whole
// transactions by themselves: those go cell by cell, a thread per 4-byte word.
#include <cuda_runtime.h>
#include <starpu.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../banded_layout_args.hpp"
#include "cuda_check.cuh"
#include "trapeze/banded_layout.hpp"

namespace trapeze::cuda {

template <typename T>
inline constexpr bool banded_through_shared = sizeof(T) <= 16;
// Columns (slots) a block converts: 128 for cells of up to 8 bytes (a
// 32 KiB tile at most), 32 for 16-byte ones (16 KiB).
template <typename T>
inline constexpr int banded_block_slots = sizeof(T) <= 8 ? 128 : 32;
inline constexpr int banded_block_rows = 8;  // threads: 32 x 8

namespace detail {

// c (-32 <= c < columns + S + 32: a run's 32 columns or slots beyond it)
// taken modulo the band's columns.
__device__ inline Index wrapped_column(Index c, Index columns) {
  if (c < 0) c += columns;
  else if (c >= columns) c -= columns;
  if (c < 0 || c >= columns) c = ((c % columns) + columns) % columns;  // tiles narrower than the skew
  return c;
}

// Blocks: x = band * runs + run of S columns (or slots), y = lane row.
struct BandedBlock {
  Index band;
  Index first;  // first column (to banded) or slot (back)
  int lane_row;
  int width;    // columns (slots) of the run: S but in the last run
};

template <int S>
__device__ inline BandedBlock banded_block(const BandedLayout& layout) {
  const Index runs = (layout.columns + S - 1) / S;
  const Index linear = blockIdx.x;
  const Index band = linear / runs;
  const Index first = (linear - band * runs) * S;
  return {band, first, static_cast<int>(blockIdx.y), static_cast<int>(layout.columns - first < S ? layout.columns - first : S)};
}

}  // namespace detail

// banded[index(r, c)] = row_major[r * ld + c].
template <typename T, int S = banded_block_slots<T>>
__global__ void __launch_bounds__(32 * banded_block_rows)
    to_banded_kernel(const T* __restrict__ in, Index ld, BandedLayout layout, T* __restrict__ out) {
  static_assert(S % 32 == 0, "a run is whole warps of slots");
  constexpr int lanes_per_warp = 32 / banded_block_rows;
  // Lane k's column first + i - k (its cell of slot first + i) sits at
  // k * (pitch - 1) + i + 32: pitch - 1 is odd, so the 32 lanes hit 32 banks.
  constexpr int pitch = S + 32;
  __shared__ __align__(16) unsigned char bytes[32 * pitch * sizeof(T)];  // raw: T need not be constructible there
  auto tile = reinterpret_cast<T(*)[pitch]>(bytes);
  const detail::BandedBlock block = detail::banded_block<S>(layout);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Index band_row = block.band * layout.band_rows() + block.lane_row;
  const bool wraps = block.first < 32;  // the band's first run reads its last columns (and a tile narrower than the skew)
  // Rows: the band's 32 lanes at lane row j; columns first - 32 .. first + width - 1.
#pragma unroll
  for (int m = 0; m < lanes_per_warp; ++m) {
    const int k = ty + m * banded_block_rows;
    const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
    if (r >= layout.rows) continue;
    const T* row = in + r * ld;
#pragma unroll
    for (int q = 0; q < pitch / 32; ++q) {
      const int x = tx + 32 * q;
      if (x < block.width + 32) {
        const Index c = block.first - 32 + x;
        tile[k][x] = row[wraps ? detail::wrapped_column(c, layout.columns) : c];
      }
    }
  }
  __syncthreads();
  const int k = tx;
  if (band_row + static_cast<Index>(k) * layout.lane_rows >= layout.rows) return;  // padding: left as it is
  const Index slot_stride = layout.band_rows();
  T* at = out + (block.band * layout.columns + block.first + ty) * slot_stride + block.lane_row * 32 + k;
#pragma unroll
  for (int n = 0; n < S / banded_block_rows; ++n, at += banded_block_rows * slot_stride) {
    const int i = ty + n * banded_block_rows;
    if (i < block.width) *at = tile[k][i - k + 32];
  }
}

// row_major[r * ld + c] = banded[index(r, c)].
template <typename T, int S = banded_block_slots<T>>
__global__ void __launch_bounds__(32 * banded_block_rows)
    from_banded_kernel(const T* __restrict__ in, BandedLayout layout, T* __restrict__ out, Index ld) {
  static_assert(S % 32 == 0, "a run is whole warps of columns");
  constexpr int lanes_per_warp = 32 / banded_block_rows;
  constexpr int pitch = S + 32 + 1;  // odd: a slot's 32 lanes, stored by lane, hit every bank once
  __shared__ __align__(16) unsigned char bytes[32 * pitch * sizeof(T)];
  auto tile = reinterpret_cast<T(*)[pitch]>(bytes);
  const detail::BandedBlock block = detail::banded_block<S>(layout);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Index band_row = block.band * layout.band_rows() + block.lane_row;
  const Index slot_stride = layout.band_rows();
  const T* band = in + block.band * layout.columns * slot_stride + block.lane_row * 32 + tx;
  const bool wraps = block.first + S + 32 > layout.columns;  // the band's last run reads its first slots
  // Slots first .. first + width + 31, a warp a slot (a whole line).
  const T* at = band + (block.first + ty) * slot_stride;
#pragma unroll
  for (int n = 0; n < (S + 32) / banded_block_rows; ++n, at += banded_block_rows * slot_stride) {
    const int i = ty + n * banded_block_rows;
    if (i < block.width + 32) tile[tx][i] = wraps ? band[detail::wrapped_column(block.first + i, layout.columns) * slot_stride] : *at;
  }
  __syncthreads();
  // Lane k's column first + x is in slot first + x + k.
#pragma unroll
  for (int m = 0; m < lanes_per_warp; ++m) {
    const int k = ty + m * banded_block_rows;
    const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
    if (r >= layout.rows) continue;
    T* row = out + r * ld + block.first;
#pragma unroll
    for (int q = 0; q < S / 32; ++q) {
      const int x = tx + 32 * q;
      if (x < block.width) row[x] = tile[k][x + k];
    }
  }
}

// Cells of more than 16 bytes: a thread per 4-byte word (or byte), whole
// cells in a row. ToBanded: which side is row-major is read.
template <typename T, bool ToBanded>
__global__ void banded_cells_kernel(const T* __restrict__ in, T* __restrict__ out, Index ld, BandedLayout layout) {
  using Word = std::conditional_t<sizeof(T) % 4 == 0 && alignof(T) >= 4, std::uint32_t, unsigned char>;
  constexpr Index words = sizeof(T) / sizeof(Word);
  const Index total = layout.rows * layout.columns * words;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index cell = i / words, word = i - cell * words;
    const Index r = cell / layout.columns, c = cell - r * layout.columns;
    const Index row_major = r * ld + c, banded = layout.index(r, c);
    const Word* from = reinterpret_cast<const Word*>(in + (ToBanded ? row_major : banded)) + word;
    Word* to = reinterpret_cast<Word*>(out + (ToBanded ? banded : row_major)) + word;
    *to = *from;
  }
}

// S: slots (columns) a block converts (a benchmark's sweep; the codelets take the default).
template <typename T, bool ToBanded, int S = banded_block_slots<T>>
void launch_banded_conversion(const T* in, T* out, Index ld, const BandedLayout& layout, cudaStream_t stream) {
  if (layout.rows == 0 || layout.columns == 0) return;
  if constexpr (banded_through_shared<T>) {
    const Index blocks = layout.bands() * ((layout.columns + S - 1) / S);
    const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(layout.lane_rows));
    const dim3 threads(32, banded_block_rows);
    if constexpr (ToBanded) to_banded_kernel<T, S><<<grid, threads, 0, stream>>>(in, ld, layout, out);
    else from_banded_kernel<T, S><<<grid, threads, 0, stream>>>(in, layout, out, ld);
    TRAPEZE_CUDA_CHECK_LAUNCH(ToBanded ? "to_banded_kernel" : "from_banded_kernel");
  } else {
    int device = 0, sms = 0;
    TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
    TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    banded_cells_kernel<T, ToBanded><<<8 * sms, 256, 0, stream>>>(in, out, ld, layout);
    TRAPEZE_CUDA_CHECK_LAUNCH("banded_cells_kernel");
  }
}

// The conversion tasks' CUDA functions, on the task's stream (STARPU_CUDA_ASYNC).
template <typename T>
void to_banded_cuda(void* buffers[], void* cl_arg) {
  BandedConversionArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  launch_banded_conversion<T, true>(reinterpret_cast<const T*>(STARPU_MATRIX_GET_PTR(buffers[0])),
                                    reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[1])),
                                    static_cast<Index>(STARPU_MATRIX_GET_LD(buffers[0])), args.layout,
                                    starpu_cuda_get_local_stream());
}

template <typename T>
void from_banded_cuda(void* buffers[], void* cl_arg) {
  BandedConversionArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  launch_banded_conversion<T, false>(reinterpret_cast<const T*>(STARPU_MATRIX_GET_PTR(buffers[0])),
                                     reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[1])),
                                     static_cast<Index>(STARPU_MATRIX_GET_LD(buffers[1])), args.layout,
                                     starpu_cuda_get_local_stream());
}

}  // namespace trapeze::cuda
