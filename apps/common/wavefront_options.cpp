#include "wavefront_app.hpp"

#include <algorithm>
#include <cstdlib>

namespace apps {

void add_wavefront_options(CLI::App& cli, WavefrontOptions& options) {
  cli.add_option("-t,--tile", options.tile,
                 "tile size ROWSxCOLUMNS (or N for N x N): one task each; auto: 512x512 on CPUs, on GPUs alone the "
                 "whole space")
      ->capture_default_str();
  cli.add_option("--devices", options.devices,
                 "where tiles run: auto (GPUs if any, else CPUs), cpu, gpu or all (default: TRAPEZE_DEVICES, else auto)");
  cli.add_option("--width", options.hyper_tile_width,
                 "GPU: steps of a band's anti-diagonal sweep per hyper-tile (seed 004's width)")
      ->capture_default_str()
      ->check(CLI::Range(8, 65536));
  cli.add_option("--checkpoint", options.checkpoint,
                 "write the run's state to this file every --checkpoint-every rows of tiles (score-only apps)");
  cli.add_option("--checkpoint-every", options.checkpoint_every, "rows of tiles between checkpoints")
      ->check(whole_number(1));
  cli.add_option("--restart", options.restart, "resume from this checkpoint: the run ends as if it had never stopped");
  add_run_report_options(cli, options, "at least 4 anti-diagonals of tiles and 8192 tasks");
}

trapeze::StageDevices requested_wavefront_devices(const WavefrontOptions& options) {
  if (!options.devices.empty()) return trapeze::parse_stage_devices(options.devices);
  if (const char* env = std::getenv("TRAPEZE_DEVICES"); env && *env) return trapeze::parse_stage_devices(env);
  return trapeze::StageDevices::automatic;
}

trapeze::WavefrontPlan make_wavefront_plan(const WavefrontOptions& options, trapeze::Index rows, trapeze::Index columns,
                                           bool gpus_alone) {
  // On GPUs one tile: each tile pays the PeerWave pipeline's fill (a band
  // starts two hyper-tiles after the band above), so the widest tile pays it
  // least (tiles are at most 2^30 columns wide).
  constexpr trapeze::Index widest_tile = trapeze::Index{1} << 30;
  const trapeze::Extent tile =
      options.tile != "auto" ? parse_extent(options.tile, 2, "tile")
      : gpus_alone ? trapeze::Extent{std::max<trapeze::Index>(rows, 1), std::clamp<trapeze::Index>(columns, 1, widest_tile), 1}
                   : trapeze::Extent{512, 512, 1};
  trapeze::WavefrontPlan plan;
  plan.tile_rows = tile[0];
  plan.tile_columns = tile[1];
  plan.devices = requested_wavefront_devices(options);
  plan.hyper_tile_width = options.hyper_tile_width;
  return plan;
}

}  // namespace apps
