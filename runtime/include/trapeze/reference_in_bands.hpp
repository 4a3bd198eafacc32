#pragma once
// The sequential reference (reference.hpp) for a domain too large to hold:
// the domain is cut into bands along its slowest dimension, and each band is
// computed on its own from its initial values plus a margin of steps * r
// slices on each side, by reference::advance itself. A cell's value after
// `steps` steps depends only on initial cells within steps * r of it, and
// whatever the margin's far edge holds spreads at most r slices per step, so
// the band's own slices come out exactly as in the whole-domain reference.
// Only the band and its margin are ever in memory (per thread), and the band's
// cells go straight into a FieldChecksum.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "trapeze/error.hpp"
#include "trapeze/field_checksum.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/reference.hpp"

namespace trapeze::reference {

struct BandOptions {
  int threads = 1;
  // Slices per band; 0: at least 16 margins (the margins' redundant work is
  // then at most an eighth) and at least 64 MiB of fields per band.
  Index band_slices = 0;
  // This caller computes bands part, part + parts, part + 2 parts, ... and
  // returns their checksum: checksums are sums, so the parts' results add up
  // (modulo 2^64) to the whole domain's. MPI ranks split a reference this
  // way, each on its own cores (Runtime::sum_over_ranks adds them).
  int part = 0;
  int parts = 1;
  // Called after each of this part's bands, by one thread at a time; `bands`
  // counts this part's.
  std::function<void(Index bands_done, Index bands)> progress{};
};

// Slices [lo, hi) of the slowest dimension a band [first, last) is computed
// from (lo may be negative, hi past the end, for periodic domains only).
struct BandSource {
  Index lo, hi;
};

inline BandSource band_source(Index first, Index last, Index slices, Index margin, BoundaryKind boundary) {
  if (boundary == BoundaryKind::periodic) {
    // A periodic domain no larger than the band and its margins is its own margin.
    if (last - first + 2 * margin >= slices) return {0, slices};
    return {first - margin, last + margin};
  }
  // The domain's real edges keep their boundary condition.
  return {std::max<Index>(0, first - margin), std::min(slices, last + margin)};
}

// The checksum (FieldChecksum) of the updated fields of `initial` (a
// generated grid: its row source gives the initial values) after `steps`
// steps of the reference.
template <Stencil S>
std::uint64_t checksum_in_bands(const S& stencil, const Grid<typename S::value_type>& initial, Index steps,
                                const BandOptions& options = {}) {
  using T = typename S::value_type;
  const GridRows<T>& rows = initial.rows();
  const int d = initial.dims() - 1;
  const Extent n = initial.extent();
  const Index margin = steps * S::shape.radius[d];
  Index slice_bytes = static_cast<Index>(sizeof(T)) * (initial.updated_count() + initial.constant_count() * initial.constant_planes());
  for (int e = 0; e < d; ++e) slice_bytes *= n[e];
  const Index band = options.band_slices > 0
                         ? options.band_slices
                         : std::clamp<Index>(std::max(16 * margin, (Index{64} << 20) / std::max<Index>(1, slice_bytes)), 1, n[d]);
  if (options.parts < 1 || options.part < 0 || options.part >= options.parts) {
    throw InvalidArgument("band part " + std::to_string(options.part) + " of " + std::to_string(options.parts) +
                          ": needs 0 <= part < parts");
  }
  const Index all_bands = (n[d] + band - 1) / band;
  // This part's bands, numbered 0 .. bands - 1; band i is the domain's part + i * parts.
  const Index bands = all_bands > options.part ? (all_bands - options.part + options.parts - 1) / options.parts : 0;
  FieldChecksum sum;
  std::atomic<Index> next{0};
  Index done = 0;
  std::mutex failure_mutex, progress_mutex;
  std::exception_ptr failure;
  auto work = [&] {
    try {
      for (Index i = next++; i < bands; i = next++) {
        const Index b = options.part + i * options.parts;
        const Index first = b * band, last = std::min(n[d], first + band);
        const BandSource source = band_source(first, last, n[d], margin, initial.boundary().kind);
        Extent sub_extent = n;
        sub_extent[d] = source.hi - source.lo;
        Grid<T> sub(sub_extent, initial.dims(), initial.updated_count(), initial.constant_count(), initial.constant_planes(),
                    initial.boundary());
        // Cell x of row (y, z) of the sub-grid is the domain's cell at the
        // wrapped slowest coordinate. fn(offset in the sub-grid, x, y, z,
        // count) per run of consecutive domain cells along x.
        auto wrap = [&](Index slice) { return ((slice + source.lo) % n[d] + n[d]) % n[d]; };
        auto for_each_run = [&](auto&& fn) {
          for (Index z = 0; z < sub_extent[2]; ++z) {
            for (Index y = 0; y < sub_extent[1]; ++y) {
              if (d > 0) {
                Extent global{0, y, z};
                global[d] = wrap(global[d]);
                fn(sub.linear(0, y, z), Index{0}, global[1], global[2], n[0]);
                continue;
              }
              // 1-D: the row is the band; a periodic margin wraps at most once each side.
              for (Index x = 0; x < sub_extent[0];) {
                const Index first_x = wrap(x);
                const Index count = std::min(sub_extent[0] - x, n[0] - first_x);
                fn(sub.linear(x, y, z), first_x, y, z, count);
                x += count;
              }
            }
          }
        };
        for_each_run([&](Index at, Index x, Index y, Index z, Index count) {
          for (int f = 0; f < sub.updated_count(); ++f) rows.initial(f, x, y, z, count, sub.updated(f).data() + at);
          for (int c = 0; c < sub.constant_count(); ++c) {
            for (Index plane = 0; plane < sub.constant_planes(); ++plane) {
              rows.initial(sub.updated_count() + c * static_cast<int>(sub.constant_planes()) + static_cast<int>(plane), x,
                           y, z, count, sub.constant(c).data() + plane * sub.cells() + at);
            }
          }
        });
        advance(stencil, sub, steps);
        for_each_run([&](Index at, Index x, Index y, Index z, Index count) {
          // Only the band's own slices count (not its margins).
          const Index slice = d == 0 ? x : d == 1 ? y : z;
          if (d > 0 && (slice < first || slice >= last)) return;
          const Index lo = d == 0 ? std::max(x, first) : x, hi = d == 0 ? std::min(x + count, last) : x + count;
          if (hi <= lo) return;
          for (int f = 0; f < sub.updated_count(); ++f) {
            sum.add(f, initial.linear(lo, y, z), sub.updated(f).data() + at + (lo - x), hi - lo);
          }
        });
        if (options.progress) {  // one caller at a time, in order
          std::lock_guard lock(progress_mutex);
          options.progress(++done, bands);
        }
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = bands;
    }
  };
  std::vector<std::thread> threads;
  for (int i = 1; i < std::max(1, options.threads); ++i) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return sum.value();
}

}  // namespace trapeze::reference
