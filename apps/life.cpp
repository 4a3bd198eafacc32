// life: Conway's Game of Life on uint8_t cells, dead (0) outside the board by default.
#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/life.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"Conway's Game of Life, run as a Trapeze task graph"};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"1024x1024", "auto", "constant:0", 100});
  std::uint64_t seed = 1;
  double density = 0.3;
  cli.add_option("--seed", seed, "seed of the random initial board")->capture_default_str();
  cli.add_option("--density", density, "fraction of cells alive at the start")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  return apps::app_main("life", cli, argc, argv, [&] {
    const trapeze::Boundary boundary = trapeze::parse_boundary(options.boundary);
    if (boundary.kind == trapeze::BoundaryKind::constant && boundary.value != 0 && boundary.value != 1) {
      throw trapeze::InvalidArgument("life's constant boundary must be 0 (dead) or 1 (alive), got " +
                           std::to_string(boundary.value));
    }
    trapeze::Grid<std::uint8_t> grid(apps::domain_size(options, 2, "cells"), 2, 1, 0, 1, boundary);
    std::mt19937_64 engine(seed);
    std::bernoulli_distribution alive(density);
    for (auto& cell : grid.updated()) cell = alive(engine);
    const auto e = grid.extent();
    return apps::run_stencil_app("life", options, apps::Life{}, grid,
                                 {[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                                  [&] { return apps::as_doubles(grid.updated()); }, e[0], e[1], {"cells"}});
  });
}
