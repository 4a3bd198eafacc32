// A run that never holds the whole domain (Grid::generated): its tiles take
// their initial cells from a row function and hand their final cells to a
// sink, and it is checked by a checksum against the sequential reference
// computed band by band. Both halves must be exact: the banded reference's
// checksum equals the whole-domain reference's, and a generated run's equals
// an ordinary run's, for every boundary, tiling, height and band size.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "reference_check.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/field_checksum.hpp"
#include "trapeze/parallel_parts.hpp"
#include "trapeze/reference_in_bands.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/tiling.hpp"

namespace {

using tests::Case;
using trapeze::Boundary;
using trapeze::Index;

// A generated grid whose rows come from `held` (which must outlive it) and
// whose final cells go into `sink`.
template <typename T>
trapeze::Grid<T> generated_from(const trapeze::Grid<T>& held, std::shared_ptr<trapeze::FieldChecksum> sink) {
  trapeze::GridRows<T> rows{
      [&held](int field, Index x, Index y, Index z, Index count, T* out) {
        const int updated = held.updated_count();
        const T* source = field < updated ? held.updated(field).data()
                                          : held.constant((field - updated) / static_cast<int>(held.constant_planes())).data() +
                                                (field - updated) % held.constant_planes() * held.cells();
        std::copy_n(source + held.linear(x, y, z), count, out);
      },
      [&held, sink](int field, Index x, Index y, Index z, Index count, const T* values) {
        sink->add(field, held.linear(x, y, z), values, count);
      }};
  return trapeze::Grid<T>::generated(held.extent(), held.dims(), held.updated_count(), held.constant_count(),
                                     held.constant_planes(), held.boundary(), std::move(rows));
}

template <trapeze::Stencil S>
void expect_bands_match_whole_reference(const S& stencil, const Case& c, Index band_slices, int threads) {
  const std::uint64_t seed = tests::fresh_seed();
  SCOPED_TRACE(tests::describe(c, S::dims) + " band " + std::to_string(band_slices) + " threads " +
               std::to_string(threads) + " seed " + std::to_string(seed));
  auto held = tests::make_grid<S>(c);
  tests::randomise(held, seed);
  const auto generated = generated_from(held, std::make_shared<trapeze::FieldChecksum>());
  trapeze::reference::BandOptions options;
  options.band_slices = band_slices;
  options.threads = threads;
  Index reported = 0;
  options.progress = [&](Index done, Index bands) {
    EXPECT_LE(done, bands);
    reported = bands;
  };
  const std::uint64_t banded = trapeze::reference::checksum_in_bands(stencil, generated, c.steps, options);
  EXPECT_GT(reported, 0);
  trapeze::reference::advance(stencil, held, c.steps);
  EXPECT_EQ(banded, trapeze::checksum_of(held));
}

TEST(ReferenceInBands, EqualsTheWholeDomainReference) {
  const Boundary boundaries[] = {Boundary::clamp(), Boundary::periodic(), Boundary::constant(0.25)};
  for (const Boundary& b : boundaries) {
    for (Index band : {1, 3, 7, 0}) {
      expect_bands_match_whole_reference(apps::Jacobi2D<float>{}, Case{{37, 53, 1}, {}, b, 1, 6}, band, 3);
      expect_bands_match_whole_reference(apps::Jacobi3D<double>{}, Case{{11, 9, 23, }, {}, b, 1, 4}, band, 2);
      expect_bands_match_whole_reference(apps::Hotspot{}, Case{{29, 41, 1}, {}, b, 1, 5}, band, 2);
    }
  }
  // Pathfinder: one read-only plane per step, slowest dimension the columns.
  expect_bands_match_whole_reference(apps::Pathfinder{}, Case{{101, 1, 1}, {}, Boundary::clamp(), 1, 12,
                                                              trapeze::TrapezoidMode::shrink, 12},
                                     5, 2);
}

TEST(ReferenceInBands, MarginsWiderThanTheDomainStillMatch) {
  // 40 steps spread across the whole 17-slice domain: every band's margin is the domain.
  expect_bands_match_whole_reference(apps::Jacobi2D<float>{}, Case{{13, 17, 1}, {}, Boundary::clamp(), 1, 40}, 2, 2);
  expect_bands_match_whole_reference(apps::Jacobi2D<float>{}, Case{{13, 17, 1}, {}, Boundary::periodic(), 1, 40}, 2, 2);
}

// MPI ranks deal the bands among themselves (BandOptions::part): the parts'
// checksums add up to the whole domain's reference, with more parts than
// bands too (a part with no band adds nothing).
TEST(ReferenceInBands, PartsAddUpToTheWholeReference) {
  const std::uint64_t seed = tests::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const Case c{{23, 41, 1}, {}, Boundary::periodic(), 1, 5};
  auto held = tests::make_grid<apps::Jacobi2D<double>>(c);
  tests::randomise(held, seed);
  const auto generated = generated_from(held, std::make_shared<trapeze::FieldChecksum>());  // reads `held`
  auto advanced = held;
  trapeze::reference::advance(apps::Jacobi2D<double>{}, advanced, c.steps);
  for (int parts : {1, 2, 3, 7, 12}) {
    std::uint64_t sum = 0;
    Index bands = 0;
    for (int part = 0; part < parts; ++part) {
      trapeze::reference::BandOptions options;
      options.band_slices = 4;  // 11 bands
      options.threads = 2;
      options.part = part;
      options.parts = parts;
      options.progress = [&](Index, Index of_part) { bands += of_part == 0 ? 0 : 1; };
      sum += trapeze::reference::checksum_in_bands(apps::Jacobi2D<double>{}, generated, c.steps, options);
    }
    EXPECT_EQ(sum, trapeze::checksum_of(advanced)) << parts << " parts";
    EXPECT_EQ(bands, 11) << parts << " parts";
  }
  trapeze::reference::BandOptions bad;
  bad.part = 2, bad.parts = 2;
  EXPECT_THROW(trapeze::reference::checksum_in_bands(apps::Jacobi2D<double>{}, generated, c.steps, bad),
               trapeze::InvalidArgument);
}

TEST(ReferenceInBands, NeedsAGeneratedGrid) {
  trapeze::Grid<float> held({8, 8, 1}, 2, 1, 0, 1, Boundary::clamp());
  EXPECT_THROW(trapeze::reference::checksum_in_bands(apps::Jacobi2D<float>{}, held, 2), trapeze::Error);
}

TEST(GeneratedGrid, HoldsNoValues) {
  trapeze::Grid<float> held({8, 8, 1}, 2, 1, 0, 1, Boundary::clamp());
  const auto generated = generated_from(held, std::make_shared<trapeze::FieldChecksum>());
  EXPECT_TRUE(generated.is_generated());
  EXPECT_FALSE(held.is_generated());
  EXPECT_EQ(generated.cells(), 64);
  EXPECT_THROW(generated.updated(), trapeze::Error);
  EXPECT_THROW(held.rows(), trapeze::Error);
  EXPECT_THROW(trapeze::Grid<float>::generated({8, 8, 1}, 2, 1, 0, 1, Boundary::clamp(), {}), trapeze::Error);
}

TEST(FieldChecksum, SeesOneFlippedBitAndNotTheOrder) {
  std::vector<float> cells(1000);
  for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = static_cast<float>(i) * 0.37f;
  trapeze::FieldChecksum forwards, in_pieces, flipped, moved;
  forwards.add(0, 0, cells.data(), 1000);
  in_pieces.add(0, 600, cells.data() + 600, 400);
  in_pieces.add(0, 0, cells.data(), 600);
  EXPECT_EQ(forwards.value(), in_pieces.value());
  auto changed = cells;
  std::uint32_t bits;
  std::memcpy(&bits, &changed[421], 4);
  bits ^= 1u;
  std::memcpy(&changed[421], &bits, 4);
  flipped.add(0, 0, changed.data(), 1000);
  EXPECT_NE(forwards.value(), flipped.value());
  // The same values one cell further along, or in another field, are another field state.
  moved.add(0, 1, cells.data(), 1000);
  EXPECT_NE(forwards.value(), moved.value());
  trapeze::FieldChecksum other_field;
  other_field.add(1, 0, cells.data(), 1000);
  EXPECT_NE(forwards.value(), other_field.value());
}

// The checksum of parts held in different places (each MPI rank's own
// tiles) adds up to the whole grid's, for 2-D and 3-D tilings that do not
// divide the domain; one cell changed inside one tile changes the sum.
TEST(FieldChecksum, TilesBoxesAddUpToTheGrid) {
  for (const auto& [extent, dims, tile] : {std::tuple{trapeze::Extent{67, 45, 1}, 2, trapeze::Extent{16, 11, 1}},
                                           std::tuple{trapeze::Extent{19, 14, 23}, 3, trapeze::Extent{7, 5, 9}}}) {
    const std::uint64_t seed = tests::fresh_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    trapeze::Grid<float> grid(extent, dims, 2, 1, 1, Boundary::clamp());
    tests::randomise(grid, seed);
    const trapeze::Tiling tiling(extent, dims, tile);
    trapeze::FieldChecksum by_tiles;
    for (int t = tiling.count() - 1; t >= 0; --t) trapeze::add_box(by_tiles, grid, tiling.box(t));
    EXPECT_EQ(by_tiles.value(), trapeze::checksum_of(grid)) << dims << "-D";
    grid.updated(1)[grid.linear(extent[0] - 1, extent[1] - 1, extent[2] - 1)] += 1.0f;
    EXPECT_NE(by_tiles.value(), trapeze::checksum_of(grid)) << dims << "-D";
  }
}

class GeneratedRun : public testing::Test {
 protected:
  static void SetUpTestSuite() { runtime_ = std::make_unique<trapeze::Runtime>(); }
  static void TearDownTestSuite() { runtime_.reset(); }

