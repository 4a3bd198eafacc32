// The partitioner against seed 002's rules: dimension order by the halo's
// projection, the gcd owner grid, sizes by speed, write ∩ read across owners.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "trapeze/error.hpp"
#include "trapeze/halo_pieces.hpp"
#include "trapeze/local_devices.hpp"
#include "trapeze/partition.hpp"

namespace trapeze {
namespace {

StencilShape star(Index rx, Index ry, Index rz = 0) { return {{rx, ry, rz}, ShapeKind::star}; }

// Every tile has exactly one owner, each owner's tiles are its box, and the
// boxes cover the tiling without overlap.
void expect_boxes_tile_the_domain(const Partition& p, const Tiling& tiling) {
  Index covered = 0;
  for (int o = 0; o < p.owner_count(); ++o) {
    const Box& tiles = p.tiles_of(o);
    EXPECT_FALSE(tiles.empty()) << "owner " << o << " has no tile";
    covered += tiles.cells();
    for (int t = 0; t < tiling.count(); ++t) {
      const Extent c = tiling.coordinates(t);
      bool inside = true;
      for (int d = 0; d < max_dims; ++d) inside = inside && c[d] >= tiles.lo[d] && c[d] < tiles.hi[d];
      EXPECT_EQ(inside, p.owner_of(t) == o) << "tile " << t << " owner " << o;
    }
  }
  EXPECT_EQ(covered, tiling.count());
}

std::vector<Index> tiles_per_owner(const Partition& p) {
  std::vector<Index> tiles;
  for (int o = 0; o < p.owner_count(); ++o) tiles.push_back(p.tiles_of(o).cells());
  return tiles;
}

TEST(Partition, SeedExampleCutsTheDimensionOfTheShortReachFirst) {
  // Seed 002, Listing 1: reach 10 along x, 1 along y on a square: split y (rows) first.
  EXPECT_EQ(cut_order({4096, 4096, 1}, 2, star(10, 1)), (std::vector<int>{1, 0}));
  EXPECT_EQ(cut_order({4096, 4096, 1}, 2, star(1, 10)), (std::vector<int>{0, 1}));
  const Tiling tiling({4096, 4096, 1}, 2, {1024, 1024, 1});
  const Partition p(tiling, star(10, 1), {1.0, 1.0});
  EXPECT_EQ(p.gcd_groups(), (Extent{1, 2, 1}));
  EXPECT_EQ(p.cells_of(0), (Box{{0, 0, 0}, {4096, 2048, 1}}));
  EXPECT_EQ(p.cells_of(1), (Box{{0, 2048, 0}, {4096, 4096, 1}}));
}

TEST(Partition, EqualReachCutsWhereTheCrossSectionIsSmallestThenTheSlowerDimension) {
  // Wide domain: a cut across x exchanges a column of 1000, across y a row of 8000.
  EXPECT_EQ(cut_order({8000, 1000, 1}, 2, star(1, 1)), (std::vector<int>{0, 1}));
  EXPECT_EQ(cut_order({1000, 1000, 1}, 2, star(1, 1)), (std::vector<int>{1, 0}));
  EXPECT_EQ(cut_order({512, 512, 512}, 3, star(1, 1, 1)), (std::vector<int>{2, 1, 0}));
  // No reach along a dimension: cutting it exchanges nothing.
  EXPECT_EQ(cut_order({1000, 1000, 1}, 2, star(1, 0)), (std::vector<int>{1, 0}));
}

TEST(Partition, EightOwnersFollowTheGcdGrid) {
  // 8 tiles across x, 12 down y; y first: gcd(12, 8) = 4, then gcd(8, 2) = 2.
  const Tiling tiling({800, 1200, 1}, 2, {100, 100, 1});
  const Partition p(tiling, star(1, 1), std::vector<double>(8, 1.0));
  EXPECT_EQ(p.cut_order(), (std::vector<int>{1, 0}));
  EXPECT_EQ(p.gcd_groups(), (Extent{2, 4, 1}));
  expect_boxes_tile_the_domain(p, tiling);
  for (int o = 0; o < 8; ++o) EXPECT_EQ(p.tiles_of(o).extent(), (Extent{4, 3, 1})) << "owner " << o;
}

TEST(Partition, PrimeOwnerCountsUseEveryOwnerNearlyEvenly) {
  // gcd(12, 7) = gcd(8, 7) = 1: the seed's grid would run on one device.
  const Tiling tiling({800, 1200, 1}, 2, {100, 100, 1});
  for (int owners : {2, 3, 5, 7, 11, 13}) {
    const Partition p(tiling, star(1, 1), std::vector<double>(static_cast<std::size_t>(owners), 1.0));
    expect_boxes_tile_the_domain(p, tiling);
    const auto tiles = tiles_per_owner(p);
    const double even = 96.0 / owners;
    const Index most = *std::max_element(tiles.begin(), tiles.end());
    // Tile granularity allows at most about a tile row's worth above even.
    EXPECT_LE(static_cast<double>(most), even * 1.25 + 1) << owners << " owners";
  }
}

TEST(Partition, ThreeDimensionsRadiusTwo) {
  // Reach 2 along x, 1 along y and z of a cube: z first (tie with y, slower), then y, then x.
  const Tiling tiling({256, 256, 256}, 3, {64, 64, 64});
  const Partition p(tiling, star(2, 1, 1), std::vector<double>(8, 1.0));
  EXPECT_EQ(p.cut_order(), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(p.gcd_groups(), (Extent{1, 2, 4}));
  expect_boxes_tile_the_domain(p, tiling);
  for (int o = 0; o < 8; ++o) EXPECT_EQ(p.tiles_of(o).extent(), (Extent{4, 2, 1})) << "owner " << o;
  // Owners hold whole tiles: 256 cells along x, 128 along y, 64 along z each.
  for (int o = 0; o < 8; ++o) EXPECT_EQ(p.cells_of(o).cells(), Index{256} * 128 * 64);
}

TEST(Partition, SizesFollowSpeed) {
  const Tiling bands({1000, 1600, 1}, 2, {1000, 100, 1});  // 16 bands
  const Partition p(bands, star(1, 1), {3.0, 1.0});
  EXPECT_EQ(tiles_per_owner(p), (std::vector<Index>{12, 4}));
  // A GPU 10x a core beside two cores: about 10:1:1 of 24 tiles, each at least one.
  const Tiling more({1000, 2400, 1}, 2, {1000, 100, 1});
  const Partition q(more, star(1, 1), {10.0, 1.0, 1.0});
  expect_boxes_tile_the_domain(q, more);
  const auto t = tiles_per_owner(q);
  EXPECT_EQ(t[0] + t[1] + t[2], 24);
  EXPECT_GE(t[0], 19);
  EXPECT_GE(t[1], 1);
  EXPECT_GE(t[2], 1);
}

TEST(Partition, RandomShapesAlwaysCoverTheTilingWithOneBoxPerOwner) {
  std::mt19937 random(20261124);
  for (int trial = 0; trial < 200; ++trial) {
    const int dims = 1 + static_cast<int>(random() % 3);
    Extent domain{1, 1, 1}, tile{1, 1, 1};
    for (int d = 0; d < dims; ++d) {
      domain[d] = 1 + random() % 97;
      tile[d] = 1 + random() % 13;
    }
    const Tiling tiling(domain, dims, tile);
    const int owners = 1 + static_cast<int>(random() % std::min(16, tiling.count()));
    std::vector<double> speeds;
    for (int o = 0; o < owners; ++o) speeds.push_back(0.5 + static_cast<double>(random() % 8));
    const Partition p(tiling, star(1 + random() % 2, random() % 3, random() % 2), speeds);
    expect_boxes_tile_the_domain(p, tiling);
  }
}

TEST(Partition, MoreOwnersThanTilesIsAnErrorThatSaysSo) {
  const Tiling tiling({100, 100, 1}, 2, {50, 50, 1});
  try {
    const Partition p(tiling, star(1, 1), std::vector<double>(5, 1.0));
    FAIL() << "5 owners of 4 tiles were accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("5 owners but the tiling has only 4 tiles"), std::string::npos) << e.what();
  }
}

TEST(Partition, SpeedsMustBePositiveAndFinite) {
  const Tiling tiling({100, 100, 1}, 2, {50, 50, 1});
  EXPECT_THROW(Partition(tiling, star(1, 1), {}), InvalidArgument);
  EXPECT_THROW(Partition(tiling, star(1, 1), {1.0, 0.0}), InvalidArgument);
  EXPECT_THROW(Partition(tiling, star(1, 1), {1.0, -2.0}), InvalidArgument);
  EXPECT_THROW(Partition(tiling, star(1, 1), {1.0, std::nan("")}), InvalidArgument);
}

// With one tile per owner the exchange is the seed's equation 4 on the owners' boxes.
TEST(Partition, ExchangesAreWriteIntersectRead) {
  const Tiling tiling({64, 64, 1}, 2, {64, 32, 1});
  const Partition p(tiling, star(1, 1), {1.0, 1.0});
  for (int height : {1, 3}) {
    const Extent ghost{height, height, 0};
    const OwnerExchanges clamp = owner_exchanges(p, build_halo_layout(tiling, ghost, BoundaryKind::clamp));
    const Index expected = intersect(p.cells_of(0), p.cells_of(1).grown(ghost)).cells();
    EXPECT_EQ(expected, 64 * height);
    EXPECT_EQ(clamp[0][1], expected);
    EXPECT_EQ(clamp[1][0], expected);
    EXPECT_EQ(clamp[0][0], 0);
    // Periodic: each owner also reads the other's far edge, and the corners
    // wrapped around x (h by h cells at each end of both edges).
    const OwnerExchanges periodic = owner_exchanges(p, build_halo_layout(tiling, ghost, BoundaryKind::periodic));
    EXPECT_EQ(periodic[0][1], 2 * (expected + 2 * height * height));
  }
}

TEST(Partition, BorderTilesAreThoseThatTouchAnotherOwner) {
  const Tiling bands({100, 800, 1}, 2, {100, 100, 1});  // 8 bands, two owners of 4
  const Partition p(bands, star(1, 1), {1.0, 1.0});
  const auto clamp = border_tiles(p, build_halo_layout(bands, {1, 1, 0}, BoundaryKind::clamp));
  EXPECT_EQ(clamp, (std::vector<bool>{false, false, false, true, true, false, false, false}));
  const auto periodic = border_tiles(p, build_halo_layout(bands, {1, 1, 0}, BoundaryKind::periodic));
  EXPECT_EQ(periodic, (std::vector<bool>{true, false, false, true, true, false, false, true}));
}

// MPI ranks on one node: a GPU each when there are as many, equal shares when
// there are more, shared round robin when there are fewer.
TEST(LocalDevices, EachRankTakesItsOwnGpus) {
  EXPECT_EQ(gpus_of_local_rank(0, 2, 2), (std::vector<int>{0}));
  EXPECT_EQ(gpus_of_local_rank(1, 2, 2), (std::vector<int>{1}));
  EXPECT_EQ(gpus_of_local_rank(1, 2, 8), (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(gpus_of_local_rank(1, 3, 8), (std::vector<int>{2, 3}));  // two of eight stay idle: equal boxes
  EXPECT_EQ(gpus_of_local_rank(2, 3, 8), (std::vector<int>{4, 5}));
  EXPECT_EQ(gpus_of_local_rank(3, 4, 2), (std::vector<int>{1}));
  EXPECT_EQ(gpus_of_local_rank(2, 4, 2), (std::vector<int>{0}));
  EXPECT_EQ(gpus_of_local_rank(4, 5, 1), (std::vector<int>{0}));
}

// Two ranks of a 32-core node with a GPU each: 16 cores per rank, one for the
// progress thread, one for the GPU's driver, 14 CPU workers, all bound inside.
TEST(LocalDevices, EachRankBindsEveryThreadInsideItsShareOfCores) {
  const CoreShare second = cores_of_local_rank(1, 2, 32, 1);
  EXPECT_EQ(second.cpu_workers, 14);
  std::vector<unsigned> cores(15);
  std::iota(cores.begin(), cores.end(), 16u);
  EXPECT_EQ(second.worker_cores, cores);
  EXPECT_EQ(second.progress_core, 31);
  const CoreShare cpus_only = cores_of_local_rank(2, 3, 16, 0);  // 5 cores each, one left over
  EXPECT_EQ(cpus_only.cpu_workers, 4);
  EXPECT_EQ(cpus_only.worker_cores, (std::vector<unsigned>{10, 11, 12, 13}));
  EXPECT_EQ(cpus_only.progress_core, 14);
  EXPECT_EQ(cores_of_local_rank(0, 4, 8, 4).cpu_workers, 1);  // more GPUs than the share leaves: one CPU worker still
}

TEST(LocalDevices, ACoreOrLessPerRankBindsNothing) {
  const CoreShare mine = cores_of_local_rank(1, 2, 2, 0);
  EXPECT_EQ(mine.cpu_workers, 1);
  EXPECT_TRUE(mine.worker_cores.empty());
  EXPECT_EQ(mine.progress_core, -1);
}

TEST(LocalDevices, NoRestrictionForOneRankNoGpuOrAnUnknownRank) {
  EXPECT_TRUE(gpus_of_local_rank(0, 1, 4).empty());
  EXPECT_TRUE(gpus_of_local_rank(0, 2, 0).empty());
  EXPECT_TRUE(gpus_of_local_rank(-1, 2, 2).empty());
  EXPECT_TRUE(gpus_of_local_rank(2, 2, 2).empty());
}

}  // namespace
}  // namespace trapeze
