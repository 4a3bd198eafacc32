// Tiling and halo pieces: the ghost zone of every tile is covered exactly once,
// each cell from the tile (or wrap) that owns it.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "random_grids.hpp"
#include "trapeze/error.hpp"
#include "trapeze/halo_pieces.hpp"
#include "trapeze/stencil_shape.hpp"
#include "trapeze/tile_size.hpp"
#include "trapeze/tiling.hpp"

namespace {

using trapeze::Box;
using trapeze::BoundaryKind;
using trapeze::Extent;
using trapeze::Index;

TEST(Tiling, RejectsZeroTile) {
  EXPECT_THROW(trapeze::Tiling({10, 10, 1}, 2, {0, 4, 1}), trapeze::Error);
  try {
    trapeze::Tiling({10, 10, 1}, 2, {4, 0, 1});
  } catch (const trapeze::Error& e) {
    EXPECT_NE(std::string(e.what()).find("tile size in y must be > 0, got 0"), std::string::npos) << e.what();
  }
}

TEST(Tiling, RejectsNonPositiveDomain) {
  EXPECT_THROW(trapeze::Tiling({0, 10, 1}, 2, {4, 4, 1}), trapeze::Error);
  EXPECT_THROW(trapeze::Tiling({10, -3, 1}, 2, {4, 4, 1}), trapeze::Error);
}

TEST(Tiling, LastTileIsShorterWhenSizeDoesNotDivide) {
  const trapeze::Tiling tiling({10, 7, 1}, 2, {4, 3, 1});
  EXPECT_EQ(tiling.counts(), (Extent{3, 3, 1}));
  EXPECT_EQ(tiling.box(tiling.count() - 1), (Box{{8, 6, 0}, {10, 7, 1}}));
}

TEST(Tiling, TileLargerThanDomainIsClipped) {
  const trapeze::Tiling tiling({10, 7, 1}, 2, {400, 300, 1});
  EXPECT_EQ(tiling.count(), 1);
  EXPECT_EQ(tiling.box(0), (Box{{0, 0, 0}, {10, 7, 1}}));
}

TEST(Tiling, AutoTileKeepsWholeRowsAndFeedsEveryWorker) {
  EXPECT_EQ(trapeze::choose_tile({4096, 4096, 1}, 2, 2), (Extent{4096, 512, 1}));
  EXPECT_EQ(trapeze::choose_tile({4096, 4096, 1}, 2, 2, 8), (Extent{4096, 512, 1}));
  EXPECT_EQ(trapeze::choose_tile({4096, 4096, 1}, 2, 2, 1), (Extent{4096, 1024, 1}));  // h = 1: 2 per worker
  EXPECT_EQ(trapeze::choose_tile({64, 64, 3}, 3, 4), (Extent{64, 11, 1}));  // 3 x 6 tiles
  EXPECT_EQ(trapeze::choose_tile({1000, 1, 1}, 1, 2), (Extent{125, 1, 1}));
}

// Ranks on GPUs: thin slabs (3-D) get more tiles so the strips' trip
// between ranks hides behind the rest; wide ones (2-D) and one process keep two.
TEST(Tiling, GpuTilesBetweenRanks) {
  using trapeze::gpu_tiles_per_gpu;
  EXPECT_EQ(gpu_tiles_per_gpu({1792, 1792, 1792}, 3, 2, 2, 1, 4), 4);  // 896 planes a rank: 4 of 224
  EXPECT_EQ(gpu_tiles_per_gpu({2016, 2016, 2016}, 3, 4, 4, 1, 4), 4);  // 504 planes: 4 of 126
  EXPECT_EQ(gpu_tiles_per_gpu({1024, 1024, 1024}, 3, 4, 4, 1, 4), 2);  // 256 planes: 2 of 128, not 4 of 64
  EXPECT_EQ(gpu_tiles_per_gpu({512, 512, 512}, 3, 2, 2, 1, 4), trapeze::tiles_per_gpu);  // too thin to cut further
  EXPECT_EQ(gpu_tiles_per_gpu({90112, 90112, 1}, 2, 2, 2, 1, 4), trapeze::tiles_per_gpu);  // the trip is 1% of a stage
  EXPECT_EQ(gpu_tiles_per_gpu({1792, 1792, 1792}, 3, 2, 1, 1, 4), trapeze::tiles_per_gpu);  // one process: GPU to GPU
  EXPECT_EQ(trapeze::choose_gpu_tile({1792, 1792, 1792}, 3, 2, 4), (Extent{1792, 1792, 224}));
  // One tile on one GPU; two a GPU on several.
  using trapeze::default_tiles_per_gpu;
  EXPECT_EQ(default_tiles_per_gpu(1), 1);
  EXPECT_EQ(default_tiles_per_gpu(2), trapeze::tiles_per_gpu);
  EXPECT_EQ(default_tiles_per_gpu(4), trapeze::tiles_per_gpu);
  EXPECT_EQ(trapeze::choose_gpu_tile({4194304, 1, 1}, 1, 1), (Extent{4194304, 1, 1}));
  EXPECT_EQ(trapeze::choose_gpu_tile({4194304, 1, 1}, 1, 2), (Extent{1048576, 1, 1}));
}

// A tile's read-only fields are one StarPU vector handle, whose element count
// is 32 bits: the GPU tile is cut further where they would not fit it.
TEST(Tiling, GpuTilesKeepTheirReadOnlyFieldsWithinOneVectorHandle) {
  using trapeze::choose_gpu_tile;
  using trapeze::slabs_within_vector_limit;
  // Pathfinder: a wall row a step.
  EXPECT_EQ(slabs_within_vector_limit({4194304, 1, 1}, 1, 256), 1);
  EXPECT_EQ(slabs_within_vector_limit({33554432, 1, 1}, 1, 128), 2);  // 2^32 elements in one
  EXPECT_EQ(choose_gpu_tile({33554432, 1, 1}, 1, 1, 0, 128), (Extent{16777216, 1, 1}));
  // HotSpot's power map, one plane: 65536^2 is 2^32 cells.
  EXPECT_EQ(choose_gpu_tile({65536, 65536, 1}, 2, 1, 0, 1), (Extent{65536, 32768, 1}));
  EXPECT_EQ(choose_gpu_tile({16384, 16384, 1}, 2, 1, 0, 1), (Extent{16384, 16384, 1}));
  // No read-only fields, or more slabs asked anyway: unchanged.
  EXPECT_EQ(choose_gpu_tile({65536, 65536, 1}, 2, 1, 0, 0), (Extent{65536, 65536, 1}));
  EXPECT_EQ(choose_gpu_tile({33554432, 1, 1}, 1, 2, 0, 128), (Extent{8388608, 1, 1}));
  // Never thinner than a slice.
  EXPECT_EQ(slabs_within_vector_limit({1 << 20, 3, 1}, 2, 4096), 3);
}

// One GPU in core: bands while the run is short against its host copies,
// each band large and thick enough; one tile otherwise.
TEST(Tiling, OneGpuTakesBandsWhereHostCopiesWeighOnTheRun) {
  using trapeze::one_gpu_bands;
  const double gib = 1 << 30;
  // jacobi2d float 16384^2 (1 GiB): 512 steps at 0.35 ms predicted (0.18 s)
  // against copies of about 0.21 s: 8 bands; 4096 steps (1.45 s) one tile.
  EXPECT_EQ(one_gpu_bands({16384, 16384, 1}, 2, gib, 512 * 0.35e-3), trapeze::host_copy_bands);
  EXPECT_EQ(one_gpu_bands({16384, 16384, 1}, 2, gib, 4096 * 0.35e-3), 1);
  // The bound itself: just under it bands, at it one tile.
  const double bound = trapeze::stepping_share_for_bands * gib * trapeze::host_copy_seconds_per_byte;
  EXPECT_EQ(one_gpu_bands({16384, 16384, 1}, 2, gib, 0.99 * bound), trapeze::host_copy_bands);
  EXPECT_EQ(one_gpu_bands({16384, 16384, 1}, 2, gib, bound), 1);
  // Himeno L (14 arrays, 1.88 GB; 8 slabs of 32 planes, 4M cells each):
  // 128 steps (0.107 s predicted) in slabs, 512 steps (0.43 s) one tile.
  EXPECT_EQ(one_gpu_bands({512, 256, 256}, 3, 1.88e9, 0.107), 8);
  EXPECT_EQ(one_gpu_bands({512, 256, 256}, 3, 1.88e9, 0.43), 1);
  // jacobi3d 640^3 float (1.05 GB): 64 steps (0.024 s) in slabs; 512 steps
  // (0.19 s), where slabs ran 0.90x, one tile. 2-D's share would take slabs.
  EXPECT_EQ(one_gpu_bands({640, 640, 640}, 3, 1.05e9, 0.024), 8);
  EXPECT_EQ(one_gpu_bands({640, 640, 640}, 3, 1.05e9, 0.19), 1);
  EXPECT_LT(trapeze::stepping_share_for_bands_3d, trapeze::stepping_share_for_bands);
  // Himeno M: 8 slabs would hold 512K cells each, 4 hold 1M: one tile.
  EXPECT_EQ(one_gpu_bands({256, 128, 128}, 3, 0.235e9, 0.01), 1);
  // 4 bands where 8 would be too small or too thin.
  EXPECT_EQ(one_gpu_bands({4096, 4096, 1}, 2, 0.067e9, 0.01), 4);      // 8 of 2M cells are too small
  EXPECT_EQ(one_gpu_bands({262144, 160, 1}, 2, 0.168e9, 0.001), 4);   // 8 of 20 rows are too thin
  EXPECT_EQ(one_gpu_bands({262144, 100, 1}, 2, 0.105e9, 0.001), 1);   // 4 of 25 rows too
  // 1-D keeps one tile, however short the run.
  EXPECT_EQ(one_gpu_bands({1 << 28, 1, 1}, 1, gib, 0.0), 1);
}

// Out-of-core tiles: near cubes of at most the budget, equal sides halved
// slowest first (rows stay long), then the larger tiles of the same halving.
TEST(Tiling, OutOfCoreTilesKeepRowsLongAndListLargerOnes) {
  const double mib = 1 << 20;
  // Himeno L (64 device bytes a cell) under 448 MiB: an eighth is 56 MiB.
  const auto himeno = trapeze::out_of_core_tiles({512, 256, 256}, 3, 64, 56 * mib, 2);
  ASSERT_EQ(himeno.size(), 3U);
  EXPECT_EQ(himeno[0], (Extent{128, 64, 64}));
  EXPECT_EQ(himeno[1], (Extent{128, 128, 64}));
  EXPECT_EQ(himeno[2], (Extent{128, 128, 128}));
  EXPECT_EQ(trapeze::out_of_core_tiles({512, 256, 256}, 3, 64, 56 * mib, 0),
            (std::vector<Extent>{himeno[0]}));  // no larger ones asked for
  // jacobi2d float 16384^2 (8 bytes a cell) under 256 MiB.
  const auto jacobi = trapeze::out_of_core_tiles({16384, 16384, 1}, 2, 8, 32 * mib, 2);
  ASSERT_EQ(jacobi.size(), 3U);
  EXPECT_EQ(jacobi[0], (Extent{2048, 2048, 1}));
  EXPECT_EQ(jacobi[1], (Extent{4096, 2048, 1}));
  EXPECT_EQ(jacobi[2], (Extent{4096, 4096, 1}));
  // A domain that fits is its own tile, with nothing larger.
  const auto whole = trapeze::out_of_core_tiles({100, 100, 1}, 2, 8, 32 * mib, 2);
  ASSERT_EQ(whole.size(), 1U);
  EXPECT_EQ(whole[0], (Extent{100, 100, 1}));
}

TEST(HaloPieces, PeriodicGhostWiderThanDomainIsRejected) {
  const trapeze::Tiling tiling({5, 40, 1}, 2, {5, 8, 1});
  try {
    trapeze::build_halo_layout(tiling, {7, 7, 0}, BoundaryKind::periodic);
    FAIL() << "expected an error";
  } catch (const trapeze::Error& e) {
    EXPECT_NE(std::string(e.what()).find("ghost zone width 7 in x exceeds the periodic domain extent 5"),
              std::string::npos)
        << e.what();
  }
  // The same ghost is fine with a clamp boundary: out-of-domain cells come from it.
  EXPECT_NO_THROW(trapeze::build_halo_layout(tiling, {7, 7, 0}, BoundaryKind::clamp));
}

// For random tilings and ghost widths: each cell of a tile's padded box that
// has data (in the domain, or anywhere when periodic) is written exactly once,
// from the producer that owns the matching global cell.
TEST(HaloPieces, CoverEveryGhostCellExactlyOnceFromItsOwner) {
  const std::uint64_t seed = tests::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<Index> size(1, 23), tile(1, 9), ghost(0, 4);
  for (int trial = 0; trial < 40; ++trial) {
    const int dims = 1 + trial % 3;
    Extent n{1, 1, 1}, t{1, 1, 1}, g{0, 0, 0};
    for (int d = 0; d < dims; ++d) n[d] = size(engine), t[d] = tile(engine), g[d] = ghost(engine);
    for (BoundaryKind kind : {BoundaryKind::clamp, BoundaryKind::periodic}) {
      if (kind == BoundaryKind::periodic) {
        for (int d = 0; d < dims; ++d) g[d] = std::min(g[d], n[d]);
      }
      const trapeze::Tiling tiling(n, dims, t);
      const trapeze::HaloLayout layout = trapeze::build_halo_layout(tiling, g, kind);
      for (int consumer = 0; consumer < tiling.count(); ++consumer) {
        const Box box = tiling.box(consumer);
        const Box padded = box.grown(g);
        std::map<std::array<Index, 3>, int> written;
        auto record = [&](const Box& destination, const Box& source, int producer) {
          const Box from = tiling.box(producer);
          for (Index z = 0; z < destination.extent()[2]; ++z)
            for (Index y = 0; y < destination.extent()[1]; ++y)
              for (Index x = 0; x < destination.extent()[0]; ++x) {
                const std::array<Index, 3> global{padded.lo[0] + destination.lo[0] + x,
                                                  padded.lo[1] + destination.lo[1] + y,
                                                  padded.lo[2] + destination.lo[2] + z};
                ++written[global];
                const std::array<Index, 3> owner{from.lo[0] + source.lo[0] + x, from.lo[1] + source.lo[1] + y,
                                                 from.lo[2] + source.lo[2] + z};
                for (int d = 0; d < 3; ++d) {
                  ASSERT_EQ(trapeze::boundary_source(global[d], n[d], BoundaryKind::periodic), owner[d]);
                }
              }
        };
        const auto& halo = layout.tiles[consumer];
        for (int i : halo.inputs) {
          ASSERT_EQ(layout.pieces[i].consumer, consumer);
          ASSERT_NE(layout.pieces[i].producer, consumer);
          record(layout.pieces[i].destination, layout.pieces[i].source, layout.pieces[i].producer);
        }
        for (int i : halo.self_wraps) record(layout.pieces[i].destination, layout.pieces[i].source, consumer);
        record(Box{g, {g[0] + box.extent()[0], g[1] + box.extent()[1], g[2] + box.extent()[2]}},
               Box{{0, 0, 0}, box.extent()}, consumer);
        for (Index z = padded.lo[2]; z < padded.hi[2]; ++z)
          for (Index y = padded.lo[1]; y < padded.hi[1]; ++y)
            for (Index x = padded.lo[0]; x < padded.hi[0]; ++x) {
              const bool inside = x >= 0 && x < n[0] && y >= 0 && y < n[1] && z >= 0 && z < n[2];
              const int expected = kind == BoundaryKind::periodic || inside ? 1 : 0;
              const auto it = written.find({x, y, z});
              ASSERT_EQ(it == written.end() ? 0 : it->second, expected)
                  << "cell (" << x << "," << y << "," << z << ") of tile " << consumer;
            }
      }
    }
  }
}

}  // namespace

