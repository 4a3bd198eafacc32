#include "sweep_app.hpp"

#include <cstdlib>

namespace apps {

void add_sweep_options(CLI::App& cli, SweepOptions& options, const std::string& field_name) {
  cli.add_option("-n,--size", options.size, "grid size ROWSxCOLUMNS (or N for N x N)")->capture_default_str();
  cli.add_option("-s,--sweeps", options.sweeps, "sweeps over the grid")->capture_default_str()->check(whole_number(0));
  cli.add_option("-t,--tile", options.tile,
                 "tile size ROWSxCOLUMNS (or N for N x N): one task per sweep each; auto: 256x256 on CPUs, "
                 "the whole grid on GPUs alone")
      ->capture_default_str();
  cli.add_option("--devices", options.devices,
                 "where tiles run: auto (GPUs if any, else CPUs), cpu, gpu or all (default: TRAPEZE_DEVICES, else auto)");
  cli.add_option("--width", options.width,
                 "GPU: columns each lane sweeps per hyper-tile (seed 004's width), 32 to 65536, or auto: seed 004's "
                 "model, trained once per GPU and grid shape (32 when the grid is cut into tiles)")
      ->capture_default_str();
  cli.add_option("--sweeps-per-task", options.sweeps_per_task,
                 "sweeps one task makes (on a GPU, overlapping in one launch); more than 1 needs the grid in one tile; "
                 "0: automatic, up to 64 then, else 1")
      ->capture_default_str()
      ->check(CLI::Range(0, 4096));
  cli.add_option("-o,--output", options.output, "write the final field (dataset " + field_name + ") to this HDF5 file (.h5)");
  cli.add_option("--png", options.png, "write a picture of the final field to this PNG file");
  add_run_report_options(cli, options, "at least 8 anti-diagonals of tiles and 8192 tasks");
}

trapeze::StageDevices requested_sweep_devices(const SweepOptions& options) {
  if (!options.devices.empty()) return trapeze::parse_stage_devices(options.devices);
  if (const char* env = std::getenv("TRAPEZE_DEVICES"); env && *env) return trapeze::parse_stage_devices(env);
  return trapeze::StageDevices::automatic;
}

SweepGrid sweep_grid(const SweepOptions& options, std::size_t value_bytes) {
  const trapeze::Extent extent = parse_extent(options.size, 2, "size");
  if (!options.output.empty() && !is_hdf5_path(options.output)) {
    throw trapeze::InvalidArgument("--output '" + trapeze::quoted(options.output) + "' must end in .h5 or .hdf5");
  }
  const double cells = static_cast<double>(extent[0]) * static_cast<double>(extent[1]);
  trapeze::check_fits_in_memory(cells * static_cast<double>(value_bytes) * (options.verify ? 2 : 1),
                                "a " + options.size + " grid" + (options.verify ? " and its reference copy" : ""),
                                "choose a smaller --size");
  return {extent[0], extent[1]};
}

}  // namespace apps