  // A run on a generated grid sums the checksum of the reference's fields.
  template <trapeze::Stencil S>
  void expect_checksum_of_reference(const S& stencil, const Case& c) {
    const std::uint64_t seed = tests::fresh_seed();
    SCOPED_TRACE(tests::describe(c, S::dims) + " seed " + std::to_string(seed));
    auto held = tests::make_grid<S>(c);
    tests::randomise(held, seed);
    auto sink = std::make_shared<trapeze::FieldChecksum>();
    auto generated = generated_from(held, sink);
    {
      trapeze::StencilRun<S> run(*runtime_, stencil, generated, trapeze::Plan{c.tile, c.height, c.mode});
      run.submit(c.steps);
      run.wait();
    }
    trapeze::reference::advance(stencil, held, c.steps);
    EXPECT_EQ(sink->value(), trapeze::checksum_of(held));
  }

  // The same on a grid that holds its values: the run's fields are the reference's.
  template <trapeze::Stencil S>
  void expect_held_grid_equals_reference(const S& stencil, const Case& c) {
    SCOPED_TRACE(tests::describe(c, S::dims));
    auto grid = tests::make_grid<S>(c);
    tests::randomise(grid, tests::fresh_seed());
    auto expected = grid;
    {
      trapeze::StencilRun<S> run(*runtime_, stencil, grid, trapeze::Plan{c.tile, c.height, c.mode});
      run.submit(c.steps);
      run.wait();
    }
    trapeze::reference::advance(stencil, expected, c.steps);
    EXPECT_EQ(trapeze::checksum_of(grid), trapeze::checksum_of(expected));
  }

