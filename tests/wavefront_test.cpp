// Wavefront runs against the plain sequential reference (every tiling, odd
// shapes, empty and one-cell spaces) and Smith-Waterman against parasail.
#include <gtest/gtest.h>
#include <parasail.h>
#include <parasail/matrices/blosum62.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "trapeze/error.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_reference.hpp"
#include "trapeze/wavefront_run.hpp"
#include "wavefronts/alignment_scoring.hpp"
#include "wavefronts/dynamic_time_warping.hpp"
#include "wavefronts/integral_histogram.hpp"
#include "wavefronts/smith_waterman.hpp"
#include "wavefronts/summed_area_table.hpp"

namespace {

struct Shape {
  trapeze::Index rows;
  trapeze::Index columns;
};

const std::vector<Shape> odd_spaces{{0, 5}, {5, 0}, {1, 1}, {1, 17}, {17, 1}, {37, 53}, {100, 64}, {129, 7}};
const std::vector<Shape> tilings{{1, 1}, {3, 5}, {16, 16}, {64, 7}, {1, 40}, {512, 512}};

std::string describe(const Shape& space, const Shape& tile) {
  return std::to_string(space.rows) + "x" + std::to_string(space.columns) + " in tiles of " +
         std::to_string(tile.rows) + "x" + std::to_string(tile.columns);
}

trapeze::Runtime& runtime() {
  static trapeze::Runtime instance({"lws", 2});
  return instance;
}

TEST(Wavefront, SummedAreaTableEqualsTheReferenceOnEveryTiling) {
  std::mt19937 random(7);
  for (const Shape& space : odd_spaces) {
    std::vector<std::uint32_t> image(static_cast<std::size_t>(space.rows * space.columns));
    for (auto& pixel : image) pixel = random();
    std::vector<std::uint64_t> expected(image.size());
    trapeze::WavefrontData<apps::SummedAreaTable> data{space.rows, space.columns, {}, {}, image, expected};
    trapeze::reference::wavefront(apps::SummedAreaTable{}, data);
    for (const Shape& tile : tilings) {
      std::vector<std::uint64_t> output(image.size(), 12345);
      data.output = output;
      {
        trapeze::WavefrontRun run(runtime(), apps::SummedAreaTable{}, data, {tile.rows, tile.columns});
        run.submit();
        run.wait();
        if (!image.empty()) {
          EXPECT_EQ(run.last_cell(), expected.back()) << describe(space, tile);
        }
      }
      EXPECT_EQ(output, expected) << describe(space, tile);
    }
  }
}

TEST(Wavefront, SmithWatermanEqualsTheReferenceOnEveryTiling) {
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  std::uint64_t seed = 11;
  for (const Shape& space : odd_spaces) {
    const auto query = apps::encode(apps::random_residues(space.rows, apps::Alphabet::dna, seed++), apps::Alphabet::dna);
    const auto target =
        apps::encode(apps::random_residues(space.columns, apps::Alphabet::dna, seed++), apps::Alphabet::dna);
    const trapeze::WavefrontData<apps::SmithWaterman> data{space.rows, space.columns, query, target, {}, {}};
    apps::AlignmentCell last{};
    const std::int32_t expected = trapeze::reference::wavefront(w, data, &last);
    for (const Shape& tile : tilings) {
      trapeze::WavefrontRun run(runtime(), w, data, {tile.rows, tile.columns});
      run.submit();
      run.wait();
      EXPECT_EQ(run.result(), expected) << describe(space, tile);
      if (space.rows > 0 && space.columns > 0) {
        const apps::AlignmentCell got = run.last_cell();
        EXPECT_TRUE(got.h == last.h && got.e == last.e && got.f == last.f) << describe(space, tile);
      }
    }
  }
}

TEST(Wavefront, DynamicTimeWarpingEqualsTheReferenceBitForBit) {
  std::mt19937_64 random(5);
  std::normal_distribution<double> step(0.0, 1.0);
  for (const Shape& space : odd_spaces) {
    std::vector<double> a(static_cast<std::size_t>(space.rows)), b(static_cast<std::size_t>(space.columns));
    for (double& x : a) x = step(random);
    for (double& x : b) x = step(random);
    const trapeze::WavefrontData<apps::DynamicTimeWarping> data{space.rows, space.columns, a, b, {}, {}};
    double expected = 0;
    trapeze::reference::wavefront(apps::DynamicTimeWarping{}, data, &expected);
    if (space.rows == 0 || space.columns == 0) continue;
    for (const Shape& tile : tilings) {
      trapeze::WavefrontRun run(runtime(), apps::DynamicTimeWarping{}, data, {tile.rows, tile.columns});
      run.submit();
      run.wait();
      const double got = run.last_cell();
      EXPECT_EQ(std::memcmp(&expected, &got, sizeof expected), 0)
          << describe(space, tile) << ": " << got << " against " << expected;
    }
  }
}

TEST(Wavefront, IntegralHistogramEqualsTheReferenceOnEveryTiling) {
  using Histogram = apps::IntegralHistogram<8>;
  std::mt19937 random(9);
  for (const Shape& space : odd_spaces) {
    std::vector<std::uint8_t> bins(static_cast<std::size_t>(space.rows * space.columns));
    for (auto& b : bins) b = static_cast<std::uint8_t>(random() % 8);
    std::vector<apps::BinCounts<8>> expected(bins.size());
    trapeze::WavefrontData<Histogram> data{space.rows, space.columns, {}, {}, bins, expected};
    trapeze::reference::wavefront(Histogram{}, data);
    for (const Shape& tile : tilings) {
      std::vector<apps::BinCounts<8>> output(bins.size());
      data.output = output;
      {
        trapeze::WavefrontRun run(runtime(), Histogram{}, data, {tile.rows, tile.columns});
        run.submit();
        run.wait();
      }
      // (memcmp of an empty vector's null data is undefined: compare only cells that exist.)
      EXPECT_TRUE(output.empty() ||
                  std::memcmp(output.data(), expected.data(), output.size() * sizeof(apps::BinCounts<8>)) == 0)
          << describe(space, tile);
    }
  }
}

// The banded layout kept on CPU workers (WavefrontLayout::banded): the run
// converts cell inputs and outputs in tasks of their own and the tile tasks
// read and write banded copies, for any lane height, odd tiles and spaces
// narrower than a band's skew. The result is the row-major run's, bit for bit.
TEST(Wavefront, BandedLayoutGivesTheReferenceThroughItsConversionTasks) {
  std::mt19937 random(21);
  const std::vector<Shape> spaces{{1, 1}, {37, 53}, {129, 7}, {300, 45}};
  const std::vector<Shape> tiles{{37, 53}, {64, 7}, {100, 20}, {512, 512}};
  for (const Shape& space : spaces) {
    std::vector<std::uint32_t> image(static_cast<std::size_t>(space.rows * space.columns));
    for (auto& pixel : image) pixel = random();
    std::vector<std::uint8_t> bins(image.size());
    for (auto& b : bins) b = static_cast<std::uint8_t>(random() % 5);
    std::vector<std::uint64_t> sums(image.size());
    trapeze::WavefrontData<apps::SummedAreaTable> table{space.rows, space.columns, {}, {}, image, sums};
    trapeze::reference::wavefront(apps::SummedAreaTable{}, table);
    using Histogram = apps::IntegralHistogram<5>;
    std::vector<apps::BinCounts<5>> counts(image.size());
    trapeze::WavefrontData<Histogram> histogram{space.rows, space.columns, {}, {}, bins, counts};
    trapeze::reference::wavefront(Histogram{}, histogram);
    for (const Shape& tile : tiles) {
      for (int lane_rows : {1, 3, 8, 16}) {
        trapeze::WavefrontPlan plan{tile.rows, tile.columns};
        plan.layout = trapeze::WavefrontLayout::banded;
        plan.banded_lane_rows = lane_rows;
        const std::string what = describe(space, tile) + ", lanes of " + std::to_string(lane_rows) + " rows";
        std::vector<std::uint64_t> sums_out(image.size(), 12345);
        table.output = sums_out;
        {
          trapeze::WavefrontRun run(runtime(), apps::SummedAreaTable{}, table, plan);
          ASSERT_TRUE(run.banded());
          EXPECT_EQ(run.banded_lane_rows(0), lane_rows);
          run.submit();
          run.wait();
          EXPECT_EQ(run.tasks_in_run(), 3 * run.tiles()) << what;  // each tile, its input's and its output's conversion
          EXPECT_EQ(run.tasks_completed(), run.tasks_in_run()) << what;
        }
        EXPECT_EQ(sums_out, sums) << what;
        std::vector<apps::BinCounts<5>> counts_out(image.size());
        histogram.output = counts_out;
        {
          trapeze::WavefrontRun run(runtime(), Histogram{}, histogram, plan);
          run.submit();
          run.wait();
        }
        EXPECT_EQ(std::memcmp(counts_out.data(), counts.data(), counts.size() * sizeof(counts[0])), 0) << what;
      }
    }
  }
}

// Where tiles run on CPUs, the automatic layout is row-major; a run that has
// no cell inputs or output has no layout to choose; bad lane heights and the
// banded layout across MPI ranks are refused.
TEST(Wavefront, AutomaticLayoutIsRowMajorOnCpusAndBadLanesAreRefused) {
  std::vector<std::uint32_t> image(40 * 40, 1);
  std::vector<std::uint64_t> sums(image.size());
  const trapeze::WavefrontData<apps::SummedAreaTable> table{40, 40, {}, {}, image, sums};
  {
    trapeze::WavefrontRun run(runtime(), apps::SummedAreaTable{}, table, {16, 16});
    EXPECT_FALSE(run.banded());
  }
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  const std::vector<std::uint8_t> sequence(40, 1);
  trapeze::WavefrontPlan banded{16, 16};
  banded.layout = trapeze::WavefrontLayout::banded;
  {
    trapeze::WavefrontRun run(runtime(), w, {40, 40, sequence, sequence, {}, {}}, banded);
    EXPECT_FALSE(run.banded());  // score only: nothing to lay out
  }
  for (int bad : {-1, 65}) {
    banded.banded_lane_rows = bad;
    try {
      trapeze::WavefrontRun run(runtime(), apps::SummedAreaTable{}, table, banded);
      FAIL() << "lanes of " << bad << " rows accepted";
    } catch (const trapeze::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("got " + std::to_string(bad)), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(trapeze::parse_wavefront_layout("banded"), trapeze::WavefrontLayout::banded);
  EXPECT_EQ(trapeze::parse_wavefront_layout("row"), trapeze::WavefrontLayout::row_major);
  EXPECT_EQ(trapeze::to_string(trapeze::parse_wavefront_layout("auto")), "auto");
  EXPECT_THROW(trapeze::parse_wavefront_layout("diagonal"), trapeze::InvalidArgument);
}

TEST(Wavefront, RunsResumedFromEveryCheckpointEndAsTheWholeRunDoes) {
  const auto w = apps::make_smith_waterman(apps::Alphabet::protein, 0, 0, 10, 1);
  for (const Shape& space : std::vector<Shape>{{301, 257}, {64, 1000}, {1000, 5}}) {
    const std::string query = apps::random_residues(space.rows, apps::Alphabet::protein, 31);
    const std::string target = apps::random_residues(space.columns, apps::Alphabet::protein, 32);
    const auto q = apps::encode(query, apps::Alphabet::protein), t = apps::encode(target, apps::Alphabet::protein);
    const trapeze::WavefrontData<apps::SmithWaterman> data{space.rows, space.columns, q, t, {}, {}};
    apps::AlignmentCell last{};
    const std::int32_t expected = trapeze::reference::wavefront(w, data, &last);
    for (const Shape& tile : std::vector<Shape>{{16, 40}, {7, 300}, {64, 64}}) {
      for (const trapeze::Index every : {1, 3}) {
        std::vector<trapeze::WavefrontCheckpoint<apps::SmithWaterman>> checkpoints;
        {
          trapeze::WavefrontRun run(runtime(), w, data, {tile.rows, tile.columns});
          run.checkpoint_every(every, [&](const auto& c) { checkpoints.push_back(c); });
          run.submit();
          run.wait();
          EXPECT_EQ(run.result(), expected);
        }
        const trapeze::Index tile_rows = (space.rows + tile.rows - 1) / tile.rows;
        ASSERT_EQ(static_cast<trapeze::Index>(checkpoints.size()), (tile_rows - 1) / every) << describe(space, tile);
        for (std::size_t k = 0; k < checkpoints.size(); ++k) {
          EXPECT_EQ(checkpoints[k].first_row, static_cast<trapeze::Index>(k + 1) * every * tile.rows);  // in order
          // Resumed with other tiles: the cells do not depend on the tiling.
          trapeze::WavefrontRun resumed(runtime(), w, data, {tile.columns, tile.rows}, checkpoints[k]);
          resumed.submit();
          resumed.wait();
          const apps::AlignmentCell got = resumed.last_cell();
          EXPECT_EQ(resumed.result(), expected) << describe(space, tile) << " from row " << checkpoints[k].first_row;
          EXPECT_TRUE(got.h == last.h && got.e == last.e && got.f == last.f) << describe(space, tile);
        }
      }
    }
  }
}

// parasail's scalar Smith-Waterman, with a matrix like ours.
int parasail_score(const std::string& query, const std::string& target, apps::Alphabet alphabet, int match,
                   int mismatch, int open, int extend) {
  if (query.empty() || target.empty()) return 0;  // parasail refuses empty sequences; no cell, no score
  parasail_matrix_t* dna = alphabet == apps::Alphabet::dna ? parasail_matrix_create("ACGT", match, mismatch) : nullptr;
  const parasail_matrix_t* matrix = dna ? dna : &parasail_blosum62;
  parasail_result_t* result = parasail_sw(query.data(), static_cast<int>(query.size()), target.data(),
                                          static_cast<int>(target.size()), open, extend, matrix);
  const int score = parasail_result_get_score(result);
  parasail_result_free(result);
  if (dna) parasail_matrix_free(dna);
  return score;
}

TEST(Wavefront, SmithWatermanScoresEqualParasails) {
  const std::vector<Shape> pairs{{0, 0}, {0, 9}, {1, 1}, {1, 2}, {2, 1}, {7, 7}, {64, 333},
                                 {1000, 1000}, {1, 3000}, {3000, 1}, {2500, 17}, {5, 2000}};
  struct Scoring {
    apps::Alphabet alphabet;
    int match, mismatch, open, extend;
  };
  const std::vector<Scoring> scorings{{apps::Alphabet::dna, 2, -3, 5, 2}, {apps::Alphabet::dna, 2, -3, 3, 3},
                                      {apps::Alphabet::dna, 1, -1, 1, 1}, {apps::Alphabet::protein, 0, 0, 10, 1},
                                      {apps::Alphabet::protein, 0, 0, 11, 11}};
  std::uint64_t seed = 100;
  for (const Scoring& s : scorings) {
    const auto w = apps::make_smith_waterman(s.alphabet, s.match, s.mismatch, s.open, s.extend);
    for (const Shape& pair : pairs) {
      const std::string query = apps::random_residues(pair.rows, s.alphabet, seed++);
      const std::string target = apps::random_residues(pair.columns, s.alphabet, seed++);
      const auto q = apps::encode(query, s.alphabet), t = apps::encode(target, s.alphabet);
      trapeze::WavefrontRun run(runtime(), w, {pair.rows, pair.columns, q, t, {}, {}}, {256, 384});
      run.submit();
      run.wait();
      EXPECT_EQ(run.result(), parasail_score(query, target, s.alphabet, s.match, s.mismatch, s.open, s.extend))
          << (s.alphabet == apps::Alphabet::dna ? "dna " : "protein ") << pair.rows << "x" << pair.columns
          << " open " << s.open << " extend " << s.extend;
    }
  }
}

// The README's example, as written there.
struct LongestCommonSubsequence {
  using value_type = int;
  using row_input_type = char;     // the query, down the rows
  using column_input_type = char;  // the target, along the columns
  static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};
  TRAPEZE_HOST_DEVICE int boundary(trapeze::Index, trapeze::Index) const { return 0; }
  TRAPEZE_HOST_DEVICE int operator()(const trapeze::WavefrontNeighbours<int>& at, char a, char b,
                                     trapeze::NoInput) const {
    return a == b ? at.up_left + 1 : (at.up > at.left ? at.up : at.left);
  }
};

int lcs_length(const std::string& query, const std::string& target, const Shape& tile) {
  trapeze::WavefrontRun run(runtime(), LongestCommonSubsequence{},
                            {static_cast<trapeze::Index>(query.size()), static_cast<trapeze::Index>(target.size()),
                             query, target, {}, {}},
                            {tile.rows, tile.columns});
  run.submit();
  run.wait();
  return run.last_cell();
}

TEST(Wavefront, ReadmeExampleComputesLongestCommonSubsequences) {
  EXPECT_EQ(lcs_length("ABCBDAB", "BDCABA", {2, 3}), 4);  // BCBA
  EXPECT_EQ(lcs_length("AGGTAB", "GXTXAYB", {1, 1}), 4);  // GTAB
  std::mt19937 random(3);
  std::string query(300, ' '), target(517, ' ');
  for (char& c : query) c = static_cast<char>('a' + random() % 4);
  for (char& c : target) c = static_cast<char>('a' + random() % 4);
  int expected = 0;
  trapeze::reference::wavefront(LongestCommonSubsequence{},
                                trapeze::WavefrontData<LongestCommonSubsequence>{300, 517, query, target, {}, {}},
                                &expected);
  for (const Shape& tile : tilings) EXPECT_EQ(lcs_length(query, target, tile), expected) << tile.rows << "x" << tile.columns;
}

TEST(Wavefront, PrioritiesFollowTheDistanceToTheEndOfTheCriticalPath) {
  EXPECT_EQ(trapeze::critical_path_priority(10, 10, -5, 5), 5);   // the first anti-diagonal: highest
  EXPECT_EQ(trapeze::critical_path_priority(0, 10, -5, 5), -5);   // the last: lowest
  EXPECT_EQ(trapeze::critical_path_priority(5, 10, -5, 5), 0);
  EXPECT_EQ(trapeze::critical_path_priority(3, 10, 0, 0), 0);     // a policy without priorities
  EXPECT_EQ(trapeze::critical_path_priority(0, 0, -5, 5), -5);    // one tile
  // lws spans all of int: the first diagonal gets INT_MAX, the last INT_MIN (no overflow under UBSan).
  EXPECT_EQ(trapeze::critical_path_priority(7, 7, INT_MIN, INT_MAX), INT_MAX);
  EXPECT_EQ(trapeze::critical_path_priority(0, 7, INT_MIN, INT_MAX), INT_MIN);
  for (trapeze::Index r = 0; r < 1000; ++r) {
    EXPECT_LE(trapeze::critical_path_priority(r, 1000, 0, 7), trapeze::critical_path_priority(r + 1, 1000, 0, 7));
  }
}

TEST(Wavefront, BadDataIsRefusedWithOneLine) {
  const auto w = apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, 5, 2);
  const std::vector<std::uint8_t> four(4), five(5);
  const auto expect_refused = [](const std::string& needle, auto body) {
    try {
      body();
      FAIL() << "accepted; expected an error naming " << needle;
    } catch (const trapeze::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_refused("row inputs hold 4 values, the wavefront needs 5",
                 [&] { trapeze::WavefrontRun run(runtime(), w, {5, 5, four, five, {}, {}}, {2, 2}); });
  expect_refused("at least 1x1, got 0x3",
                 [&] { trapeze::WavefrontRun run(runtime(), w, {5, 5, five, five, {}, {}}, {0, 3}); });
  expect_refused("extent must be >= 0", [&] { trapeze::WavefrontRun run(runtime(), w, {-1, 5, {}, five, {}, {}}, {2, 2}); });
  expect_refused("gap costs", [] { apps::make_smith_waterman(apps::Alphabet::dna, 2, -3, -1, 2); });
  expect_refused("alphabet must be dna or protein, got 'rna'", [] { apps::parse_alphabet("rna"); });
}

}  // namespace
