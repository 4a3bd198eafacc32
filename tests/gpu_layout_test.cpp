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
#include <vector>

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
    const std::uint64_t bits = random();
    std::memcpy(&x, &bits, sizeof x);  // any bit pattern: a copy must keep it
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
