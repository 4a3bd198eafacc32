#pragma once
// Counts one warp publishes in global memory and warps on other
// multiprocessors wait for (the PeerWave kernels' peer synchronisation, seed
// 004): a warp's lanes store, __syncwarp(), then lane 0 publishes a count
// with release semantics; a waiting lane 0 spins on relaxed loads and reads
// the count once more with acquire semantics, then __syncwarp() hands the
// order to its lanes (CUTLASS's semaphores do the same) instead of a
// __threadfence() (fence.sc) on both sides.
#include <cuda_runtime.h>

namespace trapeze::cuda::detail {

__device__ inline int relaxed_flag(const int* flag) {
  int value;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

__device__ inline int acquired_flag(const int* flag) {
  int value;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
}

// Returns once *flag >= count; what the release of that count (or of a later
// one) published is then visible to this thread.
__device__ inline void wait_for(const int* flag, int count) {
  while (relaxed_flag(flag) < count) {
  }
  (void)acquired_flag(flag);
}

__device__ inline void publish(int* flag, int count) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(flag), "r"(count) : "memory");
}

}  // namespace trapeze::cuda::detail
