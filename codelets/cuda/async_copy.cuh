#pragma once
// Copies from global to shared memory that need no registers and do not
// stall the warp that issues them (cp.async, sm_80 and later): a persistent
// warp issues the next piece of work's loads and keeps computing while they
// are in flight. Ordering is the PTX memory model's for weak loads: a copy
// issued after an acquire (a flag read with ld.acquire, or seen and then a
// __threadfence) reads what the release that set the flag published. cp.async.ca takes 4, 8 or 16 bytes; other
// sizes, and other GPUs, copy through a register.
#include <cuda_runtime.h>

namespace trapeze::cuda {

template <typename T>
__device__ __forceinline__ void copy_to_shared_async(T* to, const T* from) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) {
    const auto shared_address = static_cast<unsigned>(__cvta_generic_to_shared(to));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(shared_address), "l"(from), "n"(sizeof(T))
                 : "memory");
    return;
  }
#endif
  *to = *from;
}

// Waits for every copy this thread issued; the warp's other lanes' copies
// are visible to it after a __syncwarp() that follows.
__device__ __forceinline__ void wait_for_copies_to_shared() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace trapeze::cuda
