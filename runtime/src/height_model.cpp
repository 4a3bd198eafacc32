#include "trapeze/height_model.hpp"

#include <algorithm>
#include <cmath>
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

StageWork stage_work(const ModelShape& shape, int height, const BandwidthCurve& bandwidth, int steps) {
  if (steps <= 0 || steps > height) steps = height;
  const Tiling tiling(shape.domain, shape.dims, shape.tile);
  const Extent ghost = ghost_width(StencilShape{shape.radius, ShapeKind::box}, height);
  const bool periodic = shape.boundary == BoundaryKind::periodic;
  StageWork work;
  work.tasks = tiling.count();
  // Bytes a cell update moves: its updated fields read and written, its
  // read-only fields read.
  const double update_bytes = static_cast<double>(shape.element_bytes) * (2 * shape.updated_fields + shape.constant_fields);
  const double problem_bytes = static_cast<double>(cell_count(shape.domain)) * update_bytes;
  for (int t = 0; t < tiling.count(); ++t) {
    const Box tile = tiling.box(t);
    const Box padded = tile.grown(ghost);
    double padded_cells = 1;
    for (int d = 0; d < max_dims; ++d) padded_cells *= static_cast<double>(inside(padded.lo[d], padded.hi[d], shape.domain[d], periodic));
    // The first step of a stage finds its tile wherever the whole problem
    // lives (every other tile was swept since); each further step finds it
    // wherever the tiles the workers hold at once fit.
    const double resident_bytes = std::min(padded_cells * update_bytes * std::max(1, shape.workers), problem_bytes);
    for (int k = 1; k <= steps; ++k) {
      // Cells computed at step k, as the CPU codelet computes them.
      double cells = 1;
      for (int d = 0; d < max_dims; ++d) {
        const Index inset = shape.mode == TrapezoidMode::shrink ? shape.radius[d] * k : shape.radius[d];
        cells *= static_cast<double>(inside(padded.lo[d] + inset, padded.hi[d] - inset, shape.domain[d], periodic));
      }
      work.cells += cells;
      work.memory_seconds += cells * update_bytes / bandwidth.at(k == 1 ? problem_bytes : resident_bytes);
    }
    // Gathered into the ghost zone, and about as many published for the neighbours.
    work.ghost_cells += 2 * (padded_cells - static_cast<double>(tile.cells()));
  }
  return work;
}

double predict_stage_seconds(const CostModel& costs, const ModelShape& shape, int height, int steps) {
  const StageWork w = stage_work(shape, height, costs.bandwidth, steps);
  const double workers = std::max(1, shape.workers);
  const double overheads = (w.tasks * costs.seconds_per_task + w.ghost_cells * costs.seconds_per_ghost_cell) / workers;
  const double compute = w.cells * costs.seconds_per_cell / workers;
  return overheads + std::max(compute, w.memory_seconds);
}

double predict_seconds_per_step(const CostModel& costs, const ModelShape& shape, int height) {
  if (shape.steps <= 0) return predict_stage_seconds(costs, shape, height) / height;
  const Index full_stages = shape.steps / height;
  const int rest = static_cast<int>(shape.steps % height);
  double seconds = static_cast<double>(full_stages) * predict_stage_seconds(costs, shape, height);
  if (rest > 0) seconds += predict_stage_seconds(costs, shape, height, rest);
  return seconds / static_cast<double>(shape.steps);
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
  // Past the knee the predicted curve is flat, and within that flat part the
  // model cannot rank heights: what it leaves out (partial cache reuse,
  // fewer stages to overlap, the row alignment of the padded tile) moves the
  // measured optimum anywhere in it. The height in the middle of it
  // (geometric mean of its ends) is then the one furthest from both ends, so
  // the least hurt by where the true optimum lies.
  std::vector<HeightChoice> flat;
  for (const HeightChoice& p : predictions) {
    if (p.predicted_seconds_per_step <= fastest * (1 + flat_tolerance)) flat.push_back(p);
  }
  const double middle = std::sqrt(static_cast<double>(flat.front().height) * flat.back().height);
  return *std::min_element(flat.begin(), flat.end(), [middle](const HeightChoice& a, const HeightChoice& b) {
    return std::fabs(a.height - middle) < std::fabs(b.height - middle);
  });
}

}  // namespace trapeze
