// The wavefront apps' automatic GPU tile (apps/common/wavefront_options.cpp):
// one GPU takes the whole space; several take a row of tiles each only as far
// as a row keeps the rows and columns that fill a GPU.
#include <gtest/gtest.h>

#include "common/wavefront_app.hpp"

namespace {

constexpr trapeze::Index mega = trapeze::Index{1} << 20;

TEST(GpuWavefrontTile, OneGpuTakesTheWholeSpace) {
  EXPECT_EQ(apps::gpu_wavefront_tile(mega, mega, 1), (trapeze::Extent{mega, mega, 1}));
  EXPECT_EQ(apps::gpu_wavefront_tile(0, 0, 1), (trapeze::Extent{1, 1, 1}));
}

TEST(GpuWavefrontTile, GpusTakeARowOfTilesEachWhileTheyStayFull) {
  // 2^22 on 4 GPUs: a row of 2^20 rows each, 16 tiles per GPU across would be
  // 2^16 columns wide; 2^17 is the narrowest, so 32 tiles across.
  EXPECT_EQ(apps::gpu_wavefront_tile(4 * mega, 4 * mega, 4), (trapeze::Extent{mega, mega / 8, 1}));
  // 2^21 on 4 GPUs: rows of 2^19 (the 1.56x of PERF.md).
  EXPECT_EQ(apps::gpu_wavefront_tile(2 * mega, 2 * mega, 4), (trapeze::Extent{mega / 2, mega / 8, 1}));
  // 2^20 split over GPUs ran slower than on one: it stays whole.
  EXPECT_EQ(apps::gpu_wavefront_tile(mega, mega, 4), (trapeze::Extent{mega, mega, 1}));
  // Too few rows for two full GPUs: the whole space on one.
  EXPECT_EQ(apps::gpu_wavefront_tile(mega - 1, 4 * mega, 8), (trapeze::Extent{mega - 1, 4 * mega, 1}));
  // Wide spaces: 16 tiles per GPU across.
  EXPECT_EQ(apps::gpu_wavefront_tile(mega, 64 * mega, 2), (trapeze::Extent{mega / 2, 2 * mega, 1}));
}

}  // namespace
