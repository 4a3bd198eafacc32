// Skewed slabs through StarPU (trapeze/skewed_run.hpp) on CPU workers equal
// the sequential reference bit for bit, for every app whose slowest axis has
// a radius, from a first step of either parity, with passes that do not
// divide the steps and slabs that do not divide the domain.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "random_grids.hpp"
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
  using T = typename S::value_type;
  const std::uint64_t seed = tests::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  trapeze::Runtime runtime({"lws", 2});
  trapeze::Grid<T> start(extent, S::dims, trapeze::updated_fields_of<S>, trapeze::constant_fields_of<S>, 1, boundary);
  tests::randomise(start, seed);
  if (both_signs) tests::velocities_of_both_signs(start);
  const int axis = trapeze::reference::skewed_axis(S::dims);
  const Index planes = extent[axis], radius = S::shape.radius[axis];
  struct Case {
    Index slab, height, steps, first_step;
  };
  for (const Case c : {Case{radius, 1, 4, 0}, Case{3, 4, 11, 1}, Case{5, 7, 7, 0}, Case{planes, 3, 8, 3},
                       Case{4, 9, 23, 2}}) {
    SCOPED_TRACE("slab " + std::to_string(c.slab) + " height " + std::to_string(c.height) + " steps " +
                 std::to_string(c.steps) + " first step " + std::to_string(c.first_step));
    trapeze::Grid<T> expected = start, skewed = start;
    trapeze::reference::advance(stencil, expected, c.steps, c.first_step);
    trapeze::SkewedRun run(runtime, stencil, skewed, SkewedSlabs(planes, c.slab, c.height, radius));
    run.advance(c.steps, c.first_step);
    for (int f = 0; f < start.updated_count(); ++f) {
      ASSERT_EQ(std::memcmp(expected.updated(f).data(), skewed.updated(f).data(), sizeof(T) * start.cells()), 0)
          << "field " << f;
    }
  }
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
