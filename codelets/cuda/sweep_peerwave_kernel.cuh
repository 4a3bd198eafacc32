#pragma once
// PeerWave for in-place sweeps (seed 004) on the hyper-tiles of
// sweep_hyper_tile.cuh: persistent blocks, as many as fit on the GPU at once,
// take the work items (sweep t, band b) in order t * bands + b, in turn, and
// sweep each item's chunks left to right, keeping their last values in
// registers. Bands wait on counts their peers publish in global memory, with
// no grid-wide barrier: a band starts a chunk as soon as the band above is
// far enough ahead, and several sweeps are in flight at once in one launch
// (a kernel-level trapezoid of sweeps).
//
// Two warps an item. The compute warp waits for the band above, copies the
// row above, sweeps the chunk, stores its row 31 (the only row the band below
// reads) and publishes; the memory warp copies chunks in two ahead (after
// what they need from the sweep before) and stores rows 0-30 behind. A band
// starts chunk q when the band above has finished chunk q + 1, so a sweep
// takes about 2 * bands + chunks chunk latencies, and a chunk's latency is
// now the hand-over and the steps alone. The stages pass between the two
// warps through mbarriers (shared_barrier.cuh). On an H200 this was 1.4-1.6x
// (a launch a sweep) and 1.1-1.3x (3 or 10 sweeps a launch) faster than one
// warp an item that copied ahead itself, at every size and count measured;
// named barriers (bar.arrive) were faster a launch a sweep but slower ten a
// launch, and racecheck cannot follow them (docs/PERF.md, 2026-11-29).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "async_copy.cuh"
#include "cuda_check.cuh"
#include "peer_flags.cuh"
#include "shared_barrier.cuh"
#include "sweep_hyper_tile.cuh"

namespace trapeze::cuda {

namespace detail {

// An item publishes q + 1 when chunk q's row 31 (the row the band below
// reads) is in memory, and chunks + 2 at its end: the memory warp stores rows
// 0-30 of chunk q while the compute warp sweeps chunk q + 1, so a count c
// says rows 31 of chunks 0..c-1 and all rows of chunks 0..c-3 are there.
// Before it copies chunk q an item needs from the sweep before its own band's
// count at q + 4 (the old values of chunks 0..q+1 it reads) and the band
// below's at q + 3 (the old row below, chunks 0..q, which that band has also
// copied before this item overwrites the row it read as its up).
__device__ inline void wait_for_last_sweep(const int* mine, const HyperTiles& h, int sweep, int b, int q) {
  if (sweep == 0) return;
  wait_for(mine - h.bands, min(q + 4, h.chunks + 2));
  if (b + 1 < h.bands) wait_for(mine - h.bands + 1, min(q + 3, h.chunks + 2));
}

// The stages' hand-over: copied[s], the memory warp has
// copied a chunk into stage s; swept[s], the compute warp is done with it.
// Each warp counts the phases it waits for (bit s of a phase word).
struct StageBarriers {
  SharedBarrier copied[2];
  SharedBarrier swept[2];
};

__device__ inline void wait_for_next_phase(SharedBarrier* barrier, unsigned& phases, int s) {
  wait_for_phase(barrier, (phases >> s) & 1u);
  phases ^= 1u << s;
}

// The memory warp's part of chunk q: what it needs from the sweep before,
// its cells into stage q % 2, then the compute warp is told.
template <typename T>
__device__ void copy_chunk_in(const SweepTile<T>& t, const HyperTiles& h, const int* mine, int sweep, int b, int q,
                              T* own, T* below, StageBarriers& barriers) {
  if ((threadIdx.x & 31) == 0) wait_for_last_sweep(mine, h, sweep, b, q);
  __syncwarp();
  copy_hyper_tile(t, h.chunk, b, q, own, below);
  wait_for_copies_to_shared();
  arrive(&barriers.copied[q & 1]);
}

}  // namespace detail

// `sweeps` sweeps of the tile in one launch, two warps a block and an item
// (warp 0 computes, warp 1 moves memory). `progress`: sweeps x bands ints,
// zero at launch: the counts items publish.
// __launch_bounds__(64, 12): registers for 12 blocks a multiprocessor, as
// many as their shared memory allows (ptxas: 76, no spills; 126 and 8 blocks
// without the bound).
template <InPlaceSweep S>
__global__ void __launch_bounds__(64, 12)
    sweep_peerwave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int sweeps, int* progress) {
  using T = typename S::value_type;
  extern __shared__ unsigned char shared_bytes[];
  T* const shared = reinterpret_cast<T*>(shared_bytes);
  const std::size_t stage_elements = sweep_stage_elements(h.chunk);
  T* const above = shared + 2 * stage_elements;
  const auto own = [&](int q) { return shared + (q & 1) * stage_elements; };
  const auto below = [&](int q) { return own(q) + sweep_band_rows * (h.chunk + 1); };
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const bool computes = threadIdx.x < 32;
  __shared__ detail::StageBarriers barriers;
  if (threadIdx.x == 0) {
    for (SharedBarrier& b : barriers.copied) init_barrier(&b, 32);  // the memory warp's lanes
    for (SharedBarrier& b : barriers.swept) init_barrier(&b, 32);   // the compute warp's lanes
  }
  __syncthreads();
  unsigned phases = 0;  // of the barriers this warp waits for, one bit a stage
  const long long items = static_cast<long long>(sweeps) * h.bands;
  for (long long item = blockIdx.x; item < items; item += gridDim.x) {
    const int sweep_index = static_cast<int>(item / h.bands);
    const int b = static_cast<int>(item % h.bands);
    int* const mine = progress + item;
    if (computes) {
      const Index row = static_cast<Index>(b) * sweep_band_rows + lane;
      T previous = row < t.rows ? t.left[row] : T{};
      for (int q = 0; q < h.chunks; ++q) {
        if (lane == 0 && b > 0) detail::wait_for(mine - 1, min(q + 2, h.chunks));
        __syncwarp();
        detail::copy_row_above(t, h.chunk, b, q, above);
        wait_for_copies_to_shared();
        detail::wait_for_next_phase(&barriers.copied[q & 1], phases, q & 1);
        __syncwarp();  // every lane's row above is in
        detail::sweep_staged_steps(sweep, t, h.chunk, b, q, previous, own(q), above, below(q));
        __syncwarp();
        detail::store_rows(t, h.chunk, b, q, own(q), sweep_band_rows - 1, sweep_band_rows);
        __syncwarp();
        if (lane == 0) detail::publish(mine, q + 1);
        arrive(&barriers.swept[q & 1]);
      }
    } else {
      for (int q = 0; q < min(2, h.chunks); ++q) {
        detail::copy_chunk_in(t, h, mine, sweep_index, b, q, own(q), below(q), barriers);
      }
      for (int q = 0; q < h.chunks; ++q) {
        detail::wait_for_next_phase(&barriers.swept[q & 1], phases, q & 1);
        detail::store_rows(t, h.chunk, b, q, own(q), 0, sweep_band_rows - 1);
        // (copy_chunk_in's __syncwarp orders these reads of the stage before the copy into it)
        if (q + 2 < h.chunks) detail::copy_chunk_in(t, h, mine, sweep_index, b, q + 2, own(q), below(q), barriers);
      }
      __syncwarp();
      if (lane == 0) detail::publish(mine, h.chunks + 2);
    }
    __syncthreads();  // both warps are done with the item's stages
  }
}

