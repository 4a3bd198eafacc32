#pragma once
// How far each block of a walking kernel walks (the register trapezoids,
// plane_register_trapezoid_kernel.cuh, in 2-D along y, and
// vector_trapezoid_kernel.cuh; the 3-D plane trapezoid,
// plane_trapezoid_kernel.cuh, which box stencils such as Himeno's take),
// chosen at launch so that a small region still fills the GPU.
//
// Why: a block walks its policy's planes (256 rows in 2-D), so a launch over
// a tile of 2048^2 cells at k = 16 makes 10 columns of 9 blocks, 90 blocks
// where an H100 holds 264 at once: two thirds of the GPU idle, and a run in
// out-of-core tiles (which must be small) took 1.77x as long as with this
// split (docs/PERF.md, 2026-11-27). Walking fewer planes makes more blocks, each paying the walk's
// start-up again (2 r k planes computed only to feed the next steps), so the
// split is chosen by a small cost model: waves of blocks times the planes
// each block walks, start-up included.
//
// Host-only and free of CUDA so that it is tested on machines without a GPU.
#include <algorithm>

namespace trapeze::cuda {

// The planes each block walks for a launch of `columns` blocks across and
// `walk` planes along the walk, given the policy's planes, the planes a
// block walks before its first output (`start_up`), and how many blocks the
// GPU runs at once (`slots`: multiprocessors times resident blocks). Keeps
// the policy's planes where its launch already gives every slot two blocks
// or more: the policies were tuned on such launches (3-D at 512^3 lost when
// its planes were sized to fill the last wave, kernel_policy.hpp), and
// never walks more than the policy's planes.
inline int walk_planes_per_block(long long columns, int walk, int policy_planes, int start_up, long long slots) {
  if (columns <= 0 || walk <= 0 || policy_planes <= 0 || slots <= 0) return std::max(1, policy_planes);
  const long long policy_segments = (walk + policy_planes - 1) / policy_planes;
  if (columns * policy_segments >= 2 * slots) return policy_planes;
  auto cost = [&](long long segments) {
    const long long planes = (walk + segments - 1) / segments;
    const long long waves = (columns * segments + slots - 1) / slots;
    return waves * (planes + start_up);
  };
  long long best = policy_segments, best_cost = cost(policy_segments);
  // Beyond 4 waves more segments only add start-ups.
  const long long last = std::min<long long>(walk, std::max(policy_segments, (4 * slots + columns - 1) / columns));
  for (long long segments = policy_segments + 1; segments <= last; ++segments) {
    const long long c = cost(segments);
    if (c < best_cost) best = segments, best_cost = c;
  }
  return static_cast<int>((walk + best - 1) / best);
}

}  // namespace trapeze::cuda
