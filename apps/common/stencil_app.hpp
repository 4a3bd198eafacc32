#pragma once
// What every stencil app does once its grid is built: run it through Trapeze,
// time it, check it against the sequential reference when asked, write the
// outputs, and report one summary (or one JSON line).
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "app_main.hpp"
#include "app_options.hpp"
#include "png_image.hpp"
#include "text_io.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"

namespace apps {

struct AppOutputs {
  // Writes the final grid to CommonOptions::output (app-specific format).
  std::function<void(const std::string& path)> write_output;
  // The field to draw for --png, with its width and height.
  std::function<std::vector<double>()> picture;
  long picture_width = 0;
  long picture_height = 0;
};

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

template <trapeze::Stencil S>
int run_stencil_app(const char* name, const CommonOptions& options, const S& stencil,
                    trapeze::Grid<typename S::value_type>& grid, const AppOutputs& outputs) {
  check_writable(options.output);
  check_writable(options.png);
  trapeze::Runtime runtime;
  const trapeze::Plan plan = make_plan(options, S::dims, grid.extent(), runtime.worker_count());
  std::optional<trapeze::Grid<typename S::value_type>> expected;
  if (options.verify) expected = grid;

  trapeze::StencilRun<S> run(runtime, stencil, grid, plan);
  const bool show_progress = options.progress || (!options.json && isatty(STDERR_FILENO));
  const auto start = std::chrono::steady_clock::now();
  run.submit(options.steps);
  run.wait([&](trapeze::Index done, trapeze::Index total) {
    if (show_progress) fmt::print(stderr, "\r{}: {:5.1f}% of {} tasks", name, 100.0 * static_cast<double>(done) / static_cast<double>(total), total);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (show_progress && seconds >= 1.0) fmt::print(stderr, "\n");

  std::optional<std::string> mismatch;
  if (expected) {
    trapeze::reference::advance(stencil, *expected, options.steps);
    mismatch = first_difference(grid, *expected);
  }
  if (!options.output.empty()) outputs.write_output(options.output);
  if (!options.png.empty()) write_field_png(options.png, outputs.picture(), outputs.picture_width, outputs.picture_height);

  const double gcups = static_cast<double>(grid.cells()) * static_cast<double>(options.steps) / seconds / 1e9;
  const std::string size = trapeze::to_string(grid.extent(), S::dims);
  const std::string tile = trapeze::to_string(run.tiling().tile_extent(), S::dims);
  if (options.json) {
    nlohmann::json report = {{"app", name},
                             {"size", size},
                             {"steps", options.steps},
                             {"tile", tile},
                             {"tiles", run.tiling().count()},
                             {"height", plan.height},
                             {"mode", trapeze::to_string(plan.mode)},
                             {"boundary", trapeze::to_string(grid.boundary())},
                             {"seconds", seconds},
                             {"gcups", gcups},
                             {"verified", options.verify ? nlohmann::json(!mismatch) : nlohmann::json(nullptr)},
                             {"workers", runtime.worker_count()},
                             {"scheduler", runtime.scheduler()}};
    fmt::print("{}\n", report.dump());
  } else {
    fmt::print("{} {} steps={} tile={} h={} workers={} sched={}: {:.4f} s, {:.3f} GCUPS{}\n", name, size,
               options.steps, tile, plan.height, runtime.worker_count(), runtime.scheduler(), seconds, gcups,
               options.verify ? (mismatch ? ", VERIFY FAILED" : ", verified") : "");
  }
  if (mismatch) {
    fmt::print(stderr, "{}: verify failed: {}\n", name, *mismatch);
    return exit_verify_failed;
  }
  return 0;
}

}  // namespace apps
