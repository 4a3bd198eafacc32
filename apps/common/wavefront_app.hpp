#pragma once
// What every wavefront app does once its inputs are built: run the wavefront
// through Trapeze, time it, check it against the sequential reference when
// asked, and report one summary (or one JSON line). The report options,
// progress line and runtime fields are the stencil apps' (run_report.hpp).
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
#include "run_report.hpp"
#include "wavefront_checkpoint.hpp"
#include "trapeze/cuda_stencils.hpp"
#include "trapeze/hyper_tile_width_choice.hpp"
#include "trapeze/memory_limits.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_reference.hpp"
#include "trapeze/wavefront_run.hpp"

namespace apps {

struct WavefrontOptions : RunReportOptions {
  std::string tile = "auto";
  std::string devices;                // empty: TRAPEZE_DEVICES, else auto
  std::string width = "auto";         // GPU: steps per hyper-tile, or auto (seed 004's model)
  std::string checkpoint;             // file the run's state goes to every checkpoint_every tile rows
  trapeze::Index checkpoint_every = 0;
  std::string restart;                // a checkpoint to resume from
  std::string output;                 // apps that keep every cell: HDF5 file of the table
  std::string layout = "auto";        // of cell inputs and outputs where tiles run: auto, row or banded
};

void add_wavefront_options(CLI::App& cli, WavefrontOptions& options);

// --tile ROWSxCOLUMNS (or N for N x N, or auto: on CPUs the largest square of
// 512 to 4096 leaving 4 tiles per worker along the shorter side, on GPUs alone
// the whole space on one GPU, a row of tiles per GPU on several:
// gpu_wavefront_tile), --devices, --width. `gpus_alone`: the tiles run on
// GPUs only; `gpus`: the GPUs of the run (every rank's).
trapeze::WavefrontPlan make_wavefront_plan(const WavefrontOptions& options, trapeze::Index rows, trapeze::Index columns,
                                           bool gpus_alone, int cpu_workers, int gpus = 1);

// The automatic tile of a space on `gpus` GPUs alone (rows x columns).
trapeze::Extent gpu_wavefront_tile(trapeze::Index rows, trapeze::Index columns, int gpus);

// --devices if given, else TRAPEZE_DEVICES if set, else auto.
trapeze::StageDevices requested_wavefront_devices(const WavefrontOptions& options);

// What a run ended with, for the app's own fields of the report.
template <trapeze::Wavefront W>
struct WavefrontOutcome {
  trapeze::result_of<W> result{};
  typename W::value_type last_cell{};  // meaningful for a non-empty space
};

template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// What a checkpoint must match: the cell update's parameters and every input.
template <trapeze::Wavefront W>
std::uint64_t wavefront_fingerprint(const W& w, const trapeze::WavefrontData<W>& data) {
  std::uint64_t h = fingerprint_bytes(&w, sizeof w);
  h = fingerprint_bytes(&data.rows, sizeof data.rows, h);
  h = fingerprint_bytes(&data.columns, sizeof data.columns, h);
  h = fingerprint_bytes(data.row_inputs.data(), data.row_inputs.size_bytes(), h);
  h = fingerprint_bytes(data.column_inputs.data(), data.column_inputs.size_bytes(), h);
  return fingerprint_bytes(data.cell_inputs.data(), data.cell_inputs.size_bytes(), h);
}

// The state a --restart file holds, checked against this run's app and inputs.
template <trapeze::Wavefront W>
trapeze::WavefrontResume<W> read_resume(const char* name, const std::string& path, const W& w,
                                        const trapeze::WavefrontData<W>& data) {
  using T = typename W::value_type;
  const WavefrontCheckpointFile f = read_wavefront_checkpoint(path);
  const std::string what = "--restart '" + trapeze::quoted(path) + "'";
  if (f.app != name) throw trapeze::InvalidArgument(what + " holds " + trapeze::quoted(f.app) + "'s state, not " + name + "'s");
  if (f.rows != data.rows || f.columns != data.columns || f.fingerprint != wavefront_fingerprint(w, data)) {
    throw trapeze::InvalidArgument(what + " was written for other inputs or parameters (" + std::to_string(f.rows) + "x" +
                                   std::to_string(f.columns) + ")");
  }
  if (f.cell_bytes != sizeof(T) || f.result_bytes != sizeof(trapeze::result_of<W>)) {
    throw trapeze::InvalidArgument(what + " was written by another build (cells of " + std::to_string(f.cell_bytes) + " bytes)");
  }
  trapeze::WavefrontResume<W> resume;
  resume.first_row = f.first_row;
  if (f.first_row > 0) {
    resume.top_row.resize(static_cast<std::size_t>(data.columns + 1));
    std::memcpy(resume.top_row.data(), f.top_row.data(), f.top_row.size());
  }
  if (!f.folded.empty()) std::memcpy(&resume.folded, f.folded.data(), f.folded.size());
  return resume;
}

// Runs `wavefront` over `data` and reports. `describe` adds the app's fields
// to the JSON line and returns the summary's tail (e.g. "score 42");
// `write_output`, when given, writes --output after a verified (or unchecked) run.
// Under mpirun every rank runs this on the same inputs and the rows of tiles
// are dealt to the ranks; rank 0 alone checks, writes (checkpoints too) and reports.
template <trapeze::Wavefront W>
int run_wavefront_app(const char* name, const WavefrontOptions& options, const W& wavefront,
                      const trapeze::WavefrontData<W>& data,
                      const std::function<std::string(const WavefrontOutcome<W>&, nlohmann::json&)>& describe,
                      const std::function<void()>& write_output = {}) {
  if (!data.output.empty() && (!options.checkpoint.empty() || !options.restart.empty())) {
    throw trapeze::InvalidArgument(std::string(name) +
                                   " keeps every cell, and a checkpoint holds only the row above the rest: "
                                   "--checkpoint and --restart are for score-only apps");
  }
  if (options.checkpoint.empty() != (options.checkpoint_every == 0)) {
    throw trapeze::InvalidArgument("--checkpoint FILE and --checkpoint-every N (rows of tiles) go together");
  }
  const std::uint64_t fingerprint = wavefront_fingerprint(wavefront, data);
  trapeze::WavefrontResume<W> resume;
  if (!options.restart.empty()) resume = read_resume(name, options.restart, wavefront, data);
  const trapeze::Index first_row = resume.first_row;
  trapeze::RuntimeOptions runtime_options;
  runtime_options.trace_directory = options.trace;
  trapeze::Runtime runtime(runtime_options);
  const trapeze::StageDevices devices = requested_wavefront_devices(options);
  const trapeze::CudaStencilFunctions* cuda = trapeze::cuda_functions_of<W>();
  const bool gpus_alone = cuda && cuda->wavefront_tile && runtime.cuda_worker_count() > 0 &&
                          (devices == trapeze::StageDevices::automatic || devices == trapeze::StageDevices::gpu);
  // Ranks must cut the space alike: under MPI the CPU tile does not follow a rank's worker count.
  trapeze::WavefrontPlan plan = make_wavefront_plan(options, data.rows, data.columns, gpus_alone,
                                                    runtime.ranks() > 1 ? 0 : runtime.cpu_worker_count(),
                                                    runtime.cuda_workers_of_all_ranks());
  plan.max_tasks_in_flight = options.window;
  // --width auto on GPU tiles: seed 004's model, trained once per GPU, app
  // and tile shape (on CPU workers the width means nothing).
  const bool width_auto = options.width == "auto";
  std::optional<trapeze::HyperTileWidthDecision> width_decision;
  if (width_auto && gpus_alone) {
    width_decision = trapeze::decide_hyper_tile_width(runtime, wavefront, data, plan, name);
    plan.hyper_tile_width = width_decision->width;
  }
  const bool reporting_rank = runtime.rank() == 0;
  const ProgressLine progress(name, options, runtime);
  WavefrontOutcome<W> outcome;
  trapeze::Index tiles = 0;
  bool banded = false;
  double seconds = 0;
  {
    trapeze::WavefrontRun run(runtime, wavefront, data, plan, std::move(resume));
    tiles = run.tiles();
    banded = run.banded();
    if (!options.checkpoint.empty()) {
      run.checkpoint_every(options.checkpoint_every, [&](const trapeze::WavefrontCheckpoint<W>& state) {
        WavefrontCheckpointFile f{name, data.rows, data.columns, fingerprint, state.first_row,
                                  sizeof(typename W::value_type), sizeof(trapeze::result_of<W>), {}, {}};
        const auto* top = reinterpret_cast<const unsigned char*>(state.top_row.data());
        f.top_row.assign(top, top + state.top_row.size() * sizeof(typename W::value_type));
        const auto* folded = reinterpret_cast<const unsigned char*>(&state.folded);
        f.folded.assign(folded, folded + sizeof state.folded);
        write_wavefront_checkpoint(options.checkpoint, f);
      });
    }
    const auto start = std::chrono::steady_clock::now();
    run.submit();
    run.wait(progress.callback());
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (reporting_rank) {
      outcome.result = run.result();
      if (data.rows > 0 && data.columns > 0) outcome.last_cell = run.last_cell();
    }
  }
  progress.finish(seconds);
  if (!reporting_rank) return 0;

  std::optional<std::string> mismatch;
  if (options.verify) {
    std::vector<typename W::value_type> expected_output(data.output.size());
    trapeze::WavefrontData<W> reference_data = data;
    reference_data.output = expected_output;
    WavefrontOutcome<W> expected;
    expected.result = trapeze::reference::wavefront(wavefront, reference_data, &expected.last_cell);
    if constexpr (trapeze::folds_result_v<W>) {
      if (!same_bits(outcome.result, expected.result)) mismatch = "the folded result differs from the sequential reference";
    }
    if (mismatch) {
    } else if (data.rows > 0 && data.columns > 0 && !same_bits(outcome.last_cell, expected.last_cell)) {
      mismatch = "the last cell differs from the sequential reference";
    } else if (!data.output.empty() &&
               std::memcmp(data.output.data(), expected_output.data(), data.output.size_bytes()) != 0) {
      std::size_t first = 0;
      while (same_bits(data.output[first], expected_output[first])) ++first;
      mismatch = fmt::format("cell ({}, {}) differs from the sequential reference", first / data.columns,
                             first % data.columns);
    }
  }

  const double cells = static_cast<double>(data.rows) * static_cast<double>(data.columns);
  const double gcups = seconds > 0 ? cells / seconds / 1e9 : 0.0;
  nlohmann::json report = {{"app", name},
                           {"rows", data.rows},
                           {"columns", data.columns},
                           {"tile", fmt::format("{}x{}", plan.tile_rows, plan.tile_columns)},
                           {"devices", trapeze::to_string(plan.devices)},
                           {"hyper_tile_width", plan.hyper_tile_width},
                           {"width_auto", width_auto},
                           {"width_trained", width_decision ? width_decision->trained : false},
                           {"width_model", width_decision ? nlohmann::json{{"column_seconds", width_decision->costs.column_seconds},
                                                                           {"sync_seconds", width_decision->costs.sync_seconds}}
                                                          : nlohmann::json(nullptr)},
                           {"tiles", tiles},
                           {"layout", banded ? "banded" : "row"},
                           {"first_row", first_row},
                           {"window", plan.max_tasks_in_flight},
                           {"seconds", seconds},
                           {"gcups", gcups},
                           {"verified", options.verify ? nlohmann::json(!mismatch) : nlohmann::json(nullptr)},
                           {"ranks", runtime.ranks()}};
  report.update(runtime_report(runtime));
  const std::string tail = describe(outcome, report);
  if (options.json) {
    fmt::print("{}\n", report.dump());
  } else {
    fmt::print("{} {}x{} tile={}x{} workers={} sched={}: {}, {:.4f} s, {:.3f} GCUPS{}\n", name, data.rows,
               data.columns, plan.tile_rows, plan.tile_columns, runtime.worker_count(), runtime.scheduler(), tail,
               seconds, gcups, options.verify ? (mismatch ? ", VERIFY FAILED" : ", verified") : "");
  }
  print_trace_hint(name, runtime, options);
  if (mismatch) {
    fmt::print(stderr, "{}: verify failed: {}\n", name, *mismatch);
    return exit_verify_failed;
  }
  if (write_output) write_output();
  return 0;
}

}  // namespace apps
