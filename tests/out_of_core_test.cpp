// Out-of-core on the CPU: with a StarPU disk node and main memory capped by
// STARPU_LIMIT_CPU_MEM to well under the domain, every app's stencil still
// equals the sequential reference bit for bit, and the tiles really went
// through the disk (StarPU's bus counters) and left nothing behind there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "reference_check.hpp"
#include "stencils/cip.hpp"
#include "stencils/himeno.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/error.hpp"
#include "trapeze/runtime.hpp"

namespace {

using trapeze::Boundary;
using trapeze::Extent;
using tests::Case;

// Sets an environment variable for its lifetime (StarPU reads its limits at
// start-up, so a Runtime made meanwhile sees it).
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (saved_) setenv(name_, saved_->c_str(), 1);
    else unsetenv(name_);
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "trapeze-disk-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// StarPU may use 1 MiB of main memory; the domains below are 2-8 times that.
constexpr int limit_mib = 1;

template <trapeze::Stencil S>
void expect_out_of_core_matches(const S& stencil, const Case& c,
                                const std::function<void(trapeze::Grid<typename S::value_type>&)>& shape_values = {}) {
  const TemporaryDirectory disk;
  {
    const ScopedVariable limit("STARPU_LIMIT_CPU_MEM", std::to_string(limit_mib));
    trapeze::RuntimeOptions options;
    options.scheduler = "lws";
    options.cpus = 2;
    options.disk_directory = disk.path().string();
    trapeze::Runtime runtime(options);
    ASSERT_GE(runtime.disk_node(), 0);
    tests::expect_matches_reference(runtime, stencil, c, shape_values);
    const auto domain_bytes = static_cast<double>(sizeof(typename S::value_type)) * trapeze::updated_fields_of<S> *
                              static_cast<double>(c.size[0] * c.size[1] * c.size[2]);
    ASSERT_GE(domain_bytes, 2.0 * (limit_mib << 20)) << "the case must be at least twice the memory limit";
    const trapeze::BusTraffic traffic = runtime.bus_traffic();
    // Every stage of a domain this much larger than memory writes most tiles out.
    EXPECT_GE(static_cast<double>(traffic.to_disk), domain_bytes - (limit_mib << 20));
    EXPECT_GT(traffic.from_disk, 0u);
    EXPECT_EQ(traffic.pcie(), 0u);
  }
  // StarPU removes its files when the handles go and the disk node closes.
  EXPECT_TRUE(std::filesystem::is_empty(disk.path())) << disk.path();
}

TEST(OutOfCore, Jacobi2DThroughADiskNode) {
  expect_out_of_core_matches(apps::Jacobi2D<float>{}, {{1031, 777, 1}, {128, 96, 1}, Boundary::clamp(), 3, 7});
}
TEST(OutOfCore, Jacobi2DPeriodicInDouble) {
  expect_out_of_core_matches(apps::Jacobi2D<double>{}, {{613, 509, 1}, {100, 64, 1}, Boundary::periodic(), 2, 6});
}
TEST(OutOfCore, Jacobi3DThroughADiskNode) {
  expect_out_of_core_matches(apps::Jacobi3D<float>{}, {{97, 83, 71}, {48, 40, 24}, Boundary::constant(0.5), 2, 5});
}
TEST(OutOfCore, HotspotWithItsPowerField) {
  expect_out_of_core_matches(apps::Hotspot::for_grid(701, 1001), {{1001, 701, 1}, {128, 128, 1}, Boundary::clamp(), 4, 9});
}
TEST(OutOfCore, LifeThroughADiskNode) {
  expect_out_of_core_matches(apps::Life{}, {{2003, 1501, 1}, {256, 200, 1}, Boundary::periodic(), 4, 8});
}
TEST(OutOfCore, PathfinderWithItsWallRows) {
  expect_out_of_core_matches(apps::Pathfinder{},
                             {{700001, 1, 1}, {5000, 1, 1}, Boundary::clamp(), 5, 12, trapeze::TrapezoidMode::shrink, 13});
}

TEST(OutOfCore, HimenoWithItsTwelveReadOnlyArrays) {
  expect_out_of_core_matches(apps::Himeno{}, {{71, 61, 61}, {16, 16, 12}, Boundary::clamp(), 2, 4});
}
TEST(OutOfCore, CipWithItsValueAndGradient) {
  expect_out_of_core_matches(apps::Cip<float>{}, {{521, 401, 1}, {96, 80, 1}, Boundary::constant(0.0), 3, 6},
                             tests::velocities_of_both_signs<float>);
}

TEST(OutOfCore, AMissingDiskDirectoryIsRefusedByName) {
  trapeze::RuntimeOptions options;
  options.disk_directory = "/nonexistent/trapeze-disk";
  try {
    trapeze::Runtime runtime(options);
    FAIL() << "a missing disk directory was accepted";
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/trapeze-disk"), std::string::npos) << e.what();
  }
}

TEST(OutOfCore, TilesLargerThanTheMemoryLimitAreRefused) {
  const TemporaryDirectory disk;
  const ScopedVariable limit("STARPU_LIMIT_CPU_MEM", std::to_string(limit_mib));
  trapeze::RuntimeOptions options;
  options.cpus = 2;
  options.disk_directory = disk.path().string();
  trapeze::Runtime runtime(options);
  const Case c{{1024, 1024, 1}, {1024, 1024, 1}, Boundary::clamp(), 1, 1};
  auto grid = tests::make_grid<apps::Jacobi2D<float>>(c);
  try {
    trapeze::StencilRun run(runtime, apps::Jacobi2D<float>{}, grid, trapeze::Plan{c.tile, 1});
    FAIL() << "a 4 MiB tile was accepted under a 1 MiB limit";
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("STARPU_LIMIT_CPU_MEM"), std::string::npos) << e.what();
  }
}

TEST(OutOfCore, WithoutADiskTheTilesAreOurs) {
  trapeze::Runtime runtime({"lws", 2});
  EXPECT_EQ(runtime.disk_node(), -1);
  tests::expect_matches_reference(runtime, apps::Jacobi2D<float>{}, {{64, 48, 1}, {16, 16, 1}, Boundary::clamp(), 2, 4});
  EXPECT_EQ(runtime.bus_traffic().to_disk, 0u);
}

}  // namespace
