// pathfinder: Rodinia PathFinder. A cols x rows grid of weights; the cost of
// reaching each cell of the last row from the top, moving down and at most one
// column sideways per row. The weights are random (0-9, --seed), Rodinia's own
// (--rodinia: srand(9), rand() % 10) or read from a file in Rodinia's printed
// format (--wall); a text --output is Rodinia's printed result.
#include "common/field_values.hpp"
#include "common/rodinia_wall.hpp"
#include "common/stencil_app.hpp"
#include "stencils/pathfinder.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"Rodinia PathFinder (dynamic programming down a grid), run as a Trapeze task graph"};
  apps::CommonOptions options;
  // PathFinder's time steps are its rows: --size is cols, --steps is rows - 1.
  apps::add_common_options(cli, options, {"100000", "auto", "clamp", 100});
  std::uint64_t seed = 1;
  bool rodinia = false;
  std::string wall_file, save_wall;
  cli.add_option("--seed", seed, "seed of the random weights")->capture_default_str();
  cli.add_flag("--rodinia", rodinia, "Rodinia's weights: srand(9), rand() % 10, row by row (as its pathfinder COLS ROWS)");
  cli.add_option("--wall", wall_file,
                 "read the weights from this file in Rodinia's printed format (one line per row); it sets --size and --steps");
  cli.add_option("--save-wall", save_wall, "write the weights in Rodinia's printed format");
  return apps::app_main("pathfinder", cli, argc, argv, [&] {
    if (!wall_file.empty() && (rodinia || !options.input.empty() || !options.restart.empty())) {
      throw trapeze::InvalidArgument("--wall excludes --rodinia, --input and --restart");
    }
    std::optional<apps::Wall> read;
    if (!wall_file.empty()) {
      read = apps::read_wall(wall_file);
      if (options.size_given && apps::parse_extent(options.size, 1, "size")[0] != read->cols) {
        throw trapeze::InvalidArgument("--size " + options.size + " differs from --wall's " + std::to_string(read->cols) +
                                       " columns (leave --size out with --wall)");
      }
      if (cli.get_option("--steps")->count() > 0 && options.steps != read->rows - 1) {
        throw trapeze::InvalidArgument("--steps " + std::to_string(options.steps) + " differs from --wall's " +
                                       std::to_string(read->rows) + " rows (steps = rows - 1; leave --steps out with --wall)");
      }
      options.steps = read->rows - 1;
    }
    const trapeze::Extent cols = read ? trapeze::Extent{read->cols, 1, 1} : apps::domain_size(options, 1, "cost");
    if (options.steps < 0) throw trapeze::InvalidArgument("steps must be >= 0, got " + std::to_string(options.steps));
    const trapeze::Boundary boundary = trapeze::parse_boundary(options.boundary);
    if (boundary.kind != trapeze::BoundaryKind::clamp) {
      throw trapeze::InvalidArgument("pathfinder's boundary is clamp (Rodinia's edge rule), got '" + options.boundary + "'");
    }
    // Row 0 of the wall is the initial state; row t+1 is read by step t.
    trapeze::Grid<std::int32_t> grid(cols, 1, 1, 1, std::max<trapeze::Index>(1, options.steps), boundary);
    apps::Wall wall;
    if (read) {
      wall = std::move(*read);
    } else if (rodinia) {
      wall = apps::rodinia_wall(cols[0], options.steps + 1);
    } else {
      wall = {cols[0], options.steps + 1, std::vector<std::int32_t>(static_cast<std::size_t>(cols[0] * (options.steps + 1)))};
      apps::fill_random(wall.values, seed, 0, 9);
    }
    if (!save_wall.empty()) apps::write_wall(save_wall, wall);
    std::copy_n(wall.values.begin(), cols[0], grid.updated().begin());
    std::copy(wall.values.begin() + cols[0], wall.values.end(), grid.constant(0).begin());
    return apps::run_stencil_app(
        "pathfinder", options, apps::Pathfinder{}, grid,
        {[&](const std::string& path) {
           apps::write_rodinia_result(path, wall.values.data(), grid.updated().data(), cols[0]);
         },
         [&] { return apps::as_doubles(grid.updated()); }, cols[0], 1, {"cost"}, {"wall"}});
  });
}
