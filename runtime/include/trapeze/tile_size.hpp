#pragma once
// A default tile size for CPUs: whole rows (long unit-stride inner loops and
// no halo across x), the slowest dimension cut so each worker gets several
// tiles to balance the load and overlap neighbouring stages.
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
Extent choose_gpu_tile(const Extent& domain, int dims, int gpus, int per_gpu = tiles_per_gpu);

// Out-of-core: tiles of at most `budget_bytes` each (at `cell_bytes` per
// cell), as near cubes as the domain allows, so the ghost zone of a tall
// trapezoid adds as little as it can (seed 003 cuts along one dimension and
// says its Himeno run could not raise k for that reason). Halves the longest
// side until a tile fits.
Extent choose_out_of_core_tile(const Extent& domain, int dims, double cell_bytes, double budget_bytes);

}  // namespace trapeze
