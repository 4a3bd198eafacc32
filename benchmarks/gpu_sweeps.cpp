// The PeerWave kernel against the global-barrier baseline on the same
// hyper-tiles (issue 10, seed 004), for sor and heat2d in double precision on
// one GPU, kernels alone. Three ways to run the same sweeps: PeerWave with
// every sweep of the run in one launch (sweeps overlap: a kernel-level
// trapezoid), PeerWave with one launch per sweep (persistent warps, flags
// between bands), and the baseline with one launch per wave of hyper-tiles.
// For each hyper-tile width, interleaved rounds, medians, cell updates per
// second, the fraction of the copy roofline (16 B a cell: the cell read once
// and written once per sweep) and the ratios to the baseline. The grids are
// compared bit for bit after every width, and a small odd grid with the
// sequential loop first. A table last, the same as JSON.
//
//   build/benchmarks/gpu_sweeps [--size 16384] [--sweeps 10] [--widths 64,128,256] [--rounds 5] [--json FILE]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/app_main.hpp"
#include "gpu_sweep_kernels.hpp"
#include "trapeze/sweep_reference.hpp"

namespace {

std::vector<double> random_cells(long n) {
  std::vector<double> cells(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> value(0.0, 1.0);
  for (double& c : cells) c = value(random);
  return cells;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Line {
  std::string app;
  int width;
  std::vector<double> fused, peerwave, baseline;  // seconds per run, one per round
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"PeerWave against the global-barrier baseline on the same hyper-tiles (sor, heat2d)"};
  long n = 16384, count = 10;
  int rounds = 5;
  std::vector<int> widths{64, 128, 256};
  std::string json_path = "gpu_sweeps.json";
  cli.add_option("--size", n, "grid side")->capture_default_str()->check(CLI::Range(64L, 1L << 17));
  cli.add_option("--sweeps", count, "sweeps per timed run")->capture_default_str()->check(CLI::Range(1L, 100000L));
  cli.add_option("--widths", widths, "hyper-tile widths")->delimiter(',')->check(CLI::Range(32, 65536));
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str()->check(CLI::Range(1, 99));
  cli.add_option("--json", json_path, "where the table goes as JSON")->capture_default_str();
  return apps::app_main("gpu_sweeps", cli, argc, argv, [&] {
    const double copy = bench::device_copy_bandwidth(sizeof(double) * static_cast<std::size_t>(n) * n);
    const double roofline = copy / 16.0;  // cell updates per second at one read and one write of a double
    const apps::OverRelaxation sor{apps::optimal_omega(n), 1.0 / static_cast<double>(n + 1)};
    const apps::Heat2D heat{};
    {
      // Correctness first: a small odd grid against the sequential loop, every width, both kernels.
      const long small = 999;
      const std::vector<double> initial = random_cells(small);
      const apps::OverRelaxation small_sor{1.8, 0.001};
      std::vector<double> expected = initial;
      trapeze::reference::sweeps(small_sor, std::span<double>(expected), small, small, 3);
      bench::GpuSweepGrid g(small);
      for (int width : widths) {
        for (int per_launch : {3, 1, 0}) {
          g.load(initial, small_sor);
          g.sweep(small_sor, per_launch, width, 3);
          if (g.cells() != expected) {
            throw trapeze::Error(fmt::format("{} sweeps per launch at width {} differ from the sequential loop",
                                             per_launch, width));
          }
        }
      }
    }
    const std::vector<double> initial = random_cells(n);
    std::vector<Line> lines;
    const auto measure = [&](const auto& sweep, const char* app) {
      bench::GpuSweepGrid grid(n);
      for (int width : widths) {
        Line line{app, width, {}, {}, {}};
        std::vector<double> results[3];
        for (int round = 0; round < rounds; ++round) {
          int which = 0;
          for (auto [per_launch, seconds] : {std::pair{static_cast<int>(count), &line.fused}, {1, &line.peerwave},
                                             {0, &line.baseline}}) {
            grid.load(initial, sweep);
            seconds->push_back(grid.sweep(sweep, per_launch, width, count));
            if (round == 0) results[which] = grid.cells();
            ++which;
          }
        }
        if (results[0] != results[2] || results[1] != results[2]) {
          throw trapeze::Error(fmt::format("{} at width {}: PeerWave and the baseline differ", app, width));
        }
        fmt::print(stderr, "{} width {} done\n", app, width);
        lines.push_back(std::move(line));
      }
    };
    measure(sor, "sor");
    measure(heat, "heat2d");
    const double updates = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(count);
    fmt::print("gpu_sweeps: {} ({} SMs), {}^2 doubles, {} sweeps per run, {} rounds, medians; copy {:.2f} TB/s, "
               "roofline {:.1f} G cell updates/s (16 B a cell); results bit-exact\n",
               bench::device_name(), bench::device_multiprocessors(), n, count, rounds, copy / 1e12, roofline / 1e9);
    fmt::print("GCUPS: G cell updates/s; PW1: PeerWave, one sweep a launch; PWall: PeerWave, all {} sweeps in one "
               "launch; BL: one launch per wave; ratios are per-round medians (min-max)\n", count);
    fmt::print("{:<7} {:>5} {:>9} {:>9} {:>9} {:>9} {:>18} {:>18}\n", "app", "width", "PWall", "PW1", "BL",
               "PWall/roof", "PW1/BL", "PWall/BL");
    nlohmann::json rows = nlohmann::json::array();
    const auto ratio = [](const std::vector<double>& slow, const std::vector<double>& fast) {
      std::vector<double> r;
      for (std::size_t k = 0; k < fast.size(); ++k) r.push_back(slow[k] / fast[k]);
      const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
      return std::tuple{median(r), *lo, *hi};
    };
    for (const Line& l : lines) {
      const double all = updates / median(l.fused), one = updates / median(l.peerwave), bl = updates / median(l.baseline);
      const auto [r1, r1lo, r1hi] = ratio(l.baseline, l.peerwave);
      const auto [ra, ralo, rahi] = ratio(l.baseline, l.fused);
      fmt::print("{:<7} {:>5} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.3f} {:>6.2f} ({:.2f}-{:.2f}) {:>6.2f} ({:.2f}-{:.2f})\n",
                 l.app, l.width, all / 1e9, one / 1e9, bl / 1e9, all / roofline, r1, r1lo, r1hi, ra, ralo, rahi);
      rows.push_back({{"app", l.app}, {"width", l.width}, {"all_in_one_launch_seconds", l.fused},
                      {"one_sweep_a_launch_seconds", l.peerwave}, {"baseline_seconds", l.baseline},
                      {"all_in_one_launch_gcups", all / 1e9}, {"one_sweep_a_launch_gcups", one / 1e9},
                      {"baseline_gcups", bl / 1e9}, {"all_in_one_launch_over_roofline", all / roofline},
                      {"one_sweep_a_launch_over_baseline", r1}, {"all_in_one_launch_over_baseline", ra}});
    }
    std::ofstream(json_path) << nlohmann::json{{"device", bench::device_name()}, {"size", n}, {"sweeps", count},
                                               {"rounds", rounds}, {"copy_bytes_per_second", copy}, {"rows", rows}}
                                    .dump(1)
                             << "\n";
    return 0;
  });
}
