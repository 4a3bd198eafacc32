// Every app's stencil equals the sequential reference bit for bit over
// divisible and non-divisible sizes, one tile, tiles larger than the domain,
// 1-cell-wide tiles, every boundary condition, several trapezoid heights, both
// trapezoid modes, StarPU's eager, lws and dmda schedulers and Trapeze's own
// trapeze-owner and trapeze-wavefront.
#include <gtest/gtest.h>

#include <vector>

#include "reference_check.hpp"
#include "stencils/cip.hpp"
#include "stencils/himeno.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/runtime.hpp"

namespace {

using trapeze::Boundary;
using trapeze::Extent;
using tests::Case;

const std::vector<Boundary> every_boundary{Boundary::clamp(), Boundary::constant(0.75), Boundary::periodic()};
const std::vector<int> heights{1, 2, 3, 7};

// Tilings of a 2-D domain that exercise every halo situation.
std::vector<Case> cases_2d(const Extent& size) {
  const std::vector<Extent> tiles{
      {16, 16, 1},                // divisible or not, depending on size
      {13, 7, 1},                 // never divides
      size,                       // a single tile
      {1000, 1000, 1},            // larger than the domain
      {1, size[1], 1},            // 1-cell-wide columns: the ghost zone spans many tiles
      {size[0], 1, 1},            // 1-cell-high rows
  };
  std::vector<Case> cases;
  for (const Boundary& b : every_boundary) {
    for (const Extent& t : tiles) {
      for (int h : heights) cases.push_back({size, t, b, h});
    }
  }
  return cases;
}

template <trapeze::Stencil S>
void run_cases(const S& stencil, const std::vector<Case>& cases, const std::string& scheduler = "lws") {
  trapeze::Runtime runtime({scheduler, 2});
  ASSERT_EQ(runtime.scheduler(), scheduler);
  for (const Case& c : cases) {
    tests::expect_matches_reference(runtime, stencil, c);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(Jacobi2DEquality, MatchesReferenceDivisibleSizes) { run_cases(apps::Jacobi2D<float>{}, cases_2d({64, 48, 1})); }
TEST(Jacobi2DEquality, MatchesReferenceOddSizes) { run_cases(apps::Jacobi2D<float>{}, cases_2d({61, 47, 1})); }
TEST(Jacobi2DEquality, MatchesReferenceInDouble) { run_cases(apps::Jacobi2D<double>{}, cases_2d({37, 29, 1})); }
TEST(LifeEquality, MatchesReferenceOddSizes) { run_cases(apps::Life{}, cases_2d({61, 47, 1})); }
TEST(HotspotEquality, MatchesReferenceOddSizes) {
  run_cases(apps::Hotspot::for_grid(47, 61), cases_2d({61, 47, 1}));
}

TEST(Jacobi3DEquality, MatchesReferenceOddSizes) {
  std::vector<Case> cases;
  const Extent size{19, 13, 11};
  for (const Boundary& b : every_boundary) {
    for (const Extent& t : {Extent{8, 8, 8}, Extent{5, 4, 3}, size, Extent{100, 100, 100}, Extent{1, 13, 11},
                            Extent{19, 13, 1}}) {
      for (int h : heights) cases.push_back({size, t, b, h, 6});
    }
  }
  run_cases(apps::Jacobi3D<float>{}, cases);
}

// Himeno: a 19-point box stencil in 3-D over two updated fields and twelve
// read-only ones.
TEST(HimenoEquality, MatchesReferenceOddSizes) {
  std::vector<Case> cases;
  const Extent size{19, 13, 11};
  for (const Boundary& b : every_boundary) {
    for (const Extent& t : {Extent{8, 8, 8}, Extent{5, 4, 3}, size, Extent{1, 13, 11}}) {
      for (int h : {1, 2, 3}) cases.push_back({size, t, b, h, 5});
    }
  }
  run_cases(apps::Himeno{}, cases);
}

// CIP: three updated fields, velocities read at neighbours, and an upwind
// side that changes with the velocity's sign (random velocities in [-0.5, 0.5)).

TEST(CipEquality, MatchesReferenceOddSizes) {
  trapeze::Runtime runtime({"lws", 2});
  for (const Case& c : cases_2d({61, 47, 1})) {
    tests::expect_matches_reference(runtime, apps::Cip<float>{}, c, tests::velocities_of_both_signs<float>);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(PathfinderEquality, MatchesReferenceOddSizes) {
  std::vector<Case> cases;
  for (const Extent& size : {Extent{1000, 1, 1}, Extent{777, 1, 1}}) {
    for (const Extent& t : {Extent{100, 1, 1}, Extent{33, 1, 1}, size, Extent{5000, 1, 1}, Extent{1, 1, 1}}) {
      for (int h : heights) {
        Case c{size, t, Boundary::clamp(), h, 23};
        c.constant_planes = c.steps;
        cases.push_back(c);
      }
    }
  }
  run_cases(apps::Pathfinder{}, cases);
}

TEST(TrapezoidModes, FullModeMatchesReference) {
  std::vector<Case> cases;
  for (const Boundary& b : every_boundary) {
    for (int h : heights) {
      Case c{{61, 47, 1}, {16, 10, 1}, b, h, 11, trapeze::TrapezoidMode::full};
      cases.push_back(c);
    }
  }
  run_cases(apps::Jacobi2D<float>{}, cases);
  run_cases(apps::Hotspot::for_grid(47, 61), cases);
  run_cases(apps::Life{}, cases);
}

TEST(TrapezoidHeights, StepsNotAMultipleOfHeight) {
  // 10 steps at h = 3, 4 and 7: the last stage is shorter.
  std::vector<Case> cases;
  for (int h : {3, 4, 7}) cases.push_back({{61, 47, 1}, {16, 10, 1}, Boundary::clamp(), h, 10});
  run_cases(apps::Jacobi2D<float>{}, cases);
}

class SchedulerEquality : public testing::TestWithParam<std::string> {};

TEST_P(SchedulerEquality, EveryAppMatchesReference) {
  const std::string scheduler = GetParam();
  const std::vector<Case> plain{{{61, 47, 1}, {16, 10, 1}, Boundary::clamp(), 1},
                                {{61, 47, 1}, {13, 7, 1}, Boundary::periodic(), 3}};
  run_cases(apps::Jacobi2D<float>{}, plain, scheduler);
  run_cases(apps::Life{}, plain, scheduler);
  run_cases(apps::Hotspot::for_grid(47, 61), plain, scheduler);
  run_cases(apps::Jacobi3D<float>{}, {{{19, 13, 11}, {8, 8, 4}, Boundary::clamp(), 2, 5}}, scheduler);
  Case path{{777, 1, 1}, {50, 1, 1}, Boundary::clamp(), 3, 17};
  path.constant_planes = path.steps;
  run_cases(apps::Pathfinder{}, {path}, scheduler);
}

INSTANTIATE_TEST_SUITE_P(Schedulers, SchedulerEquality,
                         testing::Values("eager", "lws", "dmda", "trapeze-owner", "trapeze-wavefront"));

// Streamed tiles (written back after each stage, as out of core): the bands
// are scattered one after another and each copy takes every copy core
// (StencilRun::streams_bands); on CPUs the same path runs.
std::vector<Case> streamed(std::vector<Case> cases) {
  for (Case& c : cases) c.stream_tiles = true;
  return cases;
}

TEST(StreamedTiles, MatchReferenceOnCpus) {
  run_cases(apps::Jacobi2D<float>{}, streamed(cases_2d({61, 47, 1})));
  run_cases(apps::Hotspot::for_grid(47, 61), streamed(cases_2d({61, 47, 1})));
  run_cases(apps::Jacobi3D<float>{}, streamed({{{19, 13, 11}, {8, 8, 4}, Boundary::clamp(), 2, 5},
                                               {{19, 13, 11}, {19, 13, 3}, Boundary::periodic(), 3, 7}}));
  trapeze::Runtime runtime({"lws", 2});
  for (const Case& c : streamed(cases_2d({61, 47, 1}))) {
    tests::expect_matches_reference(runtime, apps::Cip<float>{}, c, tests::velocities_of_both_signs<float>);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// submit(5) then submit(6) must equal 11 steps of the reference: strips are
// republished between the two graphs (and, streamed, the bands scattered again
// in order).
void expect_two_submits_equal_one(bool stream_tiles) {
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{61, 47, 1}, {16, 10, 1}, Boundary::clamp(), 2, 11};
  auto grid = tests::make_grid<apps::Jacobi2D<float>>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  trapeze::Plan plan{c.tile, c.height};
  plan.stream_tiles = stream_tiles;
  trapeze::StencilRun run(runtime, apps::Jacobi2D<float>{}, grid, plan);
  run.submit(5);
  run.wait();
  run.submit(6);
  run.wait();
  trapeze::reference::advance(apps::Jacobi2D<float>{}, expected, 11);
  EXPECT_EQ(grid.updated(), expected.updated());
}

TEST(ResubmittedRuns, TwoSubmitsEqualOne) { expect_two_submits_equal_one(false); }
TEST(StreamedTiles, TwoSubmitsEqualOne) { expect_two_submits_equal_one(true); }

}  // namespace
