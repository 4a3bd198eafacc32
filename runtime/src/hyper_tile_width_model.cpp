#include "trapeze/hyper_tile_width_model.hpp"

#include <algorithm>
#include <cmath>

namespace trapeze {

double hyper_tile_times(const WavefrontGeometry& g, int width) {
  const double w = std::max(1, width);
  const double tiles = std::ceil((g.columns + 31) / w);       // n(w): a band's hyper-tiles
  const double lag = 1 + std::ceil(31 / w);                   // hyper-tiles a band trails the one above
  const double bands = std::max(1.0, std::ceil(g.rows / std::max(1, g.band_rows)));
  const double last = bands - 1;
  const double warps = std::max(1, g.resident_warps);
  const double rounds = std::floor(last / warps);
  const double start = std::max(last * lag, rounds * tiles + (last - rounds * warps) * lag);
  return start + tiles;
}

double predicted_wavefront_seconds(const HyperTileCosts& costs, const WavefrontGeometry& g, int width) {
  return (width * costs.column_seconds + costs.sync_seconds) * hyper_tile_times(g, width);
}

HyperTileCosts fit_hyper_tile_costs(const std::vector<HyperTileTiming>& samples) {
  // seconds = d x + tau y with x = w G(w), y = G(w): the normal equations,
  // each sample weighted by 1 / seconds (relative errors, so the longest
  // training run does not decide alone).
  double xx = 0, xy = 0, yy = 0, xs = 0, ys = 0;
  for (const HyperTileTiming& s : samples) {
    if (s.seconds <= 0) continue;
    const double weight = 1.0 / (s.seconds * s.seconds);
    const double x = s.width * s.hyper_tile_times, y = s.hyper_tile_times;
    xx += weight * x * x, xy += weight * x * y, yy += weight * y * y, xs += weight * x * s.seconds, ys += weight * y * s.seconds;
  }
  HyperTileCosts costs;
  const double det = xx * yy - xy * xy;
  if (det > 1e-12 * xx * yy) {
    costs.column_seconds = (xs * yy - ys * xy) / det;
    costs.sync_seconds = (ys * xx - xs * xy) / det;
  }
  // A negative term is noise on a cost too small to see: fit the other alone.
  if (costs.column_seconds <= 0 || costs.sync_seconds < 0 || det <= 1e-12 * xx * yy) {
    const double d_alone = xx > 0 ? xs / xx : 0, tau_alone = yy > 0 ? ys / yy : 0;
    double d_residual = 0, tau_residual = 0;
    for (const HyperTileTiming& s : samples) {
      if (s.seconds <= 0) continue;
      d_residual += std::pow((d_alone * s.width * s.hyper_tile_times - s.seconds) / s.seconds, 2);
      tau_residual += std::pow((tau_alone * s.hyper_tile_times - s.seconds) / s.seconds, 2);
    }
    costs = d_residual <= tau_residual ? HyperTileCosts{d_alone, 0} : HyperTileCosts{0, tau_alone};
  }
  return costs;
}

HyperTileCosts fit_hyper_tile_costs(const std::vector<WidthSample>& samples) {
  std::vector<HyperTileTiming> timings;
  for (const WidthSample& s : samples) timings.push_back({s.width, hyper_tile_times(s.geometry, s.width), s.seconds});
  return fit_hyper_tile_costs(timings);
}

}  // namespace trapeze
