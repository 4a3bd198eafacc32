// The in-place sweeps' hyper-tile width model (trapeze/sweep_width_model.hpp):
// its launch time in hyper-tile times against closed forms where one
// constraint alone holds, the fit of its two constants from timings it
// predicts, and the width it chooses when wider hyper-tiles leave fewer
// blocks on the GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "trapeze/sweep_width_model.hpp"

namespace {

using trapeze::HyperTileCosts;
using trapeze::SweepGeometry;

TEST(SweepWidthModel, OneSweepIsABandEveryTwoHyperTiles) {
  // Every item has a block: band b starts 2 hyper-tiles after band b - 1.
  for (long rows : {32L, 33L, 1000L, 16384L}) {
    for (long columns : {1L, 100L, 16384L}) {
      for (int w : {32, 48, 64, 256}) {
        const SweepGeometry g{rows, columns, 1, 1 << 20};
        const long n = (columns + 31 + w - 1) / w, bands = (rows + 31) / 32;
        const double expected = static_cast<double>((bands - 1) * std::min(2L, n) + n);  // the kernel waits for min(2, n)
        EXPECT_DOUBLE_EQ(trapeze::sweep_hyper_tile_times(g, w), expected) << rows << "x" << columns << " w " << w;
      }
    }
  }
}

TEST(SweepWidthModel, SweepsInOneLaunchFollowFiveHyperTilesApart) {
  // Band b of sweep t waits for band b + 1 of sweep t - 1 to publish 3, which
  // started 2 after band b there: 5 hyper-tiles a sweep, 2 a band.
  const SweepGeometry g{16384, 16384, 10, 1 << 20};
  const long n = (16384 + 31 + 31) / 32, bands = 512;
  EXPECT_DOUBLE_EQ(trapeze::sweep_hyper_tile_times(g, 32), static_cast<double>(5 * 9 + 2 * (bands - 1) + n));
}

TEST(SweepWidthModel, OneBlockTakesTheItemsOneAfterAnother) {
  // One band, one block: each item waits for the last one's end and store (n + 1).
  const SweepGeometry g{32, 4000, 7, 1};
  const long n = (4000 + 31 + 63) / 64;
  EXPECT_DOUBLE_EQ(trapeze::sweep_hyper_tile_times(g, 64), static_cast<double>(6 * (n + 1) + n));
}

TEST(SweepWidthModel, FitRecoversTheConstantsAndTheBestWidth) {
  const HyperTileCosts truth{2e-8, 5e-7};  // d: 20 ns a column, tau_s: 0.5 us a hyper-tile
  // Shared memory per block grows with the width: fewer blocks at once.
  const auto blocks = [](int w) { return 132 * std::max(1, 12 * 32 / w); };
  std::vector<trapeze::HyperTileTiming> timings;
  for (int w : {32, 64, 128}) {
    const SweepGeometry g{16384, 2048, 64, blocks(w)};
    timings.push_back({w, trapeze::sweep_hyper_tile_times(g, w), trapeze::predicted_sweep_seconds(truth, g, w)});
  }
  const HyperTileCosts fitted = trapeze::fit_hyper_tile_costs(timings);
  EXPECT_NEAR(fitted.column_seconds, truth.column_seconds, 1e-6 * truth.column_seconds);
  EXPECT_NEAR(fitted.sync_seconds, truth.sync_seconds, 1e-6 * truth.sync_seconds);
  const auto geometry = [&](int w) { return SweepGeometry{16384, 16384, 64, blocks(w)}; };
  const int best = trapeze::optimal_sweep_width(fitted, geometry);
  for (int w = 32; w <= 256; w += 8) {
    EXPECT_LE(trapeze::predicted_sweep_seconds(truth, geometry(best), best),
              trapeze::predicted_sweep_seconds(truth, geometry(w), w) * (1 + 1e-9))
        << "width " << best << " against " << w;
  }
}

}  // namespace
