// Smith-Waterman's 16-bit AVX2 rows (SmithWaterman::cpu_rows) against the
// 32-bit cell update applied row by row, on single tiles with random strips:
// every strip value after the rows and the folded best score must be equal,
// bit for bit; tiles whose scores could leave 16 bits must be left to the
// generic codelet (0 rows).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "wavefronts/alignment_scoring.hpp"
#include "wavefronts/smith_waterman.hpp"

namespace {

using apps::AlignmentCell;
using apps::SmithWaterman;
using trapeze::Index;

struct Tile {
  Index rows = 0, columns = 0;
  std::vector<AlignmentCell> top, left;  // columns + 1, rows
  std::vector<std::uint8_t> query, target;
};

// Rows [0, rows) of the tile as the generic codelet's row-by-row order does.
std::int32_t rows_one_by_one(const SmithWaterman& w, Tile& t, Index rows) {
  std::int32_t best = 0;
  for (Index r = 0; r < rows; ++r) {
    AlignmentCell up_left = t.top[0];
    t.top[0] = t.left[static_cast<std::size_t>(r)];
    for (Index c = 0; c < t.columns; ++c) {
      const AlignmentCell up = t.top[static_cast<std::size_t>(c) + 1];
      const AlignmentCell value = w(trapeze::WavefrontNeighbours<AlignmentCell>{up, t.top[static_cast<std::size_t>(c)], up_left, r, c},
                                    t.query[static_cast<std::size_t>(r)], t.target[static_cast<std::size_t>(c)], trapeze::NoInput{});
      best = std::max(best, value.h);
      up_left = up;
      t.top[static_cast<std::size_t>(c) + 1] = value;
    }
    t.left[static_cast<std::size_t>(r)] = t.top[static_cast<std::size_t>(t.columns)];
  }
  return best;
}

Index simd_rows(const SmithWaterman& w, Tile& t, std::int32_t& best) {
  const trapeze::WavefrontTileCells<SmithWaterman> cells{0, 0, t.rows, t.columns, t.top.data(), t.left.data(), t.query.data(), t.target.data()};
  return w.cpu_rows(cells, best);
}

// A cell left by an earlier tile: h >= 0, gaps at or below h (or minus
// infinity at the wavefront's edge).
AlignmentCell random_cell(std::mt19937_64& random, std::int32_t highest, const SmithWaterman& w) {
  std::uniform_int_distribution<std::int32_t> h_of(0, highest);
  const std::int32_t h = h_of(random);
  auto gap = [&] {
    if (random() % 4 == 0) return SmithWaterman::minus_infinity;
    std::uniform_int_distribution<std::int32_t> g(-w.gap_open, h);
    return g(random);
  };
  const std::int32_t e = gap(), f = gap();
  return {h, e, f};
}

Tile random_tile(Index rows, Index columns, apps::Alphabet alphabet, std::int32_t highest, const SmithWaterman& w,
                 std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Tile t;
  t.rows = rows, t.columns = columns;
  t.query = apps::encode(apps::random_residues(static_cast<std::size_t>(rows), alphabet, seed + 1), alphabet);
  t.target = apps::encode(apps::random_residues(static_cast<std::size_t>(columns), alphabet, seed + 2), alphabet);
  for (Index c = 0; c <= columns; ++c) t.top.push_back(random_cell(random, highest, w));
  for (Index r = 0; r < rows; ++r) t.left.push_back(random_cell(random, highest, w));
  return t;
}

void expect_same_cells(const std::vector<AlignmentCell>& got, const std::vector<AlignmentCell>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(got[i].h == want[i].h && got[i].e == want[i].e && got[i].f == want[i].f)
        << what << " [" << i << "]: got (" << got[i].h << ", " << got[i].e << ", " << got[i].f << "), want ("
        << want[i].h << ", " << want[i].e << ", " << want[i].f << ")";
  }
}

struct Scoring {
  apps::Alphabet alphabet;
  int match, mismatch, open, extend;
};
const std::vector<Scoring> scorings{{apps::Alphabet::dna, 2, -3, 5, 2},
                                    {apps::Alphabet::dna, 1, -1, 1, 1},
                                    {apps::Alphabet::protein, 0, 0, 10, 1},
                                    {apps::Alphabet::protein, 0, 0, 11, 11},
                                    {apps::Alphabet::dna, 5, -4, 200, 0}};

