#pragma once
// The global-barrier baseline of seed 004 on the PeerWave kernels' hyper-tiles
// (sweep_hyper_tile.cuh): one launch per wave d = 2b + q of hyper-tiles of
// one sweep (band b - 1 must be a chunk ahead of band b, so waves are skewed
// by two per band); a warp per hyper-tile, the same copy, steps and store as
// PeerWave, its first values loaded from memory. The launch boundary is the
// barrier, and nothing can be copied before it.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "sweep_hyper_tile.cuh"

namespace trapeze::cuda {

// Wave d of the baseline: hyper-tiles (b, q) with 2b + q = d, a warp (block) each.
template <InPlaceSweep S>
__global__ void sweep_wave_kernel(S sweep, SweepTile<typename S::value_type> t, HyperTiles h, int d) {
  using T = typename S::value_type;
  extern __shared__ unsigned char shared_bytes[];
  T* const own = reinterpret_cast<T*>(shared_bytes);
  T* const below = own + sweep_band_rows * (h.chunk + 1);
  T* const above = own + sweep_stage_elements(h.chunk);
  const int first_band = max(0, (d - h.chunks + 2) / 2);
  const int b = first_band + static_cast<int>(blockIdx.x);
  const int q = d - 2 * b;
  if (b >= h.bands || q < 0 || q >= h.chunks) return;
  T previous = detail::value_before(t, h.chunk, b, q);
  detail::copy_hyper_tile(t, h.chunk, b, q, own, below);
  detail::copy_row_above(t, h.chunk, b, q, above);
  wait_for_copies_to_shared();
  __syncwarp();
  detail::sweep_staged_steps(sweep, t, h.chunk, b, q, previous, own, above, below);
  __syncwarp();
  detail::store_rows(t, h.chunk, b, q, own, 0, sweep_band_rows);
}

// One sweep of a tile: a launch per wave.
template <InPlaceSweep S>
void launch_sweep_waves(const S& sweep, const SweepTile<typename S::value_type>& t, const HyperTiles& h,
                        cudaStream_t stream) {
  if (t.rows == 0 || t.columns == 0) return;
  const int waves = 2 * (h.bands - 1) + h.chunks;
  const std::size_t bytes = sweep_shared_bytes<typename S::value_type>(h.chunk);
  TRAPEZE_CUDA_CHECK(cudaFuncSetAttribute(sweep_wave_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  for (int d = 0; d < waves; ++d) {
    const int first_band = std::max(0, (d - h.chunks + 2) / 2);
    const int last_band = std::min(h.bands - 1, d / 2);
    if (last_band < first_band) continue;
    sweep_wave_kernel<S><<<last_band - first_band + 1, 32, bytes, stream>>>(sweep, t, h, d);
    TRAPEZE_CUDA_CHECK_LAUNCH("sweep_wave_kernel");
  }
}

}  // namespace trapeze::cuda
