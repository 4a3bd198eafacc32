#include "wavefront_app.hpp"

#include <algorithm>
#include <cstdlib>

namespace apps {

void add_wavefront_options(CLI::App& cli, WavefrontOptions& options) {
  cli.add_option("-t,--tile", options.tile,
                 "tile size ROWSxCOLUMNS (or N for N x N): one task each; auto: on CPUs the largest square of 512 to "
                 "4096 that leaves 4 tiles per worker along the shorter side, on GPUs alone the whole space")
      ->capture_default_str();
  cli.add_option("--devices", options.devices,
                 "where tiles run: auto (GPUs if any, else CPUs), cpu, gpu or all (default: TRAPEZE_DEVICES, else auto)");
  cli.add_option("--width", options.width,
                 "GPU: steps of a band's anti-diagonal sweep per hyper-tile (seed 004's width), 8 to 65536, or auto: "
                 "seed 004's model with its constants from a training run on the space's first columns, cached")
      ->capture_default_str();
  cli.add_option("--layout", options.layout,
                 "apps that read an image or keep every cell: layout of a tile's cells where it runs: auto (banded "
                 "where tiles run on GPUs alone in one process, else row-major), row, or banded (seed 004's hybrid "
                 "row/diagonal-major layout, converted on the device by tasks of the run)")
      ->capture_default_str();
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

// On CPUs, the largest square tile of 512 to 4096 that still leaves four
// tiles per worker along the space's shorter side (enough anti-diagonal
// parallelism): larger tiles pay less per task and per strip. Measured,
// smith-waterman on 2 workers (docs/PERF.md): 20000^2 best at 2048 (10.7 G
// cells/s against 8.5 at 512 and 8.1 at 4096), 50000^2 at 4096 (11.8 against 9.1).
// cpu_workers <= 0 (MPI ranks, whose worker counts may differ yet must plan
// alike): 512.
trapeze::Index cpu_wavefront_tile(trapeze::Index rows, trapeze::Index columns, int cpu_workers) {
  if (cpu_workers <= 0) return 512;
  const trapeze::Index shorter = std::min(rows, columns);
  const trapeze::Index wanted = 4 * std::max(cpu_workers, 1);
  trapeze::Index side = 512;
  while (side < 4096 && shorter / (2 * side) >= wanted) side *= 2;
  return side;
}

// On GPUs alone: one tile on one GPU, since each tile pays the PeerWave
// pipeline's fill (a band of 512 rows starts two hyper-tiles after the band
// above), so the widest tile pays it least (tiles are at most 2^30 columns
// wide). A tile fills an H100 only with about a thousand bands of 512 rows
// running at once (half its 2112 resident warps; the codelet's own rule for
// its lane rows), which needs 2^19 rows and, two hyper-tiles of 32 columns
// between bands, 2^16 columns (2^17 here, for the front's ramp up and down
// at the tile's ends). Several GPUs each take one row of tiles (the rows are
// dealt to them in turn) only as far as a row keeps 2^19 rows, and only for
// spaces of 2^21 columns or more; a row is cut into 16 tiles per GPU, no
// narrower than 2^17 columns: GPU g starts g tiles after the first, so the
// front reaches the last GPU after G - 1 of the C tiles each runs, a
// C / (C + G - 1) share of the ideal speed-up. Measured on 4 H200s (PERF.md,
// 2026-11-26): a 2^21 pair in 2^19 x 2^17 tiles ran 1.56x faster on 4 GPUs
// than whole on one, a 2^20 pair in the same tiles 0.90x on 2: each tile's
// own fill leaves its GPU half idle, so smaller spaces stay on one GPU.
trapeze::Extent gpu_wavefront_tile(trapeze::Index rows, trapeze::Index columns, int gpus) {
  constexpr trapeze::Index widest_tile = trapeze::Index{1} << 30;
  constexpr trapeze::Index fewest_rows = trapeze::Index{1} << 19, fewest_columns = trapeze::Index{1} << 17;
  constexpr trapeze::Index fewest_columns_to_split = trapeze::Index{1} << 21;
  constexpr trapeze::Index tiles_per_gpu_across = 16;
  const trapeze::Index used = columns < fewest_columns_to_split ? 1 : std::min<trapeze::Index>(gpus, rows / fewest_rows);
  if (used <= 1) return {std::max<trapeze::Index>(rows, 1), std::clamp<trapeze::Index>(columns, 1, widest_tile), 1};
  const auto ceil_div = [](trapeze::Index a, trapeze::Index b) { return (a + b - 1) / b; };
  return {ceil_div(rows, used),
          std::clamp<trapeze::Index>(std::max(ceil_div(columns, tiles_per_gpu_across * used), fewest_columns), 1, widest_tile),
          1};
}

trapeze::WavefrontPlan make_wavefront_plan(const WavefrontOptions& options, trapeze::Index rows, trapeze::Index columns,
                                           bool gpus_alone, int cpu_workers, int gpus) {
  const trapeze::Extent tile =
      options.tile != "auto" ? parse_extent(options.tile, 2, "tile")
      : gpus_alone ? gpu_wavefront_tile(rows, columns, gpus)
                   : trapeze::Extent{cpu_wavefront_tile(rows, columns, cpu_workers), cpu_wavefront_tile(rows, columns, cpu_workers), 1};
  trapeze::WavefrontPlan plan;
  plan.tile_rows = tile[0];
  plan.tile_columns = tile[1];
  plan.devices = requested_wavefront_devices(options);
  plan.layout = trapeze::parse_wavefront_layout(options.layout);
  // auto: decided once the runtime knows its GPUs (run_wavefront_app); 32 until then.
  plan.hyper_tile_width = options.width == "auto" ? 32 : parse_hyper_tile_width(options.width, 8);
  return plan;
}

}  // namespace apps
