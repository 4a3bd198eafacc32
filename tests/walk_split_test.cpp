// The walk split of the register trapezoids (codelets/cuda/walk_split.hpp):
// small regions get shorter walks that fill the GPU, large ones keep the
// policy's.
#include <gtest/gtest.h>

#include "codelets/cuda/walk_split.hpp"

namespace {

using trapeze::cuda::walk_planes_per_block;

// jacobi2d at k = 16 on an H100: 224-cell columns, 256-row walks, 2 blocks
// per multiprocessor, 132 multiprocessors.
constexpr int policy_planes = 256, start_up = 32;
constexpr long long h100_slots = 264;

TEST(WalkSplit, LargeRegionKeepsThePolicysWalk) {
  // 16384^2: 74 columns of 64 walks, 18 waves.
  EXPECT_EQ(walk_planes_per_block(74, 16384, policy_planes, start_up, h100_slots), policy_planes);
}

TEST(WalkSplit, OutOfCoreTileFillsTheGpu) {
  // A 2048^2 tile's first launch at H = 128: a 2272-row region, 11 columns.
  const int planes = walk_planes_per_block(11, 2272, policy_planes, start_up, h100_slots);
  const long long blocks = 11LL * ((2272 + planes - 1) / planes);
  EXPECT_LT(planes, policy_planes);
  EXPECT_GT(blocks, h100_slots / 2) << "the policy's walk makes 99 blocks, a third of the slots";
  EXPECT_LE(blocks, h100_slots) << "one wave, not a second one nearly empty";
  // Still long against its start-up.
  EXPECT_GE(planes, start_up);
}

TEST(WalkSplit, ModelTimeNeverWorseThanThePolicys) {
  for (long long columns : {1LL, 3LL, 10LL, 19LL, 40LL}) {
    for (int walk : {1, 17, 300, 2048, 4096, 9000}) {
      const int planes = walk_planes_per_block(columns, walk, policy_planes, start_up, h100_slots);
      ASSERT_GE(planes, 1);
      ASSERT_LE(planes, policy_planes);
      auto model = [&](int p) {
        const long long segments = (walk + p - 1) / p;
        return ((columns * segments + h100_slots - 1) / h100_slots) * (std::min(p, walk) + start_up);
      };
      EXPECT_LE(model(planes), model(policy_planes)) << columns << " columns, walk " << walk;
    }
  }
}

TEST(WalkSplit, DegenerateInputsKeepThePolicy) {
  EXPECT_EQ(walk_planes_per_block(0, 100, 64, 8, 264), 64);
  EXPECT_EQ(walk_planes_per_block(10, 0, 64, 8, 264), 64);
  EXPECT_EQ(walk_planes_per_block(10, 100, 64, 8, 0), 64);
}

}  // namespace
