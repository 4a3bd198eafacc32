#pragma once
// What the in-place sweep apps (sor, heat2d) share: their options, the run
// through Trapeze (trapeze/sweep_run.hpp), the check against the sequential
// loop, one summary or JSON line, and the field as HDF5 and as a picture.
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app_main.hpp"
#include "app_options.hpp"
#include "hdf5_fields.hpp"
#include "png_image.hpp"
#include "run_report.hpp"
#include "trapeze/cuda_stencils.hpp"
#include "trapeze/memory_limits.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/sweep_reference.hpp"
#include "trapeze/sweep_run.hpp"
#include "trapeze/sweep_width_choice.hpp"

namespace apps {

struct SweepOptions : RunReportOptions {
  std::string size = "1024x1024";
  trapeze::Index sweeps = 100;
  std::string tile = "auto";     // CPUs: 256x256; GPUs alone: the whole grid as one tile
  std::string devices;           // empty: TRAPEZE_DEVICES, else auto
  std::string width = "auto";    // GPU: columns per lane per hyper-tile, or auto (seed 004's model)
  int sweeps_per_task = 0;       // 0: automatic (up to 64 for a grid in one tile)
  std::string output;  // HDF5 file of the final field
  std::string png;     // picture of the final field
};

// --size, --sweeps, --tile, --devices, --width, --output, --png and the report's options.
void add_sweep_options(CLI::App& cli, SweepOptions& options, const std::string& field_name);

// --devices if given, else TRAPEZE_DEVICES if set, else auto.
trapeze::StageDevices requested_sweep_devices(const SweepOptions& options);

struct SweepGrid {
  trapeze::Index rows = 0;
  trapeze::Index columns = 0;
};
// --size as rows x columns, with the output paths checked before any work.
SweepGrid sweep_grid(const SweepOptions& options, std::size_t value_bytes);

// Runs `sweep` over `grid` (rows x columns, updated in place) and reports.
// `describe` adds the app's fields to the JSON line and returns the
// summary's tail; the field is written as `field_name` after a verified (or
// unchecked) run.
template <trapeze::InPlaceSweep S>
int run_sweep_app(const char* name, const SweepOptions& options, const S& sweep, std::vector<double>& grid,
                  const SweepGrid& extent, const std::string& field_name,
                  const std::function<std::string(nlohmann::json&)>& describe) {
  static_assert(std::is_same_v<typename S::value_type, double>, "the sweep apps' fields are double");
  trapeze::SweepPlan plan;
  plan.devices = requested_sweep_devices(options);
  plan.max_tasks_in_flight = options.window;
  const bool width_auto = options.width == "auto";
  plan.hyper_tile_width = width_auto ? 32 : parse_hyper_tile_width(options.width, 32);
  plan.sweeps_per_task = options.sweeps_per_task;
  std::vector<double> expected;
  if (options.verify) expected = grid;
  trapeze::RuntimeOptions runtime_options;
  runtime_options.trace_directory = options.trace;
  trapeze::Runtime runtime(runtime_options);
  // GPUs alone take the whole grid as one tile: one PeerWave launch a sweep.
  const trapeze::CudaStencilFunctions* cuda = trapeze::cuda_functions_of<S>();
  const bool gpus_alone = cuda && cuda->sweep_tile && runtime.cuda_worker_count() > 0 &&
                          (plan.devices == trapeze::StageDevices::automatic || plan.devices == trapeze::StageDevices::gpu);
  const trapeze::Extent tile = options.tile != "auto" ? parse_extent(options.tile, 2, "tile")
                               : gpus_alone ? trapeze::Extent{std::max<trapeze::Index>(extent.rows, 1),
                                                              std::max<trapeze::Index>(extent.columns, 1), 1}
                                            : trapeze::Extent{256, 256, 1};
  plan.tile_rows = tile[0];
  plan.tile_columns = tile[1];
  // --width auto on a grid in one GPU tile: seed 004's model, trained once
  // per GPU, sweep, grid shape and sweeps per task (on CPU workers, or with
  // the grid cut into tiles of one sweep a task, the width stays 32).
  std::optional<trapeze::HyperTileWidthDecision> width_decision;
  if (width_auto && gpus_alone && plan.tile_rows >= extent.rows && plan.tile_columns >= extent.columns &&
      options.sweeps > 0) {
    const trapeze::Index per_task =
        std::min<trapeze::Index>(options.sweeps, options.sweeps_per_task > 0 ? options.sweeps_per_task
                                                                             : trapeze::automatic_sweeps_per_task);
    width_decision = trapeze::decide_sweep_width(runtime, sweep, std::span<const double>(grid), extent.rows,
                                                 extent.columns, plan, per_task, name);
    plan.hyper_tile_width = width_decision->width;
  }
  const ProgressLine progress(name, options, runtime);
  trapeze::Index tiles = 0, levels = 0, per_task = 1;
  double seconds = 0;
  {
    trapeze::SweepRun run(runtime, sweep, std::span<double>(grid), extent.rows, extent.columns, plan);
    tiles = run.tiles();
    per_task = run.sweeps_per_task();
    const auto start = std::chrono::steady_clock::now();
    run.submit(options.sweeps);
    levels = run.levels();
    run.wait(progress.callback());
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  progress.finish(seconds);
  // Under mpirun rank 0 holds the gathered grid and alone checks, writes and reports.
  if (runtime.rank() != 0) return 0;

  std::optional<std::string> mismatch;
  if (options.verify) {
    trapeze::reference::sweeps(sweep, std::span<double>(expected), extent.rows, extent.columns, options.sweeps);
    for (std::size_t k = 0; k < grid.size(); ++k) {
      if (std::memcmp(&grid[k], &expected[k], sizeof(double)) != 0) {
        mismatch = fmt::format("cell ({}, {}) is {} where the sequential loop gives {}", k / extent.columns,
                               k % extent.columns, grid[k], expected[k]);
        break;
      }
    }
  }
  const double updates = static_cast<double>(extent.rows) * static_cast<double>(extent.columns) *
                         static_cast<double>(options.sweeps);
  const double gcups = seconds > 0 ? updates / seconds / 1e9 : 0.0;
  nlohmann::json report = {{"app", name},
                           {"rows", extent.rows},
                           {"columns", extent.columns},
                           {"sweeps", options.sweeps},
                           {"tile", fmt::format("{}x{}", plan.tile_rows, plan.tile_columns)},
                           {"tiles", tiles},
                           {"devices", trapeze::to_string(plan.devices)},
                           {"hyper_tile_width", plan.hyper_tile_width},
                           {"width_auto", width_auto},
                           {"width_trained", width_decision ? width_decision->trained : false},
                           {"sweeps_per_task", per_task},
                           {"critical_path_tasks", levels},
                           {"window", plan.max_tasks_in_flight},
                           {"seconds", seconds},
                           {"gcups", gcups},
                           {"verified", options.verify ? nlohmann::json(!mismatch) : nlohmann::json(nullptr)},
                           {"ranks", runtime.ranks()}};
  report.update(runtime_report(runtime));
  const std::string tail = describe(report);
  if (options.json) {
    fmt::print("{}\n", report.dump());
  } else {
    fmt::print("{} {}x{} sweeps={} tile={}x{} workers={} sched={}: {}, {:.4f} s, {:.3f} GCUPS{}\n", name,
               extent.rows, extent.columns, options.sweeps, plan.tile_rows, plan.tile_columns, runtime.worker_count(),
               runtime.scheduler(), tail, seconds, gcups,
               options.verify ? (mismatch ? ", VERIFY FAILED" : ", verified") : "");
  }
  print_trace_hint(name, runtime, options);
  if (mismatch) {
    fmt::print(stderr, "{}: verify failed: {}\n", name, *mismatch);
    return exit_verify_failed;
  }
  // Rows are the slow dimension: the dataset is [row][column], extent columns x rows.
  if (!options.output.empty()) {
    write_fields_hdf5(options.output, {extent.columns, extent.rows, 1}, 2,
                      {{field_name, FieldType::f64, grid.data(), 1}}, {options.sweeps, name, "fixed"});
  }
  if (!options.png.empty()) write_field_png(options.png, grid, extent.columns, extent.rows);
  return 0;
}

}  // namespace apps
