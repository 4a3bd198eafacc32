#pragma once
// When a run is out-of-core on its GPUs, and how its tiles are cut then
// (seed 003, PACC: the domain streams through device memory in chunks that
// each advance k steps per visit; here chunks are tiles and k is the
// task-level trapezoid height).
#include "trapeze/geometry.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze {

// Bytes StarPU may use on its smallest GPU (STARPU_LIMIT_CUDA_MEM, in MiB,
// honoured); 0 without a CUDA worker. Needs a started Runtime.
double gpu_memory_bytes();

// Seconds an out-of-core run may go without any task completing before it
// is abandoned (abandon_stalled_run): TRAPEZE_STALL_SECONDS, default 60, 0
// never. Throws InvalidArgument naming a value that is not a number >= 0.
double stall_seconds_from_environment();

// Ends the process after one line on stderr saying that no task finished for
// `idle_seconds` of an out-of-core run and what to change. At small GPU
// memory caps StarPU's memory manager can wait for room forever (measured
// in docs/PERF.md, "small caps"); no StarPU call can cancel the tasks it
// holds, nor can starpu_shutdown() return, so exiting is the only way the
// run ends. Exit status 3.
[[noreturn]] void abandon_stalled_run(double idle_seconds, double gpu_memory_bytes);

// Seconds per byte between main memory and the slowest-linked GPU, the
// slower direction, from StarPU's bus calibration (made once per machine and
// kept under STARPU_HOME, like the height models' profiles): its measured
// rate, without starpu_transfer_predict's contention factor; 0 without a GPU.
double host_gpu_seconds_per_byte();

// Device bytes one cell of a stencil's grid takes: the tile interface's two
// buffers of every updated field, and each read-only field's planes.
template <Stencil S>
double device_cell_bytes(Index constant_planes) {
  return static_cast<double>(sizeof(typename S::value_type)) *
         (2.0 * updated_fields_of<S> + static_cast<double>(constant_fields_of<S>) * static_cast<double>(constant_planes));
}

// Bytes one cell of a tile's host buffer carries over PCIe: one buffer of
// the updated fields and the read-only fields' planes.
template <Stencil S>
double streamed_cell_bytes(Index constant_planes) {
  return static_cast<double>(sizeof(typename S::value_type)) *
         (static_cast<double>(updated_fields_of<S>) +
          static_cast<double>(constant_fields_of<S>) * static_cast<double>(constant_planes));
}

// A run is out-of-core on `gpus` GPUs of `memory_bytes` each when its domain
// takes more than this share of them: the rest holds strips, StarPU's
// scratch buffers and the tiles in flight.
inline constexpr double in_core_share = 0.8;
inline bool out_of_core_on_gpus(double domain_device_bytes, int gpus, double memory_bytes) {
  return gpus > 0 && memory_bytes > 0 && domain_device_bytes > in_core_share * gpus * memory_bytes;
}

// Out-of-core, a tile takes at most this share of a GPU's memory: one
// computing, the next uploading, the last writing back, and room for StarPU
// to keep a few more resident between stages.
inline constexpr double out_of_core_tile_share = 1.0 / 8;

// A stage task's share of a GPU that the height model aims at when ghost
// zones are filled in host memory (trapeze/stencil_run.hpp,
// fills_ghost_from_host): the GPU then holds the task's tile, the next one
// arriving and the last one leaving, and no strips. The run's fit check
// refuses more than a third (StencilRun::check_tiles_fit_gpus); the model
// leaves a tenth of the GPU beyond three such tasks to StarPU's own buffers
// and its allocator's fragments. jacobi2d 16384^2 under 256 MiB on an H200
// chose H 180 (0.32 of the GPU a task) with a third and ran 0.89-0.90 of in
// core; with this share H 108, 0.94 (docs/PERF.md, 2026-11-28, session 33).
// With strips the height model keeps a stage task to a quarter.
inline constexpr double stage_task_share_with_host_ghosts = 0.3;
static_assert(3 * stage_task_share_with_host_ghosts < 1, "three stage tasks in flight must leave StarPU room");

}  // namespace trapeze