  static std::unique_ptr<trapeze::Runtime> runtime_;
};
std::unique_ptr<trapeze::Runtime> GeneratedRun::runtime_;

TEST_F(GeneratedRun, EqualsTheReferenceOnEveryTiling) {
  const Boundary boundaries[] = {Boundary::clamp(), Boundary::periodic(), Boundary::constant(0.5)};
  for (const Boundary& b : boundaries) {
    expect_checksum_of_reference(apps::Jacobi2D<float>{}, Case{{67, 45, 1}, {16, 11, 1}, b, 3, 11});
    expect_checksum_of_reference(apps::Jacobi2D<float>{}, Case{{67, 45, 1}, {67, 45, 1}, b, 1, 4});
    expect_checksum_of_reference(apps::Jacobi3D<float>{}, Case{{19, 14, 23}, {7, 14, 6}, b, 2, 7});
    expect_checksum_of_reference(apps::Hotspot{}, Case{{33, 29, 1}, {9, 10, 1}, b, 4, 9});
  }
  expect_checksum_of_reference(apps::Pathfinder{}, Case{{97, 1, 1}, {25, 1, 1}, Boundary::clamp(), 4, 16,
                                                        trapeze::TrapezoidMode::shrink, 16});
}

TEST_F(GeneratedRun, WritesNoCheckpoints) {
  trapeze::Grid<float> held({16, 16, 1}, 2, 1, 0, 1, Boundary::clamp());
  auto generated = generated_from(held, std::make_shared<trapeze::FieldChecksum>());
  trapeze::StencilRun<apps::Jacobi2D<float>> run(*runtime_, apps::Jacobi2D<float>{}, generated,
                                                 trapeze::Plan{{8, 8, 1}, 1});
  EXPECT_THROW(run.checkpoint_every(2, [](Index, const trapeze::Grid<float>&) {}), trapeze::Error);
}

}  // namespace

