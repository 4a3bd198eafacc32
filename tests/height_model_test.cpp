// The height model: its work accounting, its choice, and its on-disk cache
// (kept when valid, rebuilt when corrupt or from another machine).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>
#include <fstream>

#include "random_grids.hpp"
#include "stencils/jacobi2d.hpp"
#include "trapeze/height_choice.hpp"
#include "trapeze/runtime.hpp"

namespace {

namespace fs = std::filesystem;
using trapeze::Extent;
using trapeze::Index;

trapeze::ModelShape jacobi_shape(const Extent& domain, const Extent& tile, trapeze::TrapezoidMode mode) {
  return trapeze::model_shape<apps::Jacobi2D<float>>(domain, tile, trapeze::BoundaryKind::periodic, mode, 2);
}

TEST(HeightModel, StageWorkCountsRedundantCells) {
  const trapeze::BandwidthCurve flat{{{1.0, 1e10}}};
  // One 10x10 periodic tile in a 40x40 domain, h = 3, r = 1: the padded tile is 16x16.
  const auto shrink = trapeze::stage_work(jacobi_shape({40, 40, 1}, {10, 10, 1}, trapeze::TrapezoidMode::shrink), 3, flat);
  EXPECT_EQ(shrink.tasks, 16);
  // Steps compute 14x14, 12x12, 10x10 cells in every tile.
  EXPECT_EQ(shrink.cells, 16 * (14 * 14 + 12 * 12 + 10 * 10));
  const auto full = trapeze::stage_work(jacobi_shape({40, 40, 1}, {10, 10, 1}, trapeze::TrapezoidMode::full), 3, flat);
  EXPECT_EQ(full.cells, 16 * 3 * (14 * 14));
  EXPECT_EQ(shrink.ghost_cells, 16 * 2 * (16 * 16 - 10 * 10));
}

TEST(HeightModel, ChoosesTallTrapezoidsWhenTasksAreExpensive) {
  trapeze::CostModel costs{1e-3, 1e-9, 1e-9, {{{1.0, 1e10}}}};
  const auto shape = jacobi_shape({4096, 4096, 1}, {512, 512, 1}, trapeze::TrapezoidMode::shrink);
  EXPECT_GT(trapeze::choose_height(costs, shape).height, 4);
  // Free tasks and ghost cells: redundancy is pure loss. Small tiles, so that
  // h = 2's redundant cells (3%) are more than the model's 2% tolerance.
  costs.seconds_per_task = costs.seconds_per_ghost_cell = 0;
  const auto small_tiles = jacobi_shape({4096, 4096, 1}, {64, 64, 1}, trapeze::TrapezoidMode::shrink);
  EXPECT_EQ(trapeze::choose_height(costs, small_tiles).height, 1);
}

TEST(HeightModel, BandwidthCurveInterpolatesAndClamps) {
  const trapeze::BandwidthCurve curve{{{1e3, 100.0}, {1e5, 50.0}}};
  EXPECT_DOUBLE_EQ(curve.at(10), 100.0);
  EXPECT_DOUBLE_EQ(curve.at(1e4), 75.0);
  EXPECT_DOUBLE_EQ(curve.at(1e9), 50.0);
}

TEST(HeightModel, TakesTheMiddleOfThePredictedFlatPart) {
  const trapeze::CostModel costs{2e-4, 1e-9, 1e-9, {{{1.0, 1e10}}}};
  const auto shape = jacobi_shape({4096, 4096, 1}, {512, 512, 1}, trapeze::TrapezoidMode::shrink);
  double fastest = std::numeric_limits<double>::infinity();
  for (int h = 1; h <= trapeze::max_useful_height(shape); ++h) {
    fastest = std::min(fastest, trapeze::predict_seconds_per_step(costs, shape, h));
  }
  std::vector<int> flat;  // heights predicted as fast as the fastest, within the model's tolerance
  for (int h = 1; h <= trapeze::max_useful_height(shape); ++h) {
    if (trapeze::predict_seconds_per_step(costs, shape, h) <= fastest * (1 + trapeze::flat_tolerance)) flat.push_back(h);
  }
  ASSERT_GE(flat.size(), 3u) << "the costs must give a flat part for this test to mean anything";
  const int chosen = trapeze::choose_height(costs, shape).height;
  EXPECT_GT(chosen, flat.front());
  EXPECT_LT(chosen, flat.back());
  EXPECT_NEAR(chosen, std::sqrt(static_cast<double>(flat.front()) * flat.back()), 1.0);
}

// The cache of profiled models. Profiling takes seconds (minutes under the
// sanitizers), so only two tests profile: the end-to-end one and one rebuild;
// the others seed the file with an entry through the cache itself and check
// that an edited entry is refused (decide_height profiles whenever find()
// refuses, which the first two show) and that a new store rewrites it.
class HeightCache : public testing::Test {
 protected:
  void SetUp() override {
    file_ = fs::temp_directory_path() / ("trapeze-height-cache-" + std::to_string(getpid()) + ".json");
    fs::remove(file_);
  }
  void TearDown() override { fs::remove(file_); }

