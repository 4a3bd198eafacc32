// HotSpot's coefficients keep the explicit scheme well behaved at every grid
// size: Rodinia's own time step diverges above about 1385x1385 cells (a NaN
// field at 2048x2048), and a test that only compares the tiled run with the
// sequential reference cannot see it, because both diverge identically.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "stencils/hotspot.hpp"
#include "trapeze/reference.hpp"

namespace {

using apps::Hotspot;

// Rodinia's step / cap for a square n x n grid, in the same double arithmetic.
float rodinia_step_div_cap(long n) {
  using C = apps::HotspotConstants;
  const double cell = C::chip_height / static_cast<double>(n);
  const double cap = C::factor_chip * C::spec_heat_si * C::t_chip * cell * cell;
  const double max_slope = C::max_pd / (C::factor_chip * C::t_chip * C::spec_heat_si);
  return static_cast<float>(C::precision / max_slope / cap);
}

// A zero-power field that is a checkerboard of two temperatures: the mode an
// unstable explicit step amplifies fastest.
trapeze::Grid<float> checkerboard(long n, float low, float high) {
  trapeze::Grid<float> grid({n, n, 1}, 2, 1, 1, 1, trapeze::Boundary::periodic());
  for (long y = 0; y < n; ++y) {
    for (long x = 0; x < n; ++x) grid.updated()[grid.linear(x, y)] = (x + y) % 2 ? high : low;
  }
  return grid;
}

// Without power the temperature relaxes towards its neighbours and the ambient:
// a monotone scheme never leaves [min, max] of the start values and the ambient.
void expect_stays_within_bounds(const Hotspot& stencil, long coefficient_size) {
  const float low = 60.0f, high = 100.0f;  // around the 80-degree ambient
  auto grid = checkerboard(64, low, high);
  trapeze::reference::advance(stencil, grid, 300);
  const auto [min, max] = std::minmax_element(grid.updated().begin(), grid.updated().end());
  EXPECT_TRUE(std::isfinite(*min) && std::isfinite(*max)) << "coefficients of " << coefficient_size;
  EXPECT_GE(*min, low) << "coefficients of " << coefficient_size;
  EXPECT_LE(*max, high) << "coefficients of " << coefficient_size;
}

TEST(HotspotPhysics, RodiniaSizesKeepRodiniasTimeStep) {
  for (long n : {64L, 512L, 1024L}) {
    EXPECT_EQ(Hotspot::for_grid(n, n).step_div_cap, rodinia_step_div_cap(n)) << n << "x" << n;
  }
}

TEST(HotspotPhysics, LargeGridsStayBoundedForHundredsOfSteps) {
  for (long n : {1024L, 2048L, 4096L, 16384L}) expect_stays_within_bounds(Hotspot::for_grid(n, n), n);
  expect_stays_within_bounds(Hotspot::for_grid(512, 8192), 8192);  // non-square cells
}

// The check above would catch the divergence: Rodinia's unbounded step at
// 2048x2048 leaves the bounds (and ends in NaN) on the same field.
TEST(HotspotPhysics, RodiniasUnboundedStepDivergesAt2048) {
  Hotspot rodinia = Hotspot::for_grid(2048, 2048);
  rodinia.step_div_cap = rodinia_step_div_cap(2048);
  auto grid = checkerboard(64, 60.0f, 100.0f);
  trapeze::reference::advance(rodinia, grid, 300);
  const bool diverged = std::any_of(grid.updated().begin(), grid.updated().end(),
                                    [](float t) { return !std::isfinite(t) || t < 60.0f || t > 100.0f; });
  EXPECT_TRUE(diverged);
}

}  // namespace
