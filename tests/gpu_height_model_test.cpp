// The GPU height model's arithmetic and its cache, without a GPU: the choice
// follows the profiled costs, honours a height the user fixed, never offers a
// periodic ghost zone wider than the domain, and a cache entry from another
// build or with bad numbers is not trusted.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "trapeze/gpu_height_model.hpp"
#include "trapeze/gpu_model_cache.hpp"

namespace {

using trapeze::GpuCostModel;
using trapeze::GpuShape;

// Per-cell costs falling with k to a minimum at 8, rising after (shared memory).
GpuCostModel synthetic_model() {
  GpuCostModel m;
  m.task_seconds = 40e-6;
  m.launch_seconds = 4e-6;
  m.kernels = {{1, 3.0e-12}, {2, 2.0e-12}, {4, 1.4e-12}, {8, 1.0e-12}, {16, 1.3e-12}};
  return m;
}

GpuShape big_2d() {
  GpuShape s;
  s.domain = {16384, 16384, 1};
  s.dims = 2;
  s.tile = {16384, 8192, 1};
  s.radius = {1, 1, 0};
  s.steps = 128;
  return s;
}

TEST(GpuHeightModel, ChoosesTheCheapestKernelHeightAndAMultipleOfIt) {
  const auto choice = trapeze::choose_gpu_heights(synthetic_model(), big_2d());
  EXPECT_EQ(choice.kernel_height, 8);
  EXPECT_EQ(choice.height % choice.kernel_height, 0);
  EXPECT_GT(choice.predicted_seconds_per_step, 0);
  // The chosen heights predict no slower than any other offered pair.
  for (int k : {1, 2, 4, 8, 16}) {
    for (int h = k; h <= 64; h += k) {
      EXPECT_LE(choice.predicted_seconds_per_step,
                trapeze::predict_gpu_seconds_per_step(synthetic_model(), big_2d(), h, k) * 1.01 + 1e-15)
          << "H=" << h << " k=" << k;
    }
  }
}

TEST(GpuHeightModel, TaskCostsFavourTallerStagesOnSmallTiles) {
  GpuShape small = big_2d();
  small.domain = {256, 256, 1};
  small.tile = {256, 128, 1};
  GpuCostModel m = synthetic_model();
  m.task_seconds = 1e-3;  // tasks dominate: amortise them over many steps
  const auto choice = trapeze::choose_gpu_heights(m, small);
  EXPECT_GE(choice.height, 32);
}

TEST(GpuHeightModel, KeepsAHeightTheUserFixed) {
  const auto choice = trapeze::choose_gpu_heights(synthetic_model(), big_2d(), 12, 0);
  EXPECT_EQ(choice.height, 12);
  EXPECT_LE(choice.kernel_height, 12);
  const auto fixed_k = trapeze::choose_gpu_heights(synthetic_model(), big_2d(), 0, 2);
  EXPECT_EQ(fixed_k.kernel_height, 2);
  EXPECT_EQ(fixed_k.height % 2, 0);
}

TEST(GpuHeightModel, NoPeriodicGhostZoneWiderThanTheDomain) {
  GpuShape s = big_2d();
  s.domain = {16384, 10, 1};
  s.tile = {16384, 10, 1};
  s.boundary = trapeze::BoundaryKind::periodic;
  const auto choice = trapeze::choose_gpu_heights(synthetic_model(), s);
  EXPECT_LE(choice.height, 10);
}

TEST(GpuHeightModel, NoHeightAboveTheStepCount) {
  GpuShape s = big_2d();
  s.steps = 5;
  const auto choice = trapeze::choose_gpu_heights(synthetic_model(), s);
  EXPECT_LE(choice.height, 5);
}

// jacobi2d float 16384^2 under a quarter of its memory (256 MiB): 2048^2
// tiles streamed over a bus of 50 GB/s each way.
GpuShape streamed_2d() {
  GpuShape s = big_2d();
  s.tile = {2048, 2048, 1};
  s.steps = 512;
  s.stream_bytes_per_cell = 4;
  s.stream_seconds_per_byte = 1 / 50e9;
  s.task_device_budget = 256.0 * (1 << 20) / 4;
  s.device_bytes_per_cell = 8;
  s.strip_bytes_per_cell = 4;
  return s;
}

TEST(GpuHeightModel, StageTaskBytesCountTheTileAndItsStrips) {
  const GpuShape s = streamed_2d();
  const double padded = 2432.0 * 2432.0, tile = 2048.0 * 2048.0;  // H = 192, r = 1
  EXPECT_DOUBLE_EQ(trapeze::stage_task_device_bytes(s, 192), padded * 8 + 2 * (padded - tile) * 4);
}

TEST(GpuHeightModel, StreamedStagesAreTallButFitTheirShareOfTheGpu) {
  const GpuShape s = streamed_2d();
  const auto streamed = trapeze::choose_gpu_heights(synthetic_model(), s);
  GpuShape in_core = s;
  in_core.stream_bytes_per_cell = in_core.stream_seconds_per_byte = 0;
  const auto kept = trapeze::choose_gpu_heights(synthetic_model(), in_core);
  // Every stage moves each tile and its ghost zone both ways: taller stages
  // move fewer bytes a step, up to the memory bound.
  EXPECT_GT(streamed.height, kept.height);
  EXPECT_GE(streamed.height, 128);
  EXPECT_LE(trapeze::stage_task_device_bytes(s, streamed.height), s.task_device_budget);
  // Transfers add to compute: the streamed run is predicted slower per step.
  EXPECT_GT(streamed.predicted_seconds_per_step,
            trapeze::predict_gpu_seconds_per_step(synthetic_model(), in_core, streamed.height, streamed.kernel_height));
}

// A streamed stage costs the larger of its compute and its transfers and
// half the smaller, on either side of the balance.
TEST(GpuHeightModel, StreamedStageCostsTheLongerOfComputeAndTransfersAndHalfTheShorter) {
  GpuShape s = big_2d();
  s.tile = {2048, 2048, 1};
  s.steps = 64;  // one stage at H = 64
  const double compute = trapeze::predict_gpu_seconds_per_step(synthetic_model(), s, 64, 8) * 64;
  s.stream_bytes_per_cell = 4;
  const double padded = (2048.0 + 128) * (2048.0 + 128) * 64;  // every tile with its ghost zone
  for (const double seconds_per_byte : {1 / 100e9, 1 / 0.5e9}) {
    s.stream_seconds_per_byte = seconds_per_byte;
    const double stream = padded * 4 * seconds_per_byte;
    const double expected = std::max(compute, stream) + trapeze::exposed_transfer_share * std::min(compute, stream);
    EXPECT_NEAR(trapeze::predict_gpu_seconds_per_step(synthetic_model(), s, 64, 8) * 64, expected, expected * 1e-9);
  }
  EXPECT_GT(compute, padded * 4 / 100e9);  // the first case was compute-bound, the second transfer-bound
  EXPECT_LT(compute, padded * 4 / 0.5e9);
}

// Out of core the model weighs the automatic tile against the larger tiles
// of its halving: jacobi2d's 4096x2048 tile cannot take a stage of the
// height its transfers need within a quarter of the capped GPU, so 2048^2
// stays; on a larger GPU the largest tile whose stage task fits and whose
// prediction is within larger_tile_tolerance of the fastest is taken
// (smaller launches run slower per cell than the model predicts).
TEST(GpuHeightModel, OutOfCoreTileIsTheLargestThatFitsAndIsPredictedAboutAsFast) {
  const std::vector<trapeze::Extent> tiles{{2048, 2048, 1}, {4096, 2048, 1}, {4096, 4096, 1}};
  // The rule spelt out: each tile's best heights, whether its stage fits,
  // then the largest fitting tile within the tolerance of the fastest.
  const auto expected_tile = [&](const GpuShape& shape) {
    std::vector<double> predicted;
    std::vector<bool> fits;
    for (const auto& tile : tiles) {
      GpuShape one = shape;
      one.tile = tile;
      const auto heights = trapeze::choose_gpu_heights(synthetic_model(), one);
      predicted.push_back(heights.predicted_seconds_per_step);
      fits.push_back(trapeze::stage_task_device_bytes(one, heights.height) <= shape.task_device_budget);
    }
    double fastest = predicted.front();
    for (std::size_t i = 1; i < tiles.size(); ++i) {
      if (fits[i]) fastest = std::min(fastest, predicted[i]);
    }
    std::size_t chosen = 0;
    for (std::size_t i = 1; i < tiles.size(); ++i) {
      if (fits[i] && predicted[i] <= fastest * (1 + trapeze::larger_tile_tolerance)) chosen = i;
    }
    return tiles[chosen];
  };
  const GpuShape s = streamed_2d();
  const auto kept = trapeze::choose_out_of_core_gpu_tile(synthetic_model(), s, tiles);
  EXPECT_EQ(kept.tile, (trapeze::Extent{2048, 2048, 1}));
  EXPECT_EQ(kept.tile, expected_tile(s));
  GpuShape alone = s;
  alone.tile = tiles.front();
  EXPECT_EQ(kept.heights.height, trapeze::choose_gpu_heights(synthetic_model(), alone).height);

  GpuShape roomy = s;
  roomy.task_device_budget *= 4;  // a GPU four times larger
  const auto larger = trapeze::choose_out_of_core_gpu_tile(synthetic_model(), roomy, tiles);
  EXPECT_NE(larger.tile, (trapeze::Extent{2048, 2048, 1}));
  EXPECT_EQ(larger.tile, expected_tile(roomy));
  GpuShape chosen = roomy;
  chosen.tile = larger.tile;
  EXPECT_LE(trapeze::stage_task_device_bytes(chosen, larger.heights.height), roomy.task_device_budget);
  alone.task_device_budget = roomy.task_device_budget;
  EXPECT_LE(larger.heights.predicted_seconds_per_step,
            trapeze::choose_gpu_heights(synthetic_model(), alone).predicted_seconds_per_step * (1 + trapeze::larger_tile_tolerance));
}

class GpuModelCacheTest : public testing::Test {
 protected:
  std::filesystem::path file = std::filesystem::temp_directory_path() /
                               ("trapeze-gpu-cache-" + std::to_string(getpid()) + ".json");
  void TearDown() override { std::filesystem::remove(file); }
};

TEST_F(GpuModelCacheTest, RoundTripsAnEntry) {
  trapeze::GpuModelCache cache(file, "build A");
  cache.store("H100/jacobi2d/float", synthetic_model());
  const auto found = cache.find("H100/jacobi2d/float");
  ASSERT_TRUE(found);
  ASSERT_EQ(found->kernels.size(), 5u);
  EXPECT_EQ(found->kernels[3].k, 8);
  EXPECT_DOUBLE_EQ(found->kernels[3].cell_seconds, 1.0e-12);
  EXPECT_DOUBLE_EQ(found->task_seconds, 40e-6);
  EXPECT_FALSE(cache.find("H100/life/uint8"));
}

TEST_F(GpuModelCacheTest, EntryFromAnotherBuildIsNotTrusted) {
  trapeze::GpuModelCache(file, "build A").store("k", synthetic_model());
  EXPECT_FALSE(trapeze::GpuModelCache(file, "build B").find("k"));
}

// A profile made on a smaller tile (a GPU capped by STARPU_LIMIT_CUDA_MEM)
// is kept apart from the device's full profile, which every run may use.
TEST(GpuProfileCacheKey, AProfileOnASmallerTileHasAKeyOfItsOwn) {
  EXPECT_EQ(trapeze::gpu_profile_cache_key("H200/jacobi2d/float", 4096, 4096), "H200/jacobi2d/float");
  EXPECT_EQ(trapeze::gpu_profile_cache_key("H200/jacobi2d/float", 1024, 4096), "H200/jacobi2d/float/side 1024");
  EXPECT_NE(trapeze::gpu_profile_cache_key("k", 512, 4096), trapeze::gpu_profile_cache_key("k", 1024, 4096));
}

TEST_F(GpuModelCacheTest, CorruptFilesAndBadNumbersAreNotTrusted) {
  std::ofstream(file) << "{ not json";
  EXPECT_FALSE(trapeze::GpuModelCache(file, "b").find("k"));
  std::ofstream(file) << R"({"version": 1, "entries": {"k": {"build": "b", "task_seconds": 1e-5, "launch_seconds": 1e-6,
                            "kernels": [[1, 1e-12], [1, 2e-12]]}}})";
  EXPECT_FALSE(trapeze::GpuModelCache(file, "b").find("k")) << "kernel heights must rise";
  std::ofstream(file) << R"({"version": 1, "entries": {"k": {"build": "b", "task_seconds": -1, "launch_seconds": 1e-6,
                            "kernels": [[1, 1e-12]]}}})";
  EXPECT_FALSE(trapeze::GpuModelCache(file, "b").find("k")) << "negative cost";
  std::ofstream(file) << R"({"version": 1, "entries": {"k": {"build": "b", "task_seconds": 1e-5, "launch_seconds": 1e-6,
                            "kernels": [[1, 1e-12], [4, 0.5e-12]]}}})";
  EXPECT_TRUE(trapeze::GpuModelCache(file, "b").find("k"));
}

}  // namespace
