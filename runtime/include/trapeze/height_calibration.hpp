#pragma once
// --height auto on small domains: the height measured among the model's
// candidates, not only predicted.
//
// Why: in cache, the model's predicted curve is flat past its knee and ranks
// heights within 2% it cannot tell apart, while their measured times differ by
// 10-15% there (on 2 cores of the development VM, 2-D heights that are
// multiples of 8 ran faster than their neighbours at 1024^2 and slower at
// 16384^2; cause not found, docs/PERF.md). Far beyond the cache the model
// already reached 0.99-1.08 of the best height head to head. A domain of a few
// MiB costs milliseconds per trial, so a short measurement on copies of the
// run's own grid decides; the result is cached per run shape, machine and
// build (measurement_cache.hpp), so a shape is measured once.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "trapeze/height_model.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"

namespace trapeze {

// Domains of this many bytes of fields (updated and read-only) have their
// height measured (not grids with a read-only plane per step: see
// decide_height). Below the lower bound a whole run takes milliseconds and
// the measurement would cost more than any height could save.
inline constexpr double measured_height_min_bytes = 1024.0 * 1024;
inline constexpr double measured_height_max_bytes = 32.0 * 1024 * 1024;

// TRAPEZE_MEASURE_HEIGHTS: 1 (unset: the default) measures as above, 0 keeps
// the model's height everywhere (runs of many shapes once each, where the
// first run's measurement would not pay; the sanitizer builds of CI, where a
// measurement takes minutes). Another value is an InvalidArgument.
bool heights_measured_from_environment();

// The heights worth measuring: the model's choice, 1, and the usual ladder
// (which holds the multiples of 8) up to the largest useful height, less those
// the model predicts more than a quarter slower than its fastest.
inline std::vector<int> height_candidates(const CostModel& costs, const ModelShape& shape, int chosen) {
  const int last = max_useful_height(shape);
  double fastest = predict_seconds_per_step(costs, shape, chosen);
  for (int h = 1; h <= last; ++h) fastest = std::min(fastest, predict_seconds_per_step(costs, shape, h));
  std::vector<int> heights{chosen};
  for (int h : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) {
    if (h > last || h == chosen) continue;
    if (h == 1 || predict_seconds_per_step(costs, shape, h) <= 1.25 * fastest) heights.push_back(h);
  }
  std::sort(heights.begin(), heights.end());
  return heights;
}

// The key of a run shape in the measured-height cache.
inline std::string measured_height_key(const std::string& model_key, const ModelShape& shape) {
  static constexpr const char* boundary_names[] = {"clamp", "constant", "periodic"};
  std::string key = model_key + "/" + to_string(shape.domain, shape.dims) + "/tile " + to_string(shape.tile, shape.dims) +
                    "/" + boundary_names[static_cast<int>(shape.boundary)] + "/" + to_string(shape.mode);
  if (shape.steps > 0) key += "/steps<=" + std::to_string(std::min<Index>(shape.steps, 64));
  return key;
}

// Seconds per step of each candidate height on copies of `grid`: five rounds,
// each running every candidate once in a fresh order after a warm-up stage,
// then the median per height (a slow spell of a shared machine falls on
// different heights in different rounds). Returns the fastest.
template <Stencil S>
int measure_best_height(Runtime& runtime, const S& stencil, const Grid<typename S::value_type>& grid, const Plan& plan,
                        const std::vector<int>& heights, Index run_steps) {
  constexpr int rounds = 5;
  std::vector<std::vector<double>> seconds(heights.size());
  std::vector<std::size_t> order(heights.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 shuffle(2024);
  for (int round = 0; round < rounds; ++round) {
    std::shuffle(order.begin(), order.end(), shuffle);
    for (std::size_t i : order) {
      const int h = heights[i];
      // At least 32 steps (and two stages) a trial, a whole number of stages,
      // and no more than the run itself takes when it is shorter.
      Index steps = std::max<Index>(32, 2 * h);
      steps = (steps + h - 1) / h * h;
      if (run_steps > 0) steps = std::min(steps, std::max<Index>(h, run_steps / h * h));
      Grid<typename S::value_type> copy = grid;
      Plan p = plan;
      p.height = h;
      p.kernel_height = std::max(1, p.kernel_height);
      p.distribute = false;  // each process measures its own workers, also under MPI
      StencilRun<S> run(runtime, stencil, copy, p);
      run.submit(h);
      run.drain();
      const auto start = std::chrono::steady_clock::now();
      run.submit(steps);
      run.drain();
      seconds[i].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                           static_cast<double>(steps));
    }
  }
  std::size_t best = 0;
  double best_median = 0;
  for (std::size_t i = 0; i < heights.size(); ++i) {
    std::sort(seconds[i].begin(), seconds[i].end());
    const double median = seconds[i][seconds[i].size() / 2];
    if (i == 0 || median < best_median) best = i, best_median = median;
  }
  return heights[best];
}

}  // namespace trapeze
