// Every app's stencil on CUDA workers equals the sequential reference bit for
// bit, at odd sizes with random inputs, over every boundary, task-level
// heights H and kernel-level heights k (k = 1 is the single-step kernel), tiles
// that do and do not divide the domain, and with CPU and GPU workers mixed.
// Float apps are exact too: the kernels are built with -fmad=false and
// evaluate each update in the same order as the host (-ffp-contract=off), so
// no tolerance is needed; a mismatch is a bug, not rounding.
//
// Label "gpu": without a CUDA worker every test is skipped with a message
// (CTest shows it as skipped, not passed).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "reference_check.hpp"
#include "skewed_cases.hpp"
#include "stencils/cip.hpp"
#include "stencils/himeno.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/life_bits.hpp"
#include "stencils/life_byte_words.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/skewed_run.hpp"
#include "weighted_box.hpp"

namespace {

using trapeze::Boundary;
using trapeze::Extent;
using trapeze::StageDevices;
using tests::Case;

struct Heights {
  int task;    // H
  int kernel;  // k
};
const std::vector<Heights> gpu_heights{{1, 1}, {2, 2}, {3, 1}, {5, 5}, {7, 3}};
const std::vector<Boundary> every_boundary{Boundary::clamp(), Boundary::constant(0.75), Boundary::periodic()};

// Every boundary, tile and pair of heights over one domain, on the GPUs.
std::vector<Case> gpu_cases(const Extent& size, const std::vector<Extent>& tiles, const std::vector<Heights>& heights,
                            trapeze::Index steps) {
  std::vector<Case> cases;
  for (const Boundary& b : every_boundary) {
    for (const Extent& t : tiles) {
      for (const Heights& h : heights) {
        Case c{size, t, b, h.task, steps};
        c.kernel_height = h.kernel;
        c.devices = StageDevices::gpu;
        cases.push_back(c);
      }
    }
  }
  return cases;
}

std::vector<Case> cases_2d(const Extent& size, trapeze::Index steps) {
  return gpu_cases(size, {size, Extent{size[0], (size[1] + 2) / 3, 1}, Extent{150, 70, 1}, Extent{1, size[1], 1}},
                   gpu_heights, steps);
}

template <trapeze::Stencil S>
void run_cases(const S& stencil, const std::vector<Case>& cases, const std::string& scheduler = "dmda",
               const std::function<void(trapeze::Grid<typename S::value_type>&)>& shape_values = {}) {
  trapeze::Runtime runtime({scheduler, 2, 1});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  for (const Case& c : cases) {
    tests::expect_matches_reference(runtime, stencil, c, shape_values);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(GpuEquality, Jacobi2DFloat) { run_cases(apps::Jacobi2D<float>{}, cases_2d({301, 203, 1}, 13)); }
TEST(GpuEquality, Jacobi2DDouble) { run_cases(apps::Jacobi2D<double>{}, cases_2d({157, 131, 1}, 9)); }
TEST(GpuEquality, Life) { run_cases(apps::Life{}, cases_2d({301, 203, 1}, 13)); }
// Words with every bit random (the default fill's 0..9 would leave the high
// bits, which carry into the neighbouring word, always dead). Seeded by the
// grid's size, so a failure repeats.
void random_words(trapeze::Grid<std::uint32_t>& grid) {
  std::mt19937 engine(static_cast<std::uint32_t>(grid.cells()));
  for (auto& word : grid.updated()) word = engine();
}

TEST(GpuEquality, LifeBits) { run_cases(apps::LifeBits{}, cases_2d({37, 203, 1}, 13), "dmda", random_words); }
// Byte cells four to a word: every byte 0 or 1 at random (its sums must not
// carry into the next byte, as the app guarantees).
void random_byte_cells(trapeze::Grid<std::uint32_t>& grid) {
  std::mt19937 engine(static_cast<std::uint32_t>(grid.cells()));
  for (auto& word : grid.updated()) word = engine() & apps::LifeByteWords::lanes(1);
}
TEST(GpuEquality, LifeByteWords) {
  run_cases(apps::LifeByteWords{}, cases_2d({75, 203, 1}, 13), "dmda", random_byte_cells);
}
TEST(GpuEquality, Hotspot) { run_cases(apps::Hotspot::for_grid(203, 301), cases_2d({301, 203, 1}, 13)); }

// Rows a multiple of 4 cells apart (tile width + 2H), so single steps take
// 16-byte accesses (vector_step_kernel.cuh): whole rows and narrower tiles,
// regions that start inside a group of 4 (H = 1, 3, 5), every boundary.
std::vector<Case> cases_on_rows_of_4(trapeze::Index steps) {
  return gpu_cases({1022, 517, 1}, {Extent{1022, 517, 1}, Extent{1022, 100, 1}, Extent{254, 60, 1}},
                   {Heights{1, 1}, Heights{3, 1}, Heights{5, 1}}, steps);
}
TEST(GpuEquality, SingleStepsOnRowsOfFourCells) {
  run_cases(apps::Jacobi2D<float>{}, cases_on_rows_of_4(11));
  run_cases(apps::Hotspot::for_grid(517, 1022), cases_on_rows_of_4(7));
  run_cases(apps::Cip<float>{}, cases_on_rows_of_4(7), "dmda", tests::velocities_of_both_signs<float>);
  run_cases(tests::WeightedBox<2, 2>{}, cases_on_rows_of_4(5));
  // 3-D: 130 + 2 x 2 ghost cells a row (vector_plane_kernel.cuh), and tiles
  // 62 wide; blocks cut by every edge of the domain and of the tiles.
  run_cases(apps::Jacobi3D<float>{}, gpu_cases({130, 67, 41}, {Extent{130, 67, 41}, Extent{130, 67, 15}, Extent{62, 30, 20}},
                                               {Heights{1, 1}, Heights{3, 1}, Heights{4, 2}}, 7));
  // Planes wide enough that the launch runs in bands of rows of blocks
  // (plane_bands.hpp: 86 rows of blocks in bands of about 26 on a 50 MB L2,
  // the last band cut short).
  run_cases(apps::Jacobi3D<float>{}, gpu_cases({1024, 1030, 13}, {Extent{1024, 1030, 13}}, {Heights{1, 1}}, 3));
}
// The 16-byte 3-D trapezoid (vector_trapezoid_kernel.cuh, k = 2 .. 4 on rows
// a multiple of 4 cells apart after the ghost's widening): one tile and tiles
// that divide nothing, task heights of one launch and of several, every boundary.
TEST(GpuEquality, TrapezoidsOnRowsOfFourCells3D) {
  run_cases(apps::Jacobi3D<float>{}, gpu_cases({130, 67, 41}, {Extent{130, 67, 41}, Extent{62, 30, 20}},
                                               {Heights{2, 2}, Heights{3, 3}, Heights{4, 4}, Heights{8, 4}, Heights{7, 3}}, 9));
}
// The 16-byte 2-D trapezoid (row_vector_trapezoid_kernel.cuh, k = 2 .. 8 on
// rows a multiple of 4 cells apart after the ghost's widening; k = 12 and 16
// go to the scalar register trapezoid): one tile, a tile that divides
// nothing, task heights of one launch and of several, every boundary.
TEST(GpuEquality, TrapezoidsOnRowsOfFourCells2D) {
  run_cases(apps::Jacobi2D<float>{}, gpu_cases({1022, 517, 1}, {Extent{1022, 517, 1}, Extent{150, 70, 1}},
                                               {Heights{2, 2}, Heights{3, 3}, Heights{5, 5}, Heights{8, 8}, Heights{16, 8},
                                                Heights{7, 4}, Heights{12, 12}},
                                               11));
  // HotSpot: the power map read at the cell, a 16-byte load a group and step.
  run_cases(apps::Hotspot::for_grid(517, 1022),
            gpu_cases({1022, 517, 1}, {Extent{1022, 517, 1}, Extent{150, 70, 1}},
                      {Heights{2, 2}, Heights{3, 3}, Heights{8, 8}, Heights{16, 8}, Heights{7, 4}}, 7));
  // 3x3 boxes of 4-byte cells (Life four byte cells a word, and 32 cells a
  // word): the rows above and below read across x too, their neighbours
  // across a group's edge from shuffles and at the domain's edge clamped or
  // constant; k = 12 goes to the box trapezoid.
  const auto boxes = gpu_cases({1022, 517, 1}, {Extent{1022, 517, 1}, Extent{150, 70, 1}},
                               {Heights{2, 2}, Heights{3, 3}, Heights{5, 5}, Heights{8, 8}, Heights{16, 8}, Heights{7, 4},
                                Heights{12, 12}},
                               11);
  run_cases(apps::LifeByteWords{}, boxes, "dmda", random_byte_cells);
  run_cases(apps::LifeBits{}, boxes, "dmda", random_words);
}
// Box stencils wider than Life's 3x3 (5x5 and 3x5): the box trapezoid's ghost
// zone of r*k per side with radii of 2, every boundary, tiles that divide nothing.
TEST(GpuEquality, BoxStencilsOfRadiusTwo) {
  for (const Heights& h : {Heights{2, 2}, Heights{4, 2}, Heights{3, 3}, Heights{4, 4}, Heights{6, 5}}) {
    std::vector<Case> cases;
    for (const Boundary& b : every_boundary) {
      for (const Extent& t : {Extent{301, 203, 1}, Extent{301, 68, 1}, Extent{150, 70, 1}}) {
        Case c{{301, 203, 1}, t, b, h.task, 11};
        c.kernel_height = h.kernel;
        c.devices = StageDevices::gpu;
        cases.push_back(c);
      }
    }
    SCOPED_TRACE("k " + std::to_string(h.kernel));
    run_cases(tests::WeightedBox<2, 2>{}, cases);
    run_cases(tests::WeightedBox<1, 2>{}, cases);
    if (testing::Test::HasFatalFailure() || testing::Test::IsSkipped()) return;
  }
}

// A 67x45x39 domain: one tile, slabs, and tiles that divide nothing.
std::vector<Case> cases_3d() {
  const Extent size{67, 45, 39};
  return gpu_cases(size, {size, Extent{67, 45, 13}, Extent{40, 20, 10}}, gpu_heights, 8);
}

TEST(GpuEquality, Jacobi3D) { run_cases(apps::Jacobi3D<float>{}, cases_3d()); }

// Himeno: two updated fields, twelve read-only ones, a 19-point box in 3-D.
TEST(GpuEquality, Himeno) { run_cases(apps::Himeno{}, cases_3d()); }

// CIP: three updated fields, velocities of both signs read at neighbours.
using tests::velocities_of_both_signs;

TEST(GpuEquality, CipFloat) {
  run_cases(apps::Cip<float>{}, cases_2d({301, 203, 1}, 13), "dmda", velocities_of_both_signs<float>);
}
TEST(GpuEquality, CipDouble) {
  run_cases(apps::Cip<double>{}, cases_2d({157, 131, 1}, 9), "dmda", velocities_of_both_signs<double>);
}

TEST(GpuEquality, Pathfinder) {
  std::vector<Case> cases;
  for (const Extent& t : {Extent{100003, 1, 1}, Extent{30011, 1, 1}, Extent{5000, 1, 1}}) {
    for (const Heights& h : gpu_heights) {
      Case c{{100003, 1, 1}, t, Boundary::clamp(), h.task, 37};
      c.kernel_height = h.kernel;
      c.constant_planes = c.steps;
      c.devices = StageDevices::gpu;
      cases.push_back(c);
    }
  }
  run_cases(apps::Pathfinder{}, cases);
}

// CPU and GPU workers together: tiles move between host and device memory
// (one padded buffer on the host, two on the GPU) and every stage still agrees.
TEST(GpuEquality, CpuAndGpuWorkersTogether) {
  for (const char* scheduler : {"dmda", "eager", "lws"}) {
    std::vector<Case> cases;
    for (const Boundary& b : every_boundary) {
      Case c{{301, 203, 1}, {64, 40, 1}, b, 3, 14};
      c.kernel_height = 2;
      c.devices = StageDevices::all;
      cases.push_back(c);
    }
    SCOPED_TRACE(scheduler);
    run_cases(apps::Jacobi2D<float>{}, cases, scheduler);
    run_cases(apps::Hotspot::for_grid(203, 301), cases, scheduler);
    if (testing::Test::HasFatalFailure() || testing::Test::IsSkipped()) return;
  }
}

// Every GPU of the machine under the policy Trapeze picks itself
// (trapeze-owner with several GPUs): tiles stay on their partition's GPU,
// strips cross between the GPUs, and the result is the reference's.
TEST(GpuEquality, EveryGpuUnderTheDefaultPolicy) {
  trapeze::Runtime runtime;
  if (runtime.cuda_worker_count() < 2) GTEST_SKIP() << "fewer than two CUDA workers: multi-GPU test skipped";
  EXPECT_EQ(runtime.scheduler(), "trapeze-owner");
  for (const Boundary& b : every_boundary) {
    Case flat{{301, 203, 1}, {301, 51, 1}, b, 3, 13};
    flat.kernel_height = 3;
    flat.devices = StageDevices::gpu;
    tests::expect_matches_reference(runtime, apps::Jacobi2D<float>{}, flat);
    Case cube{{67, 45, 53}, {67, 45, 14}, b, 2, 7};
    cube.devices = StageDevices::gpu;
    tests::expect_matches_reference(runtime, apps::Jacobi3D<float>{}, cube);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// Large enough that the kernels run many blocks per launch and several launches per stage.
// k = 1 runs the single-step kernel, whose blocks away from the domain's edge
// read device memory without any boundary check.
TEST(GpuEquality, LargeTilesManyBlocks) {
  Case trapezoid{{4099, 2051, 1}, {4099, 700, 1}, Boundary::clamp(), 8, 20};
  trapezoid.kernel_height = 4;
  trapezoid.devices = StageDevices::gpu;
  Case single_step = trapezoid;
  single_step.boundary = Boundary::constant(0.25);
  single_step.kernel_height = 1;
  // The 2-D register trapezoid at its larger heights (k = 8, 12, 16), every
  // boundary; k = 6 (not one of its heights) goes to the box trapezoid.
  std::vector<Case> squares{trapezoid, single_step};
  for (const auto& [boundary, heights] : {std::pair{Boundary::clamp(), Heights{16, 8}}, std::pair{Boundary::periodic(), Heights{16, 16}},
                                          std::pair{Boundary::constant(0.5), Heights{12, 12}}, std::pair{Boundary::clamp(), Heights{18, 6}}}) {
    Case c{{2999, 1531, 1}, {2999, 600, 1}, boundary, heights.task, 20};
    c.kernel_height = heights.kernel;
    c.devices = StageDevices::gpu;
    squares.push_back(c);
  }
  run_cases(apps::Jacobi2D<float>{}, squares);
  run_cases(apps::Hotspot::for_grid(1531, 2999), {squares[2], squares[3], squares[4]});
  // Life's box trapezoid on blocks away from the edges, every boundary.
  std::vector<Case> life;
  for (const auto& [boundary, heights] : {std::pair{Boundary::clamp(), Heights{16, 8}}, std::pair{Boundary::periodic(), Heights{12, 6}},
                                          std::pair{Boundary::constant(1), Heights{8, 4}}, std::pair{Boundary::clamp(), Heights{9, 3}},
                                          std::pair{Boundary::periodic(), Heights{7, 7}}, std::pair{Boundary::constant(0), Heights{10, 2}}}) {
    Case c{{2999, 1531, 1}, {2999, 600, 1}, boundary, heights.task, 20};
    c.kernel_height = heights.kernel;
    c.devices = StageDevices::gpu;
    life.push_back(c);
  }
  run_cases(apps::Life{}, life);
  // Bit-parallel Life on 32-bit words: the same box kernels on 4-byte values.
  run_cases(apps::LifeBits{}, life, "dmda", random_words);
  run_cases(apps::LifeByteWords{}, life, "dmda", random_byte_cells);
  Case cube{{131, 97, 75}, {131, 97, 40}, Boundary::clamp(), 3, 7};
  cube.kernel_height = 1;
  cube.devices = StageDevices::gpu;
  // The 3-D register trapezoid (k >= 2): blocks wholly inside the domain take
  // its unchecked path; every k it instantiates, every boundary.
  std::vector<Case> cubes{cube};
  for (const auto& [boundary, heights] : {std::pair{Boundary::clamp(), Heights{8, 4}}, std::pair{Boundary::periodic(), Heights{6, 6}},
                                          std::pair{Boundary::constant(0.5), Heights{5, 5}}, std::pair{Boundary::clamp(), Heights{9, 3}},
                                          std::pair{Boundary::periodic(), Heights{7, 2}}}) {
    Case c{{163, 101, 87}, {163, 101, 50}, boundary, heights.task, 11};
    c.kernel_height = heights.kernel;
    c.devices = StageDevices::gpu;
    cubes.push_back(c);
  }
  run_cases(apps::Jacobi3D<float>{}, cubes);
}

}  // namespace

namespace {

// A few small cases of every app, for compute-sanitizer (memcheck, racecheck):
// each boundary, single-step and temporally blocked kernels, several tiles.
// Streamed tiles (out-of-core: each written back after its stage and
// fetched again) on the GPUs: odd and even launch counts, tiles of different
// sizes, read-only and several updated fields, 2-D and 3-D.
TEST(GpuEquality, StreamedTiles) {
  auto streamed = [](std::vector<Case> cases) {
    for (Case& c : cases) c.stream_tiles = true;
    return cases;
  };
  run_cases(apps::Jacobi2D<float>{}, streamed(cases_2d({301, 203, 1}, 13)));
  run_cases(apps::Hotspot::for_grid(203, 301), streamed(cases_2d({301, 203, 1}, 13)));
  run_cases(apps::Cip<float>{}, streamed(cases_2d({301, 203, 1}, 13)), "dmda", velocities_of_both_signs<float>);
  run_cases(apps::Jacobi3D<float>{}, streamed(cases_3d()));
}

// Skewed slabs (trapeze/skewed_run.hpp) with their CUDA task, over the
// cases of tests/skewed_cases.hpp: read-only fields left in the slabs
// (Himeno, HotSpot) and copied into the window (CIP).
template <trapeze::Stencil S>
void expect_skewed_on_gpu_matches(const S& stencil, const Extent& extent, Boundary boundary, bool both_signs = false) {
  trapeze::Runtime runtime({"dmda", 2, 1});
  if (runtime.cuda_worker_count() == 0) GTEST_SKIP() << "no CUDA worker (no GPU or STARPU_NCUDA=0): GPU test skipped";
  tests::expect_skewed_matches_reference(
      stencil, extent, boundary, both_signs,
      [&](auto& grid, const trapeze::SkewedSlabs& slabs, trapeze::Index steps, trapeze::Index first_step) {
        trapeze::SkewedRun run(runtime, stencil, grid, slabs, StageDevices::gpu);
        run.advance(steps, first_step);
      });
}

TEST(GpuEquality, SkewedSlabs) {
  expect_skewed_on_gpu_matches(apps::Jacobi2D<float>{}, {301, 203, 1}, Boundary::clamp());
  expect_skewed_on_gpu_matches(apps::Jacobi3D<float>{}, {45, 37, 29}, Boundary::constant(0.75));
  expect_skewed_on_gpu_matches(apps::Himeno{}, {37, 29, 23}, Boundary::clamp());
  expect_skewed_on_gpu_matches(apps::Cip<float>{}, {101, 63, 1}, Boundary::clamp(), true);
  expect_skewed_on_gpu_matches(apps::Hotspot::for_grid(203, 301), {301, 203, 1}, Boundary::clamp());
  expect_skewed_on_gpu_matches(apps::Life{}, {301, 203, 1}, Boundary::constant(0));
}

TEST(GpuSanitizer, SmallCasesOfEveryApp) {
  // Each boundary, a single step and a launch of 3 steps in a stage of 4, two tiles.
  auto small_2d = [](trapeze::Index width) {
    std::vector<Case> cases;
    for (const Boundary& b : every_boundary) {
      for (const Heights& h : {Heights{1, 1}, Heights{4, 3}}) {
        Case c{{width, 61, 1}, {width, 25, 1}, b, h.task, 5};
        c.kernel_height = h.kernel;
        c.devices = StageDevices::gpu;
        cases.push_back(c);
      }
    }
    return cases;
  };
  const std::vector<Case> cases = small_2d(97);
  run_cases(apps::Jacobi2D<float>{}, cases);
  std::vector<Case> streamed = cases;  // written back after each stage
  for (Case& c : streamed) c.stream_tiles = true;
  run_cases(apps::Jacobi2D<float>{}, streamed);
  run_cases(apps::Life{}, cases);
  run_cases(apps::LifeBits{}, cases, "dmda", random_words);
  run_cases(apps::LifeByteWords{}, cases, "dmda", random_byte_cells);
  run_cases(apps::Hotspot::for_grid(61, 97), cases);
  // Rows of a multiple of 4 cells (94 + 2 ghost cells, and 94 + 2 x 5 after
  // the widening): the 16-byte single step.
  const std::vector<Case> rows_of_four = small_2d(94);
  run_cases(apps::Jacobi2D<float>{}, rows_of_four);
  run_cases(apps::Hotspot::for_grid(61, 94), rows_of_four);
  run_cases(tests::WeightedBox<2, 2>{}, rows_of_four);
  // ... and the 16-byte 2-D trapezoid (k = 3) on a 3x3 box.
  run_cases(apps::LifeByteWords{}, rows_of_four, "dmda", random_byte_cells);
  std::vector<Case> cases_3d;
  for (const Boundary& b : every_boundary) {
    Case c{{23, 17, 13}, {23, 17, 7}, b, 3, 4};
    c.kernel_height = 2;
    c.devices = StageDevices::gpu;
    cases_3d.push_back(c);
  }
  run_cases(apps::Jacobi3D<float>{}, cases_3d);
  run_cases(apps::Himeno{}, cases_3d);
  // Rows of 22 + 2 x 2 cells: the 16-byte 3-D single step.
  std::vector<Case> rows_of_four_3d;
  for (const Boundary& b : every_boundary) {
    Case c{{22, 17, 13}, {22, 17, 7}, b, 1, 4};
    c.devices = StageDevices::gpu;
    rows_of_four_3d.push_back(c);
  }
  run_cases(apps::Jacobi3D<float>{}, rows_of_four_3d);
  run_cases(apps::Cip<float>{}, cases, "dmda", velocities_of_both_signs<float>);
  Case path{{5003, 1, 1}, {2000, 1, 1}, Boundary::clamp(), 4, 9};
  path.kernel_height = 3;  // a launch of 3 steps, then the single-step kernel
  path.constant_planes = path.steps;
  path.devices = StageDevices::gpu;
  run_cases(apps::Pathfinder{}, {path});
}

}  // namespace
