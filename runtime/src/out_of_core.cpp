#include "trapeze/out_of_core.hpp"

#include <starpu.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace trapeze {

double gpu_memory_bytes() {
  double smallest = 0;
  const unsigned workers = starpu_worker_get_count();
  for (unsigned w = 0; w < workers; ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) != STARPU_CUDA_WORKER) continue;
    const starpu_ssize_t total = starpu_memory_get_total(starpu_worker_get_memory_node(w));
    if (total <= 0) continue;
    smallest = smallest == 0 ? static_cast<double>(total) : std::min(smallest, static_cast<double>(total));
  }
  return smallest;
}

double host_gpu_seconds_per_byte() {
  // Large enough that the bus's latency does not count.
  constexpr std::size_t probe_bytes = std::size_t{256} << 20;
  double slowest = 0;
  const unsigned workers = starpu_worker_get_count();
  for (unsigned w = 0; w < workers; ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) != STARPU_CUDA_WORKER) continue;
    const unsigned gpu = starpu_worker_get_memory_node(w);
    for (const auto& [from, to] : {std::pair{unsigned{STARPU_MAIN_RAM}, gpu}, std::pair{gpu, unsigned{STARPU_MAIN_RAM}}}) {
      const double microseconds = starpu_transfer_predict(from, to, probe_bytes);
      if (std::isfinite(microseconds) && microseconds > 0) slowest = std::max(slowest, microseconds * 1e-6 / probe_bytes);
    }
  }
  return slowest;
}

}  // namespace trapeze
