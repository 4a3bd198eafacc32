#pragma once
// --width auto for in-place sweeps on a GPU: the hyper-tile width from the
// sweep width model (sweep_width_model.hpp) with its two constants measured
// by a short training run, as for wavefronts (hyper_tile_width_choice.hpp):
// a copy of the grid's first columns, all of its rows (so its bands and the
// launch's items are the real task's), swept one task's sweeps at three
// widths through the runtime, d and tau_s fitted to those timings, then the
// width with the least predicted time for one task over the whole grid. The
// constants are cached per GPU, sweep, grid shape and sweeps per task
// (MeasurementCache), so a shape trains once.
//
// The model's constants are those of the training's load: with a sixteenth
// of the columns an item holds a block for a sixteenth of the time, so fewer
// items share a multiprocessor than in the real launch, and a hyper-tile
// costs less (on an H200 a chunk took 4.5 us with about one item a
// multiprocessor and 11 us with twelve, docs/PERF.md 2026-11-29). Both
// constants scale alike, which moves the predicted times but not much the
// width that minimises them.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "trapeze/cuda_stencils.hpp"
#include "trapeze/gpu_device.hpp"
#include "trapeze/hyper_tile_costs_cache.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/sweep_run.hpp"
#include "trapeze/sweep_width_model.hpp"

namespace trapeze {

// The widths the training times, and the range the model chooses from (in
// steps of 8 columns: a lane's row segment then stays 8-byte aligned in pairs).
inline constexpr int trained_sweep_widths[] = {32, 64, 128};
inline constexpr int narrowest_sweep_width = 32, widest_sweep_width = 256, sweep_width_step = 8;

// The training's columns: a sixteenth of the grid's (at least 2048, at most
// all of them).
inline Index sweep_training_columns(Index columns) { return std::min(columns, std::max<Index>(2048, columns / 16)); }

// Seconds of `sweeps` sweeps of a copy of `cells` (rows x columns) under `plan`.
template <InPlaceSweep S>
double timed_sweep_run(Runtime& runtime, const S& sweep, const std::vector<typename S::value_type>& cells, Index rows,
                       Index columns, const SweepPlan& plan, Index sweeps) {
  std::vector<typename S::value_type> grid = cells;
  SweepRun run(runtime, sweep, std::span<typename S::value_type>(grid), rows, columns, plan);
  const auto start = std::chrono::steady_clock::now();
  run.submit(sweeps);
  run.wait();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The width for a grid swept as one tile on a GPU, `sweeps_per_task` sweeps a
// launch (the sweep must run there: TRAPEZE_CUDA_SWEEP and a CUDA worker).
template <InPlaceSweep S>
HyperTileWidthDecision decide_sweep_width(Runtime& runtime, const S& sweep, std::span<const typename S::value_type> grid,
                                      Index rows, Index columns, const SweepPlan& plan, Index sweeps_per_task,
                                      const std::string& app,
                                      const std::filesystem::path& cache_file = MeasurementCache::default_path("sweep_widths.json")) {
  const CudaStencilFunctions* cuda = cuda_functions_of<S>();
  if (cuda == nullptr || cuda->sweep_tile == nullptr || cuda->sweep_resident_blocks == nullptr ||
      runtime.cuda_worker_count() == 0) {
    throw Error("--width auto needs the sweep on a GPU (TRAPEZE_CUDA_SWEEP and a CUDA worker)");
  }
  HyperTileWidthDecision decision;
  if (rows == 0 || columns == 0) return decision;
  const Index per_task = std::max<Index>(1, sweeps_per_task);
  const auto geometry = [&](Index cols) {
    return [&, cols](int w) { return SweepGeometry{rows, cols, per_task, cuda->sweep_resident_blocks(w)}; };
  };
  const std::string key = gpu_device_name() + "/" + app + "/" + std::to_string(rows) + "x" + std::to_string(columns) +
                          "/" + std::to_string(per_task) + " sweeps a task";
  decision.costs = cached_hyper_tile_costs(
      cache_file, key,
      [&] {
        const Index train = sweep_training_columns(columns);
        std::vector<typename S::value_type> slice(static_cast<std::size_t>(rows * train));
        for (Index i = 0; i < rows; ++i) std::copy_n(grid.begin() + i * columns, train, slice.begin() + i * train);
        SweepPlan p = plan;
        p.tile_rows = rows;
        p.tile_columns = train;
        p.devices = StageDevices::gpu;
        p.sweeps_per_task = static_cast<int>(per_task);
        p.distribute = false;  // each process trains its own GPU, also under MPI
        timed_sweep_run(runtime, sweep, slice, rows, train, p, per_task);  // warm-up: modules, pools
        std::vector<HyperTileTiming> timings;
        for (int w : trained_sweep_widths) {
          p.hyper_tile_width = w;
          const double seconds = std::min(timed_sweep_run(runtime, sweep, slice, rows, train, p, per_task),
                                          timed_sweep_run(runtime, sweep, slice, rows, train, p, per_task));
          timings.push_back({w, sweep_hyper_tile_times(geometry(train)(w), w), seconds});
        }
        return fit_hyper_tile_costs(timings);
      },
      decision.trained);
  decision.width = optimal_sweep_width(decision.costs, geometry(columns), narrowest_sweep_width, widest_sweep_width,
                                       sweep_width_step);
  return decision;
}

}  // namespace trapeze
