// The height model on StarPU's own examples/stencil: its life rule (8
// neighbours in the y-z plane, uint8 cells, periodic) on its default domain
// (128x128x8192, 64 slabs of 128 planes, 128 steps) on the CPU workers. The
// issue that asked for it found `--height auto` at h = 2 running at 0.93 of
// h = 1 there (2026-11-23). This runs auto (the model's choice, or the
// measured one where the domain is small enough: height_choice.hpp) against
// fixed heights in interleaved rounds on one grid, every run from the same
// cells, and checks that all heights give the same cells. Medians; a table last.
//
//   build/benchmarks/starpu_example_heights [--rounds 5] [--heights 1,2,4] [--steps 128] [--planes 8192]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/app_main.hpp"
#include "trapeze/height_choice.hpp"
#include "trapeze/height_profile.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil.hpp"
#include "trapeze/stencil_run.hpp"

namespace {

// examples/stencil/life.c's update: x is the example's contiguous
// dimension, but its rule reads only y and z.
struct ExampleLife {
  using value_type = std::uint8_t;
  static constexpr int dims = 3;
  static constexpr trapeze::StencilShape shape{{0, 1, 1}, trapeze::ShapeKind::box};
  TRAPEZE_HOST_DEVICE std::uint8_t operator()(const trapeze::Neighbourhood<std::uint8_t>& at) const {
    const int alive = at(0, 1, 0) + at(0, 1, 1) + at(0, 0, 1) + at(0, -1, 1) + at(0, -1, 0) + at(0, -1, -1) +
                      at(0, 0, -1) + at(0, 1, -1);
    return static_cast<std::uint8_t>((alive == 3) | ((alive == 2) & (at(0, 0, 0) != 0)));
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"The height model on StarPU's examples/stencil (life in the y-z plane, 128x128x8192 uint8)"};
  int rounds = 5;
  trapeze::Index steps = 128, planes = 8192;
  std::vector<int> heights{1, 2, 4};
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str()->check(CLI::Range(1, 99));
  cli.add_option("--steps", steps, "time steps a run")->capture_default_str()->check(CLI::Range(1, 100000));
  cli.add_option("--planes", planes, "planes along z (the example's default 8192; slabs of 128)")
      ->capture_default_str()
      ->check(CLI::Range(128, 1 << 20));
  cli.add_option("--heights", heights, "fixed heights run beside auto")->delimiter(',')->check(CLI::Range(1, 64));
  return apps::app_main("starpu_example_heights", cli, argc, argv, [&] {
    trapeze::Runtime runtime;
    const ExampleLife stencil;
    const trapeze::Extent domain{128, 128, planes};
    trapeze::Grid<std::uint8_t> start(domain, 3, 1, 0, 1, trapeze::Boundary::periodic());
    std::mt19937_64 engine(42);
    for (auto& cell : start.updated()) cell = static_cast<std::uint8_t>(engine() & 1u);
    trapeze::Plan plan{{128, 128, 128}, 1, trapeze::TrapezoidMode::shrink, 1, trapeze::StageDevices::cpu};
    trapeze::ModelShape shape = trapeze::model_shape<ExampleLife>(domain, plan.tile, trapeze::BoundaryKind::periodic,
                                                                 plan.mode, runtime.cpu_worker_count());
    shape.steps = steps;
    const trapeze::HeightDecision decision =
        trapeze::decide_height(runtime, stencil, "starpu-example-life", shape, trapeze::CostModelCache::default_path(), &start, &plan);
    std::vector<int> variants{decision.height};
    for (int h : heights) variants.push_back(h);

    std::map<std::size_t, std::vector<double>> seconds;
    std::vector<std::uint8_t> first_result;
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t i = 0; i < variants.size(); ++i) {
        const std::size_t v = (i + static_cast<std::size_t>(r)) % variants.size();  // rotating order
        auto grid = start;
        plan.height = variants[v];
        const auto begin = std::chrono::steady_clock::now();
        {
          trapeze::StencilRun<ExampleLife> run(runtime, stencil, grid, plan);
          run.submit(steps);
          run.wait();
        }
        seconds[v].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
        const auto& cells = grid.updated();
        if (first_result.empty()) first_result.assign(cells.begin(), cells.end());
        else if (!std::equal(first_result.begin(), first_result.end(), cells.begin(), cells.end())) {
          throw trapeze::Error(fmt::format("h = {} gave other cells than the first run", variants[v]));
        }
      }
      fmt::print(stderr, "\rstarpu_example_heights: round {} of {}   ", r + 1, rounds);
    }
    fmt::print(stderr, "\n");
    const double cells = static_cast<double>(domain[0] * domain[1] * domain[2]) * static_cast<double>(steps);
    const double auto_seconds = median(seconds[0]);
    fmt::print("StarPU examples/stencil's life, {}x{}x{} uint8, periodic, tiles 128x128x128, {} steps, {} CPU workers ({}), "
               "medians of {} interleaved rounds; every run's cells equal\n",
               domain[0], domain[1], domain[2], steps, runtime.cpu_worker_count(), runtime.scheduler(), rounds);
    fmt::print("auto: h = {} ({}), predicted {:.3f} ms per step\n", decision.height,
               decision.measured ? "measured" : "model", decision.predicted_seconds_per_step * 1e3);
    fmt::print("{:<10} {:>10} {:>10} {:>10} {:>12}\n", "variant", "h", "median s", "GCUPS", "auto / this");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const double s = median(seconds[v]);
      fmt::print("{:<10} {:>10} {:>10.3f} {:>10.3f} {:>12.3f}\n", v == 0 ? "auto" : "fixed", variants[v], s,
                 cells / s / 1e9, s / auto_seconds);
    }
    fmt::print("(auto / this: this variant's time over auto's; below 1 means this height was faster than auto's)\n");
    return 0;
  });
}
