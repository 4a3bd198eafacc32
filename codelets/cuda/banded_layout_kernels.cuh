#pragma once
// Conversions between a row-major tile and seed 004's banded (hybrid
// row/diagonal-major) layout on the GPU, equal bit for bit to
// trapeze/banded_layout.hpp's CPU reference, and the StarPU CUDA functions
// that run them in a task (codelets/banded_layout_args.hpp's buffers).
//
// The layout pairs lane k's row with column s - k at slot s. A block takes
// one lane row j of one band and a run of S columns (to the banded layout)
// or S slots (back) for all 32 lanes through a shared tile: it reads exactly
// its run, whole aligned lines, and writes the S + 31 slots (columns) the
// lanes' skew spreads them over. The 31 at either end are shared with the
// neighbouring run's block, each writing its own lanes of them; all others
// are whole lines. (Reading the 31 extra columns instead, so that every
// write is whole, ran at 0.55-0.70 of the copy bandwidth on an H100:
// docs/PERF.md.) Offsets inside a block are 32-bit, its loops unrolled, so a
// thread's loads are all in flight before its first store to shared memory.
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

// c (columns - 32 < ... < 2 * columns + 32) taken modulo the band's columns.
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

// banded[index(r, c)] = row_major[r * ld + c]. Whole: the block reads the 32
// columns before its run too, so that it writes all 32 lanes of each of its
// slots (whole lines, none shared with a neighbour).
template <typename T, int S = banded_block_slots<T>, bool Whole = true>
__global__ void __launch_bounds__(32 * banded_block_rows)
    to_banded_kernel(const T* __restrict__ in, Index ld, BandedLayout layout, T* __restrict__ out) {
  static_assert(S % 32 == 0, "a run is whole warps of columns");
  constexpr int lanes_per_warp = 32 / banded_block_rows;
  constexpr int ahead = Whole ? 32 : 0;  // columns read before the run
  // Lane k's column i - k (written at slot first + i) sits at k * (pitch - 1) + i + ahead: pitch - 1 is odd, so the 32 lanes hit 32 banks.
  constexpr int pitch = S + ahead;
  __shared__ __align__(16) unsigned char bytes[32 * pitch * sizeof(T)];  // raw: T need not be constructible there
  auto tile = reinterpret_cast<T(*)[pitch]>(bytes);
  const detail::BandedBlock block = detail::banded_block<S>(layout);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Index band_row = block.band * layout.band_rows() + block.lane_row;
  // Only the first run's columns before it wrap round (and a tile narrower than the skew's).
  const bool wraps = Whole && block.first < ahead;
  // Rows: the band's 32 lanes at lane row j; columns first - ahead .. first + width - 1.
#pragma unroll
  for (int m = 0; m < lanes_per_warp; ++m) {
    const int k = ty + m * banded_block_rows;
    const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
    if (r >= layout.rows) continue;
    const T* row = in + r * ld;
#pragma unroll
    for (int q = 0; q < pitch / 32; ++q) {
      const int x = tx + 32 * q;
      if (x < block.width + ahead) {
        const Index c = block.first - ahead + x;
        tile[k][x] = row[wraps ? detail::wrapped_column(c, layout.columns) : c];
      }
    }
  }
  __syncthreads();
  const int k = tx;
  if (band_row + static_cast<Index>(k) * layout.lane_rows >= layout.rows) return;  // padding: left as it is
  const Index slot_stride = layout.band_rows();
  T* lane = out + block.band * layout.columns * slot_stride + block.lane_row * 32 + k;
  if constexpr (Whole) {
    T* at = lane + (block.first + ty) * slot_stride;
#pragma unroll
    for (int n = 0; n < S / banded_block_rows; ++n, at += banded_block_rows * slot_stride) {
      const int i = ty + n * banded_block_rows;
      if (i < block.width) *at = tile[k][i - k + ahead];
    }
  } else {
    // The last run's slots past the band's last column wrap round to its first.
    const bool last = block.first + S + 31 > layout.columns;
    T* at = lane + (block.first + ty) * slot_stride;
#pragma unroll
    for (int n = 0; n < (S + 31 + banded_block_rows - 1) / banded_block_rows; ++n, at += banded_block_rows * slot_stride) {
      const int i = ty + n * banded_block_rows;  // slot first + i holds lane k's column first + i - k
      const int x = i - k;
      if (i < S + 31 && x >= 0 && x < block.width) {
        *(last ? lane + detail::wrapped_column(block.first + i, layout.columns) * slot_stride : at) = tile[k][x];
      }
    }
  }
}

