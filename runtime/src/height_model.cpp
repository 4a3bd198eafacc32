#include "trapeze/height_model.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "trapeze/stencil_shape.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

namespace {

// Cells of [lo, hi) inside the domain along one dimension (all of it when periodic).
Index inside(Index lo, Index hi, Index extent, bool periodic) {
  if (periodic) return std::max<Index>(0, hi - lo);
  return std::max<Index>(0, std::min(hi, extent) - std::max<Index>(lo, 0));
}

}  // namespace

StageWork stage_work(const ModelShape& shape, int height, const BandwidthCurve& bandwidth) {
  const Tiling tiling(shape.domain, shape.dims, shape.tile);
  const Extent ghost = ghost_width(StencilShape{shape.radius, ShapeKind::box}, height);
  const bool periodic = shape.boundary == BoundaryKind::periodic;
  StageWork work;
  work.tasks = tiling.count();
  for (int t = 0; t < tiling.count(); ++t) {
    const Box tile = tiling.box(t);
    const Box padded = tile.grown(ghost);
    double padded_cells = 1;
    for (int d = 0; d < max_dims; ++d) padded_cells *= static_cast<double>(inside(padded.lo[d], padded.hi[d], shape.domain[d], periodic));
    // Cells computed at step k, as the CPU codelet computes them.
    for (int k = 1; k <= height; ++k) {
      double cells = 1;
      for (int d = 0; d < max_dims; ++d) {
        const Index inset = shape.mode == TrapezoidMode::shrink ? shape.radius[d] * k : shape.radius[d];
        cells *= static_cast<double>(inside(padded.lo[d] + inset, padded.hi[d] - inset, shape.domain[d], periodic));
      }
      work.cells += cells;
    }
    const double tile_cells = static_cast<double>(tile.cells());
    // Gathered into the ghost zone, and about as many published for the neighbours.
    work.ghost_cells += 2 * (padded_cells - tile_cells);
    const double field_bytes = static_cast<double>(shape.element_bytes) * shape.updated_fields;
    const double tile_bytes = padded_cells * (2 * field_bytes + static_cast<double>(shape.element_bytes) * shape.constant_fields);
    // A stage loads and stores its padded tile once from wherever the whole
    // problem lives; each further step re-reads it from wherever the tiles the
    // workers hold at once fit.
    const double problem_bytes = static_cast<double>(cell_count(shape.domain)) *
                                 (2 * field_bytes + static_cast<double>(shape.element_bytes) * shape.constant_fields);
    const double resident_bytes = tile_bytes * std::max(1, shape.workers);
    work.memory_seconds += tile_bytes / bandwidth.at(problem_bytes) +
                           (height - 1) * tile_bytes / bandwidth.at(std::min(resident_bytes, problem_bytes));
  }
  return work;
}

double predict_seconds_per_step(const CostModel& costs, const ModelShape& shape, int height) {
  const StageWork w = stage_work(shape, height, costs.bandwidth);
  const double workers = std::max(1, shape.workers);
  const double overheads = (w.tasks * costs.seconds_per_task + w.ghost_cells * costs.seconds_per_ghost_cell) / workers;
  const double compute = w.cells * costs.seconds_per_cell / workers;
  const double stage = overheads + std::max(compute, w.memory_seconds);
  return stage / height;
}

int max_useful_height(const ModelShape& shape) {
  const int ceiling = shape.steps > 0 ? static_cast<int>(std::min<Index>(32, shape.steps)) : 32;
  int best = 1;
  for (int h = 2; h <= ceiling; ++h) {
    bool ok = true;
    for (int d = 0; d < shape.dims; ++d) {
      const Index g = shape.radius[d] * h;
      if (shape.boundary == BoundaryKind::periodic && g > shape.domain[d]) ok = false;
    }
    if (!ok) break;
    best = h;
  }
  return best;
}

HeightChoice choose_height(const CostModel& costs, const ModelShape& shape) {
  std::vector<HeightChoice> predictions;
  for (int h = 1; h <= max_useful_height(shape); ++h) predictions.push_back({h, predict_seconds_per_step(costs, shape, h)});
  const double fastest = std::min_element(predictions.begin(), predictions.end(), [](const auto& a, const auto& b) {
                           return a.predicted_seconds_per_step < b.predicted_seconds_per_step;
                         })->predicted_seconds_per_step;
  // Past the knee the predicted curve is flat while what the model leaves out
  // (fewer stages to overlap, a shorter last stage, larger padded tiles in
  // cache) grows with h: take the lowest height within 0.5% of the fastest.
  for (const HeightChoice& p : predictions) {
    if (p.predicted_seconds_per_step <= fastest * (1 + flat_tolerance)) return p;
  }
  return predictions.front();
}

}  // namespace trapeze
