#pragma once
// What one kernel launch of a stage works on, shared by the single-step and
// the trapezoid kernels (codelets/cuda/single_step_kernel.cuh,
// trapezoid_kernel.cuh).
#include <cuda_runtime.h>

namespace trapeze::cuda {

// Where a launch works, in the tile's padded coordinates (32-bit: a padded
// buffer's extent per dimension; offsets into it are 64-bit).
struct LaunchGeometry {
  int padded[3];
  long long padded_cells;
  int region_lo[3], region_hi[3];  // the cells this launch commits
  int inside_lo[3], inside_hi[3];  // the domain (the whole buffer in periodic dimensions)
  int radius[3];
  int steps;                       // k
  long long first_step;
  int boundary;                    // BoundaryKind
  int constant_planes;
  long long constant_field_stride;
  int walk_planes;                 // planes a walking block walks (walk_split.hpp); 0: its policy's
};

__device__ inline int clamp_to(int c, int lo, int hi) { return c < lo ? lo : (c >= hi ? hi - 1 : c); }

}  // namespace trapeze::cuda
