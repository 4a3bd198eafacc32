#pragma once
// Runs a stencil over a grid in skewed slabs (trapeze/skewed_slabs.hpp): one
// StarPU task a slab a pass, each holding the slabs it touches, so StarPU's
// memory manager moves and evicts slabs as tasks need them and sequential
// consistency orders the tasks. No ghost zone exists and nothing is computed
// twice: a slab crosses to a device and back once a pass.
//
//   trapeze::Runtime runtime;
//   trapeze::SkewedRun run(runtime, Himeno{}, grid, trapeze::SkewedSlabs(256, 8, 32, 1));
//   run.advance(128);  // grid now holds step 128
//
// The task has a CPU and, where the program registered the stencil with
// TRAPEZE_CUDA_STENCIL, a CUDA implementation (codelets/cpu/skewed_cpu.hpp,
// codelets/cuda/skewed_cuda.cuh); `devices` says where tasks may run, as
// Plan::devices does for stages.
#include <starpu.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "codelets/cpu/skewed_cpu.hpp"
#include "codelets/skewed_args.hpp"
#include "trapeze/cuda_stencils.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/error.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/host_buffer.hpp"
#include "trapeze/node_buffer.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/skewed_slabs.hpp"
#include "trapeze/out_of_core.hpp"
#include "trapeze/stencil.hpp"
#include "trapeze/task_refused.hpp"
#include "trapeze/task_window.hpp"

namespace trapeze {

template <Stencil S>
class SkewedRun {
 public:
  using T = typename S::value_type;

  SkewedRun(Runtime& runtime, const S& stencil, Grid<T>& grid, const SkewedSlabs& slabs,
            StageDevices devices = StageDevices::automatic)
      : runtime_(runtime), stencil_(stencil), grid_(grid), slabs_(slabs), geometry_(geometry_of(grid, slabs)) {
    // The ring holds the planes of the slabs a task touches and r beyond
    // each end: the next task's new slab overwrites only planes no task
    // reads again.
    geometry_.ring = {slabs_.most_touched() * slabs_.slab() + 2 * slabs_.radius(), slabs_.radius()};
    if (grid.boundary().kind == BoundaryKind::periodic) {
      throw InvalidArgument("skewed slabs need a boundary that does not wrap, got periodic");
    }
    if (grid.constant_planes() > 1) {
      throw InvalidArgument("skewed slabs do not take time-varying read-only fields (" +
                            std::to_string(grid.constant_planes()) + " planes)");
    }
    for (starpu_codelet* copy : {&scatter_codelet_, &gather_codelet_}) {
      starpu_codelet_init(copy);
      copy->where = STARPU_CPU;
      copy->nbuffers = STARPU_VARIABLE_NBUFFERS;
    }
    scatter_codelet_.cpu_funcs[0] = &skewed_scatter_cpu<T>;
    scatter_codelet_.name = "skewed_scatter";
    gather_codelet_.cpu_funcs[0] = &skewed_gather_cpu<T>;
    gather_codelet_.name = "skewed_gather";
    // A slab buffer invalidated before a task overwrites it (submit()) is
    // "initialised" by this codelet, which does nothing: with no valid copy
    // anywhere, StarPU allocates the buffer where the task runs and copies
    // nothing there (StarPU's init method of a handle, here not a reduction).
    starpu_codelet_init(&fresh_codelet_);
    fresh_codelet_.cpu_funcs[0] = &leave_as_is;
    fresh_codelet_.cuda_funcs[0] = &leave_as_is;
    fresh_codelet_.nbuffers = 1;
    fresh_codelet_.modes[0] = STARPU_W;
    fresh_codelet_.name = "skewed_fresh";
    starpu_codelet_init(&codelet_);
    codelet_.cpu_funcs[0] = &skewed_task_cpu<S>;
    codelet_.cpu_funcs_name[0] = "skewed_task_cpu";
    codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    codelet_.name = "skewed";
    const CudaStencilFunctions* cuda = cuda_functions_of<S>();
    const bool has_cuda = cuda && cuda->skewed_task && runtime.cuda_worker_count() > 0;
    codelet_.where = codelet_where(devices, has_cuda, "skewed slabs");
    if (codelet_.where & STARPU_CUDA) {
      if (!(codelet_.where & STARPU_CPU) && runtime.cuda_worker_count() == 1) {
        gpu_worker_ = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
        gpu_node_ = static_cast<int>(starpu_worker_get_memory_node(gpu_worker_));
      }
      codelet_.cuda_funcs[0] = cuda->skewed_task;
      codelet_.cuda_flags[0] = STARPU_CUDA_ASYNC;
      // The CUDA task's pointers to the read-only fields in their slabs
      // travel to its kernels by value (codelets/cuda/skewed_cuda.cuh,
      // skewed_max_slabs in codelets/skewed_args.hpp).
      const int most = slabs_.most_touched();
      if (reads_constants_in_slabs && most > max_cuda_slabs) {
        throw InvalidArgument("a skewed task on a GPU touches at most " + std::to_string(max_cuda_slabs) +
                              " slabs; slabs of " + std::to_string(slabs_.slab()) + " planes at height " +
                              std::to_string(slabs_.height()) + " touch " + std::to_string(most) +
                              ": choose wider slabs");
      }
    }
    // The slabs' host memory, allocated and pinned here, as StencilRun's
    // tiles are in its constructor: pinning is the slow part of a host
    // allocation (about 1 s for Himeno L's 2.4 GB on an H200's host when
    // StarPU allocated the slabs inside the run), and a run over the same
    // grid reuses it.
    for (int s = 0; s < slabs_.count(); ++s) {
      const std::size_t cells = static_cast<std::size_t>(geometry_.planes_of(s) * geometry_.plane_cells);
      slab_updated_memory_.emplace_back(2 * geometry_.updated_fields * cells);
      if (geometry_.constant_fields > 0) slab_constant_memory_.emplace_back(geometry_.constant_fields * cells);
    }
    // The ring on one GPU (advance()), allocated here too: inside the run
    // its allocation took 20 ms (an H200, the process's first on the GPU;
    // FxT trace of Himeno L, docs/PERF.md, session 37, call 4) and held back
    // the first GPU task after the first slabs were ready. Allocated here,
    // Himeno L under a quarter cap ran 1.06x faster (call 5). A run over the
    // same grid reuses it.
    if (gpu_node_ >= 0) ring_memory_ = NodeBuffer(static_cast<unsigned>(gpu_node_), window_cells() * sizeof(T));
  }

