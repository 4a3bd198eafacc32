// How fast fresh host memory can be first touched: plain malloc (4 KiB pages)
// against Trapeze's HostBuffer (2 MiB-aligned, MADV_HUGEPAGE). The reason
// tiles and strips live in HostBuffers that are touched before any timed task.
//   build/benchmarks/page_touch [MiB]     (default 256; median of 5 each)
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "trapeze/host_buffer.hpp"

namespace {

template <typename Allocate>
double median_touch_gbps(std::size_t bytes, Allocate allocate) {
  std::vector<double> rates;
  for (int repeat = 0; repeat < 5; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    allocate([&](volatile char* p) {
      for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 1;
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(static_cast<double>(bytes) / seconds / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return rates[2];
}

}  // namespace

int main(int argc, char** argv) {
  const long mib = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 256;
  if (mib <= 0 || mib > (1L << 20)) {
    fmt::print(stderr, "page_touch: size must be 1..1048576 MiB, got '{}'\n", argc > 1 ? argv[1] : "");
    return 2;
  }
  const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
  const double plain = median_touch_gbps(bytes, [&](auto touch) {
    char* p = static_cast<char*>(std::malloc(bytes));
    if (!p) throw std::bad_alloc();
    touch(p);
    std::free(p);
  });
  const double huge = median_touch_gbps(bytes, [&](auto touch) {
    trapeze::HostBuffer<char> buffer(bytes);
    touch(buffer.data());
  });
  fmt::print("first touch of {} MiB, median of 5: malloc {:.2f} GB/s, HostBuffer {:.2f} GB/s ({:.1f}x)\n", mib, plain,
             huge, huge / plain);
}
