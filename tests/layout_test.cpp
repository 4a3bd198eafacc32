// The layouts' index maps (trapeze/layout.hpp) and their CPU conversions: each
// layout is a bijection onto the array's cells, the diagonal layouts put a
// diagonal's cells together in row order and diagonals in order, and every
// conversion and dimension exchange undoes itself. These are the reference
// the GPU kernels are checked against (gpu_layout_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "trapeze/banded_layout.hpp"
#include "trapeze/layout.hpp"

namespace {

using trapeze::Extent;
using trapeze::Index;
using trapeze::Layout2D;

const std::vector<std::pair<Index, Index>> shapes{{1, 1}, {1, 9}, {9, 1}, {2, 3}, {3, 2}, {5, 5}, {7, 12}, {12, 7}, {33, 65}, {64, 3}};
const Layout2D layouts[] = {Layout2D::row_major, Layout2D::column_major, Layout2D::anti_diagonal, Layout2D::diagonal};

TEST(Layout, EveryLayoutIsABijectionOntoTheCells) {
  for (const auto& [rows, columns] : shapes) {
    for (Layout2D layout : layouts) {
      std::vector<int> seen(static_cast<std::size_t>(rows * columns), 0);
      for (Index i = 0; i < rows; ++i) {
        for (Index j = 0; j < columns; ++j) {
          const Index at = trapeze::layout_index(layout, i, j, rows, columns);
          ASSERT_GE(at, 0);
          ASSERT_LT(at, rows * columns);
          ++seen[static_cast<std::size_t>(at)];
        }
      }
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }))
          << rows << "x" << columns << " layout " << static_cast<int>(layout);
    }
  }
}

TEST(Layout, DiagonalLayoutsKeepADiagonalTogetherInRowOrder) {
  for (const auto& [rows, columns] : shapes) {
    // Walking the cells in layout order: the key (i + j, or columns - 1 - (j - i)) never
    // decreases, and within one key the row increases by one.
    for (Layout2D layout : {Layout2D::anti_diagonal, Layout2D::diagonal}) {
      std::vector<std::pair<Index, Index>> order(static_cast<std::size_t>(rows * columns));
      for (Index i = 0; i < rows; ++i) {
        for (Index j = 0; j < columns; ++j) order[static_cast<std::size_t>(trapeze::layout_index(layout, i, j, rows, columns))] = {i, j};
      }
      auto key = [&](const std::pair<Index, Index>& c) {
        return layout == Layout2D::anti_diagonal ? c.first + c.second : columns - 1 - (c.second - c.first);
      };
      for (std::size_t n = 1; n < order.size(); ++n) {
        const Index previous = key(order[n - 1]), current = key(order[n]);
        ASSERT_TRUE(current == previous + 1 || (current == previous && order[n].first == order[n - 1].first + 1))
            << rows << "x" << columns << " at position " << n;
      }
    }
  }
}

TEST(Layout, AntiDiagonalStartCountsTheCellsBefore) {
  for (const auto& [rows, columns] : shapes) {
    Index before = 0;
    for (Index d = 0; d < rows + columns - 1; ++d) {
      EXPECT_EQ(trapeze::anti_diagonal_start(d, rows, columns), before) << rows << "x" << columns << " diagonal " << d;
      for (Index i = 0; i < rows; ++i) before += (d - i >= 0 && d - i < columns);
    }
    EXPECT_EQ(trapeze::anti_diagonal_start(rows + columns - 1, rows, columns), rows * columns);
  }
}

TEST(Layout, ConversionsRoundTrip) {
  std::mt19937 random(17);
  for (const auto& [rows, columns] : shapes) {
    std::vector<int> a(static_cast<std::size_t>(rows * columns)), b(a.size()), c(a.size());
    for (int& v : a) v = static_cast<int>(random());
    for (Layout2D to : layouts) {
      trapeze::convert_layout(a.data(), Layout2D::row_major, b.data(), to, rows, columns);
      trapeze::convert_layout(b.data(), to, c.data(), Layout2D::row_major, rows, columns);
      EXPECT_EQ(a, c) << rows << "x" << columns << " through layout " << static_cast<int>(to);
    }
  }
  // A small case by hand: 2 x 3, anti-diagonal order (0,0) (0,1) (1,0) (0,2) (1,1) (1,2).
  const std::vector<int> m{0, 1, 2, 10, 11, 12}, expected{0, 1, 10, 2, 11, 12};
  std::vector<int> got(6);
  trapeze::convert_layout(m.data(), Layout2D::row_major, got.data(), Layout2D::anti_diagonal, 2, 3);
  EXPECT_EQ(got, expected);
  // Parallel to the main diagonal: by j - i from 2 down: (0,2) (0,1) (1,2) (0,0) (1,1) (1,0).
  trapeze::convert_layout(m.data(), Layout2D::row_major, got.data(), Layout2D::diagonal, 2, 3);
  EXPECT_EQ(got, (std::vector<int>{2, 1, 12, 0, 11, 10}));
}

