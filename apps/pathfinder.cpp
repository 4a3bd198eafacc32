// pathfinder: Rodinia PathFinder. A cols x rows grid of random weights (0-9);
// the cost of reaching each cell of the last row from the top, moving down
// and at most one column sideways per row.
#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/pathfinder.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"Rodinia PathFinder (dynamic programming down a grid), run as a Trapeze task graph"};
  apps::CommonOptions options;
  // PathFinder's time steps are its rows: --size is cols, --steps is rows - 1.
  apps::add_common_options(cli, options, {"100000", "auto", "clamp", 100});
  std::uint64_t seed = 1;
  cli.add_option("--seed", seed, "seed of the random weights")->capture_default_str();
  return apps::app_main("pathfinder", cli, argc, argv, [&] {
    const trapeze::Extent cols = apps::domain_size(options, 1, "cost");
    if (options.steps < 0) throw trapeze::InvalidArgument("steps must be >= 0, got " + std::to_string(options.steps));
    const trapeze::Boundary boundary = trapeze::parse_boundary(options.boundary);
    if (boundary.kind != trapeze::BoundaryKind::clamp) {
      throw trapeze::InvalidArgument("pathfinder's boundary is clamp (Rodinia's edge rule), got '" + options.boundary + "'");
    }
    // Row 0 of the wall is the initial state; row t+1 is read by step t.
    trapeze::Grid<std::int32_t> grid(cols, 1, 1, 1, std::max<trapeze::Index>(1, options.steps), boundary);
    std::vector<std::int32_t> wall(static_cast<std::size_t>(cols[0] * (options.steps + 1)));
    apps::fill_random(wall, seed, 0, 9);
    std::copy_n(wall.begin(), cols[0], grid.updated().begin());
    std::copy(wall.begin() + cols[0], wall.end(), grid.constant(0).begin());
    return apps::run_stencil_app("pathfinder", options, apps::Pathfinder{}, grid,
                                 {[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                                  [&] { return apps::as_doubles(grid.updated()); }, cols[0], 1, {"cost"}, {"wall"}});
  });
}
