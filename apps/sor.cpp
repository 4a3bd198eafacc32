// sor: successive over-relaxation sweeps for Laplace's equation, in place,
// run as a Trapeze wavefront in space and time; bit-exact against the
// sequential loop. The boundary is x^2 - y^2, the exact solution, so the
// report says how close the sweeps came to it.
#include <algorithm>
#include <cmath>

#include "common/sweep_app.hpp"
#include "wavefronts/over_relaxation.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"Successive over-relaxation for Laplace's equation, run as a Trapeze wavefront"};
  apps::SweepOptions options;
  apps::add_sweep_options(cli, options, "u");
  std::string omega_text = "optimal";
  cli.add_option("-w,--omega", omega_text,
                 "relaxation factor in (0, 2), or 'optimal': 2 / (1 + sin(pi / (n + 1))) for the longer side n "
                 "(1: Gauss-Seidel, 0.8: seed 004's five-point average)")
      ->capture_default_str();
  return apps::app_main("sor", cli, argc, argv, [&] {
    const apps::SweepGrid extent = apps::sweep_grid(options, sizeof(double));
    const trapeze::Index longer = std::max(extent.rows, extent.columns);
    apps::OverRelaxation sor;
    sor.h = 1.0 / static_cast<double>(longer + 1);
    if (omega_text == "optimal") {
      sor.omega = apps::optimal_omega(longer);
    } else {
      std::size_t used = 0;
      try {
        sor.omega = std::stod(omega_text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != omega_text.size() || !(sor.omega > 0.0 && sor.omega < 2.0)) {
        throw trapeze::InvalidArgument("--omega must be 'optimal' or a number in (0, 2), got '" +
                                       trapeze::quoted(omega_text) + "'");
      }
    }
    std::vector<double> u(static_cast<std::size_t>(extent.rows * extent.columns), 0.0);
    return apps::run_sweep_app("sor", options, sor, u, extent, "u", [&](nlohmann::json& report) {
      double error = 0.0;
      for (trapeze::Index i = 0; i < extent.rows; ++i) {
        for (trapeze::Index j = 0; j < extent.columns; ++j) {
          error = std::max(error, std::abs(u[static_cast<std::size_t>(i * extent.columns + j)] - sor.solution(i, j)));
        }
      }
      report["omega"] = sor.omega;
      report["max_error"] = error;
      return fmt::format("omega {:.6g}, max |u - (x^2 - y^2)| {:.3e}", sor.omega, error);
    });
  });
}