TEST(SmithWatermanRows, EveryStripValueAndTheBestEqualTheCellUpdate) {
#if !defined(__AVX2__)
  GTEST_SKIP() << "built without AVX2: cpu_rows always leaves the rows to the generic codelet";
#endif
  std::uint64_t seed = 1;
  int checked = 0, in_8_bits = 0, in_16_bits = 0;
  for (const Scoring& s : scorings) {
    const auto w = apps::make_smith_waterman(s.alphabet, s.match, s.mismatch, s.open, s.extend);
    for (Index rows : {16, 32, 37, 48, 64}) {
      for (Index columns : {1, 2, 15, 16, 17, 100, 333}) {
        for (std::int32_t highest : {0, 40, 3000}) {
          Tile simd = random_tile(rows, columns, s.alphabet, highest, w, seed++);
          Tile scalar = simd;
          std::int32_t best = 7;  // what earlier tiles folded: the rows' best is merged into it
          const Index done = simd_rows(w, simd, best);
          const std::string what = std::to_string(rows) + "x" + std::to_string(columns) + " open " +
                                   std::to_string(s.open) + " highest " + std::to_string(highest);
          // 32-row stripes of 8-bit lanes while the strips entering hold
          // less than 127, else 16-row stripes of 16-bit lanes.
          // (Or 16-bit stripes when a score of the tile reached 127.)
          const bool eight_bits = highest < 127 && s.open < 114 && rows >= 32;
          if (eight_bits && done == rows / 32 * 32) {
            ++in_8_bits;
          } else {
            ASSERT_EQ(done, rows / 16 * 16) << what;
            ++in_16_bits;
          }
          const std::int32_t want_best = std::max(7, rows_one_by_one(w, scalar, done));
          EXPECT_EQ(best, want_best) << what;
          expect_same_cells(simd.top, scalar.top, what + " top strip");
          expect_same_cells(simd.left, scalar.left, what + " left strip");
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 5 * 5 * 7 * 3);
  EXPECT_GT(in_8_bits, checked / 3);
  EXPECT_GT(in_16_bits, checked / 3);
}

TEST(SmithWatermanRows, TilesThatReachTheTopOf8BitsAreRedoneIn16) {
#if !defined(__AVX2__)
  GTEST_SKIP() << "built without AVX2";
#endif
  // Identical sequences: the diagonal climbs 2 a cell from 100 and passes
  // 127 within the tile's first stripe of 32 rows.
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  Tile simd = random_tile(64, 64, apps::Alphabet::dna, 0, w, 77);
  simd.target = simd.query;
  simd.top[0].h = 100;
  Tile scalar = simd;
  std::int32_t best = 0;
  ASSERT_EQ(simd_rows(w, simd, best), 64);  // 16-bit stripes: all 64 rows
  EXPECT_EQ(best, rows_one_by_one(w, scalar, 64));
  EXPECT_EQ(best, 100 + 2 * 64);
  expect_same_cells(simd.top, scalar.top, "top strip");
  expect_same_cells(simd.left, scalar.left, "left strip");
}

TEST(SmithWatermanRows, ScoresNearTheTopOf16BitsStayExact) {
#if !defined(__AVX2__)
  GTEST_SKIP() << "built without AVX2";
#endif
  // Identical sequences gain the match score on every diagonal move: the
  // highest entering score plus 2 x 64 ends at 32766, the last value allowed.
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  Tile simd = random_tile(64, 64, apps::Alphabet::dna, 0, w, 99);
  simd.target = simd.query;
  for (auto& cell : simd.top) cell = {32766 - 128, SmithWaterman::minus_infinity, SmithWaterman::minus_infinity};
  Tile scalar = simd;
  std::int32_t best = 0;
  ASSERT_EQ(simd_rows(w, simd, best), 64);
  EXPECT_EQ(best, rows_one_by_one(w, scalar, 64));
  EXPECT_GE(best, 32766 - 128 + 2 * 60);
  expect_same_cells(simd.top, scalar.top, "top strip");
  expect_same_cells(simd.left, scalar.left, "left strip");
}

TEST(SmithWatermanRows, TilesWiderThan16BitStepCounts) {
#if !defined(__AVX2__)
  GTEST_SKIP() << "built without AVX2";
#endif
  const auto w = apps::make_smith_waterman(apps::Alphabet::protein, 0, 0, 10, 1);
  Tile simd = random_tile(32, 40000, apps::Alphabet::protein, 50, w, 1234);
  Tile scalar = simd;
  std::int32_t best = 0;
  ASSERT_EQ(simd_rows(w, simd, best), 32);
  EXPECT_EQ(best, rows_one_by_one(w, scalar, 32));
  expect_same_cells(simd.top, scalar.top, "top strip");
  expect_same_cells(simd.left, scalar.left, "left strip");
}

TEST(SmithWatermanRows, TilesWhoseScoresCouldLeave16BitsGoToTheGenericCodelet) {
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  Tile t = random_tile(64, 64, apps::Alphabet::dna, 0, w, 5);
  t.top[3].h = 32767 - 2 * 64;  // one more than the highest that still fits
  const Tile before = t;
  std::int32_t best = 0;
  EXPECT_EQ(simd_rows(w, t, best), 0);
  EXPECT_EQ(best, 0);
  expect_same_cells(t.top, before.top, "top strip left alone");
  expect_same_cells(t.left, before.left, "left strip left alone");
  Tile few_rows = random_tile(15, 64, apps::Alphabet::dna, 10, w, 6);
  EXPECT_EQ(simd_rows(w, few_rows, best), 0);
  const auto costly = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 40000, 1);
  Tile gaps = random_tile(32, 32, apps::Alphabet::dna, 0, costly, 7);
  EXPECT_EQ(simd_rows(costly, gaps, best), 0);
}

}  // namespace