  // Most slabs a task on a GPU may touch where it reads read-only fields in
  // their slabs (codelets/skewed_args.hpp); others may touch any number.
  static constexpr int max_cuda_slabs = skewed_max_slabs;
  static constexpr bool reads_constants_in_slabs = constant_fields_of<S> > 0 && constants_at_cell_only_of<S>;

  // Cells of the ring window (codelets/skewed_args.hpp), the device memory
  // a run holds besides its slabs.
  std::size_t window_cells() const { return static_cast<std::size_t>(geometry_.ring_cells()); }
  SkewedRun(const SkewedRun&) = delete;
  SkewedRun& operator=(const SkewedRun&) = delete;

  // Advances the grid by `steps` steps from `first_step` (the step its values
  // hold), in passes of the slabs' height; returns with the grid holding the
  // result. `progress` hears about once a second the skewed tasks done (one
  // a slab a pass, each streaming its slab) and the run's total.
  void advance(Index steps, Index first_step = 0, const ProgressCallback& progress = {}) {
    if (steps < 0) throw InvalidArgument("steps must be >= 0, got " + std::to_string(steps));
    if (first_step < 0) throw InvalidArgument("first step must be >= 0, got " + std::to_string(first_step));
    if (steps == 0) return;
    // The slabs' home is their host memory: CPU tasks copy the grid in, one
    // a slab, while the first slabs' tasks already run, and copy the result
    // out as slabs finish.
    {
      // Each slab's updated fields: a handle a parity, so a slab crosses
      // to a device and back in the parity a pass reads and the one it
      // leaves, not both.
      std::array<std::vector<DataHandle>, 2> updated;
      std::vector<DataHandle> read_only;
      grid_updated_.clear();
      grid_constants_.clear();
      for (int f = 0; f < geometry_.updated_fields; ++f) grid_updated_.push_back(grid_.updated(f).data());
      for (int c = 0; c < geometry_.constant_fields; ++c) grid_constants_.push_back(grid_.constant(c).data());
      end_step_ = first_step + steps;
      for (int s = 0; s < slabs_.count(); ++s) {
        const HostBuffer<T>& updated_memory = slab_updated_memory_[s];
        const std::size_t half = updated_memory.size() / 2;
        for (int parity = 0; parity < 2; ++parity) {
          updated[parity].push_back(DataHandle::vector(updated_memory.data() + parity * half, half, sizeof(T), false));
          starpu_data_set_reduction_methods(updated[parity].back().get(), nullptr, &fresh_codelet_);
        }
        if (geometry_.constant_fields > 0) {
          const HostBuffer<T>& constant_memory = slab_constant_memory_[s];
          read_only.push_back(DataHandle::vector(constant_memory.data(), constant_memory.size(), sizeof(T), false));
        }
        std::vector<starpu_data_descr> data{{updated[first_step % 2][s].get(), STARPU_W}};
        if (geometry_.constant_fields > 0) data.push_back({read_only[s].get(), STARPU_W});
        copy_task(scatter_codelet_, data, {&geometry_, grid_updated_.data(), grid_constants_.data(), s});
      }
      // The ring. On one GPU: memory of its own there (counted in what
      // StarPU may use), no handle, the tasks run in submission order on
      // the GPU worker (STARPU_WORKER_ORDER), so a task's kernels may queue
      // on the worker's stream behind the task before's, where a handle
      // every task held RW made each task wait for the one before to end.
      // Measured on an H200 (docs/PERF.md, session 37, call 3): Himeno L
      // --skew auto in core 1.035x faster (32 tasks), under a quarter cap
      // no faster (256 tasks, 0.99). Elsewhere (CPU workers, or no room
      // for it): a handle every task holds RW, allocated where the first
      // task runs and kept there.
      T* const ring = static_cast<T*>(ring_memory_.get());
      const DataHandle window = ring ? DataHandle() : DataHandle::vector(nullptr, window_cells(), sizeof(T), false);
      // Tasks enter StarPU a few at a time (trapeze/task_window.hpp): each
      // depends on the one before, so more in StarPU would only hold memory.
      const std::vector<SkewedTask> schedule = skewed_schedule(slabs_, steps);
      const auto total = static_cast<Index>(schedule.size());
      Index next = 0;
      // The gathers of the last pass count apart from the window: in it, a
      // gather held a place a skewed task could have had, so the GPU waited
      // for each slab's copy home (Himeno L under a cap: the last pass's GPU
      // busy about half its time, docs/PERF.md, session 36, call 3).
      TaskWindow gathers(
          slabs_.count(), [] { return false; }, [] { return false; });
      TaskWindow window_of_tasks(
          task_window_capacity,
          [&] {
            submit(schedule[static_cast<std::size_t>(next)], first_step, next == 0, updated, read_only, window,
                   ring, window_of_tasks, gathers);
            return ++next < total;
          },
          [&] { return next < total; });
      if (codelet_.where & STARPU_CUDA) {
        window_of_tasks.guard_stalls(stall_seconds_from_environment(),
                                     [memory = gpu_memory_bytes()](double idle) { abandon_stalled_run(idle, memory); });
      }
      {
        const auto submission = window_of_tasks.lock_submission();
        window_of_tasks.fill(submission, false);
      }
      // When the gathers (submitted after each slab's last task) are done,
      // the grid holds the result.
      std::function<void()> tick;
      if (progress) tick = [&] { progress(window_of_tasks.completed(), total); };
      window_of_tasks.wait_until_done(tick);
      gathers.wait_until_done(tick);
    }
  }


