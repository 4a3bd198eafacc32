// inthist: the integral histogram of a random 8-bit image with B bins (each
// cell holds, per bin, the pixels above and left of it), run as a Trapeze
// wavefront that keeps the whole table; exact in 32-bit counts.
#include <random>

#include "common/hdf5_fields.hpp"
#include "common/wavefront_app.hpp"
#include "trapeze/memory_limits.hpp"
#include "wavefronts/integral_histogram.hpp"

namespace {

template <int Bins>
int run_bins(const apps::WavefrontOptions& options, const std::vector<std::uint8_t>& bins, trapeze::Index rows,
             trapeze::Index columns) {
  std::vector<apps::BinCounts<Bins>> table(bins.size());
  const trapeze::WavefrontData<apps::IntegralHistogram<Bins>> data{rows, columns, {}, {}, bins, table};
  // [row][column][bin]: extent bins x columns x rows, x first.
  const auto write_output = [&] {
    apps::write_fields_hdf5(options.output, {Bins, columns, rows}, 3,
                            {{"inthist", apps::FieldType::u32, table.data(), 1}}, {0, "inthist", "zero"});
  };
  const int status = apps::run_wavefront_app<apps::IntegralHistogram<Bins>>(
      "inthist", options, apps::IntegralHistogram<Bins>{}, data,
      [&](const auto& outcome, nlohmann::json& report) {
        std::vector<std::uint32_t> totals(outcome.last_cell.count, outcome.last_cell.count + Bins);
        report["bins"] = Bins;
        report["histogram"] = totals;  // the whole image's histogram: the last cell
        return fmt::format("{} bins", Bins);
      },
      options.output.empty() ? std::function<void()>() : std::function<void()>(write_output));
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Integral histogram of a random 8-bit image, run as a Trapeze wavefront"};
  apps::WavefrontOptions options;
  apps::add_wavefront_options(cli, options);
  std::string size = "1024x1024";
  int bins = 16;
  std::uint64_t seed = 1;
  cli.add_option("-n,--size", size, "image size ROWSxCOLUMNS (or N for N x N)")->capture_default_str();
  cli.add_option("-B,--bins", bins, "histogram bins: 8, 16, 32 or 64")->capture_default_str();
  cli.add_option("--seed", seed, "seed of the random image")->capture_default_str();
  cli.add_option("-o,--output", options.output,
                 "write the integral histogram (dataset inthist, [row][column][bin]) to this HDF5 file (.h5)");
  return apps::app_main("inthist", cli, argc, argv, [&] {
    if (bins != 8 && bins != 16 && bins != 32 && bins != 64) {
      throw trapeze::InvalidArgument("bins must be 8, 16, 32 or 64, got " + std::to_string(bins));
    }
    if (!options.output.empty() && !apps::is_hdf5_path(options.output)) {
      throw trapeze::InvalidArgument("--output '" + trapeze::quoted(options.output) + "' must end in .h5 or .hdf5");
    }
    const trapeze::Extent extent = apps::parse_extent(size, 2, "size");
    const double cells = static_cast<double>(extent[0]) * static_cast<double>(extent[1]);
    trapeze::check_fits_in_memory(cells * (1.0 + 4.0 * bins * (options.verify ? 2 : 1)),
                                  "a " + size + " image and its integral histogram of " + std::to_string(bins) + " bins",
                                  "choose a smaller --size or fewer --bins");
    std::vector<std::uint8_t> image_bins(static_cast<std::size_t>(extent[0] * extent[1]));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<int> pixel(0, 255);
    for (auto& b : image_bins) b = static_cast<std::uint8_t>(pixel(random) * bins / 256);
    switch (bins) {
      case 8: return run_bins<8>(options, image_bins, extent[0], extent[1]);
      case 16: return run_bins<16>(options, image_bins, extent[0], extent[1]);
      case 32: return run_bins<32>(options, image_bins, extent[0], extent[1]);
      default: return run_bins<64>(options, image_bins, extent[0], extent[1]);
    }
  });
}
