// In-place sweeps (sor, heat2d) through Trapeze against the plain sequential
// loop (trapeze/sweep_reference.hpp: row by row, one core), on 1 worker and
// on every core under several policies. Each round runs every variant once
// in a fresh random order (a Runtime each: StarPU takes its policy at
// start-up); medians, spread, cell updates per second and the ratio to the
// sequential loop. Every Trapeze result is checked bit for bit against the
// loop's. A table last, the same as JSON.
//
//   build/benchmarks/sweeps [--size 2048] [--sweeps 100] [--tile 256] [--rounds 5] [--json FILE]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/app_main.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/sweep_reference.hpp"
#include "trapeze/sweep_run.hpp"
#include "wavefronts/heat_2d.hpp"
#include "wavefronts/over_relaxation.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Variant {
  std::string name;    // "sequential loop" or "<policy>, <n> workers"
  std::string policy;  // empty: the sequential loop
  int workers = 0;
};

template <typename S>
double run_once(const S& sweep, const Variant& variant, std::vector<double>& grid, trapeze::Index n,
                trapeze::Index sweeps, trapeze::Index tile) {
  if (variant.policy.empty()) {
    const auto start = Clock::now();
    trapeze::reference::sweeps(sweep, std::span<double>(grid), n, n, sweeps);
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  trapeze::RuntimeOptions options;
  options.scheduler = variant.policy;
  options.cpus = variant.workers;
  options.mpi = trapeze::MpiMode::off;
  trapeze::Runtime runtime(options);
  trapeze::SweepRun run(runtime, sweep, std::span<double>(grid), n, n, trapeze::SweepPlan{tile, tile});
  const auto start = Clock::now();
  run.submit(sweeps);
  run.wait();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"In-place sweeps through Trapeze against the sequential loop"};
  trapeze::Index n = 2048, sweeps = 100, tile = 256;
  int rounds = 5;
  std::string json_path = "sweeps.json";
  std::vector<std::string> policies{"lws", "eager", "prio", "dmda", "trapeze-wavefront"};
  cli.add_option("--size", n, "grid side")->capture_default_str()->check(CLI::Range(1, 1 << 16));
  cli.add_option("--sweeps", sweeps, "sweeps per run")->capture_default_str()->check(CLI::Range(1, 100000));
  cli.add_option("--tile", tile, "tile side")->capture_default_str()->check(CLI::Range(1, 1 << 16));
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str()->check(CLI::Range(1, 99));
  cli.add_option("--policies", policies, "policies on every core")->delimiter(',');
  cli.add_option("--json", json_path, "where the table goes as JSON")->capture_default_str();
  return apps::app_main("sweeps", cli, argc, argv, [&] {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<Variant> variants{{"sequential loop", "", 0}, {"lws, 1 worker", "lws", 1}};
    for (const std::string& p : policies) variants.push_back({fmt::format("{}, {} workers", p, cores), p, cores});
    std::vector<double> initial(static_cast<std::size_t>(n * n));
    std::mt19937 random(5);
    std::uniform_real_distribution<double> value(0.0, 1.0);
    for (double& v : initial) v = value(random);
    const apps::OverRelaxation sor{apps::optimal_omega(n), 1.0 / static_cast<double>(n + 1)};
    const apps::Heat2D heat{};
    std::map<std::string, std::vector<double>> expected;
    for (const char* app : {"sor", "heat2d"}) {
      expected[app] = initial;
      if (std::string(app) == "sor") trapeze::reference::sweeps(sor, std::span<double>(expected[app]), n, n, sweeps);
      else trapeze::reference::sweeps(heat, std::span<double>(expected[app]), n, n, sweeps);
    }
    std::map<std::pair<std::string, std::string>, std::vector<double>> seconds;
    std::mt19937 shuffle(11);
    for (int round = 0; round < rounds; ++round) {
      std::vector<std::pair<std::string, Variant>> order;
      for (const char* app : {"sor", "heat2d"}) {
        for (const Variant& v : variants) order.push_back({app, v});
      }
      std::shuffle(order.begin(), order.end(), shuffle);
      for (const auto& [app, variant] : order) {
        std::vector<double> grid = initial;
        const double s = app == "sor" ? run_once(sor, variant, grid, n, sweeps, tile)
                                      : run_once(heat, variant, grid, n, sweeps, tile);
        if (std::memcmp(grid.data(), expected[app].data(), grid.size() * sizeof(double)) != 0) {
          throw trapeze::Error(fmt::format("{} under {} differs from the sequential loop", app, variant.name));
        }
        seconds[{app, variant.name}].push_back(s);
      }
      fmt::print(stderr, "round {} of {} done\n", round + 1, rounds);
    }
    const auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    nlohmann::json table = nlohmann::json::array();
    fmt::print("sweeps: {}^2 cells, {} sweeps, tiles {}^2, {} rounds, medians; every result bit-exact\n", n, sweeps,
               tile, rounds);
    fmt::print("{:<8} {:<28} {:>10} {:>22} {:>8} {:>10}\n", "app", "variant", "seconds", "spread", "GCUPS",
               "x loop");
    for (const char* app : {"sor", "heat2d"}) {
      const double loop = median(seconds[{app, "sequential loop"}]);
      for (const Variant& v : variants) {
        const std::vector<double>& all = seconds[{app, v.name}];
        const double m = median(all);
        const double gcups = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(sweeps) / m / 1e9;
        const auto [lo, hi] = std::minmax_element(all.begin(), all.end());
        fmt::print("{:<8} {:<28} {:>10.4f} {:>10.4f}-{:<11.4f} {:>8.3f} {:>10.2f}\n", app, v.name, m, *lo, *hi, gcups,
                   loop / m);
        table.push_back({{"app", app}, {"variant", v.name}, {"policy", v.policy}, {"workers", v.workers},
                         {"median_seconds", m}, {"seconds", all}, {"gcups", gcups}, {"over_loop", loop / m}});
      }
    }
    std::ofstream(json_path) << nlohmann::json{{"size", n}, {"sweeps", sweeps}, {"tile", tile}, {"rounds", rounds},
                                               {"rows", table}}.dump(1)
                             << "\n";
    return 0;
  });
}