 private:
  static SkewedGeometry geometry_of(const Grid<T>& grid, const SkewedSlabs& slabs) {
    SkewedGeometry g;
    g.domain = grid.extent();
    g.radius = S::shape.radius;
    g.axis = skewed_axis(grid.dims());
    if (slabs.planes() != g.domain[g.axis] || slabs.radius() != g.radius[g.axis]) {
      throw InvalidArgument("skewed slabs of " + std::to_string(slabs.planes()) + " planes and radius " +
                            std::to_string(slabs.radius()) + " do not match the grid's axis " +
                            std::to_string(g.axis) + " (" + std::to_string(g.domain[g.axis]) + " planes, radius " +
                            std::to_string(g.radius[g.axis]) + ")");
    }
    g.slab = slabs.slab();
    g.plane_row = g.domain[0] + 2 * g.radius[0];
    g.plane_cells = g.plane_row * (g.axis == 2 ? g.domain[1] + 2 * g.radius[1] : 1);
    g.updated_fields = grid.updated_count();
    g.constant_fields = grid.constant_count();
    g.window_constants = g.constant_fields > 0 && !constants_at_cell_only_of<S>;
    g.boundary = grid.boundary();
    return g;
  }

  // A scatter or gather task; `counted` (a gather) completes in that window.
  void copy_task(starpu_codelet& codelet, std::vector<starpu_data_descr>& data, const SkewedCopyArgs<T>& args,
                 TaskWindow* counted = nullptr) {
    if (counted) counted->task_submitted();
    const int rc = counted ? starpu_task_insert(&codelet, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY,
                                                data.data(), static_cast<int>(data.size()),
                                                STARPU_CALLBACK_WITH_ARG_NFREE, &on_task_done, counted, STARPU_NAME,
                                                codelet.name, 0)
                           : starpu_task_insert(&codelet, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY,
                                                data.data(), static_cast<int>(data.size()), STARPU_NAME, codelet.name, 0);
    if (rc != 0) {
      if (counted) counted->task_not_submitted();
      throw_task_refused("starpu_task_insert", rc, codelet);
    }
  }

