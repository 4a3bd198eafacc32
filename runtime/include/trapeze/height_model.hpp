#pragma once
// Choosing the trapezoid height h (seed 000, section 4). The seed's model for
// one stage of h steps is
//     CPS = GlbSync + MemAcc + CPT * T / M,        CPL = CPS / h       (eq. 1, 2)
// with T trapezoids per stage (eq. 3), memory time from the loads of the
// enlarged tile, the per-step traffic and the commit (eq. 8-10), and compute
// cycles over the enlarged tile. Adapted to StarPU tasks on CPU workers:
//   GlbSync -> a fixed cost per task (submission, dependencies, scheduling),
//              plus the ghost cells each task gathers and publishes;
//   MemAcc  -> bytes moved by each step's computed region (read and write of
//              the updated fields, read of the constant ones): the first step
//              of a stage at the bandwidth of wherever the whole problem
//              lives, each further step at the bandwidth of wherever the
//              workers' padded tiles fit (a measured bandwidth-versus-working-
//              set curve: caches, then memory);
//   CPT*T/M -> cells computed in the stage (the redundant ghost-zone work of
//              the shrinking or full trapezoid included) over W workers.
// The seed adds memory and compute cycles, then discounts the instructions that
// overlap memory accesses (its latency-hiding factor beta). On a CPU, hardware
// prefetching overlaps a streaming stencil's loads with its arithmetic almost
// entirely, so a stage takes the longer of the two, plus the per-task costs.
// The per-unit costs come from a one-time profiling run on a small input
// (height_profile.hpp) and hold for any size, as the seed found; the same
// structure takes GPU costs later (M = SMs, bandwidth of device memory).
#include <string>

#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/machine_probe.hpp"
#include "trapeze/plan.hpp"

namespace trapeze {

struct CostModel {
  double seconds_per_task = 0;        // fixed cost of one stage task
  double seconds_per_cell = 0;        // one cell update, data in cache, one worker
  double seconds_per_ghost_cell = 0;  // gathering + publishing one ghost cell
  BandwidthCurve bandwidth;           // whole machine, by working set
};

// What the model needs to know about a run.
struct ModelShape {
  Extent domain{1, 1, 1};
  int dims = 1;
  Extent tile{1, 1, 1};
  Extent radius{0, 0, 0};
  BoundaryKind boundary = BoundaryKind::clamp;
  TrapezoidMode mode = TrapezoidMode::shrink;
  int element_bytes = 4;
  int updated_fields = 1;
  int constant_fields = 0;
  int workers = 1;
  Index steps = 0;  // the run's step count, if known: no height above it is useful
};

// The work of one stage of height h, summed over all tiles.
struct StageWork {
  double tasks = 0;
  double cells = 0;        // cell updates, redundant ones included
  double ghost_cells = 0;  // cells gathered from strips and published
  double memory_seconds = 0;  // moving the tiles' bytes, at the curve's bandwidths
};

// `steps` (default: height) is less than the height for the shorter last stage
// of a run whose step count the height does not divide: same ghost zone, fewer steps.
StageWork stage_work(const ModelShape& shape, int height, const BandwidthCurve& bandwidth, int steps = 0);
double predict_stage_seconds(const CostModel& costs, const ModelShape& shape, int height, int steps = 0);
// Averaged over the run's stages when its step count is known (a shorter last
// stage costs its overheads for fewer steps), else over one full stage.
double predict_seconds_per_step(const CostModel& costs, const ModelShape& shape, int height);

// The largest height tried: 32, or the run's step count if smaller, or less
// where a periodic ghost zone would wrap around the domain more than once.
int max_useful_height(const ModelShape& shape);

struct HeightChoice {
  int height = 1;
  double predicted_seconds_per_step = 0;
};

// Relative slack within which a height's prediction counts as fast as the
// fastest: about the model's accuracy in ranking neighbouring heights.
inline constexpr double flat_tolerance = 0.02;

HeightChoice choose_height(const CostModel& costs, const ModelShape& shape);

}  // namespace trapeze
