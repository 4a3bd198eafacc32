#pragma once
// The launch order of the 16-byte 3-D single step (vector_plane_kernel.cuh):
// how many rows of blocks run through all their plane groups before the next
// band of rows starts.
//
// Why: blocks run along x, then y, then plane groups, so a plane that two
// groups share (the last one group updates, which the next reads around its
// first, and the reverse) is read again one whole group of the launch later.
// A group moves about 2 planes a plane it updates plus its 2 rz ghost planes:
// 11 MB at 512^3 (rows 528 apart), 43 MB at 1024^3, 96 MB at 1536^3 against
// a 50 MB L2 (H100, H200). Past the L2 those planes come from DRAM twice, and
// jacobi3d's single step fell from 0.96 of the copy roofline (512^3) to 0.80
// (1024^3, H100, docs/PERF.md 2026-12-07). In bands of rows the distance is
// one group of the band; a band's edge rows are read by both bands (2 rows a
// band of block_rows x band), which is what small bands cost: 1024^3 ran at
// 0.880, 0.899, 0.918 and 0.933 with bands of 2, 4, 8 and 16 rows of blocks
// of 12 rows.
//
// Host-only and free of CUDA so that it is tested on machines without a GPU.
#include <algorithm>

namespace trapeze::cuda {

// The traffic one plane group of a band may make before its shared planes are
// read again: a quarter of the L2 (12.5 MB on an H100 or H200; 512^3's whole
// launch order makes 11 MB and keeps 0.96 of the roofline).
inline constexpr double plane_band_l2_share = 0.25;

// The largest grid size along y a launch may have (CUDA's limit).
inline constexpr int cuda_grid_y_limit = 65535;

// The most rows of blocks a band may have so that a band's rows times the
// plane groups fit a grid's y (at least 1).
inline int vector_plane_band_cap(int blocks_y, int plane_groups) {
  return std::max(1, std::min(blocks_y, cuda_grid_y_limit / std::max(plane_groups, 1)));
}

// Rows of blocks in a band: as many as keep one group's traffic within the
// share of l2_bytes, at least 1, at most all (blocks_y: the launch in plain
// order), and few enough that a band's rows times the plane groups fit a
// grid's y (65535). group_bytes_a_block_row: what one row of blocks moves in
// one group (its rows x the row's bytes x fields x planes read and written).
inline int vector_plane_band(int blocks_y, int plane_groups, double group_bytes_a_block_row, double l2_bytes) {
  const int fitting = group_bytes_a_block_row > 0
                          ? static_cast<int>(std::min(plane_band_l2_share * l2_bytes / group_bytes_a_block_row, 1e9))
                          : blocks_y;
  return std::max(1, std::min(fitting, vector_plane_band_cap(blocks_y, plane_groups)));
}

}  // namespace trapeze::cuda
