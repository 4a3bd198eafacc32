#pragma once
// The CUDA implementation of a trapezoid stage, the twin of
// codelets/cpu/stage_cpu.hpp over the same buffers (codelets/stage_args.hpp):
// gather the incoming strips into the current buffer's ghost zone, advance the
// stage's h steps in launches of k steps each (kernel-level trapezoids inside
// the task-level one), publish the outgoing strips, and record which of the
// tile's two device buffers now holds the latest step. Everything runs on the
// task's StarPU stream (STARPU_CUDA_ASYNC): the codelet returns once the work
// is queued.
#include <starpu.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "box_copy.cuh"
#include "cuda_check.cuh"
#include "kernel_policy.hpp"
#include "plane_bands.hpp"
#include "plane_register_kernel.cuh"
#include "plane_register_trapezoid_kernel.cuh"
#include "row_vector_trapezoid_kernel.cuh"
#include "vector_trapezoid_kernel.cuh"
#include "plane_stream_kernel.cuh"
#include "plane_trapezoid_kernel.cuh"
#include "single_step_kernel.cuh"
#include "trapezoid_kernel.cuh"
#include "vector_plane_kernel.cuh"
#include "vector_step_kernel.cuh"
#include "walk_split.hpp"
#include "../stage_args.hpp"
#include "trapeze/tile_buffers.hpp"

