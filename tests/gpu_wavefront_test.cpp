// Wavefronts on CUDA workers (the PeerWave kernel over hyper-tiles) equal the
// sequential reference bit for bit: Smith-Waterman's score and last cell,
// dynamic time warping's distance (doubles: the kernels are built with
// -fmad=false), a summed-area table's and an integral histogram's every cell
// (outputs kept on the GPU, banded and row-major);
// odd spaces (rows not a multiple of a warp's 32, fewer columns than a
// hyper-tile), hyper-tile widths, whole-space and cut tiles, GPU alone and
// GPU beside CPU workers, more bands than the GPU holds warps.
//
// Label "gpu": without a CUDA worker every test is skipped with a message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <filesystem>
#include <unistd.h>

#include "trapeze/hyper_tile_width_choice.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_reference.hpp"
#include "trapeze/wavefront_run.hpp"
#include "wavefronts/alignment_scoring.hpp"
#include "wavefronts/dynamic_time_warping.hpp"
#include "wavefronts/integral_histogram.hpp"
#include "wavefronts/smith_waterman.hpp"
#include "wavefronts/summed_area_table.hpp"

namespace {

using trapeze::Index;
using trapeze::StageDevices;

struct Shape {
  Index rows;
  Index columns;
};

std::string describe(const Shape& space, const Shape& tile, int width, StageDevices devices) {
  return std::to_string(space.rows) + "x" + std::to_string(space.columns) + " in tiles of " + std::to_string(tile.rows) +
         "x" + std::to_string(tile.columns) + ", width " + std::to_string(width) + ", devices " +
         trapeze::to_string(devices);
}

trapeze::WavefrontPlan plan_of(const Shape& tile, int width, StageDevices devices) {
  trapeze::WavefrontPlan plan;
  plan.tile_rows = tile.rows;
  plan.tile_columns = tile.columns;
  plan.devices = devices;
  plan.hyper_tile_width = width;
  return plan;
}

void expect_smith_waterman(trapeze::Runtime& runtime, apps::Alphabet alphabet, const Shape& space, const Shape& tile,
                           int width, StageDevices devices, std::uint64_t seed) {
  const auto w = alphabet == apps::Alphabet::dna ? apps::make_smith_waterman(alphabet, 2, -3, 5, 2)
                                                 : apps::make_smith_waterman(alphabet, 0, 0, 10, 1);
  const auto q = apps::encode(apps::random_residues(static_cast<std::size_t>(space.rows), alphabet, seed), alphabet);
  const auto t = apps::encode(apps::random_residues(static_cast<std::size_t>(space.columns), alphabet, seed + 1), alphabet);
  const trapeze::WavefrontData<apps::SmithWaterman> data{space.rows, space.columns, q, t, {}, {}};
  apps::AlignmentCell last{};
  const std::int32_t expected = trapeze::reference::wavefront(w, data, &last);
  trapeze::WavefrontRun run(runtime, w, data, plan_of(tile, width, devices));
  run.submit();
  run.wait();
  const std::string what = describe(space, tile, width, devices);
  EXPECT_EQ(run.result(), expected) << what;
  const apps::AlignmentCell got = run.last_cell();
  EXPECT_TRUE(got.h == last.h && got.e == last.e && got.f == last.f)
      << what << ": last cell (" << got.h << ", " << got.e << ", " << got.f << ") against (" << last.h << ", "
      << last.e << ", " << last.f << ")";
}

const std::vector<Shape> spaces{{1, 1}, {1, 70}, {70, 1}, {31, 200}, {33, 17}, {64, 64}, {97, 301}, {300, 129}, {1000, 777}};
const std::vector<int> widths{8, 13, 32, 77, 256};

TEST(GpuWavefront, SmithWatermanOnTheGpuEqualsTheReference) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  std::uint64_t seed = 1;
  for (const Shape& space : spaces) {
    for (int width : widths) {
      expect_smith_waterman(runtime, apps::Alphabet::dna, space, space, width, StageDevices::gpu, seed++);
      expect_smith_waterman(runtime, apps::Alphabet::protein, space, space, width, StageDevices::gpu, seed++);
    }
  }
}

TEST(GpuWavefront, CutTilesAndCpusBesideTheGpuGiveTheSameScores) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  std::uint64_t seed = 500;
  for (const Shape& tile : {Shape{64, 100}, Shape{100, 64}, Shape{33, 33}, Shape{300, 40}, Shape{1, 500}}) {
    for (StageDevices devices : {StageDevices::gpu, StageDevices::all}) {
      expect_smith_waterman(runtime, apps::Alphabet::protein, {613, 587}, tile, 64, devices, seed++);
    }
  }
}

TEST(GpuWavefront, ManyMoreBandsThanResidentWarps) {
  // 5860 bands of 256 rows (8 a lane): more than an H100 holds warps of the
  // kernel at once, so persistent warps take several bands each and the
  // ring of band rows wraps around.
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  expect_smith_waterman(runtime, apps::Alphabet::dna, {1500001, 45}, {1500001, 45}, 32, StageDevices::gpu, 77);
  expect_smith_waterman(runtime, apps::Alphabet::protein, {20000, 3001}, {20000, 3001}, 128, StageDevices::gpu, 78);
}

