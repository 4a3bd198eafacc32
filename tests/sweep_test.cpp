// In-place sweeps (Heat2D, SOR) as a wavefront in space and time: equal to
// the sequential loop bit for bit on every tiling, window and policy; the
// sweeps overlap (no barrier between them); bad arguments refused.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "trapeze/error.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/sweep_reference.hpp"
#include "trapeze/sweep_run.hpp"
#include "wavefronts/heat_2d.hpp"
#include "wavefronts/over_relaxation.hpp"

namespace {

struct Shape {
  trapeze::Index rows;
  trapeze::Index columns;
};

const std::vector<Shape> odd_grids{{0, 5}, {5, 0}, {1, 1}, {1, 17}, {17, 1}, {12, 3}, {6, 6}, {37, 53}, {100, 64}, {129, 7}};
const std::vector<Shape> tilings{{1, 1}, {3, 5}, {16, 16}, {64, 7}, {1, 40}, {512, 512}};

std::string describe(const Shape& grid, const Shape& tile, trapeze::Index sweeps) {
  return std::to_string(grid.rows) + "x" + std::to_string(grid.columns) + " in tiles of " +
         std::to_string(tile.rows) + "x" + std::to_string(tile.columns) + ", " + std::to_string(sweeps) + " sweeps";
}

std::vector<double> random_grid(const Shape& grid, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> cells(static_cast<std::size_t>(grid.rows * grid.columns));
  for (double& c : cells) c = value(random);
  return cells;
}

// The first cell where two grids differ in their bits, or -1.
long first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (std::memcmp(&a[k], &b[k], sizeof(double)) != 0) return static_cast<long>(k);
  }
  return -1;
}

template <typename S>
void expect_reference(trapeze::Runtime& runtime, const S& sweep, const Shape& grid, const Shape& tile, trapeze::Index sweeps,
                      trapeze::Index window = 0) {
  std::vector<double> expected = random_grid(grid, 11);
  std::vector<double> cells = expected;
  trapeze::reference::sweeps(sweep, std::span<double>(expected), grid.rows, grid.columns, sweeps);
  {
    trapeze::SweepPlan plan{tile.rows, tile.columns, window};
    trapeze::SweepRun run(runtime, sweep, std::span<double>(cells), grid.rows, grid.columns, plan);
    run.submit(sweeps);
    run.wait();
    EXPECT_EQ(run.tasks_completed(), run.tasks_in_run());
    // A grid in one tile: up to 64 sweeps a task; cut tiles: one.
    EXPECT_EQ(run.tasks_in_run(), run.tiles() == 1 ? (sweeps + 63) / 64 : run.tiles() * sweeps);
  }
  EXPECT_EQ(first_difference(cells, expected), -1) << describe(grid, tile, sweeps);
}

// Each test starts its own runtime: StarPU takes its policy when it starts.
TEST(Sweep, Heat2DEqualsTheSequentialLoopOnEveryTiling) {
  trapeze::Runtime runtime({"lws", 2});
  for (const Shape& grid : odd_grids) {
    for (const Shape& tile : tilings) {
      for (trapeze::Index sweeps : {0, 1, 5}) expect_reference(runtime, apps::Heat2D{}, grid, tile, sweeps);
    }
  }
}

TEST(Sweep, OverRelaxationEqualsTheSequentialLoopOnEveryTiling) {
  trapeze::Runtime runtime({"lws", 2});
  for (const Shape& grid : odd_grids) {
    for (const Shape& tile : tilings) {
      expect_reference(runtime, apps::OverRelaxation{1.7, 0.01}, grid, tile, 4);
    }
  }
}

TEST(Sweep, EveryWindowAndPolicyGivesTheSameBits) {
  for (const char* policy : {"lws", "eager", "prio", "dmda", "trapeze-owner", "trapeze-wavefront"}) {
    trapeze::Runtime runtime({policy, 2});
    ASSERT_EQ(runtime.scheduler(), policy);
    for (trapeze::Index window : {0, 1, 2, 7}) {
      expect_reference(runtime, apps::OverRelaxation{1.3, 0.02}, {61, 45}, {8, 8}, 9, window);
    }
    expect_reference(runtime, apps::Heat2D{}, {50, 70}, {9, 11}, 6);
  }
}

// Counts its visits to the first and the last cell, in one clock: the k-th
// visit of a cell is sweep k (a tile's sweeps run in order).
struct VisitClock {
  std::atomic<long>* clock;
  long* first_cell;  // per sweep: the clock when (0, 0) was computed
  long* last_cell;   // per sweep: the clock when (rows - 1, columns - 1) was
  int* first_visits;
  int* last_visits;
  trapeze::Index rows, columns;
};

