// dtw: the dynamic time warping distance of two random-walk series, run as a
// Trapeze wavefront that keeps only tile boundaries.
#include <random>

#include "common/wavefront_app.hpp"
#include "wavefronts/dynamic_time_warping.hpp"

namespace {

std::vector<double> random_walk(trapeze::Index length, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> step(0.0, 1.0);
  std::vector<double> series(static_cast<std::size_t>(length));
  double value = 0;
  for (double& x : series) x = value += step(random);
  return series;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Dynamic time warping distance of two random-walk series, run as a Trapeze wavefront"};
  apps::WavefrontOptions options;
  apps::add_wavefront_options(cli, options);
  std::string size = "4000x3000";
  std::uint64_t seed = 1;
  cli.add_option("-n,--size", size, "series lengths ROWSxCOLUMNS (or N for N x N)")->capture_default_str();
  cli.add_option("--seed", seed, "seed of the series")->capture_default_str();
  return apps::app_main("dtw", cli, argc, argv, [&] {
    const trapeze::Extent extent = apps::parse_extent(size, 2, "size");
    const std::vector<double> a = random_walk(extent[0], seed), b = random_walk(extent[1], seed + 1);
    const trapeze::WavefrontData<apps::DynamicTimeWarping> data{extent[0], extent[1], a, b, {}, {}};
    return apps::run_wavefront_app<apps::DynamicTimeWarping>(
        "dtw", options, apps::DynamicTimeWarping{}, data, [&](const auto& outcome, nlohmann::json& report) {
          report["distance"] = outcome.last_cell;
          return fmt::format("distance {:.17g}", outcome.last_cell);
        });
  });
}