// Band copies cut over several threads (trapeze/parallel_parts.hpp).
TEST(ParallelParts, CoverTheRangeOnceInNearEqualContiguousParts) {
  for (const auto& [begin, end, parts] : {std::tuple{0, 100, 7}, std::tuple{5, 8, 16}, std::tuple{-3, 3, 1},
                                          std::tuple{10, 11, 4}, std::tuple{0, 64, 0}}) {
    std::mutex mutex;
    std::vector<std::pair<trapeze::Index, trapeze::Index>> seen;
    trapeze::run_parts_in_parallel(begin, end, parts, [&](trapeze::Index lo, trapeze::Index hi) {
      std::lock_guard lock(mutex);
      seen.emplace_back(lo, hi);
    });
    std::sort(seen.begin(), seen.end());
    const trapeze::Index n = end - begin;
    ASSERT_EQ(static_cast<trapeze::Index>(seen.size()), std::clamp<trapeze::Index>(parts, 1, n));
    trapeze::Index at = begin;
    for (const auto& [lo, hi] : seen) {
      EXPECT_EQ(lo, at);
      EXPECT_GT(hi, lo);
      EXPECT_LE(hi - lo, n / static_cast<trapeze::Index>(seen.size()) + 1);
      at = hi;
    }
    EXPECT_EQ(at, end);
  }
  bool called = false;
  trapeze::run_parts_in_parallel(4, 4, 3, [&](trapeze::Index, trapeze::Index) { called = true; });
  EXPECT_FALSE(called);
}

TEST(ParallelParts, EveryPartFinishesBeforeAPartsExceptionComesBack) {
  std::atomic<int> finished{0};
  EXPECT_THROW(trapeze::run_parts_in_parallel(0, 8, 4,
                                              [&](trapeze::Index lo, trapeze::Index) {
                                                if (lo == 2) throw std::runtime_error("part 1 failed");
                                                finished.fetch_add(1);
                                              }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 3);
}

// A StarPU worker is bound to one core, and a thread starts with its
// creator's binding: the helpers go to the cores they are given.
TEST(ParallelParts, HelpersRunOnTheCoresTheyAreGiven) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  int last_core = -1;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &mine)) last_core = c;
  }
  ASSERT_GE(last_core, 0);
  std::mutex mutex;
  std::vector<int> helper_cores;
  trapeze::run_parts_in_parallel(
      0, 3, 3,
      [&](trapeze::Index lo, trapeze::Index) {
        if (lo == 0) return;
        std::lock_guard lock(mutex);
        helper_cores.push_back(sched_getcpu());
      },
      {last_core});
  ASSERT_EQ(helper_cores.size(), 2u);
  for (int core : helper_cores) EXPECT_EQ(core, last_core);
}