TEST(Layout, DimensionExchangesUndoThemselves) {
  const Extent e{5, 3, 4};
  std::vector<int> a(60), b(60), c(60);
  std::iota(a.begin(), a.end(), 0);
  for (auto [x, y] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) {
    trapeze::swap_dimensions(a.data(), b.data(), e, x, y);
    trapeze::swap_dimensions(b.data(), c.data(), trapeze::swapped_extent(e, x, y), x, y);
    EXPECT_EQ(a, c) << "dimensions " << x << " and " << y;
  }
  // (x, z) exchanged: cell (x=1, y=2, z=3) of 5x3x4 lands at (3, 2, 1) of 4x3x5.
  trapeze::swap_dimensions(a.data(), b.data(), e, 0, 2);
  EXPECT_EQ(b[(1 * 3 + 2) * 4 + 3], a[(3 * 3 + 2) * 5 + 1]);
}

}  // namespace

// Seed 004's banded (hybrid row/diagonal-major) layout of a wavefront tile
// (trapeze/banded_layout.hpp): a bijection onto its slots, the 32 lanes of
// a step side by side, and conversions that undo each other.
namespace {

using trapeze::BandedLayout;

const std::vector<std::pair<Index, Index>> band_shapes{{1, 1},  {1, 40},  {40, 1},  {31, 5},  {32, 31},
                                                       {33, 32}, {100, 33}, {257, 100}, {70, 3}};
const int lane_rows_tried[] = {1, 3, 8, 16};

TEST(BandedLayout, IsABijectionOntoItsSlotsLeavingOnlyTheLastBandsPadding) {
  for (const auto& [rows, columns] : band_shapes) {
    for (int lane_rows : lane_rows_tried) {
      const BandedLayout layout{rows, columns, lane_rows};
      EXPECT_GE(layout.cells(), rows * columns);
      EXPECT_LT(layout.cells() - rows * columns, layout.band_rows() * columns);  // padding: less than one band
      std::vector<int> seen(static_cast<std::size_t>(layout.cells()), 0);
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < columns; ++c) {
          const Index at = layout.index(r, c);
          ASSERT_GE(at, 0);
          ASSERT_LT(at, layout.cells());
          ++seen[static_cast<std::size_t>(at)];
        }
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), rows * columns) << rows << "x" << columns << " L " << lane_rows;
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 0), layout.cells() - rows * columns);
    }
  }
}

// What the GPU kernel relies on: at step s lane k computes column s - k of
// its rows, and those 32 cells of one lane row are neighbours, lane by lane,
// in slot s mod columns of the band.
TEST(BandedLayout, TheLanesOfAStepAreNeighbours) {
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{{96, 40}, {512, 100}, {64, 7}}) {
    for (int lane_rows : {1, 3, 8}) {
      const BandedLayout layout{rows, columns, lane_rows};
      for (Index band = 0; band * layout.band_rows() + layout.band_rows() <= rows; ++band) {
        for (Index s = 0; s < columns + 31; ++s) {
          for (int j = 0; j < lane_rows; ++j) {
            const Index slot_start = ((band * columns + s % columns) * layout.band_rows()) + j * 32;
            for (int k = 0; k < 32; ++k) {
              const Index c = s - k;
              if (c < 0 || c >= columns) continue;
              ASSERT_EQ(layout.index(band * layout.band_rows() + k * lane_rows + j, c), slot_start + k)
                  << "band " << band << " step " << s << " lane " << k << " lane row " << j;
            }
          }
        }
      }
    }
  }
}

template <typename T>
void expect_round_trip(std::mt19937& random) {
  for (const auto& [rows, columns] : band_shapes) {
    for (int lane_rows : lane_rows_tried) {
      const BandedLayout layout{rows, columns, lane_rows};
      const Index ld = columns + 3;  // a tile inside a wider array
      std::vector<T> tile(static_cast<std::size_t>(rows * ld)), back(tile.size());
      auto* bytes = reinterpret_cast<unsigned char*>(tile.data());
      for (std::size_t i = 0; i < tile.size() * sizeof(T); ++i) bytes[i] = static_cast<unsigned char>(random());
      std::vector<T> banded(static_cast<std::size_t>(layout.cells()));
      trapeze::to_banded(tile.data(), ld, layout, banded.data());
      for (Index r = 0; r < rows; ++r) {
        for (Index c = 0; c < columns; ++c) {
          ASSERT_EQ(std::memcmp(&banded[layout.index(r, c)], &tile[r * ld + c], sizeof(T)), 0);
        }
      }
      trapeze::from_banded(banded.data(), layout, back.data(), ld);
      for (Index r = 0; r < rows; ++r) {
        ASSERT_EQ(std::memcmp(&back[r * ld], &tile[r * ld], sizeof(T) * columns), 0)
            << rows << "x" << columns << " L " << lane_rows << " row " << r << ", " << sizeof(T) << "-byte cells";
      }
    }
  }
}

struct TwentyBytes {
  std::uint32_t word[5];
};

TEST(BandedLayout, ConversionsUndoEachOtherForCellsOfAnySize) {
  std::mt19937 random(17);
  expect_round_trip<std::uint8_t>(random);
  expect_round_trip<std::uint32_t>(random);
  expect_round_trip<std::uint64_t>(random);
  expect_round_trip<TwentyBytes>(random);
}

}  // namespace
