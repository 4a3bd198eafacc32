#include "wavefront_app.hpp"

namespace apps {

void add_wavefront_options(CLI::App& cli, WavefrontOptions& options) {
  cli.add_option("-t,--tile", options.tile, "tile size ROWSxCOLUMNS (or N for N x N): one task each")
      ->capture_default_str();
  cli.add_option("--checkpoint", options.checkpoint,
                 "write the run's state to this file every --checkpoint-every rows of tiles (score-only apps)");
  cli.add_option("--checkpoint-every", options.checkpoint_every, "rows of tiles between checkpoints")
      ->check(whole_number(1));
  cli.add_option("--restart", options.restart, "resume from this checkpoint: the run ends as if it had never stopped");
  add_run_report_options(cli, options, "at least 4 anti-diagonals of tiles and 8192 tasks");
}

trapeze::WavefrontPlan make_wavefront_plan(const WavefrontOptions& options) {
  const trapeze::Extent tile = parse_extent(options.tile, 2, "tile");
  trapeze::WavefrontPlan plan;
  plan.tile_rows = tile[0];
  plan.tile_columns = tile[1];
  return plan;
}

}  // namespace apps
