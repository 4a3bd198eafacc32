// How fast a run's grid copies can go on this machine, and what limits them
// (issue 12: on two H100s the copies between the grid and the tiles took a
// fifth of a 5 s jacobi2d run, and more threads a band did not speed them up).
// Copies one buffer into another, cut over T threads, the ways a run does:
//   resident   both buffers' pages present (memcpy's own speed)
//   gather     into pages given back beforehand (MADV_DONTNEED): every 2 MiB
//              page faults in again, is zeroed, then written
//   gather-4k  the same without MADV_HUGEPAGE (4 KiB pages)
//   populate   the given-back pages faulted in by MADV_POPULATE_WRITE per
//              16 MiB chunk, then written
//   scatter    from a resident buffer, the source's pages given back every
//              16 MiB behind the copy
//   build/benchmarks/grid_copy_rates [GiB] [threads,...] [starpu]   (default 4, 1,4,8,16)
// With `starpu`, the copies run beside a started trapeze::Runtime (StarPU's
// workers, and CUDA's driver where there is a GPU) with the run's side of
// each copy (the tile) pinned, as in a run: what a run adds to the copies.
// A table of GB/s (medians of 3) last.
#include <fmt/core.h>
#include <starpu.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "trapeze/parallel_parts.hpp"
#include "trapeze/runtime.hpp"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace {

constexpr std::size_t chunk = std::size_t{16} << 20;
constexpr std::size_t huge_page = std::size_t{2} << 20;

struct Buffer {
  char* data = nullptr;
  std::size_t bytes = 0;
  Buffer(std::size_t n, bool huge) : bytes(n) {
    data = static_cast<char*>(std::aligned_alloc(huge_page, n));
    if (!data) throw std::bad_alloc();
    if (huge) madvise(data, n, MADV_HUGEPAGE);
    std::memset(data, 1, n);
  }
  ~Buffer() { std::free(data); }
  void give_back() const { madvise(data, bytes, MADV_DONTNEED); }
};

std::string file_text(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Copies src into dst over `threads` threads in chunks; `before(offset)` and
// `after(offset)` run around each chunk's copy. Returns GB/s.
double copy_rate(const Buffer& src, const Buffer& dst, int threads, const std::function<void(std::size_t)>& before,
                 const std::function<void(std::size_t)>& after) {
  const auto chunks = static_cast<trapeze::Index>(src.bytes / chunk);
  const auto start = std::chrono::steady_clock::now();
  trapeze::run_parts_in_parallel(0, chunks, threads, [&](trapeze::Index lo, trapeze::Index hi) {
    for (trapeze::Index c = lo; c < hi; ++c) {
      const std::size_t at = static_cast<std::size_t>(c) * chunk;
      if (before) before(at);
      std::memcpy(dst.data + at, src.data + at, chunk);
      if (after) after(at);
    }
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<double>(src.bytes) / seconds / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const double gib = argc > 1 ? std::strtod(argv[1], nullptr) : 4.0;
  std::vector<int> thread_counts{1, 4, 8, 16};
  if (argc > 2) {
    thread_counts.clear();
    std::stringstream list(argv[2]);
    for (std::string item; std::getline(list, item, ',');) thread_counts.push_back(std::atoi(item.c_str()));
  }
  const bool with_starpu = argc > 3 && std::string(argv[3]) == "starpu";
  if (argc > 3 && !with_starpu) {
    fmt::print(stderr, "grid_copy_rates: the third argument can only be 'starpu', got '{}'\n", argv[3]);
    return 2;
  }
  if (!(gib > 0 && gib <= 1024) || thread_counts.empty() ||
      std::any_of(thread_counts.begin(), thread_counts.end(), [](int t) { return t < 1 || t > 1024; })) {
    fmt::print(stderr, "grid_copy_rates: GiB must be in (0, 1024] and threads 1..1024, got '{}' '{}'\n",
               argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "");
    return 2;
  }
  const std::size_t bytes = static_cast<std::size_t>(gib * (1 << 30)) / chunk * chunk;
  fmt::print("transparent huge pages: enabled '{}', defrag '{}'; {} cores; {:.1f} GiB\n",
             file_text("/sys/kernel/mm/transparent_hugepage/enabled"),
             file_text("/sys/kernel/mm/transparent_hugepage/defrag"), std::thread::hardware_concurrency(),
             static_cast<double>(bytes) / (1 << 30));
  std::unique_ptr<trapeze::Runtime> runtime;
  if (with_starpu) runtime = std::make_unique<trapeze::Runtime>();
  Buffer src(bytes, true), dst(bytes, true), dst4k(bytes, false), scattered(bytes, true);
  // The tile's side of each copy, pinned as a run pins its tiles: the source
  // of the gathers, the destination of the scatter (dst, given back before
  // the gathers, is the grid's side).
  Buffer scatter_dst(bytes, true);
  const bool pinned = with_starpu && runtime->cuda_worker_count() > 0 && starpu_memory_pin(src.data, bytes) == 0 &&
                      starpu_memory_pin(scatter_dst.data, bytes) == 0;
  fmt::print("{}{}\n", with_starpu ? fmt::format("beside StarPU ({} CPU workers, {} CUDA)", runtime->cpu_worker_count(),
                                                     runtime->cuda_worker_count())
                                    : "no StarPU",
             pinned ? ", the tile side pinned" : "");
  const std::vector<std::string> ways{"resident", "gather", "gather-4k", "populate", "scatter"};
  std::vector<std::vector<double>> rates(ways.size(), std::vector<double>(thread_counts.size()));
  for (std::size_t t = 0; t < thread_counts.size(); ++t) {
    const int threads = thread_counts[t];
    std::vector<std::vector<double>> runs(ways.size());
    for (int repeat = 0; repeat < 3; ++repeat) {
      runs[0].push_back(copy_rate(src, dst, threads, {}, {}));
      dst.give_back();
      runs[1].push_back(copy_rate(src, dst, threads, {}, {}));
      dst4k.give_back();
      runs[2].push_back(copy_rate(src, dst4k, threads, {}, {}));
      dst.give_back();
      runs[3].push_back(copy_rate(src, dst, threads, [&](std::size_t at) { madvise(dst.data + at, chunk, MADV_POPULATE_WRITE); }, {}));
      std::memset(scattered.data, 2, bytes);
      runs[4].push_back(copy_rate(scattered, scatter_dst, threads, {}, [&](std::size_t at) { madvise(scattered.data + at, chunk, MADV_DONTNEED); }));
    }
    for (std::size_t w = 0; w < ways.size(); ++w) {
      std::sort(runs[w].begin(), runs[w].end());
      rates[w][t] = runs[w][1];
    }
  }
  if (pinned) {
    starpu_memory_unpin(src.data, bytes);
    starpu_memory_unpin(scatter_dst.data, bytes);
  }
  fmt::print("{:>10}", "GB/s");
  for (int threads : thread_counts) fmt::print(" {:>8}", fmt::format("{} thr", threads));
  fmt::print("\n");
  for (std::size_t w = 0; w < ways.size(); ++w) {
    fmt::print("{:>10}", ways[w]);
    for (double r : rates[w]) fmt::print(" {:8.1f}", r);
    fmt::print("\n");
  }
}