// 2-D tiles on GPUs: the x ghost zone grows by a cell where that makes the
// padded row a multiple of 4 cells (the 16-byte single step), never else.
TEST(GhostZone, WidensXForRowsOfFourCells) {
  using trapeze::ghost_for_rows_of_four;
  EXPECT_EQ(ghost_for_rows_of_four({1, 1, 0}, 16384, 16384, false), (Extent{2, 1, 0}));  // 16386 -> 16388
  EXPECT_EQ(ghost_for_rows_of_four({4, 4, 0}, 94, 94, false), (Extent{5, 4, 0}));       // 102 -> 104
  EXPECT_EQ(ghost_for_rows_of_four({1, 1, 0}, 1022, 1022, false), (Extent{1, 1, 0}));   // 1024 already
  EXPECT_EQ(ghost_for_rows_of_four({3, 3, 0}, 1029, 1029, false), (Extent{3, 3, 0}));   // odd: no ghost can
  EXPECT_EQ(ghost_for_rows_of_four({2, 2, 0}, 254, 1000, true), (Extent{3, 2, 0}));     // 258 -> 260, periodic
  // Periodic, and one more cell would wrap round a 2-wide domain twice.
  EXPECT_EQ(ghost_for_rows_of_four({2, 2, 0}, 2, 2, true), (Extent{2, 2, 0}));
}

