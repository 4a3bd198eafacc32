// sat: the summed-area table of a random image (each cell the sum of the
// pixels above and left of it, itself included), run as a Trapeze wavefront
// that keeps the whole table; exact in 64-bit integers.
#include <random>

#include "common/hdf5_fields.hpp"
#include "common/wavefront_app.hpp"
#include "wavefronts/summed_area_table.hpp"

int main(int argc, char** argv) {
  CLI::App cli{"Summed-area table of a random image, run as a Trapeze wavefront"};
  apps::WavefrontOptions options;
  apps::add_wavefront_options(cli, options);
  std::string size = "2048x2048";
  std::uint32_t max_pixel = 255;
  std::uint64_t seed = 1;
  cli.add_option("-n,--size", size, "image size ROWSxCOLUMNS (or N for N x N)")->capture_default_str();
  cli.add_option("--max-pixel", max_pixel, "pixels are drawn uniformly from 0 to this")->capture_default_str();
  cli.add_option("--seed", seed, "seed of the random image")->capture_default_str();
  cli.add_option("-o,--output", options.output,
                 "write the image (dataset image) and its table (dataset sat) to this HDF5 file (.h5)");
  return apps::app_main("sat", cli, argc, argv, [&] {
    const trapeze::Extent extent = apps::parse_extent(size, 2, "size");
    const trapeze::Index rows = extent[0], columns = extent[1];
    const double cells = static_cast<double>(rows) * static_cast<double>(columns);
    trapeze::check_fits_in_memory(cells * (sizeof(std::uint32_t) + sizeof(std::uint64_t)) * (options.verify ? 2 : 1),
                                  "a " + size + " image and its table", "choose a smaller --size");
    std::vector<std::uint32_t> image(static_cast<std::size_t>(rows * columns));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::uint32_t> pixel(0, max_pixel);
    for (auto& p : image) p = pixel(random);
    if (!options.output.empty() && !apps::is_hdf5_path(options.output)) {
      throw trapeze::InvalidArgument("--output '" + trapeze::quoted(options.output) + "' must end in .h5 or .hdf5");
    }
    std::vector<std::uint64_t> table(image.size());
    const trapeze::WavefrontData<apps::SummedAreaTable> data{rows, columns, {}, {}, image, table};
    // Rows are the slow dimension: the datasets are [row][column], extent columns x rows.
    const auto write_output = [&] {
      apps::write_fields_hdf5(options.output, {columns, rows, 1}, 2,
                              {{"image", apps::FieldType::u32, image.data(), 1}, {"sat", apps::FieldType::u64, table.data(), 1}},
                              {0, "sat", "zero"});
    };
    const int status = apps::run_wavefront_app<apps::SummedAreaTable>(
        "sat", options, apps::SummedAreaTable{}, data,
        [&](const auto& outcome, nlohmann::json& report) {
          report["total"] = outcome.last_cell;
          report["max_pixel"] = max_pixel;
          return fmt::format("total {}", outcome.last_cell);
        },
        options.output.empty() ? std::function<void()>() : std::function<void()>(write_output));
    return status;
  });
}
