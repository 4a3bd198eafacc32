// jacobi3d: 7-point Jacobi relaxation on a 3-D grid of random values.
#include "common/field_values.hpp"
#include "common/generated_grid.hpp"
#include "common/stencil_app.hpp"
#include "stencils/jacobi3d.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"7-point Jacobi relaxation in 3-D, run as a Trapeze task graph"};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"128x128x128", "auto", "clamp", 50});
  std::string type = "float";
  std::uint64_t seed = 1;
  cli.add_option("--type", type, "element type: float or double")->capture_default_str();
  cli.add_option("--seed", seed, "seed of the random initial field")->capture_default_str();
  return apps::app_main("jacobi3d", cli, argc, argv, [&] {
    auto run = [&]<typename T>() {
      // Each cell's initial value from a hash of (seed, cell): the same field
      // whether the grid holds it or the tiles generate it (--no-grid).
      auto app = apps::app_grid<T>(options, apps::domain_size(options, 3, "u"), 3,
                                   trapeze::parse_boundary(options.boundary),
                                   [seed](trapeze::Index cell) { return apps::hashed_uniform<T>(seed, cell); });
      trapeze::Grid<T>& grid = app.grid;
      const auto e = grid.extent();
      // The picture is the middle z-plane.
      apps::AppOutputs outputs{[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                               [&] {
                                 const auto plane = grid.updated().begin() + (e[2] / 2) * e[0] * e[1];
                                 return std::vector<double>(plane, plane + e[0] * e[1]);
                               },
                               e[0], e[1]};
      outputs.generated_checksum = app.checksum;
      return apps::run_stencil_app("jacobi3d", options, apps::Jacobi3D<T>{}, grid, outputs);
    };
    if (type == "float") return run.template operator()<float>();
    if (type == "double") return run.template operator()<double>();
    throw trapeze::InvalidArgument("type must be float or double, got '" + type + "'");
  });
}
