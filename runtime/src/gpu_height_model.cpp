#include "trapeze/gpu_height_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "trapeze/tiling.hpp"

namespace trapeze {

namespace {

// Cells of [lo, hi) inside the domain along one dimension (all of it when periodic).
Index inside(Index lo, Index hi, Index extent, bool periodic) {
  if (periodic) return std::max<Index>(0, hi - lo);
  return std::max<Index>(0, std::min(hi, extent) - std::max<Index>(lo, 0));
}

// Seconds per cell and step at kernel height k: the profiled value, or the
// nearest profiled one below (heights above the profiled ones are not offered).
double cell_seconds(const GpuCostModel& model, int k) {
  double best = model.kernels.front().cell_seconds;
  for (const auto& c : model.kernels) {
    if (c.k <= k) best = c.cell_seconds;
  }
  return best;
}

}  // namespace

double stage_task_device_bytes(const GpuShape& shape, int height) {
  double padded = 1, tile = 1;
  for (int d = 0; d < shape.dims; ++d) {
    const auto side = static_cast<double>(std::min(shape.tile[d], shape.domain[d]));
    padded *= side + 2.0 * static_cast<double>(shape.radius[d]) * height;
    tile *= side;
  }
  return padded * shape.device_bytes_per_cell + 2 * (padded - tile) * shape.strip_bytes_per_cell;
}

double predict_gpu_seconds_per_step(const GpuCostModel& model, const GpuShape& shape, int height, int kernel_height) {
  const Tiling tiling(shape.domain, shape.dims, shape.tile);
  const bool periodic = shape.boundary == BoundaryKind::periodic;
  const Index steps = shape.steps > 0 ? shape.steps : height;
  double seconds = 0;
  for (Index done = 0; done < steps;) {
    const int stage = static_cast<int>(std::min<Index>(height, steps - done));
    double compute = 0, streamed_cells = 0;
    for (int t = 0; t < tiling.count(); ++t) {
      const Box tile = tiling.box(t);
      compute += model.task_seconds;
      double padded = 1;
      for (int d = 0; d < max_dims; ++d) {
        padded *= static_cast<double>(tile.hi[d] - tile.lo[d] + 2 * shape.radius[d] * stage);
      }
      streamed_cells += padded;
      // Launch j commits the cells still valid after its last step: the tile
      // grown by the ghost zone r*H, less r per step done.
      for (int launched = 0; launched < stage;) {
        const int k = std::min(kernel_height, stage - launched);
        launched += k;
        double cells = 1;
        for (int d = 0; d < max_dims; ++d) {
          const Index grow = shape.radius[d] * (stage - launched);
          cells *= static_cast<double>(inside(tile.lo[d] - grow, tile.hi[d] + grow, shape.domain[d], periodic));
        }
        compute += model.launch_seconds + cells * k * cell_seconds(model, k);
      }
    }
    // Streamed, a stage's transfers (one way) overlap its compute, but not
    // wholly: it costs the larger of the two and half the smaller. CIP
    // 16384^2 under a quarter of its memory cost about its in-core time down
    // to H 64, whose transfers the model puts at 0.88 of its compute, while
    // jacobi2d's capped stages cost their plan in core plus about two thirds
    // of their uploads (H100 2026-11-28, H200 2026-11-27). Compute plus
    // transfers, the model before, put CIP at H 256: 0.84 of the best height
    // measured (H 86), against H 128 now (docs/PERF.md).
    const double stream = streamed_cells * shape.stream_bytes_per_cell * shape.stream_seconds_per_byte;
    seconds += std::max(compute, stream) + exposed_transfer_share * std::min(compute, stream);
    done += stage;
  }
  // Tiles spread over the GPUs; each GPU runs its tasks one after another.
  return seconds / std::max(1, shape.gpus) / static_cast<double>(steps);
}

GpuHeightChoice choose_gpu_heights(const GpuCostModel& model, const GpuShape& shape, int fixed_height,
                                   int fixed_kernel_height) {
  std::vector<GpuHeightChoice> options;
  const int tallest = shape.stream_seconds_per_byte > 0 ? max_out_of_core_height : max_gpu_height;
  const int ceiling = static_cast<int>(std::min<Index>(tallest, shape.steps > 0 ? shape.steps : tallest));
  std::vector<int> kernel_heights;
  if (fixed_kernel_height > 0) {
    kernel_heights.push_back(fixed_kernel_height);
  } else {
    for (const auto& kernel : model.kernels) kernel_heights.push_back(kernel.k);
  }
  for (int k : kernel_heights) {
    if (fixed_height > 0) {
      if (k <= fixed_height) options.push_back({fixed_height, k, predict_gpu_seconds_per_step(model, shape, fixed_height, k)});
      continue;
    }
    if (k > ceiling) continue;
    for (int height = k; height <= ceiling; height += k) {
      // A periodic ghost zone may not wrap around the domain more than once.
      bool fits = true;
      for (int d = 0; d < shape.dims; ++d) {
        fits &= !(shape.boundary == BoundaryKind::periodic && shape.radius[d] * height > shape.domain[d]);
      }
      if (shape.task_device_budget > 0) fits &= stage_task_device_bytes(shape, height) <= shape.task_device_budget;
      if (!fits) break;
      options.push_back({height, k, predict_gpu_seconds_per_step(model, shape, height, k)});
    }
  }
  if (options.empty()) {
    const int h = std::max(1, fixed_height), k = std::max(1, std::min(h, fixed_kernel_height > 0 ? fixed_kernel_height : 1));
    return {h, k, predict_gpu_seconds_per_step(model, shape, h, k)};
  }
  const double fastest = std::min_element(options.begin(), options.end(), [](const auto& a, const auto& b) {
                           return a.predicted_seconds_per_step < b.predicted_seconds_per_step;
                         })->predicted_seconds_per_step;
  GpuHeightChoice chosen{std::numeric_limits<int>::max(), 1, 0};
  for (const auto& o : options) {
    if (o.predicted_seconds_per_step > fastest * 1.01) continue;
    if (o.height < chosen.height || (o.height == chosen.height && o.kernel_height > chosen.kernel_height)) chosen = o;
  }
  return chosen;
}

GpuTileChoice choose_out_of_core_gpu_tile(const GpuCostModel& model, GpuShape shape, const std::vector<Extent>& tiles,
                                          int height, int kernel_height) {
  std::vector<GpuTileChoice> fitting;
  for (const Extent& tile : tiles) {
    shape.tile = tile;
    const GpuHeightChoice heights = choose_gpu_heights(model, shape, height, kernel_height);
    const bool fits = shape.task_device_budget <= 0 || stage_task_device_bytes(shape, heights.height) <= shape.task_device_budget;
    if (fitting.empty() || fits) fitting.push_back({tile, heights});  // the automatic tile always stays a candidate
  }
  double fastest = std::numeric_limits<double>::max();
  for (const GpuTileChoice& c : fitting) fastest = std::min(fastest, c.heights.predicted_seconds_per_step);
  GpuTileChoice chosen = fitting.front();
  for (const GpuTileChoice& c : fitting) {
    if (c.heights.predicted_seconds_per_step <= fastest * (1 + larger_tile_tolerance)) chosen = c;  // the largest such
  }
  return chosen;
}

}  // namespace trapeze
