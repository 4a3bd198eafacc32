#pragma once
// Choosing both heights on GPUs: the task-level height H (steps per stage
// task) and the kernel-level height k (steps per launch, in shared memory).
// Seed 000's structure (eq. 1-3): a stage costs its fixed synchronisation
// (here a task: StarPU's scheduling, the ghost-zone copies, one launch each)
// plus the work of its launches over the tile, CPL = CPS / h. What the seed
// derives from memory and compute cycles per trapezoid (eq. 4-10) is measured
// instead, per kernel height: the one-time profiling run (gpu_height_profile.hpp)
// times each k on a tile that fills the device and records seconds per cell
// and step, which holds for any size because a thread block's shape, and so
// its ghost-zone redundancy, does not depend on the tile (the seed found the
// same: the best ghost zone barely moves with the input size). The planner's
// own redundancy (a stage's ghost zone r*H around the tile, shrinking by r*k
// per launch) and the task and launch counts come from the run's shape.
#include <string>
#include <vector>

#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"

namespace trapeze {

struct GpuCostModel {
  struct KernelCost {
    int k;                  // kernel height
    double cell_seconds;    // per committed cell per step, the device filled
  };
  std::vector<KernelCost> kernels;  // ascending k
  double task_seconds = 0;          // a stage task's fixed cost
  double launch_seconds = 0;        // one more launch inside a task
};

struct GpuShape {
  Extent domain{1, 1, 1};
  int dims = 1;
  Extent tile{1, 1, 1};
  Extent radius{0, 0, 0};
  BoundaryKind boundary = BoundaryKind::clamp;
  int gpus = 1;
  Index steps = 0;  // the run's step count, if known
  // Out-of-core (seed 003's blocking factor): every stage streams each tile
  // (its ghost zone included) up and back down, at `stream_seconds_per_byte`
  // each way; 0: the tiles stay on the GPU.
  double stream_bytes_per_cell = 0;
  double stream_seconds_per_byte = 0;
  // Out-of-core: a stage task may take at most this many bytes of a GPU's
  // memory (0: no bound): its tile with the ghost zone r*H at
  // `device_bytes_per_cell`, and the strips it reads and writes (about twice
  // the ghost zone's cells) at `strip_bytes_per_cell`.
  double task_device_budget = 0;
  double device_bytes_per_cell = 0;
  double strip_bytes_per_cell = 0;
};

// Tallest task-level height offered in core, and out of core (where a stage's
// transfers must hide behind its compute: seed 003's Jacobi needed k = 32 on
// a GPU with a quarter of an H100's compute per PCIe byte).
inline constexpr int max_gpu_height = 64;
inline constexpr int max_out_of_core_height = 512;

// Out of core, the share of a stage's compute or transfers, whichever is
// smaller, that the other does not hide (predict_gpu_seconds_per_step).
inline constexpr double exposed_transfer_share = 0.5;

// Device bytes of one stage task at height H out of core (the bound above).
double stage_task_device_bytes(const GpuShape& shape, int height);

// Predicted seconds per time step of a whole run at heights (H, k).
double predict_gpu_seconds_per_step(const GpuCostModel& model, const GpuShape& shape, int height, int kernel_height);

struct GpuHeightChoice {
  int height = 1;
  int kernel_height = 1;
  double predicted_seconds_per_step = 0;
};

// Out of core a stage takes the longer of its compute and its transfers
// (uploads, write-backs and kernels overlap, PACC's pipeline) and half the
// shorter (the overlap is not whole), so the predicted time per step falls
// with H until the compute of a stage hides its transfers, then rises with
// the ghost zone's redundant work: the blocking factor k of seed 003 is
// that minimum.
// The fastest predicted (H, k), H a multiple of k up to 64 (512 out of core; and the step
// count); within 1% of the fastest, the smallest H (less redundant work where
// the prediction cannot tell). A non-zero `height` or `kernel_height` is kept
// as given (the user chose it) and the other one chosen around it.
GpuHeightChoice choose_gpu_heights(const GpuCostModel& model, const GpuShape& shape, int height = 0,
                                   int kernel_height = 0);

// Out of core the tile decides as much as the heights: of `tiles` (the
// automatic tile first, then larger ones, out_of_core_tiles), the largest
// whose stage task fits the shape's task budget at its best (H, k) and
// whose prediction is within `larger_tile_tolerance` of the fastest. The
// model does not see that smaller launches run slower per cell, and larger
// tiles ran faster than it predicted in every app measured: on Himeno L
// under a quarter of its arrays, 128x128x64 tiles at H 12 ran 1.75x as fast
// as the near cubes of an eighth of the GPU's memory (64x64x128, H 16; an
// H200, docs/PERF.md 2026-11-27); CIP 16384^2 under 1280 MiB ran 4096x2048
// tiles at H 86 1.09x as fast as 2048^2 at H 128, predicted 0.1% slower (an
// H100, 2026-11-28).
inline constexpr double larger_tile_tolerance = 0.02;
struct GpuTileChoice {
  Extent tile{1, 1, 1};
  GpuHeightChoice heights;
};
GpuTileChoice choose_out_of_core_gpu_tile(const GpuCostModel& model, GpuShape shape, const std::vector<Extent>& tiles,
                                          int height = 0, int kernel_height = 0);

}  // namespace trapeze
