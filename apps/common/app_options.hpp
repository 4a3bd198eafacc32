#pragma once
// Command-line options every app shares, and parsing of sizes like 1001x777.
#include <CLI/CLI.hpp>

#include <string>

#include "trapeze/geometry.hpp"
#include "run_report.hpp"
#include "trapeze/plan.hpp"

namespace apps {

// The stencil apps' options; those of the report (--verify, --json,
// --progress, --trace, --window) are every app's (run_report.hpp).
struct CommonOptions : RunReportOptions {
  std::string size;
  trapeze::Index steps = 100;
  // The first steps of --steps, run and drained before `stepping_seconds`
  // starts: the rest is timed with the field already in the tiles (on the GPUs).
  trapeze::Index warmup_steps = 0;
  std::string tile;
  std::string height;  // empty: TRAPEZE_HEIGHT, else auto
  std::string kernel_height = "auto";  // GPU: steps per kernel launch
  std::string devices;  // empty: TRAPEZE_DEVICES, else auto
  std::string sweep_height;  // "A:B"
  std::string sweep_csv;
  std::string mode = "shrink";
  std::string boundary;
  std::string output;
  std::string input;        // HDF5 file of initial fields; its extent is the size
  std::string checkpoint;   // HDF5 file the run's state goes to every checkpoint_every steps
  trapeze::Index checkpoint_every = 0;
  std::string restart;      // a checkpoint to resume from (its extent is the size)
  bool size_given = false;  // --size was on the command line
  std::string png;
  std::string disk;         // directory of a StarPU disk node: tiles beyond STARPU_LIMIT_CPU_MEM go there
  std::string stream = "auto";  // write tiles back after each stage: auto (when out-of-core), on, off
  std::string skew = "off";     // skewed slabs instead of tiles: off, auto, L:k (apps/common/skewed_option.hpp)
  bool checksum = false;    // report trapeze::FieldChecksum of the final fields
  bool no_grid = false;     // a generated grid: values only in the tiles (apps/common/generated_grid.hpp)
};

struct AppDefaults {
  std::string size;
  std::string tile;
  std::string boundary;
  trapeze::Index steps;
};

// A whole number in [minimum, 2^63 - 1], checked on the text: CLI11 turns a
// number past 64 bits into the largest one without a word.
CLI::Validator whole_number(trapeze::Index minimum);

void add_common_options(CLI::App& cli, CommonOptions& options, const AppDefaults& defaults);

// "1001x777" (one number per dimension) or "512" (the same for every
// dimension); throws trapeze::Error naming `what` and the text otherwise.
trapeze::Extent parse_extent(const std::string& text, int dims, const std::string& what);

// The domain: from --input's field `first_field` when an input file is given
// (a --size that disagrees is an error), else from --size.
trapeze::Extent domain_size(const CommonOptions& options, int dims, const std::string& first_field);

// The trapezoid height option: a positive integer, or 0 for "auto".
int parse_height(const std::string& text, const std::string& what = "height");

// --width N of a GPU hyper-tile: a whole number from `narrowest` to 65536
// (one clear line otherwise); "auto" is the caller's to handle.
int parse_hyper_tile_width(const std::string& text, int narrowest);

// --height if given, else TRAPEZE_HEIGHT if set, else "auto".
std::string requested_height(const CommonOptions& options);

struct HeightRange {
  int first;
  int last;
};
// "A:B" with 1 <= A <= B.
HeightRange parse_height_range(const std::string& text);

// --devices if given, else TRAPEZE_DEVICES if set, else "auto".
trapeze::StageDevices requested_devices(const CommonOptions& options);

// The plan from the options; "auto" tiles depend on the domain and on the
// workers that run stages (`gpus` > 0: stage tasks run on that many GPUs).
// An "auto" height (or kernel height) is left as 0 for the models to fill in.
// `read_only_elements_per_cell`: the grid's read-only fields times their
// planes (GPU tiles keep them within one StarPU vector handle).
trapeze::Plan make_plan(const CommonOptions& options, int dims, const trapeze::Extent& domain, int workers,
                        int gpus = 0, double read_only_elements_per_cell = 0);

}  // namespace apps
