// Benchmark: jacobi2d through Trapeze (at several trapezoid heights) against a
// plain OpenMP loop over the same array and the machine's measured copy
// bandwidth, in one process. Prints Google Benchmark's table, then ratios.
//
//   build/benchmarks/jacobi2d_vs_openmp --size 16384 --steps 64 --heights 1,16 --tile auto,4096x512
#include <benchmark/benchmark.h>
#include <fmt/core.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/app_main.hpp"
#include "common/app_options.hpp"
#include "common/field_values.hpp"
#include "openmp_jacobi2d.hpp"
#include "stencils/jacobi2d.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/tile_size.hpp"

namespace {

struct Settings {
  std::string size = "4096";
  long steps = 50;
  std::vector<std::string> tiles{"auto"};   // one, or one per height
  std::vector<std::string> heights{"1"};
  int repetitions = 5;
};

// Collects each benchmark's median rate so the ratios can be printed at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> median_rate;  // name -> items (cells or bytes) per second
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      // With one repetition there are no aggregates: the run is its own median.
      if (run.aggregate_name == "median" || run.run_type == Run::RT_Iteration) {
        const auto rate = run.counters.find("rate");
        if (rate != run.counters.end()) median_rate[run.run_name.function_name] = rate->second.value;
      }
    }
  }
};

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

