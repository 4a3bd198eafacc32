#pragma once
// One job cut into contiguous parts that run on several threads at once. The
// grid copies of a run (trapeze/grid_transfer.hpp) are one StarPU task per
// band of tiles, and one core moves about 4-8 GB/s: on one H100 a jacobi2d
// run spent 2.0 s of 5.0 copying 9.7 GB between the grid and two bands,
// while the node's other cores idled and the GPU waited (PERF.md).
// A thread starts with its creator's core binding, and the creator here is a
// StarPU worker bound to one core: helpers must be given other cores, or all
// of them share that one (which made two attempts at this no faster).
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "trapeze/geometry.hpp"

namespace trapeze {

// Calls part(lo, hi) on `parts` contiguous, near-equal ranges that cover
// [begin, end) (fewer when the range has fewer elements): the first on the
// calling thread, the others on threads of their own (inline when the system
// refuses a thread), which may run on any of `cores` (empty: the caller's
// binding). Returns once every part has, rethrowing the first exception one
// of them threw.
template <typename Part>
void run_parts_in_parallel(Index begin, Index end, int parts, const Part& part, const std::vector<int>& cores = {}) {
  const Index n = end - begin;
  if (n <= 0) return;
  const Index count = std::clamp<Index>(parts, 1, n);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count));
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  for (int core : cores) {
    if (core >= 0 && core < CPU_SETSIZE) CPU_SET(core, &allowed);
  }
  auto run = [&](Index i) {
    // Advice: where the set is refused the helper keeps the caller's binding.
    if (i > 0 && CPU_COUNT(&allowed) > 0) pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
    try {
      part(begin + n * i / count, begin + n * (i + 1) / count);
    } catch (...) {
      errors[static_cast<std::size_t>(i)] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;  // joined when the block ends
    threads.reserve(static_cast<std::size_t>(count - 1));
    for (Index i = 1; i < count; ++i) {
      try {
        threads.emplace_back(run, i);
      } catch (const std::system_error&) {
        run(i);
      }
    }
    run(0);
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// TRAPEZE_COPY_THREADS: threads a grid copy of one band uses, fixed (for
// measuring against the automatic count); 0 when unset (automatic). Throws
// InvalidArgument naming a value that is not an integer in [1, 256].
int copy_threads_from_environment();

}  // namespace trapeze
