// Byte-cell Life four cells a word is Conway's game byte for byte: from the
// same random boards, the words' bytes equal the byte-cell stencil's cells
// after every tested step count, on every boundary the app accepts with it
// (dead, alive, periodic), at widths of one word and many, through the
// sequential reference and through the runtime's tiles and heights; and the
// word update equals the byte rule for every neighbourhood count.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "life_boards.hpp"
#include "stencils/life_byte_words.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"

namespace {

using trapeze::Boundary;
using trapeze::Extent;
using trapeze::Grid;

const Boundary dead = Boundary::constant(0), alive = Boundary::constant(1), periodic = Boundary::periodic();

using tests::random_life_cells;

Grid<std::uint32_t> word_grid(const std::vector<std::uint8_t>& start, long width, long height, const Boundary& boundary) {
  Grid<std::uint32_t> grid({width / 4, height, 1}, 2, 1, 0, 1, apps::life_byte_words_boundary(boundary));
  const auto words = apps::life_cells_as_words(start.data(), width, height);
  std::copy(words.begin(), words.end(), grid.updated().begin());
  return grid;
}

TEST(LifeByteWords, WordsAreTheBoardsBytes) {
  const auto cells = random_life_cells(12, 5, 3, 0.5);
  const auto words = apps::life_cells_as_words(cells.data(), 12, 5);
  ASSERT_EQ(words.size(), 15u);
  // Byte i of word x is cell 4x + i.
  EXPECT_EQ(words[4] & 0xffu, cells[16]);
  EXPECT_EQ((words[4] >> 24) & 0xffu, cells[19]);
  EXPECT_EQ(apps::life_words_as_cells(words), cells);
}

TEST(LifeByteWords, UpdateIsTheRuleForEveryCount) {
  // One lane at a time: the centre cell alive or dead and each of the 2^8
  // neighbour patterns, in each of a word's four lanes, with the other
  // lanes' cells random.
  std::mt19937 engine(5);
  for (int lane = 0; lane < 4; ++lane) {
    for (std::uint32_t self = 0; self < 2; ++self) {
      for (std::uint32_t pattern = 0; pattern < 256; ++pattern) {
        // 3x3 words (the word and its 8 neighbours), random 0/1 bytes.
        std::uint32_t box[3][3];
        for (auto& row : box) {
          for (auto& w : row) w = engine() & apps::LifeByteWords::lanes(1);
        }
        // The lane's 8 neighbours: bytes lane-1, lane, lane+1 of the rows
        // above and below, lane-1 and lane+1 of its own row (lanes -1 and 4
        // are in the words to the west and east).
        const int neighbour_at[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
        auto set = [&](int dx, int dy, std::uint32_t v) {
          const int byte = lane + dx, word = byte < 0 ? 0 : byte > 3 ? 2 : 1, shift = 8 * ((byte + 4) % 4);
          std::uint32_t& w = box[dy + 1][word];
          w = (w & ~(0xffu << shift)) | (v << shift);
        };
        int count = 0;
        for (int n = 0; n < 8; ++n) {
          const std::uint32_t v = (pattern >> n) & 1u;
          set(neighbour_at[n][0], neighbour_at[n][1], v);
          count += static_cast<int>(v);
        }
        set(0, 0, self);
        const trapeze::Neighbourhood<std::uint32_t> at{&box[1][1], 3, 9, 0, nullptr, 0, 0, 0, 0};
        const std::uint32_t next = (apps::LifeByteWords{}(at) >> (8 * lane)) & 0xffu;
        EXPECT_EQ(next, (count == 3 || (count == 2 && self == 1)) ? 1u : 0u)
            << "lane " << lane << " self " << self << " neighbours " << pattern;
      }
    }
  }
}

TEST(LifeByteWords, EqualsByteCellsOnEveryAcceptedBoundary) {
  for (const Boundary& b : {dead, alive, periodic}) {
    for (const auto& [width, height] : {std::pair{4L, 1L}, {4L, 29L}, {12L, 37L}, {84L, 61L}}) {
      for (double density : {0.1, 0.3, 0.6}) {
        const auto start = random_life_cells(width, height, static_cast<std::uint64_t>(width * 131 + height), density);
        for (trapeze::Index steps : {1, 2, 7, 40}) {
          auto words = word_grid(start, width, height, b);
          trapeze::reference::advance(apps::LifeByteWords{}, words, steps);
          EXPECT_EQ(apps::life_words_as_cells(words.updated()), tests::life_cells_after(start, width, height, b, steps))
              << "board " << width << "x" << height << " boundary " << trapeze::to_string(b) << " density " << density
              << " steps " << steps;
        }
      }
    }
  }
}

TEST(LifeByteWords, ThroughTheRuntimeEqualsByteCells) {
  // Tiles of odd word counts and rows, trapezoids of several heights.
  trapeze::Runtime runtime({"dmda", 2, 1});
  const long width = 4 * 53, height = 71;
  for (const Boundary& b : {dead, alive, periodic}) {
    for (const auto& [tile, h] : {std::pair{Extent{5, 16, 1}, 1}, {Extent{13, 23, 1}, 3}, {Extent{53, 9, 1}, 5}}) {
      const auto start = random_life_cells(width, height, 7, 0.35);
      auto words = word_grid(start, width, height, b);
      trapeze::Plan plan;
      plan.tile = tile;
      plan.height = h;
      trapeze::StencilRun<apps::LifeByteWords> run(runtime, apps::LifeByteWords{}, words, plan);
      run.submit(17);
      run.wait();
      EXPECT_EQ(apps::life_words_as_cells(words.updated()), tests::life_cells_after(start, width, height, b, 17))
          << "tile " << trapeze::to_string(tile, 2) << " h " << h << " boundary " << trapeze::to_string(b);
    }
  }
}

}  // namespace
