// hotspot: Rodinia HotSpot. Reads Rodinia's temperature and power files (one
// value per line, row-major) or generates a chip, and writes Rodinia's output.
#include <span>

#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/hotspot.hpp"

namespace {

// A synthetic chip: ambient-ish temperatures and a few hot functional blocks.
void generate_chip(trapeze::Grid<float>& grid, std::uint64_t seed) {
  const auto e = grid.extent();
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> temperature(322.0f, 345.0f), noise(0.0f, 0.2f), block_power(0.5f, 3.0f);
  for (auto& t : grid.updated()) t = temperature(engine);
  auto& power = grid.constant(0);
  for (auto& p : power) p = noise(engine) * 1e-3f;
  std::uniform_int_distribution<long> col(0, e[0] - 1), row(0, e[1] - 1);
  for (int block = 0; block < 12; ++block) {
    const long x0 = col(engine), y0 = row(engine);
    const long w = std::max(1L, e[0] / 8), h = std::max(1L, e[1] / 8);
    const float p = block_power(engine) * 1e-3f;
    for (long y = y0; y < std::min(e[1], y0 + h); ++y) {
      for (long x = x0; x < std::min(e[0], x0 + w); ++x) power[grid.linear(x, y)] += p;
    }
  }
}

void load(const std::string& path, long expected, const std::string& what, std::span<float> into) {
  const std::vector<double> values = apps::read_values(path, expected, what);
  std::copy(values.begin(), values.end(), into.begin());
}

void save_input(const std::string& path, std::span<const float> values) {
  apps::write_atomically(path, [&](std::FILE* f) {
    for (float v : values) fmt::print(f, "{}\n", v);
  });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Rodinia HotSpot (chip temperature from a power map), run as a Trapeze task graph"};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"1024x1024", "auto", "clamp", 100});
  std::string temp_file, power_file, save_temp, save_power;
  std::uint64_t seed = 1;
  cli.add_option("--temp", temp_file, "Rodinia temperature file (rows*cols values, one per line)");
  cli.add_option("--power", power_file, "Rodinia power file (rows*cols values, one per line)");
  cli.add_option("--save-temp", save_temp, "write the initial temperature in Rodinia's input format");
  cli.add_option("--save-power", save_power, "write the power map in Rodinia's input format");
  cli.add_option("--seed", seed, "seed of the generated chip (without --temp/--power)")->capture_default_str();
  return apps::app_main("hotspot", cli, argc, argv, [&] {
    if (temp_file.empty() != power_file.empty()) {
      throw trapeze::InvalidArgument("--temp and --power go together; got only " + std::string(temp_file.empty() ? "--power" : "--temp"));
    }
    // --size is cols x rows (x first), as everywhere in Trapeze.
    trapeze::Grid<float> grid(apps::domain_size(options, 2, "temperature"), 2, 1, 1, 1,
                              trapeze::parse_boundary(options.boundary));
    const auto e = grid.extent();
    if (temp_file.empty()) {
      generate_chip(grid, seed);
    } else {
      load(temp_file, static_cast<long>(grid.cells()), "temperature", grid.updated());
      load(power_file, static_cast<long>(grid.cells()), "power", grid.constant(0));
    }
    if (!save_temp.empty()) save_input(save_temp, grid.updated());
    if (!save_power.empty()) save_input(save_power, grid.constant(0));
    return apps::run_stencil_app("hotspot", options, apps::Hotspot::for_grid(e[1], e[0]), grid,
                                 {[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                                  [&] { return apps::as_doubles(grid.updated()); }, e[0], e[1], {"temperature"},
                                  {"power"}});
  });
}
