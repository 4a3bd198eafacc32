// Skewed slabs (trapeze/skewed_slabs.hpp): the schedule, passes up and
// down in turn, updates every plane once a step and only from planes at the
// step before, its bookkeeping (the slabs a task touches, when a slab is
// done, what the ring holds, what goes home, what a GPU holds) agrees with
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

// Follows every plane's step through the run's schedule (skewed_schedule)
// and checks each update's inputs, what each task touches, when each slab is
// done, and the ring: a task finds every plane it reads in its ring slot
// (planes -r..-1 and n..n+r-1 beyond the ends included), a slab copied in
// comes from a home holding its newest step, a slab copied home holds the
// pass's last step, and at the end every home holds the run's. Returns the
// number of updates.
Index check_schedule(const SkewedSlabs& slabs, Index steps) {
  const Index n = slabs.planes(), r = slabs.radius(), L = slabs.slab();
  std::vector<Index> at(n, 0);             // the step each plane holds
  std::vector<Index> home(slabs.count(), 0);  // the step each slab's home holds
  const Index ring = slabs.most_touched() * L + 2 * r;
  std::vector<Index> slot_plane(ring, n + r + 1);  // the plane in each ring slot (none yet)
  const auto slot = [&](Index plane) { return (plane + r) % ring; };
  Index updates = 0;
  std::vector<trapeze::SkewedTask> tasks = trapeze::skewed_schedule(slabs, steps);
  EXPECT_EQ(static_cast<Index>(tasks.size()), slabs.count() * ((steps + slabs.height() - 1) / slabs.height()));
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const trapeze::SkewedTask& task = tasks[i];
    SCOPED_TRACE("pass " + std::to_string(task.pass) + (task.down ? " down" : " up") + " task " +
                 std::to_string(task.order));
    const Index pass_steps = task.steps, done = task.first_step;
    EXPECT_EQ(task.slab, slabs.slab_of(task.order, task.down));
    EXPECT_EQ(task.down, SkewedSlabs::runs_down(task.pass));
    const auto [first_slab, last_slab] = slabs.touched(task.order, pass_steps, task.down);
    EXPECT_EQ(task.first_slab, first_slab);
    EXPECT_EQ(task.last_slab, last_slab);
    if (i == 0) {
      EXPECT_EQ(task.in_first, first_slab);
      EXPECT_EQ(task.in_last, last_slab);
    }
    for (int s = task.in_first; s <= task.in_last; ++s) {
      EXPECT_GE(s, first_slab);
      EXPECT_LE(s, last_slab);
      const auto planes = slabs.slab_planes(s);
      for (Index z = planes.first; z <= planes.last; ++z) {
        EXPECT_EQ(at[z], home[s]) << "slab " << s << " copied in from a stale home";
        slot_plane[slot(z)] = z;
      }
      for (Index z = 1; z <= r; ++z) {
        if (s == 0) slot_plane[slot(-z)] = -z;
        if (s == slabs.count() - 1) slot_plane[slot(n - 1 + z)] = n - 1 + z;
      }
    }
    for (Index t = 1; t <= pass_steps; ++t) {
      const auto range = slabs.updated(task.order, t, task.down);
      const Index step = done + t;  // the step the range reaches
      for (Index z = range.first; z <= range.last; ++z) {
        EXPECT_EQ(at[z], step - 1) << "plane " << z << " step " << t;
        // Neighbours hold the step before, or this step with the one
        // before still in the other buffer; all in the ring.
        for (Index d = z - r; d <= z + r; ++d) {
          EXPECT_EQ(slot_plane[slot(d)], d) << "plane " << d << " not in the ring";
          if (d < 0 || d >= n) continue;
          if (d < range.first || d > range.last) {
            EXPECT_TRUE(at[d] == step - 1 || at[d] == step) << "neighbour " << d << " of " << z << " at " << at[d];
          }
          const int slab = static_cast<int>(d / L);
          EXPECT_GE(slab, first_slab);
          EXPECT_LE(slab, last_slab);
        }
      }
      for (Index z = range.first; z <= range.last; ++z) at[z] = step, ++updates;
    }
    // Slabs copied home hold the pass's last step.
    for (int s = task.out_first; s <= task.out_last; ++s) {
      EXPECT_EQ(slabs.last_task(s, pass_steps, task.down), task.order) << "slab " << s;
      const auto planes = slabs.slab_planes(s);
      for (Index z = planes.first; z <= planes.last; ++z) EXPECT_EQ(at[z], done + pass_steps) << "slab " << s;
      home[s] = done + pass_steps;
    }
    const bool at_edge = task.down ? first_slab == 0 : last_slab == slabs.count() - 1;
    EXPECT_LE(last_slab - first_slab + 2, slabs.resident_slabs() + (at_edge ? 1 : 0));
  }
  for (Index z = 0; z < n; ++z) EXPECT_EQ(at[z], steps) << "plane " << z;
  for (int s = 0; s < slabs.count(); ++s) EXPECT_EQ(home[s], steps) << "slab " << s << " not home";
  return updates;
}

// Copies between the ring and the slabs' homes: each slab crosses once a
// pass, less what a pass hands the next in the ring.
TEST(SkewedSlabs, APassHandsTheNextTheSlabsItsLastTaskTouched) {
  const SkewedSlabs slabs(64, 4, 32, 1);  // Himeno L's 4:32 on 64 planes
  const std::vector<trapeze::SkewedTask> tasks = trapeze::skewed_schedule(slabs, 128);
  ASSERT_EQ(tasks.size(), 4u * 16u);
  int in = 0, out = 0;
  for (const trapeze::SkewedTask& task : tasks) {
    in += task.copies_in() ? task.in_last - task.in_first + 1 : 0;
    out += task.copies_out() ? task.out_last - task.out_first + 1 : 0;
  }
  // At each of the 3 turns the ring holds 10 slabs (up: 6..15, those its
  // last new slab's task touched; down: 0..9), which the next pass does not
  // copy in; 9 of them (7..15, 0..8: those the pass's last task touched)
  // the pass does not copy home.
  EXPECT_EQ(in, 4 * 16 - 3 * 10);
  EXPECT_EQ(out, 4 * 16 - 3 * 9);
  EXPECT_FALSE(tasks[15].copies_out());
  EXPECT_FALSE(tasks[16].copies_in());
  EXPECT_TRUE(tasks[16].down);
  EXPECT_EQ(tasks[16].slab, 15);
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
