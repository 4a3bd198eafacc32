// Trapeze's scheduling policies against StarPU's lws, dmda and eager on the
// same runs: jacobi2d in bands (h = 1 and a trapezoid) and life, where
// trapeze-owner keeps each band on one worker, and Smith-Waterman, where
// trapeze-wavefront runs the front by priority. Each round starts a Runtime
// per policy (StarPU takes its policy at start-up) in a fresh random order;
// runs are timed after a warm-up submission with values resident (stencils:
// submit + drain) or whole (wavefronts: submit + wait); medians, spread, and
// each policy's ratio to lws. Every run's result is checked against lws's.
// A table last, the same as JSON.
//
//   build/benchmarks/scheduler_policies [--rounds 5] [--size 2048] [--steps 100] [--sw 8000] [--json FILE]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "stencils/jacobi2d.hpp"
#include "stencils/life.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/wavefront_run.hpp"
#include "wavefronts/alignment_scoring.hpp"
#include "wavefronts/smith_waterman.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One workload: runs under the Runtime it is given, returns seconds and a
// checksum of its result (equal under every policy).
struct Workload {
  std::string name;
  double cells = 0;  // cell updates per run
  std::function<std::pair<double, double>(trapeze::Runtime&)> run;
};

template <trapeze::Stencil S>
Workload stencil_workload(const std::string& name, trapeze::Index size, trapeze::Index band, int height,
                          trapeze::Index steps) {
  return {name, static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(steps),
          [=](trapeze::Runtime& runtime) {
            using T = typename S::value_type;
            trapeze::Grid<T> grid({size, size, 1}, 2, 1, 0, 1, trapeze::Boundary::clamp());
            std::mt19937_64 engine(7);
            for (T& v : grid.updated()) {
              if constexpr (std::is_floating_point_v<T>) v = static_cast<T>(std::uniform_real_distribution<double>(0, 1)(engine));
              else v = static_cast<T>(engine() % 2);
            }
            trapeze::StencilRun<S> run(runtime, S{}, grid, trapeze::Plan{{size, band, 1}, height});
            run.submit(height);  // warm-up: values into the tiles
            run.drain();
            const auto start = Clock::now();
            run.submit(steps);
            run.drain();
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            run.wait();
            double checksum = 0;
            for (const T& v : grid.updated()) checksum += static_cast<double>(v);
            return std::pair{seconds, checksum};
          }};
}

Workload smith_waterman_workload(trapeze::Index length, trapeze::Index tile) {
  const auto alphabet = apps::Alphabet::dna;
  auto q = std::make_shared<std::vector<std::uint8_t>>(apps::encode(apps::random_residues(length, alphabet, 1), alphabet));
  auto t = std::make_shared<std::vector<std::uint8_t>>(apps::encode(apps::random_residues(length, alphabet, 2), alphabet));
  return {fmt::format("smith-waterman {}² tile {}", length, tile), static_cast<double>(length) * static_cast<double>(length),
          [=](trapeze::Runtime& runtime) {
            const auto w = apps::make_smith_waterman(alphabet, 2, -3, 5, 2);
            const auto start = Clock::now();
            trapeze::WavefrontRun run(runtime, w, {length, length, *q, *t, {}, {}}, {tile, tile});
            run.submit();
            run.wait();
            return std::pair{std::chrono::duration<double>(Clock::now() - start).count(), static_cast<double>(run.result())};
          }};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Trapeze's scheduling policies against StarPU's on the same runs"};
  int rounds = 5;
  trapeze::Index size = 2048, steps = 100, sw = 8000;
  std::string json_path = "scheduler_policies.json";
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--size", size, "side of the square stencil grids")->capture_default_str()->check(CLI::Range(64, 1 << 16));
  cli.add_option("--steps", steps, "timed steps of each stencil run")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--sw", sw, "Smith-Waterman sequence length")->capture_default_str()->check(CLI::Range(512, 1 << 22));
  cli.add_option("--json", json_path, "where the table goes as JSON")->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  const std::vector<std::string> policies{"lws", "dmda", "eager", "trapeze-owner", "trapeze-wavefront"};
  const trapeze::Index band = std::max<trapeze::Index>(1, size / 16);
  const std::vector<Workload> workloads{
      stencil_workload<apps::Jacobi2D<float>>(fmt::format("jacobi2d {}² 16 bands h=1", size), size, band, 1, steps),
      stencil_workload<apps::Jacobi2D<float>>(fmt::format("jacobi2d {}² 16 bands h=8", size), size, band, 8, steps),
      stencil_workload<apps::Life>(fmt::format("life {}² 16 bands h=1", size), size, band, 1, steps),
      smith_waterman_workload(sw, 512),
  };
  std::map<std::pair<std::size_t, std::string>, std::vector<double>> seconds;
  std::map<std::size_t, double> reference_checksum;
  std::vector<std::string> mismatches;
  std::mt19937 order_engine(11);
  int workers = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::string> order = policies;
    std::shuffle(order.begin(), order.end(), order_engine);
    for (const std::string& policy : order) {
      fmt::print(stderr, "\rround {} of {}: {:<20}", round + 1, rounds, policy);
      trapeze::Runtime runtime({policy});
      workers = runtime.worker_count();
      for (std::size_t w = 0; w < workloads.size(); ++w) {
        const auto [s, checksum] = workloads[w].run(runtime);
        seconds[{w, policy}].push_back(s);
        if (!reference_checksum.contains(w)) reference_checksum[w] = checksum;
        if (checksum != reference_checksum[w]) mismatches.push_back(workloads[w].name + " under " + policy);
      }
    }
  }
  fmt::print(stderr, "\n");
  nlohmann::json table = nlohmann::json::array();
  fmt::print("{} workers, {} interleaved rounds, medians (spread: min-max)\n", workers, rounds);
  fmt::print("{:<36} {:<18} {:>9} {:>17} {:>7} {:>7}\n", "run", "policy", "median s", "range s", "GCUPS", "vs lws");
  for (std::size_t w = 0; w < workloads.size(); ++w) {
    const double lws = median(seconds[{w, "lws"}]);
    for (const std::string& policy : policies) {
      const auto& times = seconds[{w, policy}];
      const double m = median(times);
      const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
      fmt::print("{:<36} {:<18} {:>9.4f} {:>8.4f}-{:<8.4f} {:>7.3f} {:>7.3f}\n", workloads[w].name, policy, m, *lo, *hi,
                 workloads[w].cells / m / 1e9, lws / m);
      table.push_back({{"run", workloads[w].name}, {"policy", policy}, {"median_seconds", m}, {"min_seconds", *lo},
                       {"max_seconds", *hi}, {"gcups", workloads[w].cells / m / 1e9}, {"speed_vs_lws", lws / m}});
    }
  }
  std::ofstream(json_path) << table.dump(1) << "\n";
  for (const std::string& m : mismatches) fmt::print("RESULT DIFFERS: {}\n", m);
  return mismatches.empty() ? 0 : 1;
}
