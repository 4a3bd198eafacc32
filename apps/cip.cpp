// cip: 2-D advection by the CIP scheme (value and gradient as the state) as a
// Trapeze task graph: a Gaussian hill carried around the domain's centre by
// solid-body rotation. After a whole number of turns the exact field is the
// initial one, and the summary reports how far the run is from it.
#include <cmath>

#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/cip.hpp"

namespace {

// The largest |u dt| or |v dt| in the grid's velocity fields, in cells.
template <typename T>
double largest_courant(const trapeze::Grid<T>& grid, double dt) {
  double largest = 0;
  for (int c = 0; c < 2; ++c) {
    for (const T v : grid.constant(c)) largest = std::max(largest, std::abs(static_cast<double>(v)) * dt);
  }
  return largest;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"2-D advection by the CIP scheme (value and gradient), run as a Trapeze task graph"};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"1024x1024", "auto", "constant", 100});
  std::string type = "float";
  double period = 0;
  cli.add_option("--type", type, "element type: float or double")->capture_default_str();
  cli.add_option("--period", period,
                 "steps per turn of the rotation (default: the fastest cell moves half a cell per step)")
      ->check(CLI::PositiveNumber);
  return apps::app_main("cip", cli, argc, argv, [&] {
    auto run = [&]<typename T>() {
      trapeze::Grid<T> grid(apps::domain_size(options, 2, "f"), 2, apps::Cip<T>::updated_fields,
                            apps::Cip<T>::constant_fields, 1, trapeze::parse_boundary(options.boundary));
      const auto e = grid.extent();
      const apps::RotatingHill flow{period > 0 ? period : apps::RotatingHill::period_for(e, 0.5)};
      if (options.input.empty() && options.restart.empty()) flow.fill(grid);
      const apps::Cip<T> scheme{};
      // Beyond one cell per step the departure point leaves the upwind cell and
      // the cubic is extrapolated: the scheme blows up.
      const double courant = largest_courant(grid, static_cast<double>(scheme.dt));
      if (courant > 1.0) {
        throw trapeze::InvalidArgument(fmt::format(
            "the fastest cell moves {:.3g} cells per step; CIP needs at most 1 (--period {} is too short)", courant,
            flow.period));
      }
      // A whole number of turns brings the exact solution back to the start.
      const bool whole_turns = options.input.empty() && options.restart.empty() && options.steps > 0 &&
                               std::fmod(static_cast<double>(options.steps), flow.period) == 0.0;
      std::vector<T> start;
      if (whole_turns) start.assign(grid.updated(0).begin(), grid.updated(0).end());
      apps::AppOutputs outputs{[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                               [&] { return apps::as_doubles(grid.updated()); },
                               e[0],
                               e[1],
                               {"f", "fx", "fy"},
                               {"u", "v"}};
      outputs.results = [&](double) {
        nlohmann::json results{{"period", flow.period}, {"courant", courant}};
        if (whole_turns) {
          double error = 0;
          for (std::size_t i = 0; i < start.size(); ++i) {
            error = std::max(error, std::abs(static_cast<double>(grid.updated(0)[i]) - static_cast<double>(start[i])));
          }
          results["turns"] = static_cast<double>(options.steps) / flow.period;
          results["max_error_after_turns"] = error;
        }
        return results;
      };
      return apps::run_stencil_app("cip", options, scheme, grid, outputs);
    };
    if (type == "float") return run.template operator()<float>();
    if (type == "double") return run.template operator()<double>();
    throw trapeze::InvalidArgument("type must be float or double, got '" + type + "'");
  });
}
