#pragma once
// The one-time profiling run behind the GPU height model (seed 000: "a
// one-time profiling for the target application with a small input size"):
// the real stencil through the real runtime on the GPU, values resident on the
// device, timed per kernel height on one tile that fills the device; and on a
// tiny tile, where a task's fixed costs are all there is, at two heights to
// split them into the task's and each launch's. Cached per device name,
// stencil, element type and build (gpu_model_cache.hpp).
#include <starpu.h>

#include <cmath>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "codelets/cuda/kernel_policy.hpp"
#include "trapeze/gpu_device.hpp"
#include "trapeze/gpu_height_model.hpp"
#include "trapeze/gpu_model_cache.hpp"
#include "trapeze/height_choice.hpp"
#include "trapeze/machine_probe.hpp"
#include "trapeze/out_of_core.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"

namespace trapeze {

// Seconds per step of `plan` on `grid`, the tiles resident where they run:
// the median of three timed submissions after a warm-up one.
template <Stencil S>
double resident_seconds_per_step(Runtime& runtime, const S& stencil, Grid<typename S::value_type> grid,
                                 Plan plan, Index steps) {
  plan.distribute = false;  // each process profiles its own GPU, also under MPI
  StencilRun<S> run(runtime, stencil, grid, plan);
  run.submit(steps);
  run.drain();
  std::vector<double> times;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    run.submit(steps);
    run.drain();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                    static_cast<double>(steps));
  }
  std::sort(times.begin(), times.end());
  return times[1];
}

// The side of the profile's filling tile: about 16 million cells in 1-D,
// 4096 across in 2-D (below); 640^3 (262 million) in 3-D, where a block of the 16-byte trapezoid
// walks 64 planes of a 128x32 box. Few waves of such blocks rank kernel
// heights by how evenly each height's blocks happen to fill the last wave:
// 256^3 gave the H100 under two waves (the profile chose k = 6, at 0.76 of
// k = 3 on 512^3), and 384^3 about 3, where k = 3 came out 1.5% cheaper than
// k = 4 per cell and step while 512^3 ran k = 4 5% faster (2026-11-27).
// 640^3 is 11-13 waves for k = 2 to 4.
template <Stencil S>
constexpr Index gpu_profile_full_side() {
  return S::dims == 1 ? Index{16} << 20 : S::dims == 2 ? 4096 : 640;
}
// In 2-D the tile is 4 sides tall (4096 x 16384, 64 million cells). Why: a
// block of the 16-byte 2-D trapezoid walks 256 rows, and on 4096 rows its
// 5 x 16 blocks at k = 8 (tiles 112 values wide) left most multiprocessors
// idle, so the walks were cut short to fill them (walk_split.hpp): 64 rows
// a walk, of which 2k are the trapezoid's extra rows, 25% at k = 8 against
// 12.5% at k = 4, where the domains the runs have walk whole: Life on words
// (16384 x 16384 byte cells) profiled k = 4 cheapest and ran at 0.826 of k =
// 8 (H100, 2026-12-07).
template <Stencil S>
Extent gpu_profile_extent(Index side) {
  Extent extent{1, 1, 1};
  for (int d = 0; d < S::dims; ++d) extent[d] = side;
  if (S::dims == 2) extent[1] = 4 * side;
  return extent;
}
// Under a small STARPU_LIMIT_CUDA_MEM, smaller: the tile, its ghost zone at
// k = 32 and a second one in flight must fit, or StarPU would evict and
// fetch forever.
template <Stencil S>
Index gpu_profile_side(double memory_bytes) {
  const auto padded_cells = [](Index side) {
    const Extent e = gpu_profile_extent<S>(side);
    double cells = 1;
    for (int d = 0; d < S::dims; ++d) cells *= static_cast<double>(e[d] + 64);
    return cells;
  };
  Index side = gpu_profile_full_side<S>();
  while (side > 64 && memory_bytes > 0 && 4.0 * device_cell_bytes<S>(1) * padded_cells(side) > memory_bytes) side /= 2;
  return side;
}

