// The GPU layout conversions (codelets/cuda/layout_kernels.cuh) equal the CPU
// reference (trapeze/layout.hpp) bit for bit: every pair of 2-D layouts in
// both directions and every exchange of two dimensions of a 3-D array, for
// 1-, 4- and 8-byte cells, on odd rectangular shapes (thinner and wider than a
// tile, tiles cut at every edge), random values, the output poisoned first.
//
// Label "gpu": without a CUDA device every test is skipped with a message.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "trapeze/banded_layout.hpp"
#include "trapeze/layout.hpp"
#if TRAPEZE_HAS_CUDA_STENCILS
#include "gpu_layouts.hpp"
#endif

namespace {

using trapeze::Extent;
using trapeze::Index;
using trapeze::Layout2D;

#if TRAPEZE_HAS_CUDA_STENCILS
template <typename T>
std::vector<T> random_cells(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<T> v(n);
  for (T& x : v) {
    unsigned char bytes[sizeof(T)];
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(random());
    std::memcpy(&x, bytes, sizeof x);  // any bit pattern: a copy must keep it
  }
  return v;
}

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}

const Layout2D layouts[] = {Layout2D::row_major, Layout2D::column_major, Layout2D::anti_diagonal, Layout2D::diagonal};

template <typename T>
void expect_2d_conversions(Index rows, Index columns, std::uint64_t seed) {
  const auto row_major = random_cells<T>(static_cast<std::size_t>(rows * columns), seed);
  for (Layout2D from : layouts) {
    std::vector<T> in(row_major.size());
    trapeze::convert_layout(row_major.data(), Layout2D::row_major, in.data(), from, rows, columns);
    for (Layout2D to : layouts) {
      std::vector<T> expected(in.size());
      trapeze::convert_layout(in.data(), from, expected.data(), to, rows, columns);
      EXPECT_TRUE(same_bits(tests::gpu_convert_layout(in, from, to, rows, columns), expected))
          << rows << "x" << columns << ", " << sizeof(T) << "-byte cells, layout " << static_cast<int>(from) << " to "
          << static_cast<int>(to);
    }
  }
}

template <typename T>
void expect_exchanges(const Extent& e, std::uint64_t seed) {
  const auto in = random_cells<T>(static_cast<std::size_t>(e[0] * e[1] * e[2]), seed);
  for (auto [a, b] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) {
    std::vector<T> expected(in.size());
    trapeze::swap_dimensions(in.data(), expected.data(), e, a, b);
    EXPECT_TRUE(same_bits(tests::gpu_swap_dimensions(in, e, a, b), expected))
        << e[0] << "x" << e[1] << "x" << e[2] << ", " << sizeof(T) << "-byte cells, dimensions " << a << " and " << b;
  }
}
#endif

TEST(GpuLayout, TwoDimensionalConversionsEqualTheReference) {
#if TRAPEZE_HAS_CUDA_STENCILS
  if (!tests::cuda_device_present()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  std::uint64_t seed = 1;
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{
           {1, 1}, {1, 1000}, {1000, 1}, {31, 33}, {64, 64}, {65, 63}, {70, 1001}, {1001, 70}, {257, 129}, {1000, 999}}) {
    expect_2d_conversions<std::uint8_t>(rows, columns, seed++);
    expect_2d_conversions<float>(rows, columns, seed++);
    expect_2d_conversions<double>(rows, columns, seed++);
  }
#else
  GTEST_SKIP() << "built without CUDA: GPU test skipped";
#endif
}

#if TRAPEZE_HAS_CUDA_STENCILS
// Seed 004's banded layout of wavefront tiles (trapeze/banded_layout.hpp):
// to it and back, tiles inside wider rows, every lane height the kernels
// use and odd ones, tiles narrower than the lanes' skew, a short last band.
template <typename T>
void expect_banded_conversions(Index rows, Index columns, int lane_rows, std::uint64_t seed) {
  const trapeze::BandedLayout layout{rows, columns, lane_rows};
  const Index ld = columns + 5;
  const auto tile = random_cells<T>(static_cast<std::size_t>(rows * ld), seed);
  std::vector<T> expected = random_cells<T>(static_cast<std::size_t>(layout.cells()), seed + 1);
  const auto banded = tests::gpu_to_banded(tile, ld, layout);
  trapeze::to_banded(tile.data(), ld, layout, expected.data());
  const std::string what = std::to_string(rows) + "x" + std::to_string(columns) + ", lanes of " +
                           std::to_string(lane_rows) + " rows, " + std::to_string(sizeof(T)) + "-byte cells";
  bool equal = true;
  for (Index r = 0; r < rows && equal; ++r) {
    for (Index c = 0; c < columns && equal; ++c) {
      equal = std::memcmp(&banded[layout.index(r, c)], &expected[layout.index(r, c)], sizeof(T)) == 0;
    }
  }
  EXPECT_TRUE(equal) << "to banded, " << what;
  const auto back = tests::gpu_from_banded(expected, layout, ld);
  equal = true;
  for (Index r = 0; r < rows && equal; ++r) equal = std::memcmp(&back[r * ld], &tile[r * ld], sizeof(T) * columns) == 0;
  EXPECT_TRUE(equal) << "from banded, " << what;
}
#endif

TEST(GpuLayout, BandedConversionsEqualTheReference) {
#if TRAPEZE_HAS_CUDA_STENCILS
  if (!tests::cuda_device_present()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  std::uint64_t seed = 200;
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{
           {1, 1}, {1, 300}, {300, 1}, {31, 7}, {32, 31}, {100, 33}, {513, 64}, {700, 129}, {1000, 1001}}) {
    for (int lane_rows : {1, 3, 8, 16}) {
      expect_banded_conversions<std::uint8_t>(rows, columns, lane_rows, seed += 2);
      expect_banded_conversions<std::uint32_t>(rows, columns, lane_rows, seed += 2);
      expect_banded_conversions<std::uint64_t>(rows, columns, lane_rows, seed += 2);
      expect_banded_conversions<tests::TwentyByteCell>(rows, columns, lane_rows, seed += 2);
    }
  }
#else
  GTEST_SKIP() << "built without CUDA: GPU test skipped";
#endif
}

TEST(GpuLayout, DimensionExchangesEqualTheReference) {
#if TRAPEZE_HAS_CUDA_STENCILS
  if (!tests::cuda_device_present()) GTEST_SKIP() << "no CUDA device: GPU test skipped";
  std::uint64_t seed = 100;
  for (const Extent& e : {Extent{1, 1, 1}, Extent{17, 9, 23}, Extent{33, 65, 3}, Extent{100, 1, 37}, Extent{64, 32, 96}}) {
    expect_exchanges<std::uint8_t>(e, seed++);
    expect_exchanges<float>(e, seed++);
    expect_exchanges<double>(e, seed++);
  }
#else
  GTEST_SKIP() << "built without CUDA: GPU test skipped";
#endif
}

}  // namespace