struct ClockedHeat {
  using value_type = double;
  VisitClock visits;
  double boundary(trapeze::Index, trapeze::Index) const { return 1.0; }
  double operator()(const trapeze::SweepNeighbours<double>& at) const {
    if (at.i == 0 && at.j == 0) visits.first_cell[(*visits.first_visits)++] = visits.clock->fetch_add(1);
    if (at.i == visits.rows - 1 && at.j == visits.columns - 1) {
      visits.last_cell[(*visits.last_visits)++] = visits.clock->fetch_add(1);
    }
    return (at.up + at.left + at.down + at.right) * 0.25;
  }
};

TEST(Sweep, TheNextSweepStartsBeforeTheLastOneEnds) {
  constexpr trapeze::Index sweeps = 6;
  std::atomic<long> clock{0};
  std::vector<long> first(sweeps, -1), last(sweeps, -1);
  int first_visits = 0, last_visits = 0;
  const ClockedHeat heat{{&clock, first.data(), last.data(), &first_visits, &last_visits, 96, 96}};
  std::vector<double> cells(96 * 96, 0.0);
  trapeze::Runtime runtime({"lws", 2});
  {
    trapeze::SweepRun run(runtime, heat, std::span<double>(cells), 96, 96, trapeze::SweepPlan{8, 8});
    EXPECT_EQ(run.tiles(), 144);
    run.submit(sweeps);
    // 12 + 12 - 1 diagonals of tiles, and each later sweep two levels behind.
    EXPECT_EQ(run.levels(), 23 + 2 * (sweeps - 1));
    run.wait();
  }
  ASSERT_EQ(first_visits, sweeps);
  ASSERT_EQ(last_visits, sweeps);
  int overlapping = 0;
  for (trapeze::Index t = 0; t + 1 < sweeps; ++t) overlapping += first[t + 1] < last[t];
  // With a barrier between sweeps none would; the wavefront lets sweep t+1
  // start 2 levels after sweep t, 21 levels before sweep t ends.
  EXPECT_GT(overlapping, 0);
}

TEST(Sweep, BadArgumentsAreRefused) {
  std::vector<double> cells(12, 0.0);
  const apps::Heat2D heat{};
  trapeze::Runtime runtime({"lws", 2});
  EXPECT_THROW(trapeze::SweepRun(runtime, heat, std::span<double>(cells), 3, 5, trapeze::SweepPlan{}),
               trapeze::InvalidArgument);
  EXPECT_THROW(trapeze::SweepRun(runtime, heat, std::span<double>(cells), -3, -4, trapeze::SweepPlan{}),
               trapeze::InvalidArgument);
  EXPECT_THROW(trapeze::SweepRun(runtime, heat, std::span<double>(cells), 3, 4, trapeze::SweepPlan{0, 4}),
               trapeze::InvalidArgument);
  EXPECT_THROW(trapeze::SweepRun(runtime, heat, std::span<double>(cells), 3, 4, trapeze::SweepPlan{2, 2, -1}),
               trapeze::InvalidArgument);
  trapeze::SweepPlan several_per_task{2, 2};
  several_per_task.sweeps_per_task = 4;
  EXPECT_THROW(trapeze::SweepRun(runtime, heat, std::span<double>(cells), 3, 4, several_per_task), trapeze::InvalidArgument);
  trapeze::SweepRun run(runtime, heat, std::span<double>(cells), 3, 4, trapeze::SweepPlan{2, 2});
  EXPECT_THROW(run.submit(-1), trapeze::InvalidArgument);
  run.submit(2);
  EXPECT_THROW(run.submit(2), trapeze::Error);
  run.wait();
}

TEST(Sweep, OverRelaxationConvergesToItsExactSolution) {
  // x^2 - y^2 is the fixed point: starting there, sweeps leave it (up to
  // rounding), and from zero they approach it.
  const trapeze::Index n = 31;
  const apps::OverRelaxation sor{apps::optimal_omega(n), 1.0 / static_cast<double>(n + 1)};
  std::vector<double> u(static_cast<std::size_t>(n * n), 0.0);
  const auto error = [&] {
    double e = 0;
    for (trapeze::Index i = 0; i < n; ++i) {
      for (trapeze::Index j = 0; j < n; ++j) e = std::max(e, std::abs(u[i * n + j] - sor.solution(i, j)));
    }
    return e;
  };
  const double before = error();
  trapeze::Runtime runtime({"lws", 2});
  {
    trapeze::SweepRun run(runtime, sor, std::span<double>(u), n, n, trapeze::SweepPlan{8, 8});
    run.submit(200);
    run.wait();
  }
  EXPECT_GT(before, 0.5);
  EXPECT_LT(error(), 1e-10);
}

}  // namespace
