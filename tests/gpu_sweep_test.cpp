// In-place sweeps on CUDA workers (the PeerWave kernel over hyper-tiles)
// equal the sequential loop bit for bit: odd sizes (rows not a multiple of a
// warp's 32, fewer columns than a hyper-tile), hyper-tile widths, whole-grid
// and cut tiles, GPU alone and GPU beside CPU workers. The kernels are built
// with -fmad=false, so no tolerance is needed.
//
// The PeerWave kernel is also launched directly, a few sweeps a launch.
//
// Label "gpu": without a CUDA worker every test is skipped with a message.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <unistd.h>
#include <string>
#include <vector>

#include "peerwave_kernels_cuda.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/sweep_reference.hpp"
#include "trapeze/sweep_run.hpp"
#include "trapeze/sweep_width_choice.hpp"
#include "wavefronts/heat_2d.hpp"
#include "wavefronts/over_relaxation.hpp"

namespace {

using trapeze::Index;
using trapeze::StageDevices;

struct Shape {
  Index rows;
  Index columns;
};

long first_difference(const std::vector<double>& a, const std::vector<double>& b) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (std::memcmp(&a[k], &b[k], sizeof(double)) != 0) return static_cast<long>(k);
  }
  return -1;
}

template <typename S>
void expect_reference(trapeze::Runtime& runtime, const S& sweep, const Shape& grid, const Shape& tile, int width,
                      StageDevices devices, Index sweeps) {
  std::mt19937 random(static_cast<std::uint32_t>(grid.rows * 7919 + grid.columns));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> expected(static_cast<std::size_t>(grid.rows * grid.columns));
  for (double& v : expected) v = value(random);
  std::vector<double> cells = expected;
  trapeze::reference::sweeps(sweep, std::span<double>(expected), grid.rows, grid.columns, sweeps);
  {
    trapeze::SweepPlan plan{tile.rows, tile.columns, 0, devices, width};
    trapeze::SweepRun run(runtime, sweep, std::span<double>(cells), grid.rows, grid.columns, plan);
    run.submit(sweeps);
    run.wait();
  }
  const long at = first_difference(cells, expected);
  EXPECT_EQ(at, -1) << grid.rows << "x" << grid.columns << " in tiles of " << tile.rows << "x" << tile.columns
                    << ", width " << width << ", devices " << trapeze::to_string(devices)
                    << (at >= 0 ? ": cell (" + std::to_string(at / grid.columns) + ", " +
                                      std::to_string(at % grid.columns) + ") " + std::to_string(cells[at]) +
                                      " against " + std::to_string(expected[at])
                                : std::string());
}

const std::vector<Shape> grids{{1, 1}, {5, 3}, {31, 200}, {33, 17}, {64, 64}, {97, 301}, {300, 129}};
const std::vector<int> widths{32, 64, 77, 256};

TEST(GpuSweep, PeerWaveEqualsTheSequentialLoop) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  for (const Shape& grid : grids) {
    for (int width : widths) {
      expect_reference(runtime, apps::OverRelaxation{1.7, 0.01}, grid, grid, width, StageDevices::gpu, 5);
      expect_reference(runtime, apps::Heat2D{}, grid, grid, width, StageDevices::gpu, 3);
    }
  }
}

TEST(GpuSweep, PeerWaveLaunchedDirectlyEqualsTheSequentialLoop) {
  // One sweep a launch and three: a launch that starts where another ended.
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  const apps::OverRelaxation sweep{1.7, 0.01};
  for (const Shape& grid : {Shape{1, 1}, Shape{5, 3}, Shape{33, 17}, Shape{97, 301}, Shape{300, 129}}) {
    std::mt19937 random(static_cast<std::uint32_t>(grid.rows * 31 + grid.columns));
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::vector<double> initial(static_cast<std::size_t>(grid.rows * grid.columns));
    for (double& v : initial) v = value(random);
    std::vector<double> expected = initial;
    trapeze::reference::sweeps(sweep, std::span<double>(expected), grid.rows, grid.columns, 4);
    for (int width : {32, 77}) {
      for (int per_launch : {1, 3}) {
        std::vector<double> cells = initial;
        EXPECT_EQ(trapeze_test::peerwave_sweeps(sweep, cells, grid.rows, grid.columns, width, 4, per_launch), "");
        const long at = first_difference(cells, expected);
        EXPECT_EQ(at, -1) << grid.rows << "x" << grid.columns << ", width " << width << ", " << per_launch
                          << " sweeps a launch";
      }
    }
  }
}

// --width auto: the training runs once per shape (then the cache answers),
// chooses a width in the model's range, leaves the grid as it was, and the
// run at that width is exact.
TEST(GpuSweep, AutoWidthTrainsOnceAndRunsExactly) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  const auto cache = std::filesystem::temp_directory_path() / ("trapeze-sweep-widths-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(cache);
  const Shape grid{3001, 5003};
  const apps::OverRelaxation sweep{1.8, 0.002};
  std::vector<double> cells(static_cast<std::size_t>(grid.rows * grid.columns));
  std::mt19937 random(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (double& v : cells) v = value(random);
  const std::vector<double> before = cells;
  trapeze::SweepPlan plan{grid.rows, grid.columns, 0, StageDevices::gpu, 32};
  const auto first = trapeze::decide_sweep_width(runtime, sweep, std::span<const double>(cells), grid.rows, grid.columns,
                                                 plan, 8, "sor-test", cache);
  EXPECT_TRUE(first.trained);
  EXPECT_GE(first.width, trapeze::narrowest_sweep_width);
  EXPECT_LE(first.width, trapeze::widest_sweep_width);
  EXPECT_EQ(first.width % trapeze::sweep_width_step, 0);
  EXPECT_GT(first.costs.column_seconds + first.costs.sync_seconds, 0);
  EXPECT_EQ(first_difference(cells, before), -1) << "training changed the grid";
  const auto second = trapeze::decide_sweep_width(runtime, sweep, std::span<const double>(cells), grid.rows, grid.columns,
                                                  plan, 8, "sor-test", cache);
  EXPECT_FALSE(second.trained) << "a cached shape must not train again";
  EXPECT_EQ(second.width, first.width);
  std::filesystem::remove(cache);
  expect_reference(runtime, sweep, grid, grid, first.width, StageDevices::gpu, 8);
}

TEST(GpuSweep, CutTilesAndCpusBesideTheGpuGiveTheSameBits) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  for (const Shape& tile : {Shape{64, 100}, Shape{100, 64}, Shape{33, 33}, Shape{300, 40}}) {
    for (StageDevices devices : {StageDevices::gpu, StageDevices::all}) {
      expect_reference(runtime, apps::OverRelaxation{1.9, 0.003}, {300, 257}, tile, 64, devices, 7);
    }
  }
}

TEST(GpuSweep, LargeGridManyBandsOnePeerWaveLaunchPerSweep) {
  // More bands than the GPU holds blocks at once: persistent blocks take
  // several bands each.
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  // 9376 bands of 32 rows: more than an H100 or an H200 holds blocks of the kernel at once.
  expect_reference(runtime, apps::Heat2D{}, {300001, 33}, {300001, 33}, 32, StageDevices::gpu, 2);
  expect_reference(runtime, apps::OverRelaxation{1.5, 0.001}, {3001, 2999}, {3001, 2999}, 128, StageDevices::gpu, 4);
}

}  // namespace
