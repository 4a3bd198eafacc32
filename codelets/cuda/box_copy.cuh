#pragma once
// Copies boxes of cells between device buffers, several boxes per launch: a
// stage's incoming halo pieces into its tile's ghost zone (with the periodic
// self-wraps), and its outgoing pieces out of the tile. Pieces are thin (r*h
// cells across), so one launch for all of them instead of one copy each.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.cuh"
#include "trapeze/geometry.hpp"

namespace trapeze::cuda {

struct StridedBox {
  long long origin;  // element offset of the box's first cell
  long long stride_y, stride_z, field_stride;
};

template <typename T>
struct BoxCopy {
  const T* source;
  T* destination;
  StridedBox from, to;
  int extent[3];
  int fields;
};

inline constexpr int copies_per_launch = 16;

template <typename T>
struct BoxCopyBatch {
  BoxCopy<T> copies[copies_per_launch];
};

// blockIdx.y picks the copy; threads stride over its cells.
template <typename T>
__global__ void __launch_bounds__(256) copy_boxes_kernel(BoxCopyBatch<T> batch) {
  const BoxCopy<T>& c = batch.copies[blockIdx.y];
  const long long row = c.extent[0];
  const long long plane = row * c.extent[1];
  const long long cells = plane * c.extent[2];
  const long long total = cells * c.fields;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long f = i / cells, in_field = i - f * cells;
    const long long z = in_field / plane, in_plane = in_field - z * plane;
    const long long y = in_plane / row, x = in_plane - y * row;
    c.destination[c.to.origin + f * c.to.field_stride + z * c.to.stride_z + y * c.to.stride_y + x] =
        c.source[c.from.origin + f * c.from.field_stride + z * c.from.stride_z + y * c.from.stride_y + x];
  }
}

template <typename T>
void copy_boxes(const std::vector<BoxCopy<T>>& copies, cudaStream_t stream) {
  for (std::size_t first = 0; first < copies.size(); first += copies_per_launch) {
    BoxCopyBatch<T> batch{};
    const int count = static_cast<int>(std::min<std::size_t>(copies_per_launch, copies.size() - first));
    long long largest = 1;
    for (int i = 0; i < count; ++i) {
      batch.copies[i] = copies[first + i];
      const BoxCopy<T>& c = batch.copies[i];
      largest = std::max(largest, static_cast<long long>(c.extent[0]) * c.extent[1] * c.extent[2] * c.fields);
    }
    const unsigned blocks = static_cast<unsigned>(std::min<long long>((largest + 255) / 256, 1024));
    copy_boxes_kernel<T><<<dim3(blocks, static_cast<unsigned>(count)), 256, 0, stream>>>(batch);
    TRAPEZE_CUDA_CHECK_LAUNCH("copy_boxes_kernel");
  }
}

// A box of a row-major buffer of `extent` (fields `field_stride` apart), starting at `lo`.
inline StridedBox box_in(const Extent& extent, long long field_stride, const Extent& lo) {
  const long long y = extent[0], z = extent[0] * extent[1];
  return {lo[0] + lo[1] * y + lo[2] * z, y, z, field_stride};
}

}  // namespace trapeze::cuda
