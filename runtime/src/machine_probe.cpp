#include "trapeze/machine_probe.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstring>
#include <fstream>
#include <limits>
#include <thread>
#include <vector>

namespace trapeze {

double BandwidthCurve::at(double working_set_bytes) const {
  if (points.empty()) return 1e10;
  if (working_set_bytes <= points.front().working_set_bytes) return points.front().bytes_per_second;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (working_set_bytes <= points[i].working_set_bytes) {
      const double f = std::log(working_set_bytes / points[i - 1].working_set_bytes) /
                       std::log(points[i].working_set_bytes / points[i - 1].working_set_bytes);
      return points[i - 1].bytes_per_second + f * (points[i].bytes_per_second - points[i - 1].bytes_per_second);
    }
  }
  return points.back().bytes_per_second;
}

BandwidthCurve measure_bandwidth_curve(int threads) {
  threads = std::max(1, threads);
  constexpr std::size_t largest = std::size_t{256} << 20;  // bytes per array
  std::vector<char> a(largest, 1), b(largest, 0);
  BandwidthCurve curve;
  for (std::size_t bytes = std::size_t{128} << 10; bytes <= largest; bytes *= 4) {
    // Each thread copies its own slice many times between two barriers, so
    // small (cache-resident) sizes are timed without thread start-up in them;
    // the best of three trials, since another process can only slow a trial.
    const int repeats = static_cast<int>(std::max<std::size_t>(4, (std::size_t{256} << 20) / bytes));
    double slowest = std::numeric_limits<double>::infinity();
    for (int trial = 0; trial < 3; ++trial) {
      std::atomic<int> ready{0};
      std::atomic<bool> go{false};
      std::vector<double> seconds(threads);
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          const std::size_t lo = bytes * t / threads, hi = bytes * (t + 1) / threads;
          std::memcpy(b.data() + lo, a.data() + lo, hi - lo);  // warm
          ready.fetch_add(1);
          while (!go.load()) std::this_thread::yield();
          const auto start = std::chrono::steady_clock::now();
          for (int r = 0; r < repeats; ++r) {
            std::memcpy((r & 1 ? a : b).data() + lo, (r & 1 ? b : a).data() + lo, hi - lo);
          }
          seconds[t] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
      }
      while (ready.load() < threads) std::this_thread::yield();
      go.store(true);
      for (auto& thread : pool) thread.join();
      slowest = std::min(slowest, *std::max_element(seconds.begin(), seconds.end()));
    }
    curve.points.push_back({2.0 * static_cast<double>(bytes), 2.0 * static_cast<double>(bytes) * repeats / slowest});
  }
  return curve;
}

std::string machine_fingerprint() {
  std::string model = "unknown CPU";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return model + "; " + std::to_string(std::thread::hardware_concurrency()) + " cores; L2 " +
         std::to_string(sysconf(_SC_LEVEL2_CACHE_SIZE)) + "; L3 " + std::to_string(sysconf(_SC_LEVEL3_CACHE_SIZE));
}

}  // namespace trapeze