namespace trapeze::cuda {

template <Stencil S>
using PolicyOf = typename PolicyFor<S::dims, static_cast<int>(sizeof(typename S::value_type))>::type;

// The largest kernel-level height a block can take (its shared memory, its box).
template <Stencil S>
int max_kernel_height(int limit_bytes) {
  int radius[3] = {static_cast<int>(S::shape.radius[0]), static_cast<int>(S::shape.radius[1]),
                   static_cast<int>(S::shape.radius[2])};
  int k = 1;
  while (k < 64) {
    const long long bytes = launch_shared_bytes<typename S::value_type, S::dims>(radius, k + 1, updated_fields_of<S>,
                                                                                 S::shape.kind == ShapeKind::star);
    if (bytes < 0 || bytes > limit_bytes) break;
    ++k;
  }
  return k;
}

template <Stencil S>
using StreamPolicyOf = typename StreamPolicyFor<S::dims, static_cast<int>(sizeof(typename S::value_type))>::type;

// One launch of the trapezoid kernel, k = g.steps steps over g's region, from
// `in` to `out` (any k >= 1: the probes time it at k = 1 too).
template <Stencil S, typename Policy = PolicyOf<S>>
void launch_trapezoid_kernel(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                             const typename S::value_type* constants, const LaunchGeometry& g,
                             typename S::value_type outside, cudaStream_t stream) {
  using T = typename S::value_type;
  const long long cells[3] = {g.region_hi[0] - g.region_lo[0], g.region_hi[1] - g.region_lo[1],
                              g.region_hi[2] - g.region_lo[2]};
  if (cells[0] <= 0 || cells[1] <= 0 || cells[2] <= 0) return;
  const dim3 blocks(static_cast<unsigned>((cells[0] + Policy::out_x - 1) / Policy::out_x),
                    static_cast<unsigned>((cells[1] + Policy::out_y - 1) / Policy::out_y),
                    static_cast<unsigned>((cells[2] + Policy::out_z - 1) / Policy::out_z));
  const dim3 threads(Policy::threads_x, Policy::threads_y, Policy::threads_z);
  const auto bytes = static_cast<int>(smem_bytes<T, Policy>(g.radius, g.steps, updated_fields_of<S>));
  auto* kernel = &trapezoid_kernel<S, Policy>;
  // Above 48 KiB a block's dynamic shared memory must be allowed explicitly.
  if (bytes > 48 * 1024) {
    TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  kernel<<<blocks, threads, bytes, stream>>>(stencil, in, out, constants, g, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("trapezoid_kernel");
}

template <Stencil S>
using PlaneStreamPolicyOf = typename PlaneStreamPolicyFor<static_cast<int>(sizeof(typename S::value_type))>::type;

// One launch of the register single-step kernel over g's region (g.steps must be 1).
template <Stencil S, typename Policy = StreamPolicyOf<S>>
void launch_register_step(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                          const typename S::value_type* constants, const LaunchGeometry& g,
                          typename S::value_type outside, cudaStream_t stream) {
  const long long cells[3] = {g.region_hi[0] - g.region_lo[0], g.region_hi[1] - g.region_lo[1],
                              g.region_hi[2] - g.region_lo[2]};
  if (cells[0] <= 0 || cells[1] <= 0 || cells[2] <= 0) return;
  constexpr int stream_dimension = S::dims - 1;
  const int per_block[3] = {Policy::threads_x * (stream_dimension == 0 ? Policy::cells : 1),
                            Policy::threads_y * (stream_dimension == 1 ? Policy::cells : 1),
                            Policy::threads_z * (stream_dimension == 2 ? Policy::cells : 1)};
  const dim3 blocks(static_cast<unsigned>((cells[0] + per_block[0] - 1) / per_block[0]),
                    static_cast<unsigned>((cells[1] + per_block[1] - 1) / per_block[1]),
                    static_cast<unsigned>((cells[2] + per_block[2] - 1) / per_block[2]));
  const dim3 threads(Policy::threads_x, Policy::threads_y, Policy::threads_z);
  single_step_kernel<S, Policy><<<blocks, threads, 0, stream>>>(stencil, in, out, constants, g, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("single_step_kernel");
}

// One launch of the plane-streaming single-step kernel (3-D) over g's region.
template <Stencil S, typename Policy = PlaneStreamPolicyOf<S>>
void launch_plane_stream(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                         const typename S::value_type* constants, const LaunchGeometry& g,
                         typename S::value_type outside, cudaStream_t stream) {
  const long long cells[3] = {g.region_hi[0] - g.region_lo[0], g.region_hi[1] - g.region_lo[1],
                              g.region_hi[2] - g.region_lo[2]};
  if (cells[0] <= 0 || cells[1] <= 0 || cells[2] <= 0) return;
  constexpr int tile_y = Policy::threads_y * Policy::rows;
  const dim3 blocks(static_cast<unsigned>((cells[0] + Policy::threads_x - 1) / Policy::threads_x),
                    static_cast<unsigned>((cells[1] + tile_y - 1) / tile_y),
                    static_cast<unsigned>((cells[2] + Policy::planes - 1) / Policy::planes));
  const dim3 threads(Policy::threads_x, Policy::threads_y, 1);
  constexpr auto bytes = static_cast<int>(PlaneStreamShape<S, Policy>::shared_bytes);
  auto* kernel = &plane_stream_kernel<S, Policy>;
  if (bytes > 48 * 1024) {
    TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  kernel<<<blocks, threads, bytes, stream>>>(stencil, in, out, constants, g, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("plane_stream_kernel");
}

// One launch of the register-streaming single-step kernel (3-D star stencils) over g's region.
template <Stencil S, typename Policy = PlaneStreamPolicyOf<S>>
void launch_plane_register(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                           const typename S::value_type* constants, const LaunchGeometry& g,
                           typename S::value_type outside, cudaStream_t stream) {
  static_assert(PlaneRegisterShape<S, Policy>::usable, "the register-streaming kernel takes 3-D star stencils");
  const long long cells[3] = {g.region_hi[0] - g.region_lo[0], g.region_hi[1] - g.region_lo[1],
                              g.region_hi[2] - g.region_lo[2]};
  if (cells[0] <= 0 || cells[1] <= 0 || cells[2] <= 0) return;
  constexpr int tile_y = Policy::threads_y * Policy::rows;
  const dim3 blocks(static_cast<unsigned>((cells[0] + Policy::threads_x - 1) / Policy::threads_x),
                    static_cast<unsigned>((cells[1] + tile_y - 1) / tile_y),
                    static_cast<unsigned>((cells[2] + Policy::planes - 1) / Policy::planes));
  const dim3 threads(Policy::threads_x, Policy::threads_y, 1);
  constexpr auto bytes = static_cast<int>(PlaneRegisterShape<S, Policy>::shared_bytes);
  auto* kernel = &plane_register_kernel<S, Policy>;
  if (bytes > 48 * 1024) {
    TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  kernel<<<blocks, threads, bytes, stream>>>(stencil, in, out, constants, g, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("plane_register_kernel");
}

// One launch of the 16-byte single step (2-D, 4-byte cells) over g's region.
template <Stencil S, int Rows = default_vector_step_rows<S>>
void launch_vector_step(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                        const typename S::value_type* constants, const LaunchGeometry& g,
                        typename S::value_type outside, cudaStream_t stream) {
  using Shape = VectorStepShape<S, Rows>;
  const int groups = (g.region_hi[0] + 3) / 4 - g.region_lo[0] / 4;
  const int rows = g.region_hi[1] - g.region_lo[1];
  if (groups <= 0 || rows <= 0) return;
  const dim3 blocks(static_cast<unsigned>((groups + Shape::threads - 1) / Shape::threads),
                    static_cast<unsigned>((rows + Shape::rows - 1) / Shape::rows));
  vector_step_kernel<S, Rows><<<blocks, Shape::threads, 0, stream>>>(stencil, in, out, constants, g, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("vector_step_kernel");
}

// One launch of the 16-byte 3-D single step (star stencils, 4-byte cells)
// over g's region, in bands of `band` rows of blocks (0: chosen from the
// device's L2, plane_bands.hpp).
template <Stencil S, typename Policy = VectorPlaneDefaultPolicy::type>
void launch_vector_plane(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                         const typename S::value_type* constants, const LaunchGeometry& g,
                         typename S::value_type outside, cudaStream_t stream, int band = 0) {
  using Shape = VectorPlaneShape<S, Policy>;
  static_assert(Shape::usable, "the 16-byte 3-D step takes star stencils of 4-byte cells");
  const int groups = (g.region_hi[0] + 3) / 4 - g.region_lo[0] / 4;
  const int rows = g.region_hi[1] - g.region_lo[1], planes = g.region_hi[2] - g.region_lo[2];
  if (groups <= 0 || rows <= 0 || planes <= 0) return;
  const int blocks_y = (rows + Shape::block_rows - 1) / Shape::block_rows;
  const int plane_groups = (planes + Policy::planes - 1) / Policy::planes;
  if (band <= 0) {
    int device = 0, l2_bytes = 0;
    TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
    TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    const double group_bytes = static_cast<double>(Shape::block_rows) * g.padded[0] * sizeof(typename S::value_type) *
                               updated_fields_of<S> * (2 * Policy::planes + 2 * Shape::rz);
    band = vector_plane_band(blocks_y, plane_groups, group_bytes, l2_bytes);
  }
  band = std::min(band, vector_plane_band_cap(blocks_y, plane_groups));  // a band given: within the grid too
  const dim3 blocks(static_cast<unsigned>((groups + Shape::block_groups - 1) / Shape::block_groups),
                    static_cast<unsigned>(band * plane_groups), static_cast<unsigned>((blocks_y + band - 1) / band));
  vector_plane_kernel<S, Policy><<<blocks, dim3(Policy::threads_x, Policy::threads_y), 0, stream>>>(
      stencil, in, out, constants, g, outside, band);
  TRAPEZE_CUDA_CHECK_LAUNCH("vector_plane_kernel");
}

template <Stencil S>
using PlaneRegisterPolicyOf = typename PlaneRegisterPolicyFor<static_cast<int>(sizeof(typename S::value_type))>::type;

// One step over g's region: 3-D star stencils keep z in registers, other 3-D
// stencils stream planes through shared memory, the others read device memory
// directly (their neighbours share cache lines); 2-D stencils and 3-D star
// stencils of 4-byte cells in 16-byte accesses where the rows allow them.
template <Stencil S>
void launch_single_step(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                        const typename S::value_type* constants, const LaunchGeometry& g,
                        typename S::value_type outside, cudaStream_t stream) {
  // 3-D star stencils of 4-byte cells on rows a multiple of 4 cells apart take 16-byte accesses (vector_plane_kernel.cuh).
  if constexpr (VectorPlaneShape<S, VectorPlaneDefaultPolicy::type>::usable) {
    if (vector_step_fits(g, in, out)) return launch_vector_plane(stencil, in, out, constants, g, outside, stream);
  }
  // A ring of planes too large for one block (many fields, a wide radius) falls back to the register kernel.
  if constexpr (S::dims == 3 && PlaneRegisterShape<S, PlaneRegisterPolicyOf<S>>::usable &&
                PlaneRegisterShape<S, PlaneRegisterPolicyOf<S>>::shared_bytes <= shared_memory_per_block) {
    launch_plane_register<S, PlaneRegisterPolicyOf<S>>(stencil, in, out, constants, g, outside, stream);
  } else if constexpr (S::dims == 3 && PlaneStreamShape<S, PlaneStreamPolicyOf<S>>::shared_bytes <= shared_memory_per_block) {
    launch_plane_stream(stencil, in, out, constants, g, outside, stream);
  } else {
    // 2-D rows a multiple of 4 cells apart take 16-byte accesses (vector_step_kernel.cuh).
    if constexpr (VectorStepShape<S>::usable) {
      if (vector_step_fits(g, in, out, constants)) return launch_vector_step(stencil, in, out, constants, g, outside, stream);
    }
    launch_register_step(stencil, in, out, constants, g, outside, stream);
  }
}

// g with the planes each block of a walking `kernel` walks (walk_split.hpp),
// for `columns` blocks across and `walk` planes along the walk, given how
// many blocks the current GPU runs at once (its multiprocessors times the
// blocks each holds).
template <typename Kernel>
LaunchGeometry with_walk_split(const LaunchGeometry& g, Kernel* kernel, int threads, int shared_bytes, long long columns,
                               int walk, int policy_planes, int start_up) {
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  TRAPEZE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, shared_bytes));
  LaunchGeometry split = g;
  split.walk_planes = walk_planes_per_block(columns, walk, policy_planes, start_up,
                                            static_cast<long long>(multiprocessors) * std::max(1, per_multiprocessor));
  return split;
}

template <Stencil S>
using PlaneTrapezoidPolicyOf = typename PlaneTrapezoidPolicyFor<static_cast<int>(sizeof(typename S::value_type))>::type;

// One launch of the 3-D plane trapezoid kernel, k = g.steps >= 2 steps over g's region.
template <Stencil S, typename Policy = PlaneTrapezoidPolicyOf<S>>
void launch_plane_trapezoid(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                            const typename S::value_type* constants, const LaunchGeometry& g,
                            typename S::value_type outside, cudaStream_t stream) {
  using Shape = PlaneTrapezoidShape<S, Policy>;
  const long long cells[3] = {g.region_hi[0] - g.region_lo[0], g.region_hi[1] - g.region_lo[1],
                              g.region_hi[2] - g.region_lo[2]};
  if (cells[0] <= 0 || cells[1] <= 0 || cells[2] <= 0) return;
  const int tile_x = Shape::tile_x(g.steps), tile_y = Shape::tile_y(g.steps);
  if (tile_x <= 0 || tile_y <= 0) {
    std::fprintf(stderr, "trapeze: %d steps per launch leave no output tile in a %dx%d box\n", g.steps, Policy::box_x,
                 Policy::box_y);
    std::abort();
  }
  const dim3 threads(Policy::threads_x, Policy::threads_y, 1);
  const auto bytes = static_cast<int>(Shape::shared_bytes(g.steps));
  auto* kernel = &plane_trapezoid_kernel<S, Policy>;
  if (bytes > 48 * 1024) {
    TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  // Out-of-core tiles are small: Himeno's 128x128x32 tile at H 8 made 36
  // blocks of 64 planes, a small part of what the GPU runs at once, so the
  // walk is split as the register trapezoids' is.
  const auto blocks_x = static_cast<unsigned>((cells[0] + tile_x - 1) / tile_x);
  const auto blocks_y = static_cast<unsigned>((cells[1] + tile_y - 1) / tile_y);
  const LaunchGeometry split = with_walk_split(g, kernel, Policy::threads, bytes, static_cast<long long>(blocks_x) * blocks_y,
                                              static_cast<int>(cells[2]), Policy::planes, 2 * Shape::rz * g.steps);
  const dim3 blocks(blocks_x, blocks_y, static_cast<unsigned>((cells[2] + split.walk_planes - 1) / split.walk_planes));
  kernel<<<blocks, threads, bytes, stream>>>(stencil, in, out, constants, split, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("plane_trapezoid_kernel");
}

template <Stencil S>
using RegisterTrapezoidPolicyOf =
    typename RegisterTrapezoidPolicyFor<S::dims, static_cast<int>(sizeof(typename S::value_type))>::type;

// One launch of the register trapezoid (2-D or 3-D) for K = g.steps steps over g's region.
template <Stencil S, typename Policy, int K>
void launch_register_trapezoid_k(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                                 const typename S::value_type* constants, const LaunchGeometry& g,
                                 typename S::value_type outside, cudaStream_t stream) {
  using Shape = RegisterTrapezoidShape<S, Policy, K>;
  const long long cells[3] = {g.region_hi[0] - g.region_lo[0], g.region_hi[1] - g.region_lo[1],
                              g.region_hi[2] - g.region_lo[2]};
  if (cells[0] <= 0 || cells[1] <= 0 || cells[2] <= 0) return;
  const dim3 threads(Policy::threads_x, Policy::threads_y, 1);
  constexpr auto bytes = static_cast<int>(Shape::shared_bytes);
  auto* kernel = &plane_register_trapezoid_kernel<S, Policy, K>;
  if (bytes > 48 * 1024) {
    TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  const unsigned blocks_x = static_cast<unsigned>((cells[0] + Shape::tile_x - 1) / Shape::tile_x);
  const unsigned blocks_y = static_cast<unsigned>((cells[Shape::across_y] + Shape::tile_y - 1) / Shape::tile_y);
  const LaunchGeometry split =
      with_walk_split(g, kernel, Policy::threads_x * Policy::threads_y, bytes, static_cast<long long>(blocks_x) * blocks_y,
                      static_cast<int>(cells[Shape::walk]), Policy::planes, 2 * Shape::rz * K);
  const dim3 blocks(blocks_x, blocks_y,
                    static_cast<unsigned>((cells[Shape::walk] + split.walk_planes - 1) / split.walk_planes));
  kernel<<<blocks, threads, bytes, stream>>>(stencil, in, out, constants, split, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("plane_register_trapezoid_kernel");
}

// One launch of the 16-byte 3-D trapezoid for K = g.steps steps over g's region.
template <Stencil S, typename Policy, int K>
void launch_vector_trapezoid_k(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                               const LaunchGeometry& g, typename S::value_type outside, cudaStream_t stream) {
  using Shape = VectorTrapezoidShape<S, Policy, K>;
  const int width = g.region_hi[0] - vector_trapezoid_first_x(g.region_lo[0], K);
  const int rows = g.region_hi[1] - g.region_lo[1], planes = g.region_hi[2] - g.region_lo[2];
  if (g.region_hi[0] <= g.region_lo[0] || rows <= 0 || planes <= 0) return;
  const unsigned blocks_x = static_cast<unsigned>((width + Shape::tile_x - 1) / Shape::tile_x);
  const unsigned blocks_y = static_cast<unsigned>((rows + Shape::tile_y - 1) / Shape::tile_y);
  constexpr auto bytes = static_cast<int>(Shape::shared_bytes);
  auto* kernel = &vector_trapezoid_kernel<S, Policy, K>;
  if (bytes > 48 * 1024) {
    TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  const LaunchGeometry split = with_walk_split(g, kernel, Policy::threads_x * Policy::threads_y, bytes,
                                              static_cast<long long>(blocks_x) * blocks_y, planes, Policy::planes,
                                              2 * Shape::rz * K);
  const dim3 blocks(blocks_x, blocks_y, static_cast<unsigned>((planes + split.walk_planes - 1) / split.walk_planes));
  kernel<<<blocks, dim3(Policy::threads_x, Policy::threads_y), bytes, stream>>>(stencil, in, out, split, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("vector_trapezoid_kernel");
}

// One launch of the 16-byte 2-D trapezoid for K = g.steps steps over g's region.
template <Stencil S, typename Policy, int K>
void launch_row_vector_trapezoid_k(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                                   const typename S::value_type* constants, const LaunchGeometry& g,
                                   typename S::value_type outside, cudaStream_t stream) {
  using Shape = RowVectorTrapezoidShape<S, Policy, K>;
  const int width = g.region_hi[0] - vector_trapezoid_first_x(g.region_lo[0], K);
  const int rows = g.region_hi[1] - g.region_lo[1];
  if (g.region_hi[0] <= g.region_lo[0] || rows <= 0) return;
  const long long tiles = (width + Shape::tile_x - 1) / Shape::tile_x;
  const auto blocks_x = static_cast<unsigned>((tiles + Policy::warps - 1) / Policy::warps);
  auto* kernel = &row_vector_trapezoid_kernel<S, Policy, K>;
  const LaunchGeometry split =
      with_walk_split(g, kernel, Policy::threads, 0, blocks_x, rows, Policy::planes, 2 * Shape::ry * K);
  const dim3 blocks(blocks_x, static_cast<unsigned>((rows + split.walk_planes - 1) / split.walk_planes), 1);
  kernel<<<blocks, dim3(Policy::threads_x, Policy::warps), 0, stream>>>(stencil, in, out, constants, split, outside);
  TRAPEZE_CUDA_CHECK_LAUNCH("row_vector_trapezoid_kernel");
}

template <Stencil S, int K>
constexpr bool row_vector_trapezoid_usable() {
  return K <= row_vector_trapezoid_max_k && RowVectorTrapezoidShape<S, RowVectorTrapezoidDefaultPolicy::type, K>::usable;
}

template <Stencil S, int K>
constexpr bool vector_trapezoid_usable() {
  using Shape = VectorTrapezoidShape<S, VectorTrapezoidDefaultPolicy::type, K>;
  return K <= vector_trapezoid_max_k && Shape::usable && Shape::shared_bytes <= shared_memory_per_block;
}

// Whether the register trapezoid takes K steps of S under Policy.
template <Stencil S, typename Policy, int K>
constexpr bool register_trapezoid_usable() {
  if constexpr (!register_trapezoid_takes(S::dims, K)) {
    return false;
  } else {
    return RegisterTrapezoidShape<S, Policy, K>::usable &&
           RegisterTrapezoidShape<S, Policy, K>::shared_bytes <= shared_memory_per_block;
  }
}

// g.steps among register_trapezoid_takes' heights, each its own kernel; false
// if the register trapezoid cannot take them (the caller then uses another kernel).
template <Stencil S, typename Policy = RegisterTrapezoidPolicyOf<S>, int K = 2>
bool launch_register_trapezoid(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                               const typename S::value_type* constants, const LaunchGeometry& g,
                               typename S::value_type outside, cudaStream_t stream) {
  if constexpr (K > register_trapezoid_max_k) {
    return false;
  } else {
    if (g.steps == K) {
      // 3-D star stencils of 4-byte cells on rows a multiple of 4 cells apart: 16-byte groups.
      if constexpr (vector_trapezoid_usable<S, K>()) {
        if (vector_step_fits(g, in, out)) {
          launch_vector_trapezoid_k<S, VectorTrapezoidDefaultPolicy::type, K>(stencil, in, out, g, outside, stream);
          return true;
        }
      }
      // 2-D stencils of radius 1 (star or box) of 4-byte cells likewise, up to row_vector_trapezoid_max_k.
      if constexpr (row_vector_trapezoid_usable<S, K>()) {
        if (vector_step_fits(g, in, out, constants)) {
          launch_row_vector_trapezoid_k<S, RowVectorTrapezoidDefaultPolicy::type, K>(stencil, in, out, constants, g, outside,
                                                                                     stream);
          return true;
        }
      }
      if constexpr (register_trapezoid_usable<S, Policy, K>()) {
        launch_register_trapezoid_k<S, Policy, K>(stencil, in, out, constants, g, outside, stream);
        return true;
      } else {
        return false;
      }
    }
    return launch_register_trapezoid<S, Policy, K + 1>(stencil, in, out, constants, g, outside, stream);
  }
}

// One launch of k = g.steps steps: a single-step kernel for one; for more,
// the register trapezoids for 2-D and 3-D star stencils and the 16-byte one
// for 2-D boxes of radius 1 too (the heights they take), else the plane
// trapezoid in 3-D and the box trapezoid otherwise.
template <Stencil S>
void launch_steps(const S& stencil, const typename S::value_type* in, typename S::value_type* out,
                  const typename S::value_type* constants, const LaunchGeometry& g, typename S::value_type outside,
                  cudaStream_t stream) {
  if (g.steps == 1) {
    launch_single_step(stencil, in, out, constants, g, outside, stream);
  } else {
    // Star stencils, and 2-D boxes (the 16-byte 2-D trapezoid takes those of radius 1).
    if constexpr (S::dims >= 2 && (S::shape.kind == ShapeKind::star || S::dims == 2)) {
      if (launch_register_trapezoid(stencil, in, out, constants, g, outside, stream)) return;
    }
    if constexpr (S::dims == 3) {
      launch_plane_trapezoid(stencil, in, out, constants, g, outside, stream);
    } else {
      launch_trapezoid_kernel(stencil, in, out, constants, g, outside, stream);
    }
  }
}

template <Stencil S>
void stage_cuda(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  StageArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileLayout& p = *args.layout;
  cudaStream_t stream = starpu_cuda_get_local_stream();
  auto* tile = static_cast<TileBuffers*>(buffers[0]);
  int current = tile->current;
  int buffer = 1;
  const T* constants = nullptr;
  if (p.constant_fields > 0) constants = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));
  if (args.chunk_scratch) ++buffer;  // the CPU's chunk scratch: unused here

  // Ghost zone: incoming strips and periodic self-wraps in one launch.
  const long long padded_cells = p.padded_cells();
  std::vector<BoxCopy<T>> copies;
  for (const Box& destination : p.input_destinations) {
    const T* strip = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));
    const Extent e = destination.extent();
    copies.push_back({strip, tile->buffer<T>(current), box_in(e, cell_count(e), {0, 0, 0}),
                      box_in(p.padded, padded_cells, destination.lo),
                      {static_cast<int>(e[0]), static_cast<int>(e[1]), static_cast<int>(e[2])}, p.updated_fields});
  }
  for (const WrapCopy& wrap : p.self_wraps) {
    const Extent e = wrap.source.extent();
    copies.push_back({tile->buffer<T>(current), tile->buffer<T>(current),
                      box_in(p.padded, padded_cells, wrap.source.shifted(p.ghost).lo),
                      box_in(p.padded, padded_cells, wrap.destination.lo),
                      {static_cast<int>(e[0]), static_cast<int>(e[1]), static_cast<int>(e[2])}, p.updated_fields});
  }
  copy_boxes(copies, stream);

  int limit = 0, device = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const int kernel_height = std::max(1, std::min(args.kernel_height, max_kernel_height<S>(limit)));
  LaunchGeometry g{};
  const Box inside = p.domain_in_padded();
  for (int d = 0; d < 3; ++d) {
    g.padded[d] = static_cast<int>(p.padded[d]);
    g.inside_lo[d] = static_cast<int>(inside.lo[d]);
    g.inside_hi[d] = static_cast<int>(inside.hi[d]);
    g.radius[d] = static_cast<int>(p.radius[d]);
  }
  g.padded_cells = padded_cells;
  g.boundary = static_cast<int>(p.boundary.kind);
  g.constant_planes = static_cast<int>(p.constant_planes);
  g.constant_field_stride = p.constant_planes * padded_cells;
  const T outside = static_cast<T>(p.boundary.value);
  for (int done = 0; done < args.steps;) {
    const int k = std::min(kernel_height, args.steps - done);
    const Box region = trapezoid_region(p, TrapezoidMode::shrink, done + k);
    for (int d = 0; d < 3; ++d) g.region_lo[d] = static_cast<int>(region.lo[d]), g.region_hi[d] = static_cast<int>(region.hi[d]);
    g.steps = k;
    g.first_step = args.first_step + done;
    launch_steps(*args.stencil, tile->buffer<T>(current), tile->buffer<T>(1 - current), constants, g, outside,
                     stream);
    current = 1 - current;
    done += k;
  }
  tile->current = current;

  if (args.publish) {
    copies.clear();
    for (std::size_t i = 0; i < p.output_sources.size(); ++i) {
      const Box& source = p.output_sources[i];
      T* strip = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[buffer + i]));
      const Extent e = source.extent();
      copies.push_back({tile->buffer<T>(current), strip, box_in(p.padded, padded_cells, source.shifted(p.ghost).lo),
                        box_in(e, cell_count(e), {0, 0, 0}),
                        {static_cast<int>(e[0]), static_cast<int>(e[1]), static_cast<int>(e[2])}, p.updated_fields});
    }
    copy_boxes(copies, stream);
  }
}

}  // namespace trapeze::cuda
