// Trapeze at h = 1 on CPU workers against the per-step StarPU program a user
// would write by hand (starpu_by_hand.hpp), same stencil, same tiles (bands
// of the slowest dimension, two per worker), same workers, in one process,
// for all five apps. Both are timed after a warm-up step, values resident
// (Trapeze: submit + drain; by hand: submit + wait), in interleaved rounds;
// medians and the ratio. The hand-written program is first checked against
// the sequential reference on a small grid. A table last.
//
//   build/benchmarks/cpu_vs_starpu_by_hand [--rounds 7] [--scale 1]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "common/app_main.hpp"
#include "starpu_by_hand.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/tile_size.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T>
trapeze::Grid<T> random_grid(const trapeze::Extent& size, int dims, int constant_fields, trapeze::Index planes,
                             std::uint64_t seed) {
  trapeze::Grid<T> grid(size, dims, 1, constant_fields, planes);
  std::mt19937_64 engine(seed);
  auto fill = [&](auto& values) {
    for (auto& v : values) {
      if constexpr (std::is_floating_point_v<T>) v = static_cast<T>(std::uniform_real_distribution<double>(0, 1)(engine));
      else v = static_cast<T>(engine() % (sizeof(T) == 1 ? 2 : 10));
    }
  };
  fill(grid.updated());
  for (int c = 0; c < constant_fields; ++c) fill(grid.constant(c));
  return grid;
}

struct Row {
  std::string app, size;
  double trapeze = 0, by_hand = 0;  // seconds per step (medians)
  double cells = 0;
};

template <trapeze::Stencil S>
Row compare(trapeze::Runtime& runtime, const char* name, const S& stencil, const trapeze::Grid<typename S::value_type>& grid,
            trapeze::Index steps, int rounds) {
  using T = typename S::value_type;
  const int workers = runtime.cpu_worker_count();
  const trapeze::Extent tile = trapeze::choose_tile(grid.extent(), S::dims, workers, 1);
  const int bands = static_cast<int>((grid.extent()[S::dims - 1] + tile[S::dims - 1] - 1) / tile[S::dims - 1]);
  {  // The baseline must be a correct program: check it on a small grid.
    trapeze::Extent small{1, 1, 1};
    for (int d = 0; d < S::dims; ++d) small[d] = S::dims == 1 ? 1001 : S::dims == 2 ? 61 : 19;
    auto check = random_grid<T>(small, S::dims, trapeze::constant_fields_of<S>, grid.constant_planes() > 1 ? 9 : 1, 99);
    bench::StarpuByHand<S> by_hand(stencil, check, 3);
    by_hand.submit(9);
    by_hand.wait();
    trapeze::reference::advance(stencil, check, 9);
    const std::vector<T> got = by_hand.result();
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i] != check.updated()[i]) {
        throw trapeze::Error(fmt::format("{}: the hand-written StarPU baseline differs from the reference at cell {}: {} "
                                         "instead of {}", name, i, +got[i], +check.updated()[i]));
      }
    }
  }
  trapeze::Plan plan{tile, 1, trapeze::TrapezoidMode::shrink, 1, trapeze::StageDevices::cpu};
  auto grid_copy = grid;
  trapeze::StencilRun<S> run(runtime, stencil, grid_copy, plan);
  bench::StarpuByHand<S> by_hand(stencil, grid, bands);
  run.submit(1), run.drain();
  by_hand.submit(1), by_hand.wait();
  std::vector<double> ours, theirs;
  for (int r = 0; r < rounds; ++r) {
    for (int turn = 0; turn < 2; ++turn) {
      const bool trapeze_turn = (turn == 0) == (r % 2 == 0);
      const auto start = std::chrono::steady_clock::now();
      if (trapeze_turn) run.submit(steps), run.drain();
      else by_hand.submit(steps), by_hand.wait();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / steps;
      (trapeze_turn ? ours : theirs).push_back(s);
    }
    fmt::print(stderr, "\r{}: round {} of {}   ", name, r + 1, rounds);
  }
  fmt::print(stderr, "\n");
  return {name, trapeze::to_string(grid.extent(), S::dims) + " (" + std::to_string(bands) + " bands)", median(ours),
          median(theirs), static_cast<double>(grid.cells())};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Trapeze h=1 on CPU workers against a hand-written per-step StarPU program, all five apps"};
  int rounds = 7;
  std::vector<std::string> only;
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str()->check(CLI::Range(1, 99));
  cli.add_option("--apps", only, "apps to compare (default: all five)")->delimiter(',');
  return apps::app_main("cpu_vs_starpu_by_hand", cli, argc, argv, [&] {
    trapeze::Runtime runtime;
    std::vector<Row> rows;
    auto wanted = [&](const char* app) { return only.empty() || std::find(only.begin(), only.end(), app) != only.end(); };
    if (wanted("jacobi2d")) rows.push_back(compare(runtime, "jacobi2d", apps::Jacobi2D<float>{}, random_grid<float>({4096, 4096, 1}, 2, 0, 1, 1), 20, rounds));
    if (wanted("jacobi3d")) rows.push_back(compare(runtime, "jacobi3d", apps::Jacobi3D<float>{}, random_grid<float>({256, 256, 256}, 3, 0, 1, 2), 10, rounds));
    if (wanted("hotspot")) rows.push_back(compare(runtime, "hotspot", apps::Hotspot::for_grid(4096, 4096), random_grid<float>({4096, 4096, 1}, 2, 1, 1, 3), 20, rounds));
    if (wanted("life")) rows.push_back(compare(runtime, "life", apps::Life{}, random_grid<std::uint8_t>({4096, 4096, 1}, 2, 0, 1, 4), 20, rounds));
    // PathFinder reads one wall row per step: enough rows for every submission.
    const trapeze::Index path_steps = 50;
    if (wanted("pathfinder")) rows.push_back(compare(runtime, "pathfinder", apps::Pathfinder{},
                           random_grid<std::int32_t>({1 << 20, 1, 1}, 1, 1, (1 + rounds * 2) * path_steps + 1, 5), path_steps, rounds));
    fmt::print("Trapeze h=1 against a hand-written per-step StarPU program, {} CPU workers ({}), medians of {} interleaved rounds\n",
               runtime.cpu_worker_count(), runtime.scheduler(), rounds);
    fmt::print("{:<11} {:>24} {:>14} {:>14} {:>9}\n", "app", "size", "Trapeze GCUPS", "by hand GCUPS", "ratio");
    for (const Row& r : rows) {
      fmt::print("{:<11} {:>24} {:>14.3f} {:>14.3f} {:>9.3f}\n", r.app, r.size, r.cells / r.trapeze / 1e9,
                 r.cells / r.by_hand / 1e9, r.by_hand / r.trapeze);
    }
    fmt::print("(ratio: Trapeze's throughput over the hand-written program's; >= 1 means Trapeze is at least as fast)\n");
    return 0;
  });
}
