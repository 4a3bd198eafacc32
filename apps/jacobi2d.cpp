// jacobi2d: 5-point Jacobi relaxation on a 2-D grid of random values.
#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/jacobi2d.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"5-point Jacobi relaxation in 2-D, run as a Trapeze task graph"};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"1024x1024", "auto", "clamp", 100});
  std::string type = "float";
  std::uint64_t seed = 1;
  cli.add_option("--type", type, "element type: float or double")->capture_default_str();
  cli.add_option("--seed", seed, "seed of the random initial field")->capture_default_str();
  return apps::app_main("jacobi2d", cli, argc, argv, [&] {
    auto run = [&]<typename T>() {
      trapeze::Grid<T> grid(apps::domain_size(options, 2, "u"), 2, 1, 0, 1,
                            trapeze::parse_boundary(options.boundary));
      apps::fill_random(grid.updated(), seed, 0.0, 1.0);
      const auto e = grid.extent();
      return apps::run_stencil_app("jacobi2d", options, apps::Jacobi2D<T>{}, grid,
                                   {[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                                    [&] { return apps::as_doubles(grid.updated()); }, e[0], e[1]});
    };
    if (type == "float") return run.template operator()<float>();
    if (type == "double") return run.template operator()<double>();
    throw trapeze::InvalidArgument("type must be float or double, got '" + type + "'");
  });
}
