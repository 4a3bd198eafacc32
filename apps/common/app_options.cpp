#include "app_options.hpp"

#include <charconv>
#include <limits>
#include <cstdlib>

#include "hdf5_fields.hpp"
#include "trapeze/error.hpp"
#include "trapeze/tile_size.hpp"

namespace apps {

CLI::Validator whole_number(trapeze::Index minimum) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        trapeze::Index value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc::result_out_of_range) return "'" + text + "' is past 2^63 - 1";
        if (ec != std::errc() || end != text.data() + text.size()) return "'" + text + "' is not a whole number";
        if (value < minimum) return "'" + text + "' must be >= " + std::to_string(minimum);
        return {};
      },
      "INT>=" + std::to_string(minimum));
}

void add_common_options(CLI::App& cli, CommonOptions& o, const AppDefaults& defaults) {
  o.size = defaults.size;
  o.tile = defaults.tile;
  o.boundary = defaults.boundary;
  o.steps = defaults.steps;
  cli.add_option("-n,--size", o.size, "domain size, e.g. 1001x777 or 512 for every dimension")
      ->capture_default_str()
      ->each([&o](const std::string&) { o.size_given = true; });
  cli.add_option("-i,--input", o.input, "read the initial fields from this HDF5 file (it sets the size)");
  cli.add_option("--checkpoint", o.checkpoint, "write the state to this HDF5 file every --checkpoint-every steps");
  cli.add_option("--checkpoint-every", o.checkpoint_every, "steps between checkpoints (with --checkpoint)")
      ->check(whole_number(1));
  cli.add_option("--restart", o.restart,
                 "resume from this checkpoint: the run ends at --steps as if it had never stopped");
  // Negative step counts get the library's own message (tested), so the
  // validator only refuses what is not a 64-bit whole number.
  cli.add_option("-s,--steps", o.steps, "time steps")->capture_default_str()->check(whole_number(std::numeric_limits<trapeze::Index>::min()));
  cli.add_option("--warmup-steps", o.warmup_steps,
                 "of --steps, run these first, then time the rest apart (stepping_seconds in --json) with the "
                 "field already in the tiles: the stepping rate without the copies in and out")
      ->capture_default_str()
      ->check(whole_number(0));
  cli.add_option("-t,--tile", o.tile, "tile size, e.g. 256x256, or auto (CPUs: whole rows, 4 tiles per worker; GPUs: 2 slabs per GPU, 1 on one GPU)")
      ->capture_default_str();
  cli.add_option("--height", o.height,
                 "trapezoid height h (time steps per stage) or auto (the height model); default: TRAPEZE_HEIGHT or auto");
  cli.add_option("--kernel-height", o.kernel_height,
                 "GPU: time steps per kernel launch (temporal blocking in shared memory), or auto")
      ->capture_default_str();
  cli.add_option("--devices", o.devices,
                 "workers for stage tasks: auto (GPUs when present), cpu, gpu or all; default: TRAPEZE_DEVICES or auto");
  // Checked as it is parsed: a bad range is refused before the grid is made or a model profiled.
  cli.add_option("--sweep-height", o.sweep_height,
                 "run every height in A:B, print measured and predicted time per step, write them to a CSV")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              parse_height_range(text);
            } catch (const trapeze::InvalidArgument& e) {
              const std::string message = e.what(), option = "--sweep-height ";  // CLI11 names the option itself
              return message.rfind(option, 0) == 0 ? message.substr(option.size()) : message;
            }
            return {};
          },
          "A:B"));
  cli.add_option("--sweep-csv", o.sweep_csv, "CSV file of --sweep-height (default: <app>-height-sweep.csv)");
  cli.add_option("--mode", o.mode, "trapezoid computation: shrink or full")->capture_default_str();
  cli.add_option("-b,--boundary", o.boundary, "boundary: clamp, periodic, constant or constant:V")
      ->capture_default_str();
  cli.add_option("-o,--output", o.output,
                 "write the final fields to this file: HDF5 when it ends in .h5 or .hdf5, else the app's text format");
  cli.add_option("--png", o.png, "write a picture of the final field");
  cli.add_option("--disk", o.disk,
                 "out-of-core: a directory where StarPU keeps the tiles that do not fit in the memory "
                 "STARPU_LIMIT_CPU_MEM (MiB) allows; needs about the domain's size free");
  cli.add_option("--stream", o.stream,
                 "out-of-core: after each stage StarPU writes the tile back and evicts it first: auto (when the "
                 "domain exceeds the GPUs' memory or --disk is given), on or off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  cli.add_option("--skew", o.skew,
                 "out-of-core without ghost zones: skewed slabs along the slowest axis instead of tiles; off, auto "
                 "(the fewest passes that fit the GPU) or L:k (slabs of L planes, passes of k steps)")
      ->capture_default_str();
  cli.add_flag("--checksum", o.checksum,
               "report an exact checksum of the final fields (a sum of hashes of every cell's position and bits, "
               "the same whatever the tiles, devices or ranks)");
  cli.add_flag("--no-grid", o.no_grid,
               "never hold the whole domain on the host: tiles get their initial values from the app's cell "
               "function and their final values go only into --checksum (implied); --verify then compares with "
               "the sequential reference's checksum, computed band by band (jacobi2d and jacobi3d)");
  add_run_report_options(cli, o, "at least 4 stages and 8192 tasks");
}