TEST(GpuWavefront, DynamicTimeWarpingBitForBit) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  std::mt19937 random(5);
  std::normal_distribution<double> value(0.0, 1.0);
  for (const Shape& space : {Shape{1, 1}, Shape{97, 301}, Shape{2000, 1500}}) {
    std::vector<double> a(static_cast<std::size_t>(space.rows)), b(static_cast<std::size_t>(space.columns));
    for (double& v : a) v = value(random);
    for (double& v : b) v = value(random);
    const trapeze::WavefrontData<apps::DynamicTimeWarping> data{space.rows, space.columns, a, b, {}, {}};
    double expected = 0;
    trapeze::reference::wavefront(apps::DynamicTimeWarping{}, data, &expected);
    for (const Shape& tile : {space, Shape{128, 256}}) {
      trapeze::WavefrontRun run(runtime, apps::DynamicTimeWarping{}, data, plan_of(tile, 64, StageDevices::gpu));
      run.submit();
      run.wait();
      const double got = run.last_cell();
      EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
          << describe(space, tile, 64, StageDevices::gpu) << ": " << got << " against " << expected;
    }
  }
}

TEST(GpuWavefront, SummedAreaTableEveryCell) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  std::mt19937 random(9);
  for (const Shape& space : {Shape{5, 3}, Shape{97, 301}, Shape{700, 513}}) {
    std::vector<std::uint32_t> pixels(static_cast<std::size_t>(space.rows * space.columns));
    for (auto& p : pixels) p = random() % 256;
    std::vector<std::uint64_t> expected(pixels.size()), got(pixels.size());
    trapeze::reference::wavefront(apps::SummedAreaTable{},
                                  trapeze::WavefrontData<apps::SummedAreaTable>{space.rows, space.columns, {}, {}, pixels, expected});
    for (const Shape& tile : {space, Shape{64, 100}}) {
      // On the GPU alone: banded with the codelet's choice of lanes (asked
      // for, and the automatic layout), banded with each lane height its
      // kernels take, and row-major; beside CPUs the automatic layout is
      // row-major.
      struct Variant {
        StageDevices devices;
        trapeze::WavefrontLayout layout;
        int lane_rows;
      };
      for (const Variant& v : {Variant{StageDevices::gpu, trapeze::WavefrontLayout::banded, 0},
                               Variant{StageDevices::gpu, trapeze::WavefrontLayout::automatic, 0},
                               Variant{StageDevices::gpu, trapeze::WavefrontLayout::banded, 8},
                               Variant{StageDevices::gpu, trapeze::WavefrontLayout::banded, 16},
                               Variant{StageDevices::gpu, trapeze::WavefrontLayout::row_major, 0},
                               Variant{StageDevices::all, trapeze::WavefrontLayout::automatic, 0}}) {
        std::fill(got.begin(), got.end(), 0);
        trapeze::WavefrontPlan plan = plan_of(tile, 32, v.devices);
        plan.layout = v.layout;
        plan.banded_lane_rows = v.lane_rows;
        const std::string what = describe(space, tile, 32, v.devices) + ", layout " + trapeze::to_string(v.layout) +
                                 ", lanes of " + std::to_string(v.lane_rows);
        {
          trapeze::WavefrontRun run(runtime, apps::SummedAreaTable{},
                                    trapeze::WavefrontData<apps::SummedAreaTable>{space.rows, space.columns, {}, {}, pixels, got},
                                    plan);
          const bool banded = v.layout == trapeze::WavefrontLayout::banded ||
                              (v.layout == trapeze::WavefrontLayout::automatic && v.devices == StageDevices::gpu);
          EXPECT_EQ(run.banded(), banded) << what;
          run.submit();
          run.wait();
        }
        std::size_t first = 0;
        while (first < got.size() && got[first] == expected[first]) ++first;
        EXPECT_EQ(first, got.size()) << what << ": first difference at cell "
                                     << first / static_cast<std::size_t>(space.columns) << ", "
                                     << first % static_cast<std::size_t>(space.columns);
      }
    }
  }
}

