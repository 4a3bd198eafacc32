#pragma once
// How a stencil runs, chosen apart from what it computes: tile size, trapezoid
// height, how a trapezoid computes its ghost zone.
#include <string>
#include <string_view>

#include "trapeze/geometry.hpp"

namespace trapeze {

// Seed 000, section 3.3: a trapezoid can shrink the computed region by r each
// step (no redundant work past what stays valid), or compute the whole
// enlarged tile every step and commit only the valid part (uniform work, the
// GPU-friendly variant). CPU tasks honour it; GPU kernels always compute a
// block's whole shared-memory tile and commit the valid part.
enum class TrapezoidMode { shrink, full };

TrapezoidMode parse_trapezoid_mode(std::string_view text);
std::string to_string(TrapezoidMode mode);

// Which workers run stage tasks (copies in and out of the grid always run on
// CPU workers). automatic: the GPUs alone when the program has CUDA codelets
// for the stencil and StarPU found a GPU, the CPUs otherwise; cpu, gpu: those
// only; all: both, StarPU's scheduler choosing per task.
enum class StageDevices { automatic, cpu, gpu, all };

StageDevices parse_stage_devices(std::string_view text);
std::string to_string(StageDevices devices);

struct Plan {
  Extent tile{256, 256, 1};  // cells per tile per dimension; clipped to the domain
  int height = 1;            // time steps per stage (task-level trapezoid height H)
  TrapezoidMode mode = TrapezoidMode::shrink;
  int kernel_height = 1;     // GPU: time steps per kernel launch (kernel-level height k <= H)
  StageDevices devices = StageDevices::automatic;
  // Most tasks a run keeps in StarPU at once (trapeze/task_window.hpp); 0:
  // automatic, at least four stages and 8192 tasks.
  Index max_tasks_in_flight = 0;
  // The step the grid holds when the run starts (a restart from a checkpoint):
  // time-varying read-only fields and Neighbourhood::step count from it.
  Index first_step = 0;
  // On a Runtime with several MPI ranks: spread the tiles over the ranks
  // (each rank owns a box of tiles, trapeze/partition.hpp). false: this
  // process runs every tile by itself (what the height models' profiling does).
  bool distribute = true;
  // Out-of-core (tiles larger than the GPUs' memory, or than the memory
  // StarPU may use on the host with a disk node): after each stage, StarPU is
  // told the tile will not be used soon (starpu_data_wont_use), so it writes
  // the tile back to its home while the bus is idle and evicts it first, and
  // the upload of the next tile never waits for a write-back.
  bool stream_tiles = false;
};

// Sweeps a task makes when SweepPlan::sweeps_per_task is 0 and the grid is one tile.
inline constexpr int automatic_sweeps_per_task = 64;

// How an in-place sweep (trapeze/sweep_run.hpp) is cut and where it runs.
struct SweepPlan {
  Index tile_rows = 256;
  Index tile_columns = 256;
  // 0: automatic, at least eight anti-diagonals of tiles and 8192 tasks.
  Index max_tasks_in_flight = 0;
  // automatic: on the GPUs when the sweep has CUDA codelets and StarPU has a
  // CUDA worker, else on the CPUs (as for stencil stages).
  StageDevices devices = StageDevices::automatic;
  // GPU: columns each lane sweeps per hyper-tile (>= 32; seed 004's width).
  int hyper_tile_width = 32;
  // Sweeps one task makes, a kernel-level trapezoid of sweeps: on a GPU they
  // overlap inside one PeerWave launch. More than 1 only when the grid is
  // one tile (a cut tile's neighbours need its edges after every sweep);
  // 0: automatic, up to 64 for a grid in one tile, else 1.
  int sweeps_per_task = 0;
  // On a Runtime with several MPI ranks: give each rank a band of tile rows
  // (false: this process runs every tile).
  bool distribute = true;
};

// How a wavefront tile's cell inputs and output are laid out in the memory
// of the worker that runs its task: row_major, as the caller's arrays; banded,
// seed 004's hybrid row/diagonal-major layout (trapeze/banded_layout.hpp), in
// which the GPU codelet's warps read and write whole cache lines.
enum class WavefrontLayout { automatic, row_major, banded };

WavefrontLayout parse_wavefront_layout(std::string_view text);
std::string to_string(WavefrontLayout layout);

// How a wavefront runs: its tiles (clipped to the iteration space) and how
// many of its tasks StarPU holds at once.
struct WavefrontPlan {
  Index tile_rows = 512;
  Index tile_columns = 512;
  // 0: automatic, at least four anti-diagonals of tiles and 8192 tasks.
  Index max_tasks_in_flight = 0;
  // On a Runtime with several MPI ranks: deal the rows of tiles to the ranks
  // in turn (false: this process runs every tile).
  bool distribute = true;
  // Where tile tasks may run: GPUs need the wavefront registered with
  // TRAPEZE_CUDA_WAVEFRONT (trapeze/cuda_wavefront.cuh).
  StageDevices devices = StageDevices::automatic;
  // GPU: steps of a band's anti-diagonal sweep per hyper-tile (>= 8; seed
  // 004's width): how often a warp publishes its progress; a band trails the
  // band above by 31 steps plus one or two hyper-tiles.
  int hyper_tile_width = 32;
  // Layout of the tiles' cell inputs and output where their tasks run (a
  // wavefront that has neither ignores it). automatic: banded where the
  // tiles run on GPUs alone in one process (an integral histogram 1.12-1.21x
  // faster on an H100, a summed-area table 0.97-1.12x, its run bound by
  // PCIe: docs/PERF.md), row-major elsewhere. banded: on any worker (CPU
  // tasks convert to row-major and back inside the task: for tests), not
  // across MPI ranks. The caller's arrays stay row-major: the run inserts
  // conversion tasks, see trapeze/wavefront_run.hpp.
  WavefrontLayout layout = WavefrontLayout::automatic;
  // Banded layout: rows a lane holds in a band of 32 lanes. 0: the GPU
  // codelet's own choice for the tile's shape (8 on CPUs alone).
  int banded_lane_rows = 0;
};

}  // namespace trapeze
