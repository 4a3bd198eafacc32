#pragma once
// A barrier in shared memory (PTX mbarrier, sm_90) between two warps of a
// block that hand each other a buffer: the producer's 32 lanes arrive
// (release), the consumer's lanes wait for the barrier's phase to flip
// (acquire), without arriving. Neither warp waits for the other unless it
// needs the buffer: unlike bar.sync/bar.arrive, the producer never blocks,
// and compute-sanitizer's racecheck follows mbarriers (it reported every
// hand-over through named barriers as a race, docs/PERF.md 2026-11-29).
// The waiter spins on mbarrier.try_wait without a back-off: libcu++'s
// cuda::barrier backs off with __nanosleep and made the PeerWave kernel
// twenty times slower (same entry).
#include <cuda_runtime.h>

namespace trapeze::cuda {

struct SharedBarrier {
  unsigned long long state;  // opaque to everything but the mbarrier instructions
};

__device__ __forceinline__ unsigned shared_address(const SharedBarrier* barrier) {
  return static_cast<unsigned>(__cvta_generic_to_shared(barrier));
}

// One thread initialises; a __syncthreads() must follow before any use.
__device__ __forceinline__ void init_barrier(SharedBarrier* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
}

__device__ __forceinline__ void arrive(SharedBarrier* barrier) {
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.shared::cta.b64 state, [%0];\n"
      "}\n" ::"r"(shared_address(barrier))
      : "memory");
}

// Waits until the phase of parity `phase` (0 for the barrier's first phase,
// 1 for its second, 0 again for its third...) has completed.
__device__ __forceinline__ void wait_for_phase(SharedBarrier* barrier, unsigned phase) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred complete;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
        "selp.u32 %0, 1, 0, complete;\n"
        "}\n"
        : "=r"(done)
        : "r"(shared_address(barrier)), "r"(phase)
        : "memory");
  } while (done == 0);
}

}  // namespace trapeze::cuda
