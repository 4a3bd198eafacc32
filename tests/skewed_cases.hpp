#pragma once
// The cases every test of skewed slabs runs (the schedule in plain loops,
// SkewedRun on CPU workers, its CUDA task): a random grid, slabs of the
// radius up to the whole domain, slabs that do not divide it, passes that do
// not divide the steps, a first step of either parity; each result against
// reference::advance bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "random_grids.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/skewed_reference.hpp"
#include "trapeze/skewed_slabs.hpp"

namespace tests {

// run(grid, slabs, steps, first_step) advances `grid` in skewed slabs.
template <trapeze::Stencil S, typename Run>
void expect_skewed_matches_reference(const S& stencil, const trapeze::Extent& extent, trapeze::Boundary boundary,
                                     bool both_signs, Run run) {
  using T = typename S::value_type;
  using trapeze::Index;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  trapeze::Grid<T> start(extent, S::dims, trapeze::updated_fields_of<S>, trapeze::constant_fields_of<S>, 1, boundary);
  randomise(start, seed);
  if (both_signs) velocities_of_both_signs(start);
  const int axis = trapeze::skewed_axis(S::dims);
  const Index planes = extent[axis], radius = S::shape.radius[axis];
  struct SkewedCase {
    Index slab, height, steps, first_step;
  };
  for (const SkewedCase c : {SkewedCase{radius, 1, 5, 0}, SkewedCase{3 * radius, 4, 11, 1}, SkewedCase{5, 7, 7, 0},
                             SkewedCase{planes, 3, 8, 3},
                             SkewedCase{std::max<Index>(radius, 4), 9, 23, 2}}) {
    SCOPED_TRACE("slab " + std::to_string(c.slab) + " height " + std::to_string(c.height) + " steps " +
                 std::to_string(c.steps) + " first step " + std::to_string(c.first_step));
    trapeze::Grid<T> expected = start, skewed = start;
    trapeze::reference::advance(stencil, expected, c.steps, c.first_step);
    run(skewed, trapeze::SkewedSlabs(planes, c.slab, c.height, radius), c.steps, c.first_step);
    for (int f = 0; f < start.updated_count(); ++f) {
      ASSERT_EQ(std::memcmp(expected.updated(f).data(), skewed.updated(f).data(), sizeof(T) * start.cells()), 0)
          << "field " << f;
    }
  }
}

}  // namespace tests
