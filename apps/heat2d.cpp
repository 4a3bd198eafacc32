// heat2d: seed 004's Heat2D, a plate whose top edge is hot, relaxed by
// in-place Gauss-Seidel sweeps run as a Trapeze wavefront in space and time;
// bit-exact against the sequential loop.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/sweep_app.hpp"
#include "wavefronts/heat_2d.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"Heat2D (seed 004): in-place Gauss-Seidel sweeps over a plate, run as a Trapeze wavefront"};
  apps::SweepOptions options;
  apps::add_sweep_options(cli, options, "temperature");
  apps::Heat2D heat;
  double initial = 20.0;
  cli.add_option("--hot", heat.hot, "temperature of the top edge")->capture_default_str();
  cli.add_option("--cold", heat.cold, "temperature of the other edges")->capture_default_str();
  cli.add_option("--initial", initial, "the plate's temperature before the first sweep")->capture_default_str();
  return apps::app_main("heat2d", cli, argc, argv, [&] {
    for (const auto& [value, what] : {std::pair{heat.hot, "--hot"}, {heat.cold, "--cold"}, {initial, "--initial"}}) {
      if (!std::isfinite(value)) throw trapeze::InvalidArgument(fmt::format("{} must be a finite temperature, got {}", what, value));
    }
    const apps::SweepGrid extent = apps::sweep_grid(options, sizeof(double));
    std::vector<double> plate(static_cast<std::size_t>(extent.rows * extent.columns), initial);
    return apps::run_sweep_app("heat2d", options, heat, plate, extent, "temperature", [&](nlohmann::json& report) {
      const double mean = plate.empty() ? 0.0 : std::accumulate(plate.begin(), plate.end(), 0.0) / static_cast<double>(plate.size());
      const double centre = plate.empty() ? 0.0 : plate[static_cast<std::size_t>(extent.rows / 2 * extent.columns + extent.columns / 2)];
      report["mean"] = mean;
      report["centre"] = centre;
      return fmt::format("mean {:.6g}, centre {:.6g}", mean, centre);
    });
  });
}
