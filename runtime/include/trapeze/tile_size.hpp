#pragma once
// A default tile size for CPUs: whole rows (long unit-stride inner loops and
// no halo across x), the slowest dimension cut so each worker gets several
// tiles to balance the load and overlap neighbouring stages.
#include <vector>

#include "trapeze/geometry.hpp"

namespace trapeze {

// Trapezoids (h > 1, or h still to be chosen: 0) want tiles small enough that
// the workers' tiles stay in cache between the steps of a stage. At h = 1
// nothing is reused between steps, so fewer, larger tiles only save tasks and
// halo copies: jacobi2d 4096^2 on 2 cores ran at 7.10 GCUPS with 2 tiles per
// worker against 5.82 with 4 (medians of 5 interleaved runs).
inline constexpr int tiles_per_worker = 4;
inline constexpr int tiles_per_worker_at_height_1 = 2;

Extent choose_tile(const Extent& domain, int dims, int workers, int height = 0);

// On GPUs a tile is a large share of a device's work: a launch fills the
// device only with enough blocks, and every task costs tens of microseconds
// of scheduling and ghost-zone copies. Two per GPU, cut along the slowest
// dimension. Four were measured against two at h = 1 (H100, interleaved
// medians, benchmarks/gpu_stencils.cpp): 0.97x (jacobi2d), 0.61x (jacobi3d),
// 1.03x (hotspot), 0.85x (life), 0.17x (pathfinder): more tasks cost more
// than the queued work they add.
inline constexpr int tiles_per_gpu = 2;

// On one GPU a single tile does better: no strips to copy between tiles,
// no ghost zone computed twice, one task a stage. One tile against two
// (H100, interleaved medians of 3, benchmarks/gpu_stencils.cpp
// --compare-tiles and --compare-auto-tiles, 2026-11-27): at h = 1 1.04-1.10x
// (jacobi2d, jacobi3d, hotspot, life), at the heights the model chose
// 1.02-1.14x (jacobi3d 6/3 the most); 1-D (pathfinder, 4M columns) 2.02x at
// h = 1 and 1.05x at its chosen 64/32. Several GPUs (whose strips overlap
// the other tile's work) keep tiles_per_gpu.
int default_tiles_per_gpu(int gpus);

// ...but a single tile's host copies run one after another around the
// stepping: the grid is scattered into the tile, uploaded, stepped,
// downloaded and gathered (an H200's jacobi2d 16384^2, 512 steps: 200 of
// 363 ms; docs/PERF.md 2026-11-27). Bands of tiles along the slowest
// dimension overlap them: each band's scatter and upload with the stepping
// of the bands already up, its download and gather with the last stages of
// the others. Against one tile, without a cap (H200, interleaved medians of
// 2, same date), 8 bands ran jacobi2d 16384^2 1.19x at 512 steps and 1.03x
// at 2048, Himeno L 2.84x at 128 steps and 1.74x at 512, CIP 16384^2 1.79x
// at 256, hotspot 16384^2 2.16x at 256, jacobi3d 640^3 1.31x at 64 steps;
// their stepping alone is slower (jacobi2d 7%; in 3-D much more: Himeno 26%,
// slabs at H 2 against H 4, jacobi3d 60%, slabs at H 4 against H 8, which the
// GPU model predicts as 8%), so one tile wins again beyond a run length
// fitted from two: about 3100 steps for jacobi2d and Himeno, but 310 for
// jacobi3d (at 512 steps its bands ran 0.90x). Bands are taken while the one
// tile's predicted stepping is under `stepping_share_for_bands` (2-D) or
// `stepping_share_for_bands_3d` times its host copies, estimated at
// `host_copy_seconds_per_byte` (jacobi2d's and jacobi3d's measured one-tile
// copies: 0.2 ns a byte; Himeno's were 0.5). The shares are those break-evens
// rounded down (jacobi2d 4.5; jacobi3d 0.57, Himeno 7).
inline constexpr int host_copy_bands = 8;
inline constexpr double host_copy_seconds_per_byte = 0.2e-9;
inline constexpr double stepping_share_for_bands = 4;
inline constexpr double stepping_share_for_bands_3d = 0.5;
// A band's least size: launches of fewer cells leave the GPU part idle (on
// an H200 Himeno's 16 slabs of 2M cells stepped slower than 8 of 4M), and
// its least thickness along the slowest dimension, against the ghost zone.
inline constexpr double least_band_cells = 4.0 * (1 << 20);
inline constexpr Index thinnest_band = 32;
// Bands for one GPU in core (1: one tile): host_copy_bands, or 4, where the
// bands keep the sizes above and the run is short enough by the rule above;
// `host_bytes` is the grid's size in host memory, `one_tile_stepping_seconds`
// the GPU model's prediction for the whole run on one tile. 1-D domains keep
// one tile (pathfinder's two tiles stepped 2.02x slower at h = 1).
int one_gpu_bands(const Extent& domain, int dims, double host_bytes, double one_tile_stepping_seconds);
// Slabs along the slowest dimension, `per_gpu` a GPU (0: default_tiles_per_gpu),
// and more where a tile's read-only fields would not fit one StarPU vector
// handle: `read_only_elements_per_cell` is their count a cell (fields times
// planes; pathfinder's wall has a plane a step), see slabs_within_vector_limit.
Extent choose_gpu_tile(const Extent& domain, int dims, int gpus, int per_gpu = 0,
                       double read_only_elements_per_cell = 0);
// StarPU 1.4's vector handles count their elements in 32 bits, and a tile's
// read-only fields, every plane of them, are one vector handle: the fewest
// slabs along the slowest dimension that keep a slab's handle within that,
// with a tenth spare for the ghost zone (1: the domain fits whole). Pathfinder
// on 2^25 columns with 128 wall rows needs 2.
Index slabs_within_vector_limit(const Extent& domain, int dims, double read_only_elements_per_cell);

// Under MPI a rank's strips to and from its neighbours travel through host
// memory (GPU to host, MPI, host to GPU: about 4 GB/s between two ranks of
// one node, fitted in docs/SCALING.md) while the rank computes its other
// tiles, those next to another rank first. Where that trip is a large share
// of a stage (a thin slab a rank, as 3-D domains give), the tiles next to
// the neighbours must be a small share of the rank's work so the rest covers
// the trip. The share is worked out per stage and cancels the height:
// strip bytes / link against slab cells / GPU rate, i.e.
// radius x bytes a cell x rate / (link x slab thickness).
// Measured (2 ranks, stepping, interleaved medians, docs/PERF.md
// 2026-11-26), one GPU = 1.00:
//   two H100s, jacobi3d 1792^3: 2 tiles a rank 1.28-1.32x, 4 tiles 1.42x,
//     8 tiles (112 planes) 1.63-1.71x, 16 tiles (56 planes) 0.20x;
//   two H200s, jacobi3d 2016^3: 4 tiles (252 planes) 1.83x, 6 tiles 1.81x,
//     8 tiles 1.75x, 9 tiles (112 planes) 0.82x.
// Past 8 tiles a GPU those runs collapsed, MPI or not: StarPU's clean-buffer
// rule wrote tiles back to main memory (now off, runtime.cpp; 16 tiles on
// one H100 then step 1.14x the time of 2, not 9.3x). The cap of 4 gained on
// both machines with the rule still on; more may pay now (not yet measured
// under MPI).
inline constexpr double strip_trip_share_for_more_tiles = 0.1;
inline constexpr int most_tiles_per_gpu_between_ranks = 4;
inline constexpr Index thinnest_tile_between_ranks = 112;
inline constexpr double rank_link_bytes_per_second = 4e9;
inline constexpr double gpu_cells_per_second = 5e11;
// Tiles per GPU for `gpus` GPUs over `ranks` ranks: tiles_per_gpu in one
// process or where the strips' trip is a small share of a stage.
int gpu_tiles_per_gpu(const Extent& domain, int dims, int gpus, int ranks, Index radius, double cell_bytes);

// Out-of-core: tiles of at most `budget_bytes` each (at `cell_bytes` per
// cell), as near cubes as the domain allows, so the ghost zone of a tall
// trapezoid adds as little as it can (seed 003 cuts along one dimension and
// says its Himeno run could not raise k for that reason). Halves the longest
// side until a tile fits; of equal sides the slowest dimension's first, so
// that rows stay long (Himeno's 128x128x32 tiles ran 1.37x its 64x64x128 on
// an H200, docs/PERF.md 2026-11-27). Returns that tile first, then up to
// `larger` tiles of the same halving before it
// (each twice the one after): where a larger tile still fits a stage task of
// the height it needs, the GPU height model may prefer it
// (choose_out_of_core_gpu_tile).
std::vector<Extent> out_of_core_tiles(const Extent& domain, int dims, double cell_bytes, double budget_bytes, int larger);

}  // namespace trapeze
