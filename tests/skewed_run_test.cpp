// Skewed slabs through StarPU (trapeze/skewed_run.hpp) on CPU workers equal
// the sequential reference bit for bit, for every app whose slowest axis has
// a radius, from a first step of either parity, with passes that do not
// divide the steps and slabs that do not divide the domain.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "skewed_cases.hpp"
#include "stencils/cip.hpp"
#include "stencils/himeno.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "trapeze/error.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/skewed_run.hpp"

namespace {

using trapeze::Index;
using trapeze::SkewedSlabs;

template <typename S>
void expect_run_matches_reference(const S& stencil, const trapeze::Extent& extent, trapeze::Boundary boundary,
                                  bool both_signs = false) {
  trapeze::Runtime runtime({"lws", 2});
  tests::expect_skewed_matches_reference(stencil, extent, boundary, both_signs,
                                         [&](auto& grid, const SkewedSlabs& slabs, Index steps, Index first_step) {
                                           trapeze::SkewedRun run(runtime, stencil, grid, slabs);
                                           run.advance(steps, first_step);
                                         });
}

TEST(SkewedRun, Jacobi2DEqualsTheReference) {
  expect_run_matches_reference(apps::Jacobi2D<float>{}, {37, 29, 1}, trapeze::Boundary::clamp());
}
TEST(SkewedRun, Jacobi3DEqualsTheReference) {
  expect_run_matches_reference(apps::Jacobi3D<double>{}, {13, 11, 17}, trapeze::Boundary::constant(0.25));
}
TEST(SkewedRun, HimenoEqualsTheReference) {
  expect_run_matches_reference(apps::Himeno{}, {15, 9, 19}, trapeze::Boundary::clamp());
}
TEST(SkewedRun, CipEqualsTheReference) {
  expect_run_matches_reference(apps::Cip<float>{}, {23, 31, 1}, trapeze::Boundary::clamp(), true);
}
TEST(SkewedRun, HotspotEqualsTheReference) {
  expect_run_matches_reference(apps::Hotspot::for_grid(27, 19), {19, 27, 1}, trapeze::Boundary::clamp());
}
TEST(SkewedRun, LifeEqualsTheReference) {
  expect_run_matches_reference(apps::Life{}, {33, 25, 1}, trapeze::Boundary::constant(0));
}

TEST(SkewedRun, RefusesAWrappingBoundaryAndSlabsOfAnotherAxis) {
  trapeze::Runtime runtime({"lws", 2});
  trapeze::Grid<float> wrapped({16, 12, 1}, 2, 1, 0, 1, trapeze::Boundary::periodic());
  EXPECT_THROW(trapeze::SkewedRun(runtime, apps::Jacobi2D<float>{}, wrapped, SkewedSlabs(12, 4, 2, 1)),
               trapeze::InvalidArgument);
  trapeze::Grid<float> clamped({16, 12, 1}, 2, 1);
  EXPECT_THROW(trapeze::SkewedRun(runtime, apps::Jacobi2D<float>{}, clamped, SkewedSlabs(16, 4, 2, 1)),
               trapeze::InvalidArgument);
  trapeze::SkewedRun run(runtime, apps::Jacobi2D<float>{}, clamped, SkewedSlabs(12, 4, 2, 1));
  EXPECT_THROW(run.advance(-1), trapeze::InvalidArgument);
}

}  // namespace