// An integral histogram's 20-byte cells (lanes of 4 or 2 rows, conversions
// cell by cell) banded on the GPU and row-major, every cell against the
// reference; a lane height the kernels do not take is refused.
TEST(GpuWavefront, IntegralHistogramBandedAndRowMajor) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  using Histogram = apps::IntegralHistogram<5>;
  std::mt19937 random(13);
  for (const Shape& space : {Shape{33, 17}, Shape{300, 129}}) {
    std::vector<std::uint8_t> bins(static_cast<std::size_t>(space.rows * space.columns));
    for (auto& b : bins) b = static_cast<std::uint8_t>(random() % 5);
    std::vector<apps::BinCounts<5>> expected(bins.size()), got(bins.size());
    trapeze::reference::wavefront(Histogram{}, trapeze::WavefrontData<Histogram>{space.rows, space.columns, {}, {}, bins, expected});
    for (trapeze::WavefrontLayout layout : {trapeze::WavefrontLayout::banded, trapeze::WavefrontLayout::row_major}) {
      for (const Shape& tile : {space, Shape{100, 64}}) {
        std::memset(got.data(), 0xA5, got.size() * sizeof(got[0]));
        trapeze::WavefrontPlan plan = plan_of(tile, 32, StageDevices::gpu);
        plan.layout = layout;
        {
          trapeze::WavefrontRun run(runtime, Histogram{}, trapeze::WavefrontData<Histogram>{space.rows, space.columns, {}, {}, bins, got},
                                    plan);
          EXPECT_EQ(run.banded(), layout == trapeze::WavefrontLayout::banded);
          run.submit();
          run.wait();
        }
        EXPECT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(got[0])), 0)
            << describe(space, tile, 32, StageDevices::gpu) << ", layout " << trapeze::to_string(layout);
      }
    }
  }
  trapeze::WavefrontPlan odd = plan_of({64, 64}, 32, StageDevices::gpu);
  odd.layout = trapeze::WavefrontLayout::banded;
  odd.banded_lane_rows = 3;
  std::vector<std::uint8_t> bins(64 * 64);
  std::vector<apps::BinCounts<5>> out(bins.size());
  EXPECT_THROW(trapeze::WavefrontRun(runtime, Histogram{}, trapeze::WavefrontData<Histogram>{64, 64, {}, {}, bins, out}, odd),
               trapeze::InvalidArgument);
}

// --width auto: the training runs once per shape (then the cache answers),
// chooses a width in the model's range, and the run at that width (and the
// training's output-keeping slice, for a summed-area table) is exact.
TEST(GpuWavefront, AutoWidthTrainsOnceAndRunsExactly) {
  trapeze::Runtime runtime({"eager", 2});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  const auto cache = std::filesystem::temp_directory_path() / ("trapeze-widths-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(cache);
  const Shape space{30001, 20011};
  const auto w = apps::make_smith_waterman(apps::Alphabet::protein, 0, 0, 10, 1);
  const auto q = apps::encode(apps::random_residues(static_cast<std::size_t>(space.rows), apps::Alphabet::protein, 41), apps::Alphabet::protein);
  const auto t = apps::encode(apps::random_residues(static_cast<std::size_t>(space.columns), apps::Alphabet::protein, 42), apps::Alphabet::protein);
  const trapeze::WavefrontData<apps::SmithWaterman> data{space.rows, space.columns, q, t, {}, {}};
  const trapeze::WavefrontPlan plan = plan_of(space, 32, StageDevices::gpu);
  const trapeze::HyperTileWidthDecision first = trapeze::decide_hyper_tile_width(runtime, w, data, plan, "sw-test", cache);
  EXPECT_TRUE(first.trained);
  EXPECT_GE(first.width, trapeze::narrowest_width);
  EXPECT_LE(first.width, trapeze::widest_width);
  EXPECT_GT(first.costs.column_seconds + first.costs.sync_seconds, 0);
  const trapeze::HyperTileWidthDecision second = trapeze::decide_hyper_tile_width(runtime, w, data, plan, "sw-test", cache);
  EXPECT_FALSE(second.trained) << "a cached shape must not train again";
  EXPECT_EQ(second.width, first.width);
  expect_smith_waterman(runtime, apps::Alphabet::protein, space, space, first.width, StageDevices::gpu, 41);
  // A wavefront that keeps every cell and reads cell inputs trains on a copy of its first columns.
  const Shape image{900, 9000};
  std::vector<std::uint32_t> pixels(static_cast<std::size_t>(image.rows * image.columns));
  std::mt19937 random(4);
  for (auto& p : pixels) p = random() % 256;
  std::vector<std::uint64_t> out(pixels.size());
  const trapeze::WavefrontData<apps::SummedAreaTable> sat{image.rows, image.columns, {}, {}, pixels, out};
  const trapeze::HyperTileWidthDecision sat_width =
      trapeze::decide_hyper_tile_width(runtime, apps::SummedAreaTable{}, sat, plan_of(image, 32, StageDevices::gpu), "sat-test", cache);
  EXPECT_TRUE(sat_width.trained);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint64_t v) { return v == 0; })) << "training wrote the run's output";
  std::filesystem::remove(cache);
}

TEST(GpuWavefront, BadWidthIsRefused) {
  trapeze::Runtime runtime({"eager", 2});
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  const std::vector<std::uint8_t> q(10, 0), t(10, 1);
  try {
    trapeze::WavefrontRun run(runtime, w, {10, 10, q, t, {}, {}}, plan_of({10, 10}, 7, StageDevices::cpu));
    ADD_FAILURE() << "width 7 was accepted";
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("7"), std::string::npos) << e.what();
  }
}

}  // namespace
