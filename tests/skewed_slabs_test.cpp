// Skewed slabs (trapeze/skewed_slabs.hpp): the schedule updates every plane
// once a step and only from planes at the step before, its bookkeeping (the
// slabs a task touches, when a slab is done, what a GPU holds) agrees with
// that, the choice for a budget fits it with the fewest passes, and run in
// plain loops it equals the sequential reference bit for bit for every app
// whose slowest axis has a radius.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "random_grids.hpp"
#include "skewed_cases.hpp"
#include "stencils/cip.hpp"
#include "stencils/himeno.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "trapeze/error.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/skewed_reference.hpp"
#include "trapeze/skewed_slabs.hpp"

namespace {

using trapeze::Index;
using trapeze::SkewedSlabs;

// Follows every plane's step through `steps` steps of the schedule and
// checks each update's inputs, what each task touches and when each slab is
// done. Returns the number of updates.
Index check_schedule(const SkewedSlabs& slabs, Index steps) {
  const Index n = slabs.planes(), r = slabs.radius();
  std::vector<Index> at(n, 0);  // the step each plane holds
  Index updates = 0;
  for (Index done = 0; done < steps; done += slabs.height()) {
    const Index pass_steps = std::min(slabs.height(), steps - done);
    std::vector<int> last_reader(slabs.count(), -1);
    for (int j = 0; j < slabs.count(); ++j) {
      const auto [first_slab, last_slab] = slabs.touched(j, pass_steps);
      for (Index t = 1; t <= pass_steps; ++t) {
        const auto range = slabs.updated(j, t);
        const Index step = done + t;  // the step the range reaches
        for (Index z = range.first; z <= range.last; ++z) {
          EXPECT_EQ(at[z], step - 1) << "plane " << z << " task " << j << " step " << t;
          // Neighbours hold the step before, or this step with the one
          // before still in the other buffer.
          for (Index d = std::max<Index>(0, z - r); d <= std::min(n - 1, z + r); ++d) {
            if (d < range.first || d > range.last) {
              EXPECT_TRUE(at[d] == step - 1 || at[d] == step) << "neighbour " << d << " of " << z << " at " << at[d];
            }
            const int slab = static_cast<int>(d / slabs.slab());
            EXPECT_GE(slab, first_slab);
            EXPECT_LE(slab, last_slab);
            last_reader[slab] = j;
          }
        }
        for (Index z = range.first; z <= range.last; ++z) at[z] = step, ++updates;
      }
      // Slabs whose last task this was hold the pass's last step.
      for (int s = 0; s < slabs.count(); ++s) {
        if (slabs.last_task(s, pass_steps) != j) continue;
        const auto planes = slabs.slab_planes(s);
        for (Index z = planes.first; z <= planes.last; ++z) EXPECT_EQ(at[z], done + pass_steps) << "slab " << s;
      }
      EXPECT_LE(last_slab - first_slab + 2, slabs.resident_slabs() + (last_slab == slabs.count() - 1 ? 1 : 0));
    }
    for (int s = 0; s < slabs.count(); ++s) EXPECT_LE(last_reader[s], slabs.last_task(s, pass_steps)) << "slab " << s;
  }
  for (Index z = 0; z < n; ++z) EXPECT_EQ(at[z], steps) << "plane " << z;
  return updates;
}

TEST(SkewedSlabs, EveryPlaneOnceAStepFromThePlanesOfTheStepBefore) {
  const std::uint64_t seed = tests::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 engine(seed);
  for (int trial = 0; trial < 200; ++trial) {
    const Index r = std::uniform_int_distribution<Index>(1, 3)(engine);
    const Index n = std::uniform_int_distribution<Index>(r, 70)(engine);
    const Index slab = std::uniform_int_distribution<Index>(r, n)(engine);
    const Index height = std::uniform_int_distribution<Index>(1, 40)(engine);
    const Index steps = std::uniform_int_distribution<Index>(1, 90)(engine);
    SCOPED_TRACE("planes " + std::to_string(n) + " slab " + std::to_string(slab) + " height " +
                 std::to_string(height) + " radius " + std::to_string(r) + " steps " + std::to_string(steps));
    EXPECT_EQ(check_schedule(SkewedSlabs(n, slab, height, r), steps), n * steps);
  }
}

TEST(SkewedSlabs, RejectsSlabsNarrowerThanTheRadiusAndEmptyPasses) {
  EXPECT_THROW(SkewedSlabs(64, 1, 8, 2), trapeze::InvalidArgument);
  EXPECT_THROW(SkewedSlabs(64, 65, 8, 1), trapeze::InvalidArgument);
  EXPECT_THROW(SkewedSlabs(64, 8, 0, 1), trapeze::InvalidArgument);
  EXPECT_THROW(SkewedSlabs(64, 8, 8, 0), trapeze::InvalidArgument);
  EXPECT_THROW(SkewedSlabs(0, 1, 8, 1), trapeze::InvalidArgument);
}

TEST(SkewedSlabs, ChoiceTakesTheFewestPassesThatFitTheBudget) {
  // Himeno L under a quarter of its domain: 512x256 planes of 64 device
  // bytes a cell, 448 MiB. The probe of docs/PERF.md (2026-11-28, session
  // 34) ran 3 passes with slabs of 2 planes and k 48 in this budget.
  const double plane = 512.0 * 256 * 64, budget = 448.0 * 1048576;
  const SkewedSlabs chosen = trapeze::choose_skewed_slabs(256, 1, 128, plane, budget);
  const auto passes = [](Index steps, Index height) { return (steps + height - 1) / height; };
  EXPECT_LE(chosen.resident_slabs() * chosen.slab() * plane, budget);
  EXPECT_EQ(passes(128, chosen.height()), 3);
  EXPECT_EQ(chosen.height(), 43);  // 43 + 43 + 42: as even as 3 passes go
  for (Index slab = 1; slab <= 256; ++slab) {
    for (Index height = 64; height <= 128; ++height) {  // 2 passes or 1
      EXPECT_GT(SkewedSlabs(256, slab, height, 1).resident_slabs() * slab * plane, budget)
          << "slab " << slab << " height " << height;
    }
  }
  // Of the slabs that keep 3 passes, the widest.
  for (Index slab = chosen.slab() + 1; slab <= 256; ++slab) {
    EXPECT_GT(SkewedSlabs(256, slab, 43, 1).resident_slabs() * slab * plane, budget) << "slab " << slab;
  }
  // Everything fits: one pass, one slab.
  const SkewedSlabs roomy = trapeze::choose_skewed_slabs(256, 1, 128, plane, 256 * plane);
  EXPECT_EQ(roomy.count(), 1);
  EXPECT_EQ(roomy.height(), 128);
  // ... unless at least 32 slabs are asked for: the widest slab that leaves them.
  const SkewedSlabs many = trapeze::choose_skewed_slabs(256, 1, 128, plane, 256 * plane, 1, 0, 32);
  EXPECT_EQ(many.slab(), 8);
  EXPECT_EQ(many.count(), 32);
  EXPECT_EQ(many.height(), 128);
  // 101 planes: slabs of 3 leave 34, of 4 only 26.
  EXPECT_EQ(trapeze::choose_skewed_slabs(101, 1, 8, plane, 101 * plane, 1, 0, 32).slab(), 3);
  // Slabs of at least 12 planes: none leaves 32, so the narrowest wider one.
  EXPECT_EQ(trapeze::choose_skewed_slabs(256, 1, 128, plane, 256 * plane, 12, 0, 32).slab(), 12);
  // With the budget of the first case, the preference does not cost a pass.
  const SkewedSlabs capped = trapeze::choose_skewed_slabs(256, 1, 128, plane, budget, 1, 0, 32);
  EXPECT_EQ(passes(128, capped.height()), 3);
  EXPECT_LE(capped.slab(), 8);
  // Three slabs on the move take their room too: 46 planes hold 3 passes
  // (slabs of 1 plane, k 43: 46 resident), not with 3 planes on the move.
  const auto footprint = [&](const SkewedSlabs& s, double moving) {
    return static_cast<double>(s.slab()) * (static_cast<double>(s.resident_slabs()) * plane + 3 * moving);
  };
  const SkewedSlabs still = trapeze::choose_skewed_slabs(256, 1, 128, plane, 46 * plane);
  EXPECT_EQ(passes(128, still.height()), 3);
  const SkewedSlabs moving = trapeze::choose_skewed_slabs(256, 1, 128, plane, 46 * plane, 1, 0, 1, plane);
  EXPECT_EQ(passes(128, moving.height()), 4);
  EXPECT_LE(footprint(moving, plane), 46 * plane);
  EXPECT_THROW(trapeze::choose_skewed_slabs(256, 1, 128, plane, 2 * plane), trapeze::InvalidArgument);
  EXPECT_THROW(trapeze::choose_skewed_slabs(256, 1, 0, plane, budget), trapeze::InvalidArgument);
}

// The skewed schedule in plain loops against reference::advance.
template <typename S>
void expect_skewed_matches_reference(const S& stencil, const trapeze::Extent& extent, trapeze::Boundary boundary,
                                     bool both_signs = false) {
  tests::expect_skewed_matches_reference(stencil, extent, boundary, both_signs,
                                         [&](auto& grid, const SkewedSlabs& slabs, Index steps, Index first_step) {
                                           trapeze::reference::advance_skewed(stencil, grid, slabs, steps, first_step);
                                         });
}

TEST(SkewedReference, Jacobi2DEqualsTheReference) {
  expect_skewed_matches_reference(apps::Jacobi2D<float>{}, {37, 29, 1}, trapeze::Boundary::clamp());
}
TEST(SkewedReference, Jacobi3DEqualsTheReference) {
  expect_skewed_matches_reference(apps::Jacobi3D<double>{}, {13, 11, 17}, trapeze::Boundary::constant(0.25));
}
TEST(SkewedReference, HimenoEqualsTheReference) {
  expect_skewed_matches_reference(apps::Himeno{}, {15, 9, 19}, trapeze::Boundary::clamp());
}
TEST(SkewedReference, CipEqualsTheReference) {
  expect_skewed_matches_reference(apps::Cip<float>{}, {23, 31, 1}, trapeze::Boundary::clamp(), true);
}
TEST(SkewedReference, HotspotEqualsTheReference) {
  expect_skewed_matches_reference(apps::Hotspot::for_grid(27, 19), {19, 27, 1}, trapeze::Boundary::clamp());
}
TEST(SkewedReference, LifeEqualsTheReference) {
  expect_skewed_matches_reference(apps::Life{}, {33, 25, 1}, trapeze::Boundary::constant(0));
}

TEST(SkewedReference, RefusesAWrappingBoundaryAndSlabsOfAnotherAxis) {
  trapeze::Grid<float> grid({16, 12, 1}, 2, 1, 0, 1, trapeze::Boundary::periodic());
  EXPECT_THROW(trapeze::reference::advance_skewed(apps::Jacobi2D<float>{}, grid, SkewedSlabs(12, 4, 2, 1), 4),
               trapeze::InvalidArgument);
  trapeze::Grid<float> clamped({16, 12, 1}, 2, 1);
  EXPECT_THROW(trapeze::reference::advance_skewed(apps::Jacobi2D<float>{}, clamped, SkewedSlabs(16, 4, 2, 1), 4),
               trapeze::InvalidArgument);
}

}  // namespace
