#include "trapeze/out_of_core.hpp"

#include <starpu.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "trapeze/error.hpp"
#include "trapeze/memory_limits.hpp"

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

double stall_seconds_from_environment() {
  constexpr double default_seconds = 60;
  const char* text = std::getenv("TRAPEZE_STALL_SECONDS");
  if (!text || !*text) return default_seconds;
  char* end = nullptr;
  errno = 0;
  const double seconds = std::strtod(text, &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(seconds) || seconds < 0) {
    throw InvalidArgument(std::string("TRAPEZE_STALL_SECONDS must be a number of seconds >= 0 (0: never), got '") +
                          text + "'");
  }
  return seconds;
}

void abandon_stalled_run(double idle_seconds, double gpu_memory_bytes) {
  const std::string where =
      gpu_memory_bytes > 0 ? "the " + format_bytes(gpu_memory_bytes) + " StarPU may use on each GPU (STARPU_LIMIT_CUDA_MEM)"
                           : "the memory StarPU may use (STARPU_LIMIT_CPU_MEM)";
  std::fprintf(stderr,
               "%s: error: no task finished for %.0f s of an out-of-core run: StarPU's memory manager cannot make room "
               "in %s; give it more memory or smaller tiles (TRAPEZE_STALL_SECONDS sets this limit)\n",
               program_invocation_short_name, idle_seconds, where.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  std::_Exit(3);
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
      // starpu_transfer_bandwidth is the bus calibration's own rate (MB/s,
      // i.e. bytes per microsecond). starpu_transfer_predict, used before,
      // multiplies a transfer's time by 2 x the GPU count (perfmodel_bus.c,
      // a contention guess): on one GPU it counted every byte twice (26.8
      // GB/s on an H100 calibrated at 53.6), and the blocking factor came
      // out too tall: CIP 16384^2 under 1280 MiB on an H200 chose H 256 and
      // ran 0.930 of in core, H 128 at the calibrated rate (docs/PERF.md,
      // 2026-11-28, session 33).
      const double bytes_per_microsecond = starpu_transfer_bandwidth(from, to);
      const double latency = starpu_transfer_latency(from, to);
      if (std::isfinite(bytes_per_microsecond) && bytes_per_microsecond > 0) {
        const double microseconds = (std::isfinite(latency) ? latency : 0.0) + probe_bytes / bytes_per_microsecond;
        slowest = std::max(slowest, microseconds * 1e-6 / probe_bytes);
      }
    }
  }
  return slowest;
}

}  // namespace trapeze
