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
#include "trapeze/memory_limits.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_reference.hpp"
#include "trapeze/wavefront_run.hpp"

namespace apps {

struct WavefrontOptions : RunReportOptions {
  std::string tile = "512x512";
};

void add_wavefront_options(CLI::App& cli, WavefrontOptions& options);

// --tile ROWSxCOLUMNS (or N for N x N).
trapeze::WavefrontPlan make_wavefront_plan(const WavefrontOptions& options);

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

// Runs `wavefront` over `data` and reports. `describe` adds the app's fields
// to the JSON line and returns the summary's tail (e.g. "score 42").
template <trapeze::Wavefront W>
int run_wavefront_app(const char* name, const WavefrontOptions& options, const W& wavefront,
                      const trapeze::WavefrontData<W>& data,
                      const std::function<std::string(const WavefrontOutcome<W>&, nlohmann::json&)>& describe) {
  trapeze::WavefrontPlan plan = make_wavefront_plan(options);
  plan.max_tasks_in_flight = options.window;
  trapeze::RuntimeOptions runtime_options;
  runtime_options.trace_directory = options.trace;
  trapeze::Runtime runtime(runtime_options);
  const ProgressLine progress(name, options);
  WavefrontOutcome<W> outcome;
  trapeze::Index tiles = 0;
  double seconds = 0;
  {
    trapeze::WavefrontRun run(runtime, wavefront, data, plan);
    tiles = run.tiles();
    const auto start = std::chrono::steady_clock::now();
    run.submit();
    run.wait(progress.callback());
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outcome.result = run.result();
    if (tiles > 0) outcome.last_cell = run.last_cell();
  }
  progress.finish(seconds);

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
    } else if (tiles > 0 && !same_bits(outcome.last_cell, expected.last_cell)) {
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
                           {"tiles", tiles},
                           {"window", plan.max_tasks_in_flight},
                           {"seconds", seconds},
                           {"gcups", gcups},
                           {"verified", options.verify ? nlohmann::json(!mismatch) : nlohmann::json(nullptr)}};
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
  return 0;
}

}  // namespace apps
