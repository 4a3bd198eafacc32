// The hyper-tile width model (seed 004, section 4, for our kernel's geometry):
// its critical path against a direct simulation of the bands, the fit of its
// two constants, the optimal width against the seed's closed form (equation
// 4) where the seed's assumptions hold, and the measurement cache it keeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>
#include <vector>

#include "trapeze/hyper_tile_width_model.hpp"
#include "trapeze/measurement_cache.hpp"

namespace {

using trapeze::HyperTileCosts;
using trapeze::WavefrontGeometry;

// Every band's start time by the recurrence itself (band b waits for band
// b - 1 to be lag hyper-tiles ahead and for its warp, which ran band b - P).
double simulated_hyper_tile_times(const WavefrontGeometry& g, int w) {
  const long tiles = static_cast<long>(std::ceil((g.columns + 31) / w));
  const long lag = 1 + (31 + w - 1) / w;
  const long bands = std::max(1L, static_cast<long>(std::ceil(g.rows / g.band_rows)));
  std::vector<long> start(static_cast<std::size_t>(bands), 0);
  for (long b = 1; b < bands; ++b) {
    start[b] = start[b - 1] + lag;
    if (b >= g.resident_warps) start[b] = std::max(start[b], start[b - g.resident_warps] + tiles);
  }
  return static_cast<double>(start.back() + tiles);
}

TEST(HyperTileWidthModel, CriticalPathEqualsTheSimulatedBands) {
  std::mt19937 engine(3);
  for (int trial = 0; trial < 300; ++trial) {
    WavefrontGeometry g;
    g.rows = std::uniform_int_distribution<long>(1, 400000)(engine);
    g.columns = std::uniform_int_distribution<long>(1, 300000)(engine);
    g.band_rows = std::uniform_int_distribution<int>(0, 1)(engine) ? 256 : 512;
    g.resident_warps = std::uniform_int_distribution<int>(1, 700)(engine);
    const int w = std::uniform_int_distribution<int>(8, 300)(engine);
    ASSERT_DOUBLE_EQ(trapeze::hyper_tile_times(g, w), simulated_hyper_tile_times(g, w))
        << "rows " << g.rows << " columns " << g.columns << " band rows " << g.band_rows << " warps " << g.resident_warps
        << " width " << w;
  }
}

TEST(HyperTileWidthModel, FitRecoversTheConstantsOfExactTimings) {
  const HyperTileCosts truth{2.5e-8, 7.0e-7};
  const WavefrontGeometry g{1 << 20, 65536, 256, 3168};
  std::vector<trapeze::WidthSample> samples;
  for (int w : {16, 32, 64}) samples.push_back({g, w, trapeze::predicted_wavefront_seconds(truth, g, w)});
  const HyperTileCosts fitted = trapeze::fit_hyper_tile_costs(samples);
  EXPECT_NEAR(fitted.column_seconds / truth.column_seconds, 1.0, 1e-6);
  EXPECT_NEAR(fitted.sync_seconds / truth.sync_seconds, 1.0, 1e-6);
}

TEST(HyperTileWidthModel, FitOfNoisyTimingsStaysClose) {
  const HyperTileCosts truth{2.5e-8, 7.0e-7};
  const WavefrontGeometry g{1 << 20, 65536, 256, 3168};
  std::mt19937 engine(11);
  std::uniform_real_distribution<double> noise(0.98, 1.02);
  std::vector<trapeze::WidthSample> samples;
  for (int w : {16, 32, 64}) samples.push_back({g, w, trapeze::predicted_wavefront_seconds(truth, g, w) * noise(engine)});
  const HyperTileCosts fitted = trapeze::fit_hyper_tile_costs(samples);
  // The chosen width for the whole space, with the fitted constants, costs
  // within 2% of the best width's time under the true ones.
  const WavefrontGeometry whole{1 << 20, 1 << 20, 256, 3168};
  auto at = [&](int) { return whole; };
  const int chosen = trapeze::optimal_hyper_tile_width(fitted, at);
  const int best = trapeze::optimal_hyper_tile_width(truth, at);
  EXPECT_LE(trapeze::predicted_wavefront_seconds(truth, whole, chosen),
            1.02 * trapeze::predicted_wavefront_seconds(truth, whole, best));
}

TEST(HyperTileWidthModel, NegativeTermsAreDropped) {
  // Timings that only grow with the width: no synchronisation cost to see.
  const WavefrontGeometry g{4096, 4096, 256, 64};
  std::vector<trapeze::WidthSample> samples;
  for (int w : {16, 32, 64}) samples.push_back({g, w, 1e-9 * w * trapeze::hyper_tile_times(g, w) * (1 + 0.01 * w)});
  const HyperTileCosts fitted = trapeze::fit_hyper_tile_costs(samples);
  EXPECT_GE(fitted.column_seconds, 0);
  EXPECT_GE(fitted.sync_seconds, 0);
  EXPECT_GT(fitted.column_seconds + fitted.sync_seconds, 0);
}

// Where the seed's derivation holds (more bands than warps, every band row
// longer than the pipeline of warps) and w >= 31 (our lag is then 2 hyper-
// tiles), G(w) = (bands / P) n(w) + 2 (P - 1) with n(w) = (W + 31) / w, so
// T(w) = (w d + tau) G(w) has the seed's form a w + b / w + c with
// a = 2 d (P - 1) and b = tau (bands / P)(W + 31): the optimum is near
// sqrt(b / a), the seed's equation 4 for our kernel's lag.
TEST(HyperTileWidthModel, OptimumIsTheClosedFormWhereTheSeedsAssumptionsHold) {
  const HyperTileCosts costs{2.0e-8, 1.0e-8};
  const WavefrontGeometry g{1 << 22, 1 << 20, 256, 512};
  auto at = [&](int) { return g; };
  const int w = trapeze::optimal_hyper_tile_width(costs, at, 8, 512);
  const double bands = g.rows / g.band_rows, P = g.resident_warps;
  const double a = 2 * costs.column_seconds * (P - 1), b = costs.sync_seconds * (bands / P) * (g.columns + 31);
  const double closed_form = std::sqrt(b / a);
  ASSERT_GE(closed_form, 31);
  EXPECT_NEAR(static_cast<double>(w), closed_form, 0.05 * closed_form) << "model " << w << ", closed form " << closed_form;
  // And the model's width is no worse than its neighbours.
  for (int other : {w - 1, w + 1}) {
    EXPECT_LE(trapeze::predicted_wavefront_seconds(costs, g, w), trapeze::predicted_wavefront_seconds(costs, g, other) * (1 + 1e-12));
  }
}

TEST(MeasurementCache, RoundTripAndWhatItIgnores) {
  const auto dir = std::filesystem::temp_directory_path() / ("trapeze-measurement-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto file = dir / "values.json";
  const trapeze::MeasurementCache cache(file, "machine A", "build 1");
  EXPECT_FALSE(cache.find("k", {"x"}));
  cache.store("k", {{"x", 1.5}, {"y", -2}});
  const auto found = cache.find("k", {"x", "y"});
  ASSERT_TRUE(found);
  EXPECT_DOUBLE_EQ(found->at("x"), 1.5);
  EXPECT_DOUBLE_EQ(found->at("y"), -2);
  EXPECT_FALSE(cache.find("k", {"x", "z"})) << "a missing value";
  EXPECT_FALSE(trapeze::MeasurementCache(file, "machine A", "build 2").find("k", {"x"})) << "another build";
  EXPECT_FALSE(trapeze::MeasurementCache(file, "machine B", "build 1").find("k", {"x"})) << "another machine";
  std::ofstream(file) << "{ not json";
  EXPECT_FALSE(cache.find("k", {"x"}));
  cache.store("k", {{"x", 3}});  // rewritten, not trusted
  ASSERT_TRUE(cache.find("k", {"x"}));
  EXPECT_DOUBLE_EQ(cache.find("k", {"x"})->at("x"), 3);
  std::filesystem::remove_all(dir);
}

}  // namespace
