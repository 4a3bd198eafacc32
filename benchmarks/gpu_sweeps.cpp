// The PeerWave kernel against the global-barrier baseline on the same
// hyper-tiles (issue 10, seed 004), for sor and heat2d in double precision on
// one GPU, kernels alone: one PeerWave launch per sweep (persistent warps,
// flags between bands) against one launch per wave of hyper-tiles. For each
// hyper-tile width, interleaved rounds (PeerWave, baseline, PeerWave, ...),
// medians, cell updates per second, the fraction of the copy roofline (16 B
// a cell: the cell read once and written once) and the ratio. Both kernels'
// grids are compared bit for bit after every round, and a small grid with
// the sequential loop first. A table last, the same as JSON.
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
  std::vector<double> peerwave, baseline;
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
        for (bool peerwave : {true, false}) {
          g.load(initial, small_sor);
          g.sweep(small_sor, peerwave, width, 3);
          if (g.cells() != expected) {
            throw trapeze::Error(fmt::format("{} at width {} differs from the sequential loop",
                                             peerwave ? "PeerWave" : "the baseline", width));
          }
        }
      }
    }
    const std::vector<double> initial = random_cells(n);
    std::vector<Line> lines;
    const auto measure = [&](const auto& sweep, const char* app) {
      bench::GpuSweepGrid peerwave_grid(n), baseline_grid(n);
      for (int width : widths) {
        Line line{app, width, {}, {}};
        for (int round = 0; round < rounds; ++round) {
          peerwave_grid.load(initial, sweep);
          line.peerwave.push_back(peerwave_grid.sweep(sweep, true, width, count));
          baseline_grid.load(initial, sweep);
          line.baseline.push_back(baseline_grid.sweep(sweep, false, width, count));
        }
        if (peerwave_grid.cells() != baseline_grid.cells()) {
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
    fmt::print("{:<7} {:>6} {:>12} {:>12} {:>9} {:>9} {:>8} {:>7} {:>16}\n", "app", "width", "PeerWave s", "baseline s",
               "PW GCUPS", "BL GCUPS", "PW/roof", "PW/BL", "PW/BL min-max");
    nlohmann::json rows = nlohmann::json::array();
    for (const Line& l : lines) {
      const double pw = median(l.peerwave), bl = median(l.baseline);
      std::vector<double> ratios;
      for (std::size_t r = 0; r < l.peerwave.size(); ++r) ratios.push_back(l.baseline[r] / l.peerwave[r]);
      const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
      fmt::print("{:<7} {:>6} {:>12.5f} {:>12.5f} {:>9.1f} {:>9.1f} {:>8.3f} {:>7.2f} {:>7.2f}-{:<8.2f}\n", l.app, l.width,
                 pw, bl, updates / pw / 1e9, updates / bl / 1e9, updates / pw / roofline, median(ratios), *lo, *hi);
      rows.push_back({{"app", l.app}, {"width", l.width}, {"peerwave_seconds", l.peerwave},
                      {"baseline_seconds", l.baseline}, {"peerwave_gcups", updates / pw / 1e9},
                      {"baseline_gcups", updates / bl / 1e9}, {"peerwave_over_roofline", updates / pw / roofline},
                      {"peerwave_over_baseline", median(ratios)}});
    }
    std::ofstream(json_path) << nlohmann::json{{"device", bench::device_name()}, {"size", n}, {"sweeps", count},
                                               {"rounds", rounds}, {"copy_bytes_per_second", copy}, {"rows", rows}}
                                    .dump(1)
                             << "\n";
    return 0;
  });
}
