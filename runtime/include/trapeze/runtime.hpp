#pragma once
// The runtime object: owns StarPU's lifetime (starpu_init / starpu_shutdown).
// One exists at a time in a process; everything that submits work takes it by
// reference so nothing outlives it.
#include <string>

namespace trapeze {

struct RuntimeOptions {
  std::string scheduler;  // empty: STARPU_SCHED or StarPU's default
  int cpus = -1;          // -1: STARPU_NCPU or all cores
  int cuda_devices = -1;  // -1: STARPU_NCUDA or all GPUs
};

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int worker_count() const;
  int cpu_worker_count() const;
  int cuda_worker_count() const;
  std::string scheduler() const;
  // Blocks until every submitted task has finished.
  void wait_for_all() const;
};

}  // namespace trapeze
