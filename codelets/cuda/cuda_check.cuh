#pragma once
// Every CUDA call and launch in a codelet is checked. A codelet runs inside a
// StarPU worker, where an exception cannot travel back to the application, so
// a failure prints one line naming the call and the error and aborts.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace trapeze::cuda {

inline void check(cudaError_t status, const char* what, const char* file, int line) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "trapeze: CUDA error in %s (%s:%d): %s\n", what, file, line, cudaGetErrorString(status));
  std::abort();
}

}  // namespace trapeze::cuda

#define TRAPEZE_CUDA_CHECK(call) ::trapeze::cuda::check((call), #call, __FILE__, __LINE__)
// After a launch: a bad configuration shows up here, not at the next call.
#define TRAPEZE_CUDA_CHECK_LAUNCH(what) ::trapeze::cuda::check(cudaGetLastError(), what, __FILE__, __LINE__)
