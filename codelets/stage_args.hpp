#pragma once
// The arguments the planner packs into stage and publish tasks (by value),
// shared by the CPU and CUDA implementations of the same codelets.
//
// Buffers of a stage task, in order: tile (RW, Trapeze's tile interface),
// [constant padded tile (R, vector)], [chunk scratch (SCRATCH, vector): only
// where a CPU may run the task], incoming strips (R, vectors)..., outgoing
// strips (W, vectors)...
// Buffers of a publish task: tile (R), outgoing strips (W)...
#include "trapeze/plan.hpp"
#include "trapeze/tile_layout.hpp"

namespace trapeze {

template <typename S>
struct StageArgs {
  const TileLayout* layout;
  const S* stencil;
  int steps;           // steps in this stage (h, or fewer for the last stage)
  Index first_step;    // global index of the stage's first step
  bool publish;        // write outgoing strips after the stage
  TrapezoidMode mode;  // CPU only: how the trapezoid computes its ghost zone
  int kernel_height;   // CUDA only: steps per kernel launch (temporal blocking in shared memory)
  // Whether the task holds the CPU's chunk scratch buffer. Tasks only a GPU
  // runs leave it out: each buffer a task holds costs StarPU time between
  // dependent tasks (an unused scratch buffer 2.0-3.0 us a task on an H200,
  // benchmarks/gpu_task_turnaround.cu).
  bool chunk_scratch = true;
};

struct PublishArgs {
  const TileLayout* layout;
};

}  // namespace trapeze
