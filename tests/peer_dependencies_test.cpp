// No global barrier: a tile advances as far as its neighbours allow. With the
// far end of a chain of tiles held by the test, the near end still runs
// several stages ahead, and nothing but the dependency cone stops it.
#include <gtest/gtest.h>
#include <starpu.h>

#include <chrono>
#include <thread>

#include "reference_check.hpp"
#include "stencils/jacobi2d.hpp"
#include "trapeze/runtime.hpp"

namespace {

TEST(PeerDependencies, NearTileRunsAheadWhileFarTileIsHeld) {
  trapeze::Runtime runtime({"lws", 2});
  const int tiles = 8;
  tests::Case c{{64, 8 * tiles, 1}, {64, 8, 1}, trapeze::Boundary::clamp(), 1, 10};
  auto grid = tests::make_grid<apps::Jacobi2D<float>>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  trapeze::StencilRun run(runtime, apps::Jacobi2D<float>{}, grid, trapeze::Plan{c.tile, c.height});
  ASSERT_EQ(run.tiling().count(), tiles);

  // Hold the last tile: every task touching it (its publish, its stages) waits.
  const int far = tiles - 1;
  ASSERT_EQ(starpu_data_acquire(run.tile_handle(far), STARPU_RW), 0);
  run.submit(c.steps);

  // Tile k's stage s needs tile k+1's stage s-1, so with the far tile stuck
  // before its first publish, tile k can finish exactly far - 1 - k stages.
  const trapeze::Index reachable = far - 1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (run.stages_completed(0) < reachable && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Give a wrongly-ordered graph time to overrun before looking.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(run.stages_completed(0), reachable);
  EXPECT_EQ(run.stages_completed(far), 0);
  for (int k = 0; k < far; ++k) EXPECT_EQ(run.stages_completed(k), far - 1 - k) << "tile " << k;

  starpu_data_release(run.tile_handle(far));
  run.wait();
  for (int k = 0; k < tiles; ++k) EXPECT_EQ(run.stages_completed(k), c.steps) << "tile " << k;
  trapeze::reference::advance(apps::Jacobi2D<float>{}, expected, c.steps);
  EXPECT_EQ(grid.updated(), expected.updated());
}

}  // namespace
