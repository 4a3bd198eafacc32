// The library refuses what cannot work with one line naming the value
// (trapeze::InvalidArgument), where it used to wrap, read past a buffer or
// leave StarPU to assert.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "reference_check.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/error.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/tiling.hpp"

namespace {

template <typename Body>
void expect_invalid_argument_naming(const std::string& value, Body body) {
  try {
    body();
    FAIL() << "accepted; expected an error naming " << value;
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
  }
}

TEST(BadInput, DomainWhoseCellCountWrapsIsRefused) {
  // 2^32 x 2^32 cells wrapped to 0 cells.
  expect_invalid_argument_naming("4294967296x4294967296", [] {
    trapeze::checked_domain({trapeze::Index{1} << 32, trapeze::Index{1} << 32, 1}, 2);
  });
  expect_invalid_argument_naming("4611686018427387905x4", [] {
    trapeze::checked_domain({4611686018427387905, 4, 1}, 2);
  });
}

TEST(BadInput, TileCountPastAnIntIsRefused) {
  expect_invalid_argument_naming("tiles", [] { trapeze::Tiling({1 << 17, 1 << 15, 1}, 2, {1, 1, 1}); });
}

TEST(BadInput, GridLargerThanMemoryIsRefusedBeforeAllocating) {
  expect_invalid_argument_naming("1048576x1048576x1024", [] {
    trapeze::Grid<float> grid({1 << 20, 1 << 20, 1 << 10}, 3, 1);
  });
}

TEST(BadInput, TinyTilesWhoseHandlesExceedMemoryAreRefusedBeforeListingPieces) {
  // 36 million 1x1 tiles need at least 7 StarPU handles each (a tile and two
  // versions of 3 pieces), terabytes of StarPU's own bookkeeping. Listing
  // their halo pieces first used to take minutes and gigabytes before the
  // memory check refused them; now the refusal comes before any of that.
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{6000, 6000, 1}, {1, 1, 1}, trapeze::Boundary::clamp()};
  auto grid = tests::make_grid<apps::Jacobi2D<float>>(c);
  const auto start = std::chrono::steady_clock::now();
  expect_invalid_argument_naming("StarPU data handles", [&] {
    trapeze::StencilRun run(runtime, apps::Jacobi2D<float>{}, grid, trapeze::Plan{c.tile, 1});
  });
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0)
      << "the refusal should not wait for the halo layout of 36 million tiles";
}

TEST(BadInput, StepsPastTheLastConstantPlaneAreRefused) {
  // PathFinder reads one wall row per step; 5 steps over 3 rows read past
  // the buffer (AddressSanitizer: heap-buffer-overflow in Neighbourhood::constant).
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{40, 1, 1}, {10, 1, 1}, trapeze::Boundary::clamp()};
  c.constant_planes = 3;
  auto grid = tests::make_grid<apps::Pathfinder>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto reference = grid;
  {
    trapeze::StencilRun run(runtime, apps::Pathfinder{}, grid, trapeze::Plan{c.tile, 2});
    run.submit(2);
    expect_invalid_argument_naming("3 planes", [&] { run.submit(2); });
    run.submit(1);  // the third and last plane is still there to use
    run.wait();
    EXPECT_EQ(run.steps_submitted(), 3);
  }
  expect_invalid_argument_naming("3 planes", [&] { trapeze::reference::advance(apps::Pathfinder{}, reference, 4); });
  trapeze::reference::advance(apps::Pathfinder{}, reference, 3);
  EXPECT_EQ(grid.updated(0), reference.updated(0));
}

TEST(BadInput, NonFiniteBoundaryConstantIsRefused) {
  for (const char* text : {"constant:nan", "constant:inf", "constant:-inf", "constant:1e999"}) {
    expect_invalid_argument_naming(std::string(text).substr(9), [&] { trapeze::parse_boundary(text); });
  }
  EXPECT_EQ(trapeze::parse_boundary("constant:-2.5").value, -2.5);
}

TEST(BadInput, QuotedTextShowsNoRawBytes) {
  EXPECT_EQ(trapeze::quoted("abc"), "abc");
  EXPECT_EQ(trapeze::quoted(std::string("a\x01\xff", 3)), "a\\x01\\xff");
  const std::string shown = trapeze::quoted(std::string(500, 'x'));
  EXPECT_EQ(shown, std::string(60, 'x') + "...");
}

}  // namespace
