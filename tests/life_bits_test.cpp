// Bit-parallel Life (32 cells a word) is Conway's game bit for bit: from the
// same random boards, the packed stencil's words unpack to the byte-cell
// stencil's cells after every tested step count, on every boundary the app
// accepts with it (dead, alive, periodic), at widths of one word and many,
// and through the runtime's tiles and heights as well as the sequential
// reference.
#include <gtest/gtest.h>

#include <vector>

#include "reference_check.hpp"
#include "life_boards.hpp"
#include "stencils/life_bits.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"

namespace {

using trapeze::Boundary;
using trapeze::Extent;
using trapeze::Grid;

const Boundary dead = Boundary::constant(0), alive = Boundary::constant(1), periodic = Boundary::periodic();

using tests::random_life_cells;

Grid<std::uint32_t> packed_grid(const std::vector<std::uint8_t>& start, long width, long height,
                                const Boundary& boundary) {
  Grid<std::uint32_t> grid({width / 32, height, 1}, 2, 1, 0, 1, apps::life_bits_boundary(boundary));
  const auto words = apps::pack_life_cells(start.data(), width, height);
  std::copy(words.begin(), words.end(), grid.updated().begin());
  return grid;
}

TEST(LifeBits, PackingRoundTrips) {
  const auto cells = random_life_cells(96, 5, 3, 0.5);
  EXPECT_EQ(apps::unpack_life_words(apps::pack_life_cells(cells.data(), 96, 5), 96, 5), cells);
}

TEST(LifeBits, EqualsByteCellsOnEveryAcceptedBoundary) {
  for (const Boundary& b : {dead, alive, periodic}) {
    for (const auto& [width, height] : {std::pair{32L, 1L}, {32L, 29L}, {64L, 37L}, {160L, 61L}}) {
      for (double density : {0.1, 0.3, 0.6}) {
        const auto start = random_life_cells(width, height, static_cast<std::uint64_t>(width * 131 + height), density);
        for (trapeze::Index steps : {1, 2, 7, 40}) {
          auto words = packed_grid(start, width, height, b);
          trapeze::reference::advance(apps::LifeBits{}, words, steps);
          EXPECT_EQ(apps::unpack_life_words(words.updated(), width, height), tests::life_cells_after(start, width, height, b, steps))
              << "board " << width << "x" << height << " boundary " << trapeze::to_string(b) << " density " << density
              << " steps " << steps;
        }
      }
    }
  }
}

TEST(LifeBits, GliderCrossesWordBoundaries) {
  // A glider moves one cell diagonally every 4 steps: started at x = 28,
  // after 32 steps it sits 8 cells right and down, across the word boundary
  // at x = 32.
  const long width = 96, height = 40;
  std::vector<std::uint8_t> start(width * height, 0), expected(width * height, 0);
  const int glider[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  for (const auto& [x, y] : glider) {
    start[static_cast<std::size_t>((y + 5) * width + x + 28)] = 1;
    expected[static_cast<std::size_t>((y + 13) * width + x + 36)] = 1;
  }
  auto words = packed_grid(start, width, height, dead);
  trapeze::reference::advance(apps::LifeBits{}, words, 32);
  EXPECT_EQ(apps::unpack_life_words(words.updated(), width, height), expected);
}

TEST(LifeBits, ThroughTheRuntimeEqualsByteCells) {
  // Tiles of odd word counts and rows, trapezoids of several heights.
  trapeze::Runtime runtime({"dmda", 2, 1});
  const long width = 32 * 13, height = 71;
  for (const Boundary& b : {dead, periodic}) {
    for (const auto& [tile, h] : {std::pair{Extent{5, 16, 1}, 1}, {Extent{4, 23, 1}, 3}, {Extent{13, 9, 1}, 5}}) {
      const auto start = random_life_cells(width, height, 7, 0.35);
      auto words = packed_grid(start, width, height, b);
      trapeze::Plan plan;
      plan.tile = tile;
      plan.height = h;
      trapeze::StencilRun<apps::LifeBits> run(runtime, apps::LifeBits{}, words, plan);
      run.submit(17);
      run.wait();
      EXPECT_EQ(apps::unpack_life_words(words.updated(), width, height), tests::life_cells_after(start, width, height, b, 17))
          << "tile " << trapeze::to_string(tile, 2) << " h " << h << " boundary " << trapeze::to_string(b);
    }
  }
}

}  // namespace