  std::string read_file() const {
    std::ifstream in(file_);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  void write_file(const std::string& text) const { std::ofstream(file_) << text; }

  // `text` with the first `from` replaced by `to` (a failure, and the text
  // unchanged, when `from` is missing).
  static std::string replace_first(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from << " not in the cache file";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
  }

  trapeze::HeightDecision decide(trapeze::Runtime& runtime) {
    return trapeze::decide_height(runtime, apps::Jacobi2D<float>{}, "jacobi2d-test",
                                  jacobi_shape({2048, 2048, 1}, {2048, 256, 1}, trapeze::TrapezoidMode::shrink), file_);
  }
  // The cache as decide_height opens it, and the key it uses for decide().
  trapeze::CostModelCache cache() const {
    return trapeze::CostModelCache(file_, trapeze::machine_fingerprint(), trapeze::build_identity());
  }
  static constexpr const char* key = "jacobi2d-test/float/workers=2";
  static trapeze::CostModel plausible_costs() {
    trapeze::CostModel costs;
    costs.seconds_per_task = 20e-6;
    costs.seconds_per_cell = 1e-9;
    costs.seconds_per_ghost_cell = 2e-9;
    costs.bandwidth.points = {{1e6, 100e9}, {1e9, 10e9}};
    return costs;
  }
  // Seeds the file with one valid entry, then replaces it with edit(its text).
  template <typename Edit>
  void seed_then_edit(Edit edit) {
    cache().store(key, plausible_costs());
    ASSERT_TRUE(cache().find(key)) << "a stored entry must be found";
    write_file(edit(read_file()));
  }
  fs::path file_;
};

TEST_F(HeightCache, ChoiceIsStableOnceCached) {
  trapeze::Runtime runtime({"lws", 2});
  const auto first = decide(runtime);
  EXPECT_TRUE(first.profiled);
  ASSERT_TRUE(fs::exists(file_));
  const auto second = decide(runtime);
  EXPECT_FALSE(second.profiled) << "a valid cache entry must not be profiled again";
  EXPECT_EQ(second.height, first.height);
  EXPECT_DOUBLE_EQ(second.predicted_seconds_per_step, first.predicted_seconds_per_step);
  EXPECT_GT(first.costs.seconds_per_cell, 0);
}

TEST_F(HeightCache, CorruptFileIsRebuilt) {
  for (const std::string& garbage : {std::string("{\"version\": 1, \"machine\": "), std::string("\x01\x02 not json"),
                                    std::string("[1, 2, 3]")}) {
    write_file(garbage);
    EXPECT_FALSE(cache().find(key)) << garbage;
    cache().store(key, plausible_costs());
    EXPECT_TRUE(cache().find(key)) << "a store must replace a corrupt file: " << garbage;
  }
  // End to end, once: decide_height profiles over a corrupt file and leaves a usable one.
  trapeze::Runtime runtime({"lws", 2});
  write_file("\x01\x02 not json");
  const auto decision = decide(runtime);
  EXPECT_TRUE(decision.profiled);
  EXPECT_GE(decision.height, 1);
  EXPECT_FALSE(decide(runtime).profiled) << "the rebuilt file must be usable";
}

TEST_F(HeightCache, EntryWithBadNumbersIsRefused) {
  seed_then_edit([](const std::string& text) {  // a negative cost
    return replace_first(text, "\"seconds_per_cell\": ", "\"seconds_per_cell\": -");
  });
  EXPECT_FALSE(cache().find(key)) << "a negative cost must not be used";
}

TEST_F(HeightCache, FileFromAnotherMachineIsRefusedThenRewritten) {
  const std::string machine = trapeze::machine_fingerprint();
  seed_then_edit([&](const std::string& text) { return replace_first(text, machine, "Some Other CPU; 128 cores"); });
  EXPECT_FALSE(cache().find(key)) << "another machine's profile must not be used";
  cache().store(key, plausible_costs());
  EXPECT_TRUE(cache().find(key));
  const std::string rewritten = read_file();
  EXPECT_NE(rewritten.find(machine), std::string::npos);
  EXPECT_EQ(rewritten.find("Some Other CPU"), std::string::npos);
}

TEST_F(HeightCache, EntryFromAnotherBuildIsRefused) {
  seed_then_edit([](const std::string& text) {
    return replace_first(text, "\"build\": \"", "\"build\": \"an older build of ");
  });
  EXPECT_FALSE(cache().find(key)) << "a profile of another build of the program must not be reused";
  cache().store(key, plausible_costs());
  EXPECT_TRUE(cache().find(key));
}

}  // namespace

namespace {

// Profiling samples made from known costs, one of them slowed threefold (a
// shared machine): the fit still finds the costs, within 10%.
TEST(HeightModelFit, LeavesOutASampleANoisyMachineSlowed) {
  trapeze::BandwidthCurve bandwidth;
  bandwidth.points = {{1e6, 100e9}, {1e9, 10e9}};
  const double task = 30e-6, ghost = 2e-9, cell = 1e-9;
  const int workers = 2;
  const Extent domain{1024, 1024, 1};
  std::vector<trapeze::ProfileSample> samples;
  const struct { Index tiles; int height; trapeze::Index steps; } configs[] = {
      {4, 1, 16}, {16, 2, 16}, {64, 4, 16}, {64, 8, 16}, {256, 1, 8}, {1024, 1, 4}};
  for (const auto& c : configs) {
    const auto cuts = static_cast<Index>(std::lround(std::sqrt(static_cast<double>(c.tiles))));
    const Extent tile{(domain[0] + cuts - 1) / cuts, (domain[1] + cuts - 1) / cuts, 1};
    const auto shape = trapeze::model_shape<apps::Jacobi2D<float>>(domain, tile, trapeze::BoundaryKind::clamp,
                                                                  trapeze::TrapezoidMode::shrink, workers);
    const trapeze::StageWork work = trapeze::stage_work(shape, c.height, bandwidth);
    const trapeze::Index stages = c.steps / c.height;
    const double seconds = static_cast<double>(stages) *
                           ((work.tasks * task + work.ghost_cells * ghost) / workers +
                            std::max(work.cells * cell / workers, work.memory_seconds));
    samples.push_back({work, stages, seconds});
  }
  const trapeze::CostModel clean = trapeze::fit_cost_model(samples, workers, cell, bandwidth);
  EXPECT_NEAR(clean.seconds_per_task, task, 0.01 * task);
  EXPECT_NEAR(clean.seconds_per_ghost_cell, ghost, 0.01 * ghost);
  for (std::size_t slowed = 0; slowed < samples.size(); ++slowed) {
    auto noisy = samples;
    noisy[slowed].seconds *= 3;
    const trapeze::CostModel fitted = trapeze::fit_cost_model(noisy, workers, cell, bandwidth);
    EXPECT_NEAR(fitted.seconds_per_task, task, 0.1 * task) << "sample " << slowed << " slowed";
    EXPECT_NEAR(fitted.seconds_per_ghost_cell, ghost, 0.1 * ghost) << "sample " << slowed << " slowed";
  }
}

}  // namespace

namespace {

// Small domains: the height is measured among the model's candidates, once
// per shape; the cache then answers (an edited entry is what comes back), and
// a domain above the limit keeps the model's choice.
TEST(MeasuredHeight, SmallDomainsAreMeasuredOnceThenCached) {
  const fs::path models = fs::temp_directory_path() / ("trapeze-measured-" + std::to_string(getpid())) / "height_models.json";
  fs::remove_all(models.parent_path());
  unsetenv("TRAPEZE_MEASURE_HEIGHTS");  // the sanitizer runs of CI set it to 0
  trapeze::Runtime runtime({"lws", 2});
  // 1 MiB of cells: the smallest domain measured.
  trapeze::Grid<float> grid({512, 512, 1}, 2, 1, 0, 1, trapeze::Boundary::periodic());
  tests::randomise(grid, 5);
  const trapeze::Grid<float> before = grid;
  trapeze::Plan plan{{512, 128, 1}, 0};
  auto shape = jacobi_shape({512, 512, 1}, {512, 128, 1}, trapeze::TrapezoidMode::shrink);
  shape.steps = 40;
  const apps::Jacobi2D<float> stencil{};
  const auto first = trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", shape, models, &grid, &plan);
  EXPECT_TRUE(first.measured);
  EXPECT_GE(first.height, 1);
  EXPECT_LE(first.height, trapeze::max_useful_height(shape));
  EXPECT_EQ(std::memcmp(grid.updated(0).data(), before.updated(0).data(), grid.updated(0).size() * sizeof(float)), 0)
      << "measuring must leave the run's grid as it was";
  const auto candidates = trapeze::height_candidates(first.costs, shape, 5);
  EXPECT_TRUE(std::is_sorted(candidates.begin(), candidates.end()));
  EXPECT_EQ(candidates.front(), 1);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), 5), candidates.end()) << "the model's own choice is measured";
  EXPECT_LE(candidates.back(), trapeze::max_useful_height(shape));
  // The cache answers the same shape (an entry edited by hand is what comes back).
  const fs::path measured = models.parent_path() / "measured_heights.json";
  ASSERT_TRUE(fs::exists(measured));
  const trapeze::MeasurementCache cache(measured, trapeze::machine_fingerprint(), trapeze::build_identity());
  const std::string key = trapeze::measured_height_key("jacobi2d-measured-test/float/workers=2", shape);
  ASSERT_TRUE(cache.find(key, {"height"})) << "no entry under " << key;
  const int other = first.height == 3 ? 4 : 3;
  cache.store(key, {{"height", other}});
  const auto second = trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", shape, models, &grid, &plan);
  EXPECT_TRUE(second.measured);
  EXPECT_FALSE(second.profiled);
  EXPECT_EQ(second.height, other);
  // Without the grid (or above the size limit) the model decides; so it does
  // for a grid with a read-only plane per step, which holds only its run's steps.
  const auto model_only = trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", shape, models);
  EXPECT_FALSE(model_only.measured);
  trapeze::Grid<float> planes({512, 512, 1}, 2, 1, 1, 40, trapeze::Boundary::periodic());
  const auto with_planes = trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", shape, models, &planes, &plan);
  EXPECT_FALSE(with_planes.measured);
  // Below 1 MiB a run is too short to be worth measuring.
  trapeze::Grid<float> small({256, 256, 1}, 2, 1, 0, 1, trapeze::Boundary::periodic());
  const auto small_shape = jacobi_shape({256, 256, 1}, {256, 64, 1}, trapeze::TrapezoidMode::shrink);
  const trapeze::Plan small_plan{{256, 64, 1}, 0};
  EXPECT_FALSE(trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", small_shape, models, &small, &small_plan).measured);
  // TRAPEZE_MEASURE_HEIGHTS=0: the model alone, even where the cache has a measured height.
  setenv("TRAPEZE_MEASURE_HEIGHTS", "0", 1);
  const auto unmeasured = trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", shape, models, &grid, &plan);
  EXPECT_FALSE(unmeasured.measured);
  EXPECT_EQ(unmeasured.height, model_only.height);
  setenv("TRAPEZE_MEASURE_HEIGHTS", "yes", 1);
  try {
    trapeze::decide_height(runtime, stencil, "jacobi2d-measured-test", shape, models, &grid, &plan);
    ADD_FAILURE() << "TRAPEZE_MEASURE_HEIGHTS=yes was accepted";
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'yes'"), std::string::npos) << e.what();
  }
  unsetenv("TRAPEZE_MEASURE_HEIGHTS");
  fs::remove_all(models.parent_path());
}

}  // namespace
