#include "trapeze/machine_probe.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>
#include <vector>

namespace trapeze {

double BandwidthCurve::at(double working_set_bytes) const {
  if (points.empty()) return 1e10;
  if (working_set_bytes <= points.front().working_set_bytes) return points.front().bytes_per_second;
  // Log-linear between points, a factor 2 apart. Not a step at the next size
  // up: this machine's last-level cache still serves part of a working set
  // past its size (jacobi3d's best height is where two workers hold ~45 MB,
  // past the 32 MB edge of the curve), and a step at 33.5 MB turned a 0.4%
  // larger tile into all-memory traffic.
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (working_set_bytes <= points[i].working_set_bytes) {
      const double f = std::log(working_set_bytes / points[i - 1].working_set_bytes) /
                       std::log(points[i].working_set_bytes / points[i - 1].working_set_bytes);
      return points[i - 1].bytes_per_second + f * (points[i].bytes_per_second - points[i - 1].bytes_per_second);
    }
  }
  return points.back().bytes_per_second;
}

namespace {

// One pass of a stencil-like stream: read one array, write another with
// ordinary stores. memcpy is not used: for large sizes glibc's memcpy switches
// to non-temporal stores and skips the read-for-ownership of the destination
// that every sweep of a stencil pays.
void stream_pass(const std::uint32_t* __restrict in, std::uint32_t* __restrict out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = in[i] ^ 1u;
}

}  // namespace

BandwidthCurve measure_bandwidth_curve(int threads) {
  threads = std::max(1, threads);
  using Word = std::uint32_t;
  constexpr std::size_t largest = std::size_t{256} << 20;  // bytes per array
  std::vector<Word> a(largest / sizeof(Word), 1), b(largest / sizeof(Word), 0);
  BandwidthCurve curve;
  // A point per factor 2 of working set: the last-level cache's edge is where
  // the best height changes, and a sparser curve interpolates across it.
  for (std::size_t bytes = std::size_t{128} << 10; bytes <= largest; bytes *= 2) {
    // Each thread streams its own slice many times between two barriers, so
    // small (cache-resident) sizes are timed without thread start-up in them;
    // the best of three trials, since another process can only slow a trial.
    const int repeats = static_cast<int>(std::max<std::size_t>(4, (std::size_t{256} << 20) / bytes));
    const std::size_t words = bytes / sizeof(Word);
    double slowest = std::numeric_limits<double>::infinity();
    for (int trial = 0; trial < 3; ++trial) {
      std::atomic<int> ready{0};
      std::atomic<bool> go{false};
      std::vector<double> seconds(threads);
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          const std::size_t lo = words * t / threads, hi = words * (t + 1) / threads;
          stream_pass(a.data() + lo, b.data() + lo, hi - lo);  // warm
          ready.fetch_add(1);
          while (!go.load()) std::this_thread::yield();
          const auto start = std::chrono::steady_clock::now();
          for (int r = 0; r < repeats; ++r) {
            if (r & 1) stream_pass(b.data() + lo, a.data() + lo, hi - lo);
            else stream_pass(a.data() + lo, b.data() + lo, hi - lo);
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

namespace trapeze {

std::string build_identity() {
  // The running executable's size and modification time: a rebuilt kernel is
  // another program, whose costs must be profiled again.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  struct stat info {};
  if (ec || ::stat(exe.c_str(), &info) != 0) return "unknown build";
  return exe.string() + "; " + std::to_string(info.st_size) + " bytes; modified " + std::to_string(info.st_mtim.tv_sec) +
         "." + std::to_string(info.st_mtim.tv_nsec);
}

}  // namespace trapeze
