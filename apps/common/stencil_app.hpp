#pragma once
// What every stencil app does once its grid is built: run it through Trapeze,
// time it, check it against the sequential reference when asked, write the
// outputs, and report one summary (or one JSON line).
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <optional>
#include <string>
#include <thread>

#include "app_main.hpp"
#include "app_options.hpp"
#include "hdf5_fields.hpp"
#include "peak_memory.hpp"
#include "png_image.hpp"
#include "skewed_option.hpp"
#include "text_io.hpp"
#include "trapeze/field_checksum.hpp"
#include "trapeze/gpu_height_profile.hpp"
#include "trapeze/height_choice.hpp"
#include "trapeze/out_of_core.hpp"
#include "trapeze/tile_size.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/reference_in_bands.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/skewed_run.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/task_window.hpp"

namespace apps {

struct AppOutputs {
  // Writes the final grid to CommonOptions::output (app-specific format).
  std::function<void(const std::string& path)> write_output;
  // The field to draw for --png, with its width and height.
  std::function<std::vector<double>()> picture;
  long picture_width = 0;
  long picture_height = 0;
  // Dataset names of the fields in HDF5 files (--input, --output FILE.h5).
  std::vector<std::string> updated_names{"u"};
  std::vector<std::string> constant_names{};
  // What the app derives from the final fields and the run's seconds, beside
  // the throughput (Himeno's gosa and MFLOPS): keys and numbers for the
  // --json line, "key=value" in the summary.
  std::function<nlohmann::json(double seconds)> results{};
  // A generated grid's (--no-grid) checksum, summed by the run's gather tasks
  // (generated_grid.hpp); empty for a grid that holds its values.
  std::shared_ptr<trapeze::FieldChecksum> generated_checksum{};
};

// The options a generated grid (--no-grid) cannot honour: each would need the
// whole domain in one place.
inline void check_generated_grid_options(const CommonOptions& options) {
  auto refuse = [&](const std::string& option) {
    throw trapeze::InvalidArgument("--no-grid never holds the whole domain, so it cannot take " + option);
  };
  if (!options.output.empty()) refuse("--output");
  if (!options.png.empty()) refuse("--png");
  if (!options.input.empty()) refuse("--input");
  if (!options.restart.empty()) refuse("--restart");
  if (!options.checkpoint.empty()) refuse("--checkpoint");
  if (!options.sweep_height.empty()) refuse("--sweep-height");
}

inline std::string checksum_text(std::uint64_t checksum) { return fmt::format("{:016x}", checksum); }

// The grid's bytes in host memory: every updated field once and every
// read-only field's planes (the report's domain_bytes).
template <typename T>
double host_grid_bytes(const trapeze::Grid<T>& grid) {
  return static_cast<double>(grid.cells()) *
         static_cast<double>(grid.updated_count() + grid.constant_count() * grid.constant_planes()) *
         static_cast<double>(sizeof(T));
}

// Threads for a reference computed beside the run: every core in one
// process; under MPI the rank's own share (its workers' cores).
inline int reference_threads(const trapeze::Runtime& runtime) {
  if (runtime.ranks() <= 1) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max({1, runtime.cpu_worker_count(), static_cast<int>(runtime.cpu_worker_cores().size())});
}

// First differing cell between two grids, or nothing when they match bit for bit.
template <typename T>
std::optional<std::string> first_difference(const trapeze::Grid<T>& got, const trapeze::Grid<T>& expected) {
  for (int f = 0; f < got.updated_count(); ++f) {
    const auto& a = got.updated(f);
    const auto& b = expected.updated(f);
    if (std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0) continue;
    long differing = 0, first = -1;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) {
        if (first < 0) first = static_cast<long>(i);
        ++differing;
      }
    }
    const auto& e = got.extent();
    const long i = first;
    return fmt::format("field {} differs from the sequential reference in {} cells; first at ({}, {}, {}): got {}, "
                       "expected {}",
                       f, differing, i % e[0], (i / e[0]) % e[1], i / (e[0] * e[1]), +a[first], +b[first]);
  }
  return std::nullopt;
}

