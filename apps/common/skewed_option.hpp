#pragma once
// --skew: run an app's stencil in skewed slabs (trapeze/skewed_run.hpp)
// instead of tiles and trapezoids. "off" (the default), "L:k" (slabs of L
// planes along the slowest axis, passes of k steps), or "auto": the fewest
// passes whose slabs fit the GPU's memory (STARPU_LIMIT_CUDA_MEM honoured),
// then the widest slab that leaves skewed_min_slab_count slabs.
#include <cmath>
#include <optional>
#include <string>

#include "app_options.hpp"
#include "trapeze/error.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/skewed_run.hpp"
#include "trapeze/skewed_slabs.hpp"
#include "trapeze/stencil.hpp"

namespace apps {

// The share of a GPU skewed slabs may take: the rest is StarPU's own
// buffers, its allocator's fragments, and the slabs prefetched for the
// tasks queued behind the running one. Measured on an H200 (docs/PERF.md,
// session 35): Himeno L under 448 MiB ran slabs of 4 planes at k 32 (44
// planes resident by the model, 466 MB) and stalled at 2:43 (50 planes);
// 0.9 keeps one plane in ten spare.
inline constexpr double skewed_gpu_share = 0.9;
// Slabs a run is cut into at least where the slabs' width allows: the
// grid's copies into them are one CPU task a slab, and a GPU task needs the
// slabs after it on their way while it computes.
inline constexpr int skewed_min_slab_count = 32;
// Cells a slab holds at least where the budget allows: a task launches a
// kernel a step over one slab's cells.
inline constexpr double skewed_min_slab_cells = 262144;

// The slabs --skew asks for, or none for "off". A pass never holds more
// steps than the run. Throws InvalidArgument naming what does not fit
// skewed slabs (a value that is not "off", "auto" or "L:k", "auto" without
// a GPU, options that need tiles).
template <trapeze::Stencil S>
std::optional<trapeze::SkewedSlabs> skewed_slabs_for(const CommonOptions& options,
                                                     const trapeze::Grid<typename S::value_type>& grid, int gpus,
                                                     double gpu_memory, trapeze::Index steps, int ranks) {
  if (options.skew == "off") return std::nullopt;
  const auto refuse = [&](const std::string& why) {
    throw trapeze::InvalidArgument("--skew " + options.skew + ": " + why);
  };
  if (ranks > 1) refuse("runs in one process (got " + std::to_string(ranks) + " ranks)");
  if (grid.is_generated()) refuse("needs the grid (drop --no-grid)");
  if (options.warmup_steps > 0) refuse("has no warm-up (drop --warmup-steps)");
  if (!options.checkpoint.empty()) refuse("writes no checkpoints (drop --checkpoint)");
  if (!options.sweep_height.empty()) refuse("has no height to sweep (drop --sweep-height)");
  const int axis = trapeze::skewed_axis(S::dims);
  const trapeze::Index planes = grid.extent()[axis], radius = S::shape.radius[axis];
  if (radius < 1) refuse("the stencil reads nothing along its slowest axis");
  if (grid.constant_planes() > 1) refuse("takes no read-only fields that change with the step");
  if (grid.boundary().kind == trapeze::BoundaryKind::periodic) refuse("needs a boundary that does not wrap, got periodic");
  const trapeze::Index pass_limit = std::max<trapeze::Index>(1, steps);
  if (options.skew == "auto") {
    if (gpus != 1) refuse("auto chooses for one GPU (found " + std::to_string(gpus) + "); give L:k");
    const trapeze::Extent e = grid.extent();
    const double plane_cells = static_cast<double>(e[0] + 2 * S::shape.radius[0]) *
                               (S::dims >= 3 ? static_cast<double>(e[1] + 2 * S::shape.radius[1]) : 1.0);
    // A resident plane: in the ring (both parities of the updated fields,
    // and the read-only ones the stencil reads off its cell), and its slab's
    // read-only fields where the stencil reads them in the slab. Besides,
    // the slabs on the move hold one parity of their updated fields and
    // their read-only ones when the ring takes those.
    const double updated = 2.0 * trapeze::updated_fields_of<S>, fixed = trapeze::constant_fields_of<S>;
    const bool in_slabs = trapeze::constants_at_cell_only_of<S>;
    const double bytes = plane_cells * sizeof(typename S::value_type);
    const double plane_bytes = bytes * (updated + fixed);
    const double moving_plane_bytes = bytes * (updated / 2 + (in_slabs ? 0.0 : fixed));
    const int max_touched = trapeze::SkewedRun<S>::reads_constants_in_slabs ? trapeze::SkewedRun<S>::max_cuda_slabs : 0;
    const auto min_slab = static_cast<trapeze::Index>(std::ceil(skewed_min_slab_cells / plane_cells));
    return trapeze::choose_skewed_slabs(planes, radius, pass_limit, plane_bytes, skewed_gpu_share * gpu_memory, min_slab,
                                        max_touched, skewed_min_slab_count, moving_plane_bytes);
  }
  // "L:k", two whole numbers >= 1 (no std::regex: GCC 12 warns inside it
  // under the sanitizer builds' -Werror).
  const auto whole = [](const std::string& text) -> trapeze::Index {
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::stoll(text);
  };
  const auto colon = options.skew.find(':');
  const trapeze::Index slab = colon == std::string::npos ? 0 : whole(options.skew.substr(0, colon));
  const trapeze::Index height = colon == std::string::npos ? 0 : whole(options.skew.substr(colon + 1));
  if (slab < 1 || height < 1) refuse("expected off, auto or L:k (slab planes : steps a pass), e.g. 8:32");
  return trapeze::SkewedSlabs(planes, std::min(slab, planes), std::min(height, pass_limit), radius);
}

}  // namespace apps
