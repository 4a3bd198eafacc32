#pragma once
// Conversions between a row-major tile and seed 004's banded (hybrid
// row/diagonal-major) layout on the GPU, equal bit for bit to
// trapeze/banded_layout.hpp's CPU reference, and the StarPU CUDA functions
// that run them in a task (codelets/banded_layout_args.hpp's buffers).
//
// The layout pairs lane k's row with column s - k at slot s, so a block goes
// through a shared tile holding, for one lane row j of one band, the 32
// lanes' rows (32 rows, lane_rows apart) over a run of S slots and the 31
// columns the lanes' skew adds: to the banded layout it reads S + 31
// columns of each row (whole lines) and writes S slots of 32 neighbouring
// cells; back, it reads S + 31 slots and writes S columns of each row. The
// shared tile's pitch makes the skewed side conflict-free. Cells larger
// than 16 bytes (an integral histogram's bins) are whole transactions by
// themselves: those go cell by cell, a thread per 4-byte word.
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
// Slots a block converts: 128 for cells of up to 8 bytes (the 31 columns of
// skew then add a quarter to the shared tile's side, 40 KiB at most), 32 for
// 16-byte ones (the tile stays within 48 KiB).
template <typename T>
inline constexpr int banded_block_slots = sizeof(T) <= 8 ? 128 : 32;
inline constexpr int banded_block_rows = 8;  // threads: 32 x 8

namespace detail {

// Column c of a band's row taken modulo its columns (c > -32 and c < columns + S + 32).
__device__ inline Index wrapped_column(Index c, Index columns) {
  if (c < 0) c += columns;
  if (c >= columns) c -= columns;
  if (c < 0 || c >= columns) c = ((c % columns) + columns) % columns;  // tiles narrower than the skew
  return c;
}

// Blocks: x = band * chunks + chunk of S slots (or columns), y = lane row.
struct BandedBlock {
  Index band;
  Index first;  // first slot (to banded) or column (back)
  int lane_row;
};

__device__ inline BandedBlock banded_block(const BandedLayout& layout, int slots) {
  const Index chunks = (layout.columns + slots - 1) / slots;
  const Index linear = blockIdx.x;
  const Index band = linear / chunks;
  return {band, (linear - band * chunks) * slots, static_cast<int>(blockIdx.y)};
}

}  // namespace detail

// banded[index(r, c)] = row_major[r * ld + c].
template <typename T>
__global__ void __launch_bounds__(32 * banded_block_rows)
    to_banded_kernel(const T* __restrict__ in, Index ld, BandedLayout layout, T* __restrict__ out) {
  constexpr int S = banded_block_slots<T>;
  constexpr int pitch = S + 32;  // even: lane k's cell of slot i at k * (pitch - 1) + i + 31, an odd stride
  __shared__ __align__(16) unsigned char bytes[32 * pitch * sizeof(T)];  // raw: T need not be constructible there
  auto tile = reinterpret_cast<T(*)[pitch]>(bytes);
  const detail::BandedBlock block = detail::banded_block(layout, S);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Index band_row = block.band * layout.band_rows() + block.lane_row;
  // Row k: the band's lane k, lane row j; columns first - 31 .. first + S - 1.
  for (int k = ty; k < 32; k += banded_block_rows) {
    const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
    if (r >= layout.rows) continue;
    const T* row = in + r * ld;
    for (int x = tx; x < S + 31; x += 32) tile[k][x] = row[detail::wrapped_column(block.first - 31 + x, layout.columns)];
  }
  __syncthreads();
  const int k = tx;
  const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
  if (r >= layout.rows) return;  // padding: left as it is
  for (int i = ty; i < S; i += banded_block_rows) {
    const Index s = block.first + i;
    if (s >= layout.columns) break;
    out[(block.band * layout.columns + s) * layout.band_rows() + block.lane_row * 32 + k] = tile[k][i + 31 - k];
  }
}

// row_major[r * ld + c] = banded[index(r, c)].
template <typename T>
__global__ void __launch_bounds__(32 * banded_block_rows)
    from_banded_kernel(const T* __restrict__ in, BandedLayout layout, T* __restrict__ out, Index ld) {
  constexpr int S = banded_block_slots<T>;
  constexpr int pitch = S + 31;  // odd: lane k's cells of a slot, stored by lane, hit every bank once
  __shared__ __align__(16) unsigned char bytes[32 * pitch * sizeof(T)];
  auto tile = reinterpret_cast<T(*)[pitch]>(bytes);
  const detail::BandedBlock block = detail::banded_block(layout, S);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const Index band_row = block.band * layout.band_rows() + block.lane_row;
  const T* band = in + block.band * layout.columns * layout.band_rows() + block.lane_row * 32;
  // Slots first .. first + S + 30 (mod columns): lane k's columns first .. first + S - 1 among them.
  for (int x = ty; x < S + 31; x += banded_block_rows) {
    const Index s = detail::wrapped_column(block.first + x, layout.columns);
    tile[tx][x] = band[s * layout.band_rows() + tx];
  }
  __syncthreads();
  for (int k = ty; k < 32; k += banded_block_rows) {
    const Index r = band_row + static_cast<Index>(k) * layout.lane_rows;
    if (r >= layout.rows) continue;
    for (int i = tx; i < S; i += 32) {
      const Index c = block.first + i;
      if (c < layout.columns) out[r * ld + c] = tile[k][i + k];
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

template <typename T, bool ToBanded>
void launch_banded_conversion(const T* in, T* out, Index ld, const BandedLayout& layout, cudaStream_t stream) {
  if (layout.rows == 0 || layout.columns == 0) return;
  if constexpr (banded_through_shared<T>) {
    constexpr int S = banded_block_slots<T>;
    const Index blocks = layout.bands() * ((layout.columns + S - 1) / S);
    const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(layout.lane_rows));
    const dim3 threads(32, banded_block_rows);
    if constexpr (ToBanded) to_banded_kernel<T><<<grid, threads, 0, stream>>>(in, ld, layout, out);
    else from_banded_kernel<T><<<grid, threads, 0, stream>>>(in, layout, out, ld);
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