// One timed run from `grid`'s current state: submit every step, wait once.
// `prepare` sees the run before its first submit (checkpoints).
template <trapeze::Stencil S>
double timed_run(trapeze::Runtime& runtime, const S& stencil, trapeze::Grid<typename S::value_type>& grid,
                 const trapeze::Plan& plan, trapeze::Index steps, const trapeze::ProgressCallback& progress = {},
                 const std::function<void(trapeze::StencilRun<S>&)>& prepare = {}) {
  trapeze::StencilRun<S> run(runtime, stencil, grid, plan);
  if (prepare) prepare(run);
  const auto start = std::chrono::steady_clock::now();
  run.submit(steps);
  run.wait(progress);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One timed run at height h from a fresh copy of `initial`.
template <trapeze::Stencil S>
double timed_run_at(trapeze::Runtime& runtime, const S& stencil, const trapeze::Grid<typename S::value_type>& initial,
                    trapeze::Plan plan, int h, trapeze::Index steps) {
  plan.height = h;
  auto grid = initial;
  return timed_run(runtime, stencil, grid, plan, steps);
}

inline double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct HeadToHead {
  double ratio;  // median time at `other` / median time at `chosen`: throughput of chosen relative to other
  int rounds;
};

// `chosen` against `other`, each once per round in a random order; medians.
template <trapeze::Stencil S>
HeadToHead head_to_head(trapeze::Runtime& runtime, const S& stencil, const trapeze::Grid<typename S::value_type>& initial,
                        const trapeze::Plan& plan, trapeze::Index steps, int chosen, int other,
                        const char* progress_name) {
  constexpr int rounds = 9;
  std::vector<double> chosen_seconds, other_seconds;
  std::mt19937 coin(54321);
  for (int round = 0; round < rounds; ++round) {
    const bool chosen_first = coin() & 1;
    for (int turn = 0; turn < 2; ++turn) {
      const bool run_chosen = (turn == 0) == chosen_first;
      (run_chosen ? chosen_seconds : other_seconds)
          .push_back(timed_run_at(runtime, stencil, initial, plan, run_chosen ? chosen : other, steps));
    }
    if (progress_name) fmt::print(stderr, "\r{}: head to head, round {} of {}   ", progress_name, round + 1, rounds);
  }
  if (progress_name) fmt::print(stderr, "\n");
  return {median_of(other_seconds) / median_of(chosen_seconds), rounds};
}

// --sweep-height A:B: every height on a copy of the initial grid (median of
// seven interleaved runs: a shared machine's noise reaches tens of percent),
// next to the model's prediction; a table and a CSV.
template <trapeze::Stencil S>
int run_height_sweep(const char* name, const CommonOptions& options, trapeze::Runtime& runtime, const S& stencil,
                     const trapeze::Grid<typename S::value_type>& initial, const trapeze::Plan& plan,
                     const trapeze::ModelShape& shape, const trapeze::HeightDecision& decision) {
  const HeightRange range = parse_height_range(options.sweep_height);
  const std::string csv = options.sweep_csv.empty() ? std::string(name) + "-height-sweep.csv" : options.sweep_csv;
  check_writable(csv);
  struct Row { int height; double measured, predicted; };
  std::vector<Row> rows;
  const int last = std::min(range.last, trapeze::max_useful_height(shape));
  if (last < range.first) {
    throw trapeze::InvalidArgument("--sweep-height " + options.sweep_height + ": no height in range fits this domain (max " +
                         std::to_string(trapeze::max_useful_height(shape)) + ")");
  }
  // Seven rounds, each running every height once in a fresh random order, and
  // the median per height: a slow spell of a shared machine then falls on
  // different heights in different rounds instead of on all runs of one.
  constexpr int rounds = 7;
  std::vector<int> heights;
  for (int h = range.first; h <= last; ++h) heights.push_back(h);
  std::vector<std::vector<double>> seconds(heights.size());
  std::mt19937 shuffle_order(12345);
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::size_t> order(heights.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), shuffle_order);
    for (std::size_t done = 0; done < order.size(); ++done) {
      seconds[order[done]].push_back(timed_run_at(runtime, stencil, initial, plan, heights[order[done]], options.steps));
      if (!options.json) fmt::print(stderr, "\r{}: sweep round {} of {}, {} of {} heights   ", name, round + 1, rounds, done + 1, order.size());
    }
  }
  for (std::size_t i = 0; i < heights.size(); ++i) {
    rows.push_back({heights[i], median_of(seconds[i]) / static_cast<double>(options.steps),
                    trapeze::predict_seconds_per_step(decision.costs, shape, heights[i])});
  }
  if (!options.json) fmt::print(stderr, "\n");
  const auto best = std::min_element(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.measured < b.measured; });
  const auto chosen = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.height == decision.height; });
  write_atomically(csv, [&](std::FILE* f) {
    fmt::print(f, "height,measured_seconds_per_step,predicted_seconds_per_step,chosen,best\n");
    for (const Row& r : rows) {
      fmt::print(f, "{},{:.9g},{:.9g},{},{}\n", r.height, r.measured, r.predicted, r.height == decision.height ? 1 : 0,
                 r.height == best->height ? 1 : 0);
    }
  });
  // Throughput at the chosen height relative to the best measured one.
  const double chosen_ratio = chosen != rows.end() ? best->measured / chosen->measured : 0.0;
  // The best of many noisy medians is biased low (its own lucky spell picked
  // it), so the sweep's ratio understates the chosen height. A fresh
  // head-to-head of the two, interleaved, measures the ratio without that bias.
  HeadToHead confirmed{1.0, 0};
  if (chosen != rows.end() && chosen != best) {
    confirmed = head_to_head(runtime, stencil, initial, plan, options.steps, decision.height, best->height,
                             options.json ? nullptr : name);
  }
  if (options.json) {
    nlohmann::json sweep = nlohmann::json::array();
    for (const Row& r : rows) sweep.push_back({{"height", r.height}, {"measured", r.measured}, {"predicted", r.predicted}});
    fmt::print("{}\n", nlohmann::json{{"app", name}, {"size", trapeze::to_string(initial.extent(), S::dims)},
                                      {"steps", options.steps}, {"tile", trapeze::to_string(plan.tile, S::dims)},
                                      {"chosen_height", decision.height}, {"best_height", best->height},
                                      {"chosen_vs_best", chosen_ratio},
                                      {"chosen_vs_best_head_to_head", confirmed.ratio},
                                      {"head_to_head_rounds", confirmed.rounds}, {"csv", csv}, {"sweep", sweep}}
                           .dump());
    return 0;
  }
  fmt::print("{} {} steps={} tile={} workers={}: height sweep\n", name, trapeze::to_string(initial.extent(), S::dims),
             options.steps, trapeze::to_string(plan.tile, S::dims), runtime.worker_count());
  fmt::print("{:>6} {:>16} {:>16} {:>8}\n", "h", "measured s/step", "predicted s/step", "");
  for (const Row& r : rows) {
    fmt::print("{:>6} {:>16.6g} {:>16.6g} {:>8}\n", r.height, r.measured, r.predicted,
               std::string(r.height == decision.height ? "chosen" : "") + (r.height == best->height ? " best" : ""));
  }
  if (chosen != rows.end()) {
    fmt::print("auto height {} reaches {:.1f}% of the best height {} in the sweep ({}).\n", decision.height,
               100 * chosen_ratio, best->height, csv);
    if (confirmed.rounds > 0) {
      fmt::print("head to head ({} interleaved rounds, medians): auto height {} reaches {:.1f}% of height {}.\n",
                 confirmed.rounds, decision.height, 100 * confirmed.ratio, best->height);
    }
  } else {
    fmt::print("auto height {} is outside the sweep; the best height is {} ({}).\n", decision.height, best->height, csv);
  }
  return 0;
}