void print_ratios(const std::map<std::string, double>& rate, const std::vector<int>& heights,
                  const std::map<int, std::string>& tile_used, const std::string& what) {
  const double bandwidth = rate.at("copy_bandwidth");  // bytes/s, read + write
  // At h = 1 each cell update must at least read and write one float: 8 bytes.
  const double limit = bandwidth / 8.0;
  const double openmp = rate.at("openmp_loop");
  fmt::print("\njacobi2d {} on {} ({} cores)\n", what, cpu_model(), std::thread::hardware_concurrency());
  fmt::print("copy bandwidth {:.2f} GB/s -> memory limit at h=1: {:.3f} GCUPS\n", bandwidth / 1e9, limit / 1e9);
  fmt::print("{:<14} {:>9} {:>12} {:>12} {:>12}\n", "variant", "GCUPS", "vs OpenMP", "vs limit", "tile");
  fmt::print("{:<14} {:>9.3f} {:>12.3f} {:>12.3f} {:>12}\n", "openmp_loop", openmp / 1e9, 1.0, openmp / limit, "-");
  for (int h : heights) {
    const double r = rate.at(fmt::format("trapeze_h{}", h));
    fmt::print("{:<14} {:>9.3f} {:>12.3f} {:>12.3f} {:>12}\n", fmt::format("trapeze_h{}", h), r / 1e9, r / openmp,
               r / limit, tile_used.at(h));
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"jacobi2d: Trapeze vs a plain OpenMP loop vs copy bandwidth"};
  Settings s;
  cli.add_option("--size", s.size, "domain, e.g. 4096 or 4096x4096")->capture_default_str();
  cli.add_option("--steps", s.steps, "time steps per measurement")->check(CLI::Range(1, 1000000))->capture_default_str();
  cli.add_option("--tile", s.tiles, "Trapeze tile size (auto or e.g. 4096x512), or one per height, comma-separated")
      ->delimiter(',')
      ->capture_default_str();
  cli.add_option("--heights", s.heights, "comma-separated trapezoid heights to run")
      ->delimiter(',')
      ->capture_default_str();
  cli.add_option("--repetitions", s.repetitions, "repetitions (the median is reported)")->check(CLI::Range(1, 1000))->capture_default_str();
  return apps::app_main("jacobi2d_vs_openmp", cli, argc, argv, [&] {
    const trapeze::Extent n = apps::parse_extent(s.size, 2, "size");
    std::vector<int> heights;
    for (const std::string& h : s.heights) heights.push_back(apps::parse_height(h));
    const std::vector<std::string>& tiles = s.tiles;
    if (tiles.size() != 1 && tiles.size() != heights.size()) {
      throw trapeze::Error(fmt::format("--tile: give one tile or one per height; got {} tiles for {} heights",
                                       tiles.size(), heights.size()));
    }
    std::map<int, std::string> tile_of;  // by height: "auto" or an extent
    for (std::size_t i = 0; i < heights.size(); ++i) tile_of[heights[i]] = tiles[tiles.size() == 1 ? 0 : i];
    const double cells = static_cast<double>(n[0] * n[1]);
    std::vector<float> initial(static_cast<std::size_t>(n[0] * n[1]));
    apps::fill_random(initial, 7, 0.0, 1.0);

    std::vector<benchmark::internal::Benchmark*> registered;
    std::map<int, std::string> tile_used;  // by height
    // STREAM-style copy over two arrays of the domain's size: the memory limit.
    registered.push_back(benchmark::RegisterBenchmark("copy_bandwidth", [&](benchmark::State& state) {
      std::vector<float> a(initial), b(initial.size());
      const long count = static_cast<long>(a.size());
      constexpr int passes = 10;  // one pass is a few milliseconds: too short to time alone
      for (auto _ : state) {
        for (int pass = 0; pass < passes; ++pass) {
#pragma omp parallel for schedule(static)
          for (long i = 0; i < count; ++i) b[i] = a[i];
          benchmark::DoNotOptimize(b.data());
          std::swap(a, b);
        }
      }
      state.counters["rate"] = benchmark::Counter(2.0 * sizeof(float) * count * passes * state.iterations(),
                                                  benchmark::Counter::kIsRate);
    }));
    registered.push_back(benchmark::RegisterBenchmark("openmp_loop", [&](benchmark::State& state) {
      for (auto _ : state) {
        state.PauseTiming();
        bench::OpenMPJacobi2D baseline(n[0], n[1], initial);
        state.ResumeTiming();
        baseline.run(s.steps);
      }
      state.counters["rate"] = benchmark::Counter(cells * s.steps * state.iterations(), benchmark::Counter::kIsRate);
    }));
    for (int h : heights) {
      registered.push_back(benchmark::RegisterBenchmark(fmt::format("trapeze_h{}", h).c_str(), [&, h](benchmark::State& state) {
        // StarPU's workers live only while this benchmark runs, so they do not
        // compete with the OpenMP threads of the others.
        trapeze::Runtime runtime;
        const trapeze::Extent tile = tile_of.at(h) == "auto" ? trapeze::choose_tile(n, 2, runtime.worker_count(), h)
                                                             : apps::parse_extent(tile_of.at(h), 2, "tile size");
        tile_used[h] = trapeze::to_string(tile, 2);
        for (auto _ : state) {
          state.PauseTiming();
          trapeze::Grid<float> grid(n, 2, 1);
          grid.updated().assign(initial);
          trapeze::StencilRun run(runtime, apps::Jacobi2D<float>{}, grid, trapeze::Plan{tile, h});
          state.ResumeTiming();
          run.submit(s.steps);
          run.wait();
        }
        state.counters["rate"] = benchmark::Counter(cells * s.steps * state.iterations(), benchmark::Counter::kIsRate);
      }));
    }
    for (auto* b : registered) b->Iterations(1)->Repetitions(s.repetitions)->ReportAggregatesOnly(true)
                                   ->UseRealTime()->Unit(benchmark::kMillisecond);
    // Repetitions of the variants interleave in random order, so a slow spell
    // of a shared machine does not fall on one variant only.
    std::string program = argv[0], interleave = "--benchmark_enable_random_interleaving=true";
    char* benchmark_argv[] = {program.data(), interleave.data(), nullptr};
    int benchmark_argc = 2;
    benchmark::Initialize(&benchmark_argc, benchmark_argv);
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    print_ratios(reporter.median_rate, heights, tile_used, fmt::format("{}x{} float, {} steps", n[0], n[1], s.steps));
    return 0;
  });
}