  // Tasks in StarPU at once: the one running and the next two, their new
  // slabs on the way (prefetched at submission).
  static constexpr Index task_window_capacity = 3;

  static void leave_as_is(void*[], void*) {}

  static void on_task_done(void* window) { static_cast<TaskWindow*>(window)->task_done(); }

  // Submits `task` (skewed_schedule) of the run that started at
  // `run_first_step`; `first_of_run`: the run's first task. The ring is
  // `ring` where not null (the tasks then run in order on the GPU worker),
  // else `window`.
  void submit(const SkewedTask& task, Index run_first_step, bool first_of_run,
              const std::array<std::vector<DataHandle>, 2>& updated, const std::vector<DataHandle>& read_only,
              const DataHandle& window, T* ring, TaskWindow& tasks, TaskWindow& gathers) {
    const Index first_step = run_first_step + task.first_step;
    // Read-only buffers: of every touched slab where the stencil reads them
    // in their slabs, of the new slabs where the ring takes them, else none.
    constexpr bool cell_only = reads_constants_in_slabs;
    const int constants_first = cell_only ? task.first_slab : task.in_first;
    const int constants_last = geometry_.constant_fields == 0 ? constants_first - 1
                               : cell_only                    ? task.last_slab
                                                              : task.in_last;
    SkewedTaskArgs<S> args{&geometry_,      &stencil_,    task.first_slab, task.last_slab,
                           task.in_first,   task.in_last, task.out_first,  task.out_last,
                           constants_first, first_step,   task.steps,      task.planes,
                           false,           ring};
    // Slabs both copied in and out: only where there is one slab.
    const bool in_and_out = task.copies_in() && task.copies_out() && task.in_first <= task.out_last &&
                            task.out_first <= task.in_last;
    if (in_and_out && slabs_.count() > 1) {
      throw std::logic_error("skewed task " + std::to_string(task.order) + " copies a slab both in and out");
    }
    const int start = static_cast<int>(first_step % 2), end = static_cast<int>((first_step + task.steps) % 2);
    args.in_shares_out = in_and_out && start == end;
    // The run's first task writes every ring plane it reads (it copies in
    // all the slabs it touches): it needs nothing the ring held before.
    // Later ones keep what the tasks before left, across passes too.
    std::vector<starpu_data_descr> data;
    if (!ring) data.push_back({window.get(), first_of_run ? STARPU_W : STARPU_RW});
    // RW, though the task overwrites what it copies out: with W, StarPU's
    // memory manager stopped making room under a cap (Himeno M 40 steps
    // --skew auto under 96 MiB, L --skew 2:32 under 448 MiB: nothing ran
    // for the stall guard's 6 s with the GPU full; RW ran both; docs/PERF.md,
    // session 36, call 2). So that RW does not carry the slab's stale values
    // to the GPU, the buffer is invalidated first (ordered after the task
    // that copied the slab in): with no valid copy left, StarPU allocates
    // it on the GPU and runs fresh_codelet_, which does nothing. Himeno L
    // under a quarter cap: 7.43 GB over PCIe instead of 7.64, its time the
    // same within noise (1.02x in call 1, 0.996 in call 2), no stall (H200,
    // docs/PERF.md, session 38). A lone slab copied
    // in and out of one buffer keeps its values: the task reads them.
    for (int s = args.out_first; s <= args.out_last; ++s) {
      if (!args.in_shares_out) starpu_data_invalidate_submit(updated[end][s].get());
      data.push_back({updated[end][s].get(), STARPU_RW});
    }
    for (int s = args.in_first; !args.in_shares_out && s <= args.in_last; ++s) {
      data.push_back({updated[start][s].get(), STARPU_R});
    }
    for (int s = constants_first; s <= constants_last; ++s) data.push_back({read_only[s].get(), STARPU_R});
    // The task's new slabs start their trip to the GPU now, while the tasks
    // before it run: the tasks form a chain, so StarPU would fetch them only
    // once this one is ready.
    for (int s = task.in_first; gpu_node_ >= 0 && s <= task.in_last; ++s) {
      starpu_data_prefetch_on_node(updated[start][s].get(), gpu_node_, 1);
      if (s >= constants_first && s <= constants_last) starpu_data_prefetch_on_node(read_only[s].get(), gpu_node_, 1);
    }
    tasks.task_submitted();
    const unsigned order = ring ? runtime_.take_worker_order(gpu_worker_) : 0;
    const int rc = starpu_task_insert(&codelet_, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY, data.data(),
                                      static_cast<int>(data.size()), STARPU_CALLBACK_WITH_ARG_NFREE, &on_task_done,
                                      &tasks, STARPU_EXECUTE_ON_WORKER, ring ? gpu_worker_ : -1, STARPU_WORKER_ORDER,
                                      order, STARPU_NAME, "skewed", 0);
    if (rc != 0) {
      if (ring) runtime_.give_back_worker_order(gpu_worker_);
      tasks.task_not_submitted();
      throw_task_refused("starpu_task_insert", rc, codelet_);
    }
    // Slabs copied out go home now, while the bus is free, and leave first
    // when StarPU needs room (ordered after the task); so do read-only
    // fields no later task of the pass reads.
    const bool last_pass = first_step + task.steps == end_step_;
    for (int s = args.out_first; s <= args.out_last; ++s) {
      if (cell_only) starpu_data_wont_use(read_only[s].get());
      if (last_pass) {
        std::vector<starpu_data_descr> gather{{updated[end][s].get(), STARPU_R}};
        copy_task(gather_codelet_, gather, {&geometry_, grid_updated_.data(), grid_constants_.data(), s}, &gathers);
        continue;
      }
      starpu_data_wont_use(updated[end][s].get());
    }
    for (int s = args.in_first; geometry_.window_constants && s <= args.in_last; ++s) {
      starpu_data_wont_use(read_only[s].get());
    }
  }

  Runtime& runtime_;
  S stencil_;
  Grid<T>& grid_;
  SkewedSlabs slabs_;
  SkewedGeometry geometry_;
  starpu_codelet codelet_{};
  int gpu_worker_ = -1;  // the one GPU's worker and memory node, when tasks run there alone
  int gpu_node_ = -1;
  starpu_codelet scatter_codelet_{}, gather_codelet_{}, fresh_codelet_{};
  // What the scatter and gather tasks of the advance() under way copy.
  std::vector<T*> grid_updated_;
  std::vector<const T*> grid_constants_;
  Index end_step_ = 0;
  // Each slab's host memory: its updated fields' two parities, its read-only fields.
  std::vector<HostBuffer<T>> slab_updated_memory_, slab_constant_memory_;
  // The ring on the one GPU where tasks run there alone (empty elsewhere, or
  // where StarPU had no room for it: the ring is then a handle).
  NodeBuffer ring_memory_;
};

}  // namespace trapeze