template <trapeze::Stencil S>
int run_stencil_app(const char* name, const CommonOptions& options, const S& stencil,
                    trapeze::Grid<typename S::value_type>& grid, const AppOutputs& outputs) {
  if (options.no_grid && !grid.is_generated()) {
    throw trapeze::InvalidArgument(std::string("--no-grid: ") + name +
                                   " builds its grid from several fields or files; jacobi2d and jacobi3d generate theirs");
  }
  if (grid.is_generated()) check_generated_grid_options(options);
  check_writable(options.output);
  check_writable(options.png);
  check_writable(options.checkpoint);
  if (options.checkpoint.empty() != (options.checkpoint_every == 0)) {
    throw trapeze::InvalidArgument("--checkpoint and --checkpoint-every go together");
  }
  if (!options.checkpoint.empty() && !is_hdf5_path(options.checkpoint)) {
    throw trapeze::InvalidArgument("--checkpoint must name an HDF5 file (.h5), got '" + options.checkpoint + "'");
  }
  // The step the initial fields hold (the "step" attribute of --input's or
  // --restart's file). A restart resumes the run that wrote the checkpoint:
  // it ends at --steps, and read-only planes count from its step; --input
  // starts a new run of --steps steps from the file's fields.
  const bool restarting = !options.restart.empty();
  trapeze::Index first_step = 0;
  if (const std::string& file_name = restarting ? options.restart : options.input; !file_name.empty()) {
    const char* option = restarting ? "--restart" : "--input";
    const FieldFileAttributes file = read_fields_hdf5(file_name, grid.extent(), S::dims,
                                                      field_targets(grid, outputs.updated_names, outputs.constant_names));
    if (!file.stencil.empty() && file.stencil != name) {
      throw trapeze::Error(std::string(option) + " '" + trapeze::quoted(file_name) + "' holds " +
                           trapeze::quoted(file.stencil) + " fields, not " + name + "'s");
    }
    if (restarting && file.stencil.empty()) {
      throw trapeze::Error("--restart '" + trapeze::quoted(file_name) + "' is not a Trapeze checkpoint (no stencil attribute)");
    }
    if (restarting && file.boundary != trapeze::to_string(grid.boundary())) {
      throw trapeze::InvalidArgument("--restart '" + trapeze::quoted(file_name) + "' was written with --boundary " +
                                     trapeze::quoted(file.boundary) + ", not " + trapeze::to_string(grid.boundary()));
    }
    if (restarting && (file.step < 0 || file.step > options.steps)) {
      throw trapeze::InvalidArgument("--restart '" + trapeze::quoted(file_name) + "' holds step " +
                                     std::to_string(file.step) + ", beyond --steps " + std::to_string(options.steps));
    }
    first_step = file.step;
  }
  // Steps this process runs.
  const trapeze::Index run_steps = restarting ? options.steps - first_step : options.steps;
  if (options.steps < 0) throw trapeze::InvalidArgument("steps must be >= 0, got " + std::to_string(options.steps));
  if (options.warmup_steps > 0 && options.warmup_steps >= run_steps) {
    throw trapeze::InvalidArgument("--warmup-steps " + std::to_string(options.warmup_steps) +
                                   " must be below the steps this run makes (" + std::to_string(run_steps) + ")");
  }
  trapeze::RuntimeOptions runtime_options;
  runtime_options.trace_directory = options.trace;
  runtime_options.disk_directory = options.disk;
  trapeze::Runtime runtime(runtime_options);
  // Under mpirun every rank runs this function on the same arguments and
  // builds the same grid; the run spreads its tiles over the ranks, and rank
  // 0 alone receives the result, checks it, writes the outputs (checkpoints
  // too) and reports.
  const bool reporting_rank = runtime.rank() == 0;
  if (runtime.ranks() > 1 && !options.sweep_height.empty()) {
    throw trapeze::InvalidArgument("--sweep-height times one process; run it without mpirun (" +
                                   std::to_string(runtime.ranks()) + " ranks)");
  }
  // Stage tasks go to the GPUs when the program has CUDA codelets for this
  // stencil, StarPU found GPUs, and --devices allows it (auto or gpu).
  const trapeze::StageDevices devices = requested_devices(options);
  const bool cuda_ready = trapeze::cuda_functions_of<S>() && runtime.cuda_worker_count() > 0;
  const bool gpu_only = cuda_ready && (devices == trapeze::StageDevices::automatic || devices == trapeze::StageDevices::gpu);
  // Under MPI the tiles are spread over every rank's GPUs (one rank per GPU
  // on a multi-GPU node: trapeze/local_devices.hpp).
  const int gpus = gpu_only ? runtime.cuda_workers_of_all_ranks() : 0;
  // The automatic CPU tile likewise counts every rank's workers: the ranks
  // then share tiles cut for all of them (each rank's workers get their two
  // bands), where one rank's count left too few tiles to go round.
  const double read_only_per_cell = grid.read_only_elements_per_cell();
  trapeze::Plan plan =
      make_plan(options, S::dims, grid.extent(), runtime.cpu_workers_of_all_ranks(), gpus, read_only_per_cell);
  // Ranks on GPUs: thinner tiles where the strips' trip between ranks must
  // hide behind the rest of a rank's work (trapeze/tile_size.hpp).
  if (options.tile == "auto" && gpus > 0 && runtime.ranks() > 1) {
    const int per_gpu = trapeze::gpu_tiles_per_gpu(
        grid.extent(), S::dims, gpus, runtime.ranks(), S::shape.radius[S::dims - 1],
        static_cast<double>(trapeze::updated_fields_of<S>) * sizeof(typename S::value_type));
    plan.tile = trapeze::choose_gpu_tile(grid.extent(), S::dims, gpus, per_gpu, read_only_per_cell);
  }
  // Out-of-core on the GPUs (seed 003): the domain's device footprint beyond
  // what they may hold (STARPU_LIMIT_CUDA_MEM honoured). Tiles then stream:
  // an automatic tile is a near cube of an eighth of a GPU's memory, and
  // each tile is written back after its stage.
  const double gpu_memory = gpus > 0 ? trapeze::gpu_memory_bytes() : 0.0;
  const double cell_device_bytes = trapeze::device_cell_bytes<S>(grid.constant_planes());
  const bool out_of_core =
      trapeze::out_of_core_on_gpus(cell_device_bytes * static_cast<double>(grid.cells()), gpus, gpu_memory);
  // The tile of an eighth and, for the GPU model to weigh, the two larger
  // tiles of the same halving (trapeze/gpu_height_model.hpp).
  std::vector<trapeze::Extent> out_of_core_tiles;
  if (out_of_core && options.tile == "auto") {
    out_of_core_tiles = trapeze::out_of_core_tiles(grid.extent(), S::dims, cell_device_bytes,
                                                   trapeze::out_of_core_tile_share * gpu_memory, 2);
    plan.tile = out_of_core_tiles.front();
  }
  plan.stream_tiles = options.stream == "on" || (options.stream == "auto" && (out_of_core || !options.disk.empty()));
  plan.first_step = restarting ? first_step : 0;
  // Skewed slabs (--skew) replace tiles and heights: a slab is the tile, a
  // pass's steps the height.
  const std::optional<trapeze::SkewedSlabs> skewed =
      skewed_slabs_for<S>(options, grid, gpus, gpu_memory, run_steps, runtime.ranks());
  // A stage never holds more steps than the run: a larger height would only
  // widen the ghost zone (--height 99999 --steps 5 runs with h = 5).
  if (run_steps > 0 && plan.height > run_steps) plan.height = static_cast<int>(run_steps);
  trapeze::ModelShape shape =
      trapeze::model_shape<S>(grid.extent(), plan.tile, grid.boundary().kind, plan.mode, runtime.cpu_worker_count());
  shape.steps = run_steps;
  // The model's view of this run, whether or not it picks the height.
  const bool auto_height = plan.height == 0;
  const bool auto_kernel_height = plan.kernel_height == 0;
  std::optional<trapeze::HeightDecision> decision;
  std::optional<trapeze::GpuHeightDecision> gpu_decision;
  trapeze::GpuShape gpu_shape{grid.extent(), S::dims, plan.tile, S::shape.radius, grid.boundary().kind, gpus,
                              run_steps, out_of_core ? trapeze::streamed_cell_bytes<S>(grid.constant_planes()) : 0.0,
                              out_of_core ? trapeze::host_gpu_seconds_per_byte() : 0.0,
                              out_of_core ? 2 * trapeze::out_of_core_tile_share * gpu_memory : 0.0, cell_device_bytes,
                              static_cast<double>(trapeze::updated_fields_of<S>) * sizeof(typename S::value_type)};
  // Streamed tiles that fill their ghost zones in host memory hold no strips
  // on the GPU: a stage task may then take 0.3 of the GPU, a little less than
  // the third the run's fit check allows (trapeze/out_of_core.hpp says why).
  if (out_of_core && trapeze::StencilRun<S>::fills_ghost_from_host(plan, runtime)) {
    gpu_shape.strip_bytes_per_cell = 0;
    gpu_shape.task_device_budget = trapeze::stage_task_share_with_host_ghosts * gpu_memory;
  }
  if (gpu_only && !options.sweep_height.empty()) {
    throw trapeze::InvalidArgument("--sweep-height sweeps CPU heights; with GPUs add --devices cpu, or run benchmarks/gpu_stencils");
  }
  if (skewed) {
    const int axis = trapeze::skewed_axis(S::dims);
    plan.tile = grid.extent();
    plan.tile[axis] = skewed->slab();
    plan.height = static_cast<int>(skewed->height());
    plan.kernel_height = 1;
  } else if (gpu_only) {
    if (auto_height || auto_kernel_height) {
      gpu_decision = trapeze::decide_gpu_heights(runtime, stencil, name, gpu_shape);
      if (out_of_core_tiles.size() > 1) {
        const trapeze::GpuTileChoice picked =
            trapeze::choose_out_of_core_gpu_tile(gpu_decision->costs, gpu_shape, out_of_core_tiles,
                                                 auto_height ? 0 : plan.height, auto_kernel_height ? 0 : plan.kernel_height);
        plan.tile = gpu_shape.tile = picked.tile;
        gpu_decision->choice = picked.heights;
      } else {
        gpu_decision->choice = trapeze::choose_gpu_heights(gpu_decision->costs, gpu_shape, auto_height ? 0 : plan.height,
                                                           auto_kernel_height ? 0 : plan.kernel_height);
        // One GPU in core: bands of tiles where the single tile's host
        // copies would weigh on a short run (trapeze/tile_size.hpp).
        const int bands =
            options.tile == "auto" && gpus == 1 && runtime.ranks() == 1 && !out_of_core
                ? trapeze::one_gpu_bands(grid.extent(), S::dims, host_grid_bytes(grid),
                                         gpu_decision->choice.predicted_seconds_per_step * static_cast<double>(run_steps))
                : 1;
        if (bands > 1) {
          plan.tile = gpu_shape.tile = trapeze::choose_gpu_tile(grid.extent(), S::dims, 1, bands, read_only_per_cell);
          gpu_decision->choice = trapeze::choose_gpu_heights(gpu_decision->costs, gpu_shape, auto_height ? 0 : plan.height,
                                                             auto_kernel_height ? 0 : plan.kernel_height);
        }
      }
      plan.height = gpu_decision->choice.height;
      plan.kernel_height = gpu_decision->choice.kernel_height;
    }
  } else {
    // On small domains the height is measured among the model's candidates
    // (trapeze/height_calibration.hpp); a sweep checks that same choice.
    if (auto_height || !options.sweep_height.empty()) {
      decision = trapeze::decide_height(runtime, stencil, name, shape, trapeze::CostModelCache::default_path(), &grid, &plan);
    }
    if (auto_height) plan.height = decision->height;
    if (auto_kernel_height) plan.kernel_height = 1;
  }
  if (!options.sweep_height.empty()) {
    return run_height_sweep(name, options, runtime, stencil, grid, plan, shape, *decision);
  }
  // Every rank must build the same task graph: rank 0's choices (timed
  // profiles can differ between ranks) are everyone's.
  struct AgreedPlan {
    trapeze::Extent tile;
    int height, kernel_height;
  } agreed{plan.tile, plan.height, plan.kernel_height};
  runtime.broadcast(agreed);
  plan.tile = agreed.tile, plan.height = agreed.height, plan.kernel_height = agreed.kernel_height;

  std::optional<trapeze::Grid<typename S::value_type>> expected;
  if (options.verify && reporting_rank && !grid.is_generated()) expected = grid;
  const ProgressLine progress(name, options, runtime);
  const std::string boundary_name = trapeze::to_string(grid.boundary());
  const auto add_checkpoints = [&](trapeze::StencilRun<S>& run) {
    if (options.checkpoint.empty()) return;
    run.checkpoint_every(options.checkpoint_every, [&](trapeze::Index step, const trapeze::Grid<typename S::value_type>& snapshot) {
      write_fields_hdf5(options.checkpoint, snapshot.extent(), S::dims,
                        field_views(snapshot, outputs.updated_names, outputs.constant_names), {step, name, boundary_name});
    });
  };
  // Under MPI the timed run ends with each rank's grid holding its own tiles,
  // as a distributed code's result lives, and the checksum adds the ranks'
  // parts. Rank 0 receives the whole field afterwards only when something
  // there needs it (a file, a picture, --verify, an app's results that read
  // the grid), timed apart as `collect_seconds`. In one process the grid
  // holds everything when the timed run ends.
  // A generated grid (--no-grid) never comes to one place: each rank's gather
  // tasks add its own tiles to its checksum, and --verify compares checksums.
  const bool whole_field_on_rank_zero =
      !grid.is_generated() &&
      (options.verify || !options.output.empty() || !options.png.empty() || static_cast<bool>(outputs.results));
  std::optional<std::uint64_t> checksum;
  double seconds = 0, collect_seconds = 0;
  std::optional<double> stepping_seconds;
  std::optional<double> predicted_exchange_bytes;
  std::string node_exchange = "mpi";
  if (skewed) {
    trapeze::SkewedRun<S> run(runtime, stencil, grid, *skewed, devices);
    const auto start = std::chrono::steady_clock::now();
    run.advance(run_steps, plan.first_step, progress.callback());
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.finish(seconds);
    if (options.checksum) checksum = trapeze::checksum_of(grid);
  } else {
    trapeze::StencilRun<S> run(runtime, stencil, grid, plan);
    if (run.pieces_through_mailboxes() > 0) node_exchange = trapeze::to_string(run.node_exchange());
    add_checkpoints(run);
    // What the partition sends between owners (GPUs, ranks): one exchange
    // after every stage but the last, each updated field's strips. A
    // warm-up ends with a stage of its own.
    if (gpus > 0 || runtime.ranks() > 1) {
      const auto stages_of = [&](trapeze::Index steps) { return (steps + plan.height - 1) / plan.height; };
      const trapeze::Index stages = stages_of(options.warmup_steps) + stages_of(run_steps - options.warmup_steps);
      predicted_exchange_bytes = static_cast<double>(std::max<trapeze::Index>(0, stages - 1)) *
                                 static_cast<double>(run.cells_between_owners_per_stage()) *
                                 trapeze::updated_fields_of<S> * static_cast<double>(sizeof(typename S::value_type));
    }
    const auto start = std::chrono::steady_clock::now();
    if (options.warmup_steps > 0) {
      // The warm-up moves the field into the tiles; every rank has finished
      // it before the timed steps start, and all of them have finished
      // those before their time is read (the sums are the ranks' barrier).
      run.submit(options.warmup_steps);
      run.drain();
      runtime.sum_over_ranks(0);
      const auto stepping_start = std::chrono::steady_clock::now();
      run.submit(run_steps - options.warmup_steps);
      run.drain(progress.callback());
      runtime.sum_over_ranks(0);
      stepping_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - stepping_start).count();
    } else {
      run.submit(run_steps);
    }
    run.wait(progress.callback(), trapeze::Collect::on_owners);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.finish(seconds);
    // The final fields' checksum: a generated grid's gather tasks summed each
    // rank's tiles, and the ranks' sums add up to the whole domain's.
    if (grid.is_generated()) {
      checksum = runtime.sum_over_ranks(outputs.generated_checksum->value());
    } else if (options.checksum) {
      checksum = run.checksum();
    }
    if (whole_field_on_rank_zero && run.distributed()) {
      const auto collect_start = std::chrono::steady_clock::now();
      run.wait({}, trapeze::Collect::on_rank_zero);
      collect_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - collect_start).count();
    }
  }
  std::optional<std::string> mismatch;
  if (options.verify && grid.is_generated()) {
    // The reference band by band (the run's tiles are gone), the bands dealt
    // to the ranks, each on its own cores; the ranks' checksums add up.
    // Paused, StarPU's workers leave the reference every core (even with
    // blocking drivers one idle worker per context stays awake and polls).
    const trapeze::PausedWorkers quiet_workers(true);
    trapeze::reference::BandOptions bands;
    bands.threads = reference_threads(runtime);
    bands.part = runtime.rank();
    bands.parts = runtime.ranks();
    if (options.progress && reporting_rank) {
      bands.progress = [&](trapeze::Index done, trapeze::Index total) {
        fmt::print(stderr, "\r{}: verifying, band {} of {}{}{}", name, done, total,
                   runtime.ranks() > 1 ? " (rank 0's share)" : "", done == total ? "\n" : "   ");
      };
    }
    const std::uint64_t reference =
        runtime.sum_over_ranks(trapeze::reference::checksum_in_bands(stencil, grid, run_steps, bands));
    if (reference != *checksum) {
      mismatch = "checksum " + checksum_text(*checksum) + " differs from the sequential reference's " +
                 checksum_text(reference) + " (--no-grid keeps no cells to locate the difference)";
    }
  }
  if (!reporting_rank) return 0;
  if (options.verify && expected) {
    const trapeze::PausedWorkers quiet_workers(true);
    trapeze::reference::advance(stencil, *expected, run_steps, plan.first_step);
    mismatch = first_difference(grid, *expected);
  }
  if (is_hdf5_path(options.output)) {
    write_fields_hdf5(options.output, grid.extent(), S::dims,
                      field_views(grid, outputs.updated_names, outputs.constant_names),
                      {first_step + run_steps, name, boundary_name});
  } else if (!options.output.empty()) {
    outputs.write_output(options.output);
  }
  if (!options.png.empty()) write_field_png(options.png, outputs.picture(), outputs.picture_width, outputs.picture_height);

  const nlohmann::json results = outputs.results ? outputs.results(seconds) : nlohmann::json::object();
  const double steps = static_cast<double>(std::max<trapeze::Index>(1, run_steps));
  // Cells, not values: a value may pack several cells (LifeBits).
  constexpr int cells_per_value = trapeze::cells_per_value_of<S>;
  const double cells = static_cast<double>(grid.cells()) * cells_per_value;
  const double gcups = cells * static_cast<double>(run_steps) / seconds / 1e9;
  // Meaningful with stepping_seconds only (--warmup-steps).
  const double stepping_gcups = stepping_seconds ? cells *
                                                       static_cast<double>(run_steps - options.warmup_steps) /
                                                       *stepping_seconds / 1e9
                                                 : 0.0;
  trapeze::Extent cell_extent = grid.extent();
  cell_extent[0] *= cells_per_value;
  const std::string size = trapeze::to_string(cell_extent, S::dims);
  const std::string tile = trapeze::to_string(plan.tile, S::dims);
  if (options.json) {
    nlohmann::json report = {{"app", name},
                             {"size", size},
                             {"cells_per_value", cells_per_value},
                             {"steps", options.steps},
                             {"first_step", first_step},
                             {"tile", tile},
                             {"tiles", trapeze::Tiling(grid.extent(), S::dims, plan.tile).count()},
                             {"height", plan.height},
                             {"height_auto", auto_height},
                             {"predicted_seconds_per_step",
                              gpu_decision ? nlohmann::json(trapeze::predict_gpu_seconds_per_step(
                                                 gpu_decision->costs, gpu_shape, plan.height, plan.kernel_height))
                              : decision   ? nlohmann::json(trapeze::predict_seconds_per_step(decision->costs, shape, plan.height))
                                           : nlohmann::json(nullptr)},
                             {"seconds_per_step", seconds / steps},
                             {"profiled", gpu_decision ? gpu_decision->profiled : decision ? decision->profiled : false},
                             {"height_measured", decision && !gpu_decision ? decision->measured : false},
                             {"mode", trapeze::to_string(plan.mode)},
                             {"boundary", trapeze::to_string(grid.boundary())},
                             {"seconds", seconds},
                             {"gcups", gcups},
                             {"verified", options.verify ? nlohmann::json(!mismatch) : nlohmann::json(nullptr)},
                             {"devices", gpu_only ? "gpu" : (cuda_ready && devices == trapeze::StageDevices::all ? "all" : "cpu")},
                             {"kernel_height", plan.kernel_height},
                             {"window", plan.max_tasks_in_flight},
                             {"ranks", runtime.ranks()},
                             {"collect_seconds", collect_seconds},
                             {"node_exchange", runtime.ranks() > 1 ? nlohmann::json(node_exchange) : nlohmann::json(nullptr)},
                             {"out_of_core", out_of_core},
                             {"skewed", skewed.has_value()},
                             {"stream_tiles", plan.stream_tiles},
                             {"gpu_memory_bytes", gpu_memory},
                             {"checksum", checksum ? nlohmann::json(checksum_text(*checksum)) : nlohmann::json(nullptr)},
                             {"generated_grid", grid.is_generated()},
                             {"warmup_steps", options.warmup_steps},
                             {"stepping_seconds", stepping_seconds ? nlohmann::json(*stepping_seconds) : nlohmann::json(nullptr)},
                             {"stepping_gcups", stepping_seconds ? nlohmann::json(stepping_gcups) : nlohmann::json(nullptr)},
                             {"predicted_exchange_bytes",
                              predicted_exchange_bytes ? nlohmann::json(*predicted_exchange_bytes) : nlohmann::json(nullptr)},
                             {"domain_bytes", host_grid_bytes(grid)}};
    report.update(runtime_report(runtime));
    report.update(results);
    fmt::print("{}\n", report.dump());
  } else {
    fmt::print("{} {} steps={} tile={} h={}{}{} workers={}{}{} sched={}: {:.4f} s, {:.3f} GCUPS{}\n", name, size,
               options.steps, tile, plan.height, auto_height ? " (auto)" : "",
               gpus > 0 ? fmt::format(" k={}", plan.kernel_height) : std::string(), runtime.worker_count(),
               runtime.ranks() > 1 ? fmt::format(" (per rank) ranks={}", runtime.ranks()) : std::string(),
               gpus > 0 ? fmt::format(" (stages on {} GPU)", gpus) : std::string(),
               runtime.scheduler(), seconds, gcups,
               options.verify ? (mismatch ? ", VERIFY FAILED" : ", verified") : "");
    for (const auto& [key, value] : results.items()) fmt::print("  {} = {}\n", key, value.dump());
    if (checksum) fmt::print("  checksum = {}\n", checksum_text(*checksum));
    if (stepping_seconds) {
      fmt::print("  after {} warm-up steps: {:.4f} s, {:.3f} GCUPS\n", options.warmup_steps, *stepping_seconds,
                 stepping_gcups);
    }
  }
  print_trace_hint(name, runtime, options);
  if (mismatch) {
    fmt::print(stderr, "{}: verify failed: {}\n", name, *mismatch);
    return exit_verify_failed;
  }
  return 0;
}

}  // namespace apps
