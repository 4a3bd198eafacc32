// Smith-Waterman of one long pair on one GPU, kernels alone (issue 10, seed
// 004): the PeerWave kernel (persistent warps, one band of 32 rows each,
// waiting on flags the band above publishes after each hyper-tile) against
// the global-barrier baseline on the same hyper-tiles (one launch per wave of
// hyper-tiles). For each hyper-tile width, interleaved rounds, medians, cell
// updates per second and the ratio. Every score is checked against the CPU
// codelet's (the same Trapeze wavefront on CPU workers) first. A table last,
// the same as JSON.
//
//   build/benchmarks/gpu_wavefronts [--size 65536] [--alphabet dna|protein] [--widths 32,64,128,256] [--rounds 5]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "common/app_main.hpp"
#include "gpu_wavefront_kernels.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_run.hpp"
#include "wavefronts/alignment_scoring.hpp"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Line {
  int width;
  int lane_rows;
  std::vector<double> peerwave, baseline;  // seconds, one per round
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Smith-Waterman on one GPU: PeerWave against the global-barrier baseline on the same hyper-tiles"};
  long n = 65536;
  int rounds = 5;
  std::string alphabet_name = "protein";
  std::vector<int> widths{32, 64};
  std::vector<int> lane_rows{8, 16};
  std::string json_path = "gpu_wavefronts.json";
  cli.add_option("--size", n, "length of both sequences")->capture_default_str()->check(CLI::Range(1L, 1L << 20));
  cli.add_option("--alphabet", alphabet_name, "dna or protein")->capture_default_str();
  cli.add_option("--widths", widths, "hyper-tile widths")->delimiter(',')->check(CLI::Range(8, 65536));
  cli.add_option("--lane-rows", lane_rows, "rows a lane keeps (the kernel's two sizes)")
      ->delimiter(',')
      ->check(CLI::IsMember({8, 16}));
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str()->check(CLI::Range(1, 99));
  cli.add_option("--json", json_path, "where the table goes as JSON")->capture_default_str();
  return apps::app_main("gpu_wavefronts", cli, argc, argv, [&] {
    const apps::Alphabet alphabet = apps::parse_alphabet(alphabet_name);
    const bool dna = alphabet == apps::Alphabet::dna;
    const auto w = dna ? apps::make_smith_waterman(alphabet, 2, -3, 5, 2) : apps::make_smith_waterman(alphabet, 0, 0, 10, 1);
    const auto q = apps::encode(apps::random_residues(static_cast<std::size_t>(n), alphabet, 1), alphabet);
    const auto t = apps::encode(apps::random_residues(static_cast<std::size_t>(n), alphabet, 2), alphabet);
    // The CPU codelet's score: the reference every GPU score must equal.
    double cpu_seconds = 0;
    std::int32_t expected = 0;
    {
      trapeze::Runtime runtime;
      trapeze::WavefrontPlan plan;
      plan.tile_rows = plan.tile_columns = 2048;
      plan.devices = trapeze::StageDevices::cpu;
      const auto start = std::chrono::steady_clock::now();
      trapeze::WavefrontRun run(runtime, w, {n, n, q, t, {}, {}}, plan);
      run.submit();
      run.wait();
      cpu_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      expected = run.result();
      fmt::print(stderr, "CPU codelet on {} workers: score {}, {:.3f} s\n", runtime.cpu_worker_count(), expected, cpu_seconds);
    }
    bench::GpuAlignment gpu(q, t);
    std::vector<Line> lines;
    for (int rows : lane_rows) {
      for (int width : widths) lines.push_back({width, rows, {}, {}});
    }
    for (int round = 0; round < rounds; ++round) {
      for (Line& line : lines) {
        for (bool peerwave : {true, false}) {
          const auto [seconds, score] = gpu.score(w, line.width, peerwave, line.lane_rows);
          if (score != expected) {
            throw trapeze::Error(fmt::format("{} at width {}, {} rows a lane, scored {}, the CPU codelet {}",
                                             peerwave ? "PeerWave" : "the baseline", line.width, line.lane_rows, score,
                                             expected));
          }
          (peerwave ? line.peerwave : line.baseline).push_back(seconds);
        }
      }
      fmt::print(stderr, "round {} of {} done\n", round + 1, rounds);
    }
    const double cells = static_cast<double>(n) * static_cast<double>(n);
    fmt::print("gpu_wavefronts: smith-waterman {} {}x{}, score {} (equal to the CPU codelet's in every run), {} rounds, "
               "medians; CPU codelet {:.1f} G cells/s\n",
               alphabet_name, n, n, expected, rounds, cells / cpu_seconds / 1e9);
    fmt::print("{:>6} {:>9} {:>8} {:>12} {:>12} {:>20}\n", "width", "lane rows", "warps", "PW GCUPS", "BL GCUPS",
               "PW/BL (min-max)");
    nlohmann::json rows = nlohmann::json::array();
    for (const Line& l : lines) {
      std::vector<double> r;
      for (std::size_t k = 0; k < l.peerwave.size(); ++k) r.push_back(l.baseline[k] / l.peerwave[k]);
      const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
      const double pw = cells / median(l.peerwave), bl = cells / median(l.baseline);
      fmt::print("{:>6} {:>9} {:>8} {:>12.1f} {:>12.1f} {:>8.2f} ({:.2f}-{:.2f})\n", l.width, l.lane_rows,
                 gpu.resident_warps(l.width, l.lane_rows), pw / 1e9, bl / 1e9, median(r), *lo, *hi);
      rows.push_back({{"width", l.width}, {"lane_rows", l.lane_rows}, {"peerwave_seconds", l.peerwave}, {"baseline_seconds", l.baseline},
                      {"peerwave_gcups", pw / 1e9}, {"baseline_gcups", bl / 1e9}, {"peerwave_over_baseline", median(r)}});
    }
    std::ofstream(json_path) << nlohmann::json{{"size", n}, {"alphabet", alphabet_name}, {"score", expected},
                                               {"cpu_gcups", cells / cpu_seconds / 1e9}, {"rows", rows}}.dump(1)
                             << "\n";
    return 0;
  });
}