template <Stencil S>
GpuCostModel profile_gpu_cost_model(Runtime& runtime, const S& stencil) {
  using T = typename S::value_type;
  auto make_grid = [](const Extent& domain) {
    Grid<T> grid(domain, S::dims, updated_fields_of<S>, constant_fields_of<S>, 1, Boundary::clamp());
    for (int f = 0; f < grid.updated_count(); ++f) {
      for (std::size_t i = 0; i < grid.updated(f).size(); ++i) grid.updated(f)[i] = static_cast<T>(i % 7);
    }
    for (int c = 0; c < grid.constant_count(); ++c) {
      for (std::size_t i = 0; i < grid.constant(c).size(); ++i) grid.constant(c)[i] = static_cast<T>(i % 3);
    }
    return grid;
  };
  // Every multiprocessor busy with many blocks (gpu_profile_full_side).
  const Index fill_side = gpu_profile_side<S>(gpu_memory_bytes());
  Extent tiny_extent{1, 1, 1};
  for (int d = 0; d < S::dims; ++d) tiny_extent[d] = S::dims == 1 ? 256 : S::dims == 2 ? 32 : 8;
  const Grid<T> fill = make_grid(gpu_profile_extent<S>(fill_side)), tiny = make_grid(tiny_extent);
  GpuCostModel model;
  // Fixed costs: a task per step, then a task of 8 one-step launches.
  const double one = resident_seconds_per_step(runtime, stencil, tiny, Plan{tiny.extent(), 1, TrapezoidMode::shrink, 1, StageDevices::gpu}, 64);
  const double eight = resident_seconds_per_step(runtime, stencil, tiny, Plan{tiny.extent(), 8, TrapezoidMode::shrink, 1, StageDevices::gpu}, 64);
  model.launch_seconds = std::max(0.0, (8 * eight - one) / 7);
  model.task_seconds = std::max(0.0, one - model.launch_seconds);
  const double cells = static_cast<double>(fill.cells());
  for (int k : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32}) {
    // Heights whose shared memory a block cannot have are not offered.
    int radius[3] = {static_cast<int>(S::shape.radius[0]), static_cast<int>(S::shape.radius[1]),
                     static_cast<int>(S::shape.radius[2])};
    if (k > 1) {
      const long long bytes =
          cuda::launch_shared_bytes<T, S::dims>(radius, k, updated_fields_of<S>, S::shape.kind == ShapeKind::star);
      if (bytes < 0 || bytes > cuda::shared_memory_per_block) break;
    }
    // Several launches a task (H >= 8): with one launch a task, k = 1's task
    // cost (tens of microseconds) was as large as the step itself, so the
    // step's cost less the tiny tile's task cost was noise, and a profile
    // that took too much off made k = 1 look cheapest (jacobi2d 32768^2 on an
    // H100 chose H = k = 1, 0.41 of the best, 2026-11-27).
    const int height = k * ((8 + k - 1) / k);
    // Enough steps that a timing is tens of milliseconds, a multiple of the height.
    const Index steps = (std::max<Index>(64, 256 / k * k) + height - 1) / height * height;
    const double per_step = resident_seconds_per_step(runtime, stencil, fill, Plan{fill.extent(), height, TrapezoidMode::shrink, k, StageDevices::gpu}, steps);
    const double fixed = model.task_seconds / height + model.launch_seconds / k;
    model.kernels.push_back({k, std::max(per_step - fixed, per_step * 0.05) / cells});
  }
  return model;
}

struct GpuHeightDecision {
  GpuHeightChoice choice;
  bool profiled = false;
  GpuCostModel costs;
};

template <Stencil S>
GpuHeightDecision decide_gpu_heights(Runtime& runtime, const S& stencil, const std::string& app, const GpuShape& shape,
                                     const std::filesystem::path& cache_file = GpuModelCache::default_path()) {
  const GpuModelCache cache(cache_file, build_identity());
  const std::string full_key = gpu_device_name() + "/" + app + "/" + element_type_name<typename S::value_type>();
  const std::string key =
      gpu_profile_cache_key(full_key, gpu_profile_side<S>(gpu_memory_bytes()), gpu_profile_full_side<S>());
  GpuHeightDecision decision;
  if (auto cached = cache.find(full_key)) {
    decision.costs = *cached;
  } else if (auto capped = key != full_key ? cache.find(key) : std::nullopt) {
    decision.costs = *capped;
  } else {
    decision.costs = profile_gpu_cost_model(runtime, stencil);
    decision.profiled = true;
    try {
      cache.store(key, decision.costs);
    } catch (const Error&) {
      // An unwritable cache costs a profiling run next time, nothing more.
    }
  }
  decision.choice = choose_gpu_heights(decision.costs, shape);
  return decision;
}

}  // namespace trapeze