// row_major[r * ld + c] = banded[index(r, c)]. Whole: the block reads the 32
// slots after its run too, so that it writes each lane's columns first ..
// first + S - 1 (whole lines, none shared with a neighbour).
template <typename T, int S = banded_block_slots<T>, bool Whole = true>
__global__ void __launch_bounds__(32 * banded_block_rows)
    from_banded_kernel(const T* __restrict__ in, BandedLayout layout, T* __restrict__ out, Index ld) {
  static_assert(S % 32 == 0, "a run is whole warps of slots");
  constexpr int lanes_per_warp = 32 / banded_block_rows;
  constexpr int after = Whole ? 32 : 0;  // slots read after the run
  constexpr int pitch = S + after + 1;   // odd: a slot's 32 lanes, stored by lane, hit every bank once
  __shared__ __align__(16) unsigned char bytes[32 * pitch * sizeof(T)];
  auto tile = reinterpret_cast<T(*)[pitch]>(bytes);
  const detail::BandedBlock block = detail::banded_block<S>(layout);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Index band_row = block.band * layout.band_rows() + block.lane_row;
  const Index slot_stride = layout.band_rows();
  const T* band = in + block.band * layout.columns * slot_stride + block.lane_row * 32 + tx;
  // Only the slots after the last run wrap round to the band's first (or a tile narrower than the skew's).
  const bool wraps = Whole && block.first + S + after > layout.columns;
  // Slots first .. first + width + after - 1, a warp a slot (a whole line).
  const T* at = band + (block.first + ty) * slot_stride;
#pragma unroll
  for (int n = 0; n < (S + after) / banded_block_rows; ++n, at += banded_block_rows * slot_stride) {
    const int i = ty + n * banded_block_rows;
    if (i < block.width + after) {
      tile[tx][i] = wraps ? band[detail::wrapped_column(block.first + i, layout.columns) * slot_stride] : *at;
    }
  }
  __syncthreads();
  // Lane k's cell of slot first + i is its column first + i - k.
#pragma unroll
  for (int m = 0; m < lanes_per_warp; ++m) {
    const int k = ty + m * banded_block_rows;
    const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
    if (r >= layout.rows) continue;
    T* row = out + r * ld;
    if constexpr (Whole) {
      // Columns first .. first + width - 1: lane k's are slots k on.
#pragma unroll
      for (int q = 0; q < S / 32; ++q) {
        const int x = tx + 32 * q;
        if (x < block.width) row[block.first + x] = tile[k][x + k];
      }
    } else {
      // Columns first - 32 + x: whole aligned lines but the run's two ends;
      // only the first run's columns before it wrap round.
      const bool first_run = block.first < 32;
#pragma unroll
      for (int q = 0; q <= S / 32; ++q) {
        const int i = tx + 32 * q - 32 + k;
        const Index c = block.first + i - k;
        if (i >= 0 && i < block.width) row[first_run ? detail::wrapped_column(c, layout.columns) : c] = tile[k][i];
      }
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

// S: columns (slots) a block converts, Whole: its writes whole lines (a benchmark's sweep; the codelets take the defaults).
template <typename T, bool ToBanded, int S = banded_block_slots<T>, bool Whole = true>
void launch_banded_conversion(const T* in, T* out, Index ld, const BandedLayout& layout, cudaStream_t stream) {
  if (layout.rows == 0 || layout.columns == 0) return;
  if constexpr (banded_through_shared<T>) {
    const Index blocks = layout.bands() * ((layout.columns + S - 1) / S);
    const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(layout.lane_rows));
    const dim3 threads(32, banded_block_rows);
    if constexpr (ToBanded) to_banded_kernel<T, S, Whole><<<grid, threads, 0, stream>>>(in, ld, layout, out);
    else from_banded_kernel<T, S, Whole><<<grid, threads, 0, stream>>>(in, layout, out, ld);
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