// How many blocks of sweep_peerwave_kernel<S> are on the GPU at once: the
// persistent kernel must not start more (a waiting block would hold the
// multiprocessor its predecessor needs). Also lifts its shared-memory limit.
template <InPlaceSweep S>
int resident_peerwave_blocks(int chunk) {
  const int bytes = static_cast<int>(peerwave_shared_bytes<typename S::value_type>(chunk));
  int device = 0, sms = 0, per_sm = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(sweep_peerwave_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  TRAPEZE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sweep_peerwave_kernel<S>, 64, bytes));
  if (per_sm < 1) {
    std::fprintf(stderr, "trapeze: a hyper-tile %d columns wide needs %d bytes of shared memory: more than a block may have\n",
                 chunk, bytes);
    std::abort();
  }
  return sms * per_sm;
}

// `sweeps` sweeps of a tile in one PeerWave launch; `progress` holds
// sweeps * h.bands ints of device memory (zeroed here, on the stream).
template <InPlaceSweep S>
void launch_sweep_peerwave(const S& sweep, const SweepTile<typename S::value_type>& t, const HyperTiles& h, int sweeps,
                           int* progress, int resident_blocks, cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0 || sweeps == 0) return;
  const long long items = static_cast<long long>(sweeps) * h.bands;
  TRAPEZE_CUDA_CHECK(cudaMemsetAsync(progress, 0, sizeof(int) * static_cast<std::size_t>(items), stream));
  const int blocks = static_cast<int>(std::min<long long>(items, resident_blocks));
  sweep_peerwave_kernel<S><<<blocks, 64, peerwave_shared_bytes<typename S::value_type>(h.chunk), stream>>>(
      sweep, t, h, sweeps, progress);
  TRAPEZE_CUDA_CHECK_LAUNCH("sweep_peerwave_kernel");
}

}  // namespace trapeze::cuda
