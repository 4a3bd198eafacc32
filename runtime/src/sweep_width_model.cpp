#include "trapeze/sweep_width_model.hpp"

#include <algorithm>
#include <vector>

namespace trapeze {

double sweep_hyper_tile_times(const SweepGeometry& g, int width) {
  if (g.rows <= 0 || g.columns <= 0 || g.sweeps <= 0) return 0;
  const Index n = (g.columns + 31 + width - 1) / std::max(1, width);
  const Index bands = (g.rows + 31) / 32;
  const Index blocks = std::max(1, g.resident_blocks);
  const auto out = [n](Index count) { return static_cast<double>(count <= n ? count : n + 1); };  // when count is published
  std::vector<double> start(static_cast<std::size_t>(bands * g.sweeps));
  double last_end = 0;
  for (Index t = 0; t < g.sweeps; ++t) {
    for (Index b = 0; b < bands; ++b) {
      const Index i = t * bands + b;
      double s = 0;
      if (b > 0) s = std::max(s, start[i - 1] + out(std::min<Index>(2, n)));
      if (t > 0) {
        s = std::max(s, start[i - bands] + out(std::min<Index>(4, n + 2)));
        if (b + 1 < bands) s = std::max(s, start[i - bands + 1] + out(std::min<Index>(3, n + 2)));
      }
      if (i >= blocks) s = std::max(s, start[i - blocks] + static_cast<double>(n + 1));
      start[i] = s;
      last_end = std::max(last_end, s + static_cast<double>(n));
    }
  }
  return last_end;
}

double predicted_sweep_seconds(const HyperTileCosts& costs, const SweepGeometry& g, int width) {
  return (width * costs.column_seconds + costs.sync_seconds) * sweep_hyper_tile_times(g, width);
}

int optimal_sweep_width(const HyperTileCosts& costs, const std::function<SweepGeometry(int)>& geometry, int smallest,
                        int largest, int step) {
  return width_with_least_seconds(smallest, largest, step,
                                  [&](int w) { return predicted_sweep_seconds(costs, geometry(w), w); });
}

}  // namespace trapeze
