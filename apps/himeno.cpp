// himeno: the Himeno benchmark (RIKEN's 19-point pressure Poisson Jacobi
// solver over 14 arrays) as a Trapeze task graph. Reports the original's
// residual gosa after the last step and its MFLOPS (34 operations per
// interior cell and step).
#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/himeno.hpp"

namespace {

// --size takes the benchmark's size names as well as XxYxZ.
void translate_size_name(apps::CommonOptions& options) {
  const std::string& size = options.size;
  if (size.find_first_not_of("0123456789x") == std::string::npos) return;
  try {
    options.size = trapeze::to_string(apps::himeno_size(size), 3);
  } catch (const std::invalid_argument&) {
    throw trapeze::InvalidArgument("--size '" + trapeze::quoted(size) + "' is neither a Himeno size (XS, S, M, L, XL) nor XxYxZ");
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"The Himeno benchmark (19-point Poisson Jacobi over 14 arrays), run as a Trapeze task graph.\n"
               "--size takes XS, S, M, L, XL (x = the original's k, y = j, z = i) or XxYxZ."};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"S", "auto", "clamp", 100});
  return apps::app_main("himeno", cli, argc, argv, [&] {
    translate_size_name(options);
    trapeze::Grid<float> grid(apps::domain_size(options, 3, "p"), 3, apps::Himeno::updated_fields,
                              apps::Himeno::constant_fields, 1, trapeze::parse_boundary(options.boundary));
    const auto e = grid.extent();
    if (std::min({e[0], e[1], e[2]}) < 3) {
      throw trapeze::InvalidArgument("himeno needs at least 3 cells along every axis, got --size " +
                                     trapeze::to_string(e, 3));
    }
    if (options.input.empty() && options.restart.empty()) apps::fill_himeno(grid);
    const trapeze::Index steps = options.steps;
    apps::AppOutputs outputs{[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                             [&] {
                               const auto plane = grid.updated().begin() + (e[2] / 2) * e[0] * e[1];
                               return std::vector<double>(plane, plane + e[0] * e[1]);
                             },
                             e[0],
                             e[1],
                             {"p", "ss"},
                             {"a0", "a1", "a2", "a3", "b0", "b1", "b2", "c0", "c1", "c2", "wrk1", "bnd"}};
    outputs.results = [&](double seconds) {
      return nlohmann::json{{"gosa", apps::himeno_gosa(grid)},
                            {"mflops", apps::himeno_flops(e, steps) / std::max(seconds, 1e-12) / 1e6}};
    };
    return apps::run_stencil_app("himeno", options, apps::Himeno{}, grid, outputs);
  });
}