// GPU tiles: 3-D rows a multiple of 16 cells where that adds at most a
// sixteenth of the tile's width, else of 4; 2-D rows of 4; 4-byte cells only.
TEST(GhostZone, GpuTilesOf3DRowsOfSixteenCells) {
  using trapeze::gpu_tile_ghost;
  EXPECT_EQ(gpu_tile_ghost({1, 1, 1}, 3, 4, 512, 512, false), (Extent{8, 1, 1}));     // 514 -> 528
  EXPECT_EQ(gpu_tile_ghost({3, 3, 3}, 3, 4, 512, 512, false), (Extent{8, 3, 3}));     // 518 -> 528
  EXPECT_EQ(gpu_tile_ghost({1, 1, 1}, 3, 4, 1024, 2048, true), (Extent{8, 1, 1}));    // 1026 -> 1040, periodic
  EXPECT_EQ(gpu_tile_ghost({2, 2, 2}, 3, 4, 130, 130, false), (Extent{3, 2, 2}));     // 144 adds too much: 136, of 4
  EXPECT_EQ(gpu_tile_ghost({1, 1, 1}, 3, 4, 257, 257, false), (Extent{1, 1, 1}));     // odd: no ghost can
  EXPECT_EQ(gpu_tile_ghost({1, 1, 1}, 3, 4, 6, 6, true), (Extent{1, 1, 1}));          // 8: of 4 (16 adds too much)
  EXPECT_EQ(gpu_tile_ghost({1, 1, 0}, 2, 4, 16384, 16384, false), (Extent{2, 1, 0}));  // 2-D: of 4
  EXPECT_EQ(gpu_tile_ghost({1, 1, 1}, 3, 8, 512, 512, false), (Extent{1, 1, 1}));     // 8-byte cells: none
}
