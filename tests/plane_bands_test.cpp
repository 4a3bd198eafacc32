// The launch order of the 16-byte 3-D single step (codelets/cuda/plane_bands.hpp):
// cubes whose plane groups fit a quarter of the L2 keep the plain order,
// larger ones run in bands that do, and the grid stays within CUDA's limits.
#include <gtest/gtest.h>

#include "codelets/cuda/plane_bands.hpp"

namespace {

using trapeze::cuda::vector_plane_band;

constexpr double l2_h100 = 50.0 * 1024 * 1024;
constexpr int block_rows = 12;  // the default policy: 4 threads of 3 rows
// One row of blocks in one group of 4 planes: 12 rows, 2 x 4 planes moved and 2 ghost planes.
constexpr double group_bytes(int row_cells) { return double(block_rows) * row_cells * 4 * (2 * 4 + 2); }

TEST(PlaneBands, CubeWithinTheL2KeepsThePlainOrder) {
  // 512^3 on rows 528 apart: 43 rows of blocks, 11 MB a group (0.96 of the roofline on an H100).
  EXPECT_EQ(vector_plane_band(43, 128, group_bytes(528), l2_h100), 43);
}

TEST(PlaneBands, LargerCubesRunInBandsWithinAQuarterOfTheL2) {
  for (int side : {1024, 1536, 2016}) {
    const int row_cells = side + 16, blocks_y = (side + block_rows - 1) / block_rows, groups = side / 4;
    const int band = vector_plane_band(blocks_y, groups, group_bytes(row_cells), l2_h100);
    EXPECT_LT(band, blocks_y) << side;
    EXPECT_LE(band * group_bytes(row_cells), 0.25 * l2_h100) << side;
    EXPECT_GT((band + 1) * group_bytes(row_cells), 0.25 * l2_h100) << side << ": the largest band that fits";
  }
}

TEST(PlaneBands, GridAndDegenerateCases) {
  // Many plane groups: a band's rows times the groups stay within a grid's y.
  EXPECT_LE(vector_plane_band(4000, 20000, 1.0, l2_h100) * 20000, 65535);
  EXPECT_EQ(vector_plane_band(4000, 70000, 1.0, l2_h100), 1);
  EXPECT_EQ(trapeze::cuda::vector_plane_band_cap(4000, 20000), 3);
  EXPECT_EQ(trapeze::cuda::vector_plane_band_cap(43, 128), 43);
  // Rows of blocks larger than the share: one row a band, never 0.
  EXPECT_EQ(vector_plane_band(100, 10, 1e12, l2_h100), 1);
  // No L2 reported, or nothing to move: at least 1, at most every row.
  EXPECT_EQ(vector_plane_band(100, 10, group_bytes(1040), 0), 1);
  EXPECT_EQ(vector_plane_band(7, 10, 0, l2_h100), 7);
}

}  // namespace