static trapeze::Index parse_positive(const std::string& piece, const std::string& text, const std::string& what) {
  trapeze::Index value = 0;
  const auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
  if (ec != std::errc() || end != piece.data() + piece.size() || piece.empty()) {
    throw trapeze::InvalidArgument(what + " must be positive integers like 1001x777, got '" + text + "'");
  }
  if (value <= 0) throw trapeze::InvalidArgument(what + " must be > 0, got '" + text + "'");
  return value;
}

trapeze::Extent parse_extent(const std::string& text, int dims, const std::string& what) {
  std::vector<std::string> pieces;
  std::size_t start = 0;
  while (true) {
    const std::size_t x = text.find('x', start);
    pieces.push_back(text.substr(start, x == std::string::npos ? std::string::npos : x - start));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  trapeze::Extent e{1, 1, 1};
  if (pieces.size() == 1) {
    const trapeze::Index v = parse_positive(pieces[0], text, what);
    for (int d = 0; d < dims; ++d) e[d] = v;
    return e;
  }
  if (static_cast<int>(pieces.size()) != dims) {
    throw trapeze::InvalidArgument(what + " needs " + std::to_string(dims) + " numbers separated by 'x', got '" + text + "'");
  }
  for (int d = 0; d < dims; ++d) e[d] = parse_positive(pieces[d], text, what);
  return e;
}

int parse_height(const std::string& text, const std::string& what) {
  if (text == "auto") return 0;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) {
    throw trapeze::InvalidArgument(what + " must be a positive integer or auto, got '" + text + "'");
  }
  return value;
}

int parse_hyper_tile_width(const std::string& text, int narrowest) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < narrowest || value > 65536) {
    throw trapeze::InvalidArgument("--width must be auto or a whole number from " + std::to_string(narrowest) +
                                   " to 65536, got '" + trapeze::quoted(text) + "'");
  }
  return value;
}

std::string requested_height(const CommonOptions& o) {
  if (!o.height.empty()) return o.height;
  if (const char* env = std::getenv("TRAPEZE_HEIGHT"); env && *env) return env;
  return "auto";
}

HeightRange parse_height_range(const std::string& text) {
  const auto colon = text.find(':');
  const std::string error = "--sweep-height must be A:B with 1 <= A <= B <= 64, got '" + text + "'";
  if (colon == std::string::npos) throw trapeze::InvalidArgument(error);
  int a = 0, b = 0;
  const auto [end_a, ec_a] = std::from_chars(text.data(), text.data() + colon, a);
  const auto [end_b, ec_b] = std::from_chars(text.data() + colon + 1, text.data() + text.size(), b);
  if (ec_a != std::errc() || ec_b != std::errc() || end_a != text.data() + colon ||
      end_b != text.data() + text.size() || a < 1 || b < a || b > 64) {
    throw trapeze::InvalidArgument(error);
  }
  return {a, b};
}

trapeze::StageDevices requested_devices(const CommonOptions& o) {
  if (!o.devices.empty()) return trapeze::parse_stage_devices(o.devices);
  if (const char* env = std::getenv("TRAPEZE_DEVICES"); env && *env) return trapeze::parse_stage_devices(env);
  return trapeze::StageDevices::automatic;
}

trapeze::Extent domain_size(const CommonOptions& o, int dims, const std::string& first_field) {
  if (!o.input.empty() && !o.restart.empty()) throw trapeze::InvalidArgument("--input and --restart exclude each other");
  const std::string& file = o.restart.empty() ? o.input : o.restart;
  const char* option = o.restart.empty() ? "--input" : "--restart";
  if (file.empty()) return parse_extent(o.size, dims, "size");
  const trapeze::Extent from_file = read_field_extent_hdf5(file, first_field, dims);
  if (o.size_given && parse_extent(o.size, dims, "size") != from_file) {
    throw trapeze::InvalidArgument("--size " + o.size + " differs from " + option + "'s " +
                                   trapeze::to_string(from_file, dims) + " (leave --size out with " + option + ")");
  }
  return from_file;
}

trapeze::Plan make_plan(const CommonOptions& o, int dims, const trapeze::Extent& domain, int workers, int gpus,
                        double read_only_elements_per_cell) {
  trapeze::Plan plan;
  plan.height = parse_height(requested_height(o));
  plan.kernel_height = parse_height(o.kernel_height, "kernel height");
  plan.devices = requested_devices(o);
  if (o.tile != "auto") {
    plan.tile = parse_extent(o.tile, dims, "tile size");
  } else if (gpus > 0) {
    plan.tile = trapeze::choose_gpu_tile(domain, dims, gpus, 0, read_only_elements_per_cell);
  } else {
    plan.tile = trapeze::choose_tile(domain, dims, workers, plan.height);
  }
  plan.mode = trapeze::parse_trapezoid_mode(o.mode);
  plan.max_tasks_in_flight = o.window;
  return plan;
}

}  // namespace apps