TEST(ParallelParts, CopyThreadsFromTheEnvironment) {
  unsetenv("TRAPEZE_COPY_THREADS");
  EXPECT_EQ(trapeze::copy_threads_from_environment(), 0);
  setenv("TRAPEZE_COPY_THREADS", "3", 1);
  EXPECT_EQ(trapeze::copy_threads_from_environment(), 3);
  for (const char* bad : {"0", "-2", "x", "3x", "257"}) {
    setenv("TRAPEZE_COPY_THREADS", bad, 1);
    EXPECT_THROW(trapeze::copy_threads_from_environment(), trapeze::InvalidArgument) << bad;
  }
  unsetenv("TRAPEZE_COPY_THREADS");
}

// StencilRun::checksum() in one process: the grid's checksum after wait(),
// whichever Collect is asked for; before wait() it says what is missing.
TEST_F(GeneratedRun, RunChecksumIsTheGridsAfterWait) {
  const tests::Case c{{67, 45, 1}, {16, 11, 1}, Boundary::clamp(), 3, 11};
  auto grid = tests::make_grid<apps::Jacobi2D<float>>(c);
  const std::uint64_t seed = tests::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  tests::randomise(grid, seed);
  auto expected = grid;
  trapeze::reference::advance(apps::Jacobi2D<float>{}, expected, c.steps);
  trapeze::StencilRun run(*runtime_, apps::Jacobi2D<float>{}, grid, trapeze::Plan{c.tile, c.height});
  run.submit(c.steps);
  EXPECT_THROW(run.checksum(), trapeze::Error);
  run.wait({}, trapeze::Collect::on_owners);
  EXPECT_EQ(run.checksum(), trapeze::checksum_of(grid));
  EXPECT_EQ(run.checksum(), trapeze::checksum_of(expected));
  EXPECT_FALSE(run.distributed());
}

// Held and generated grids copied by several threads a band (more threads
// than some bands have slices): the reference's fields, bit for bit.
TEST_F(GeneratedRun, BandCopiesOnSeveralThreadsEqualTheReference) {
  for (const char* threads : {"3", "64"}) {
    setenv("TRAPEZE_COPY_THREADS", threads, 1);
    SCOPED_TRACE(std::string("TRAPEZE_COPY_THREADS=") + threads);
    expect_checksum_of_reference(apps::Jacobi2D<float>{}, Case{{67, 45, 1}, {16, 11, 1}, Boundary::clamp(), 3, 11});
    expect_checksum_of_reference(apps::Jacobi3D<float>{}, Case{{19, 14, 23}, {7, 14, 23}, Boundary::periodic(), 2, 7});
    expect_checksum_of_reference(apps::Hotspot{}, Case{{33, 29, 1}, {33, 29, 1}, Boundary::constant(0.5), 4, 9});
    expect_held_grid_equals_reference(apps::Jacobi2D<float>{}, Case{{67, 45, 1}, {67, 45, 1}, Boundary::clamp(), 3, 11});
    expect_held_grid_equals_reference(apps::Jacobi3D<float>{}, Case{{19, 14, 23}, {19, 14, 5}, Boundary::constant(0.5), 2, 7});
    expect_held_grid_equals_reference(apps::Hotspot{}, Case{{33, 29, 1}, {33, 29, 1}, Boundary::clamp(), 4, 9});
  }
  unsetenv("TRAPEZE_COPY_THREADS");
}
