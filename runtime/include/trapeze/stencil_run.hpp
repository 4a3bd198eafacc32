#pragma once
// Runs a stencil over a grid as a StarPU task graph: one task per tile per
// stage of h steps, each depending only on the strips its neighbours published
// at the previous stage (peer dependencies, no global barrier). Stages enter
// StarPU through a bounded window (trapeze/task_window.hpp), so memory does
// not grow with the step count; wait() blocks once and brings the result back.
//
//   trapeze::Runtime runtime;
//   trapeze::StencilRun run(runtime, Jacobi2D{}, grid, trapeze::Plan{.tile = {256, 256, 1}});
//   run.submit(100);
//   run.wait();  // grid now holds step 100
//
// This is where the planner's tiles meet the kernels: the stage codelet carries
// the CPU implementation (codelets/cpu) and, when the program registered one
// for this stencil, the CUDA implementation (codelets/cuda), so StarPU picks
// the device per task. Between the first submit() and wait() the tiles are
// the values' only home; the grid's pages are given back meanwhile.
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "codelets/cpu/ghost_fill_cpu.hpp"
#include "codelets/cpu/stage_cpu.hpp"
#include "codelets/stage_args.hpp"
#include "trapeze/cuda_stencils.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/distributed_data.hpp"
#include "trapeze/error.hpp"
#include "trapeze/field_checksum.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/grid_transfer.hpp"
#include "trapeze/out_of_core.hpp"
#include "trapeze/parallel_parts.hpp"
#include "trapeze/partition.hpp"
#include "trapeze/plan.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil.hpp"
#include "trapeze/task_placement.hpp"
#include "trapeze/task_refused.hpp"
#include "trapeze/task_window.hpp"
#include "trapeze/tile_placement.hpp"
#include "trapeze/tile_store.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

// Where a run spread over MPI ranks leaves its result (StencilRun::wait).
enum class Collect {
  on_rank_zero,  // rank 0's grid holds the whole field
  on_owners,     // each rank's grid holds its own tiles: nothing crosses the network
};

template <Stencil S>
class StencilRun {
 public:
  using T = typename S::value_type;

  StencilRun(Runtime& runtime, const S& stencil, Grid<T>& grid, const Plan& plan)
      : runtime_(runtime), stencil_(stencil), grid_(grid), plan_(checked(plan, grid)),
        tiling_(grid.extent(), S::dims, plan.tile),
        tiles_(runtime, tiling_, S::shape, plan.height, stage_ghost(plan, tiling_, grid), grid, updated_fields_of<S>,
               constant_fields_of<S>, owners_of(runtime, tiling_, plan), !fills_ghost_from_host(plan, runtime)),
        progress_(tiling_.count()),
        window_(window_capacity(plan, tiling_.count()), [this] { return submit_next_stage(); },
                [this] { return pending_steps_ > 0; }) {
    if (plan.first_step < 0) throw InvalidArgument("first step must be >= 0, got " + std::to_string(plan.first_step));
    steps_submitted_ = plan.first_step;
    init_codelets();
    if (ghost_from_host_) prepare_ghost_fills();
    tiles_.exchange_within_nodes(runtime, stage_codelet_.where == STARPU_CUDA);
    if (uses_cuda()) check_tiles_fit_gpus();
    if (out_of_core()) {
      window_.guard_stalls(stall_seconds_from_environment(),
                           [memory = uses_cuda() ? gpu_memory_bytes() : 0.0](double idle) {
                             abandon_stalled_run(idle, memory);
                           });
    }
    placements_ = place_tiles(tiling_, S::shape, tiles_.halo_layout(), workers_of(stage_codelet_.where), tiles_.owners());
    for (int t = 0; t < tiling_.count(); ++t) progress_[t].run = this, progress_[t].tile = t;
  }

  // Leaves the grid holding the latest submitted step, as the last wait() did
  // (collected on rank 0 when there was none).
  ~StencilRun() {
    try {
      wait({}, last_collect_);
    } catch (...) {
      window_.drop_pending();
      window_.wait_until_done();
    }
  }
  StencilRun(const StencilRun&) = delete;
  StencilRun& operator=(const StencilRun&) = delete;

  // Appends `steps` time steps (in stages of h) to the work of the run and
  // returns once the first window of them is in StarPU; wait() and drain()
  // submit the rest as tasks complete (trapeze/task_window.hpp).
  void submit(Index steps) {
    if (steps < 0) throw InvalidArgument("steps must be >= 0, got " + std::to_string(steps));
    if (steps == 0) return;
    // Time-varying read-only fields hold one plane per step: a step past the
    // last plane would read past the buffer.
    if (grid_.constant_planes() > 1 && steps > grid_.constant_planes() - plan_.first_step - steps_requested_) {
      throw InvalidArgument("the grid's read-only fields have " + std::to_string(grid_.constant_planes()) +
                            " planes (one per step), too few for " +
                            std::to_string(plan_.first_step + steps_requested_ + steps) + " steps");
    }
    auto submission = window_.lock_submission();
    // CPU workers wait while the first window is built: on a machine with one
    // core per worker, submission would otherwise compete with them for a
    // core. GPU stages start at once: their workers only feed the device.
    // StarPU's own throttle (STARPU_LIMIT_MAX_SUBMITTED_TASKS) would block
    // submission forever while the workers are paused.
    // Workers resume before the lock goes (declared after it): StarPU's pause
    // count is not atomic, and the feeder pauses under the same lock.
    const bool throttled = runtime_.submission_throttled();
    const PausedWorkers paused((uses_cpus() || !in_tiles_) && !throttled);
    if (!in_tiles_) submit_scatter();
    if (!strips_current_ && !ghost_from_host_) submit_publish();
    pending_steps_ += steps;
    steps_requested_ += steps;
    window_.fill(submission, uses_cpus() && !throttled);
  }

  // Blocks until every submitted task has run, leaving the values in the tiles
  // (on whichever device computed them): the grid is not filled. A later
  // submit() continues from there; wait() fills the grid.
  void drain(const ProgressCallback& progress = {}) { window_.wait_until_done(progress_tick(progress)); }

  // Copies the tiles back into the grid (one task per band of tiles, each after
  // its tiles' last stage) and blocks until every submitted task has run. The
  // next submit() continues from the grid.
  // Spread over MPI ranks, every rank calls it with the same `collect`:
  // `on_rank_zero` fills rank 0's grid with the whole field (StarPU-MPI sends
  // it the other ranks' tiles) and leaves the other grids as they were;
  // `on_owners` fills each rank's grid with its own tiles only, so nothing
  // crosses the network (what checksum() needs; a gather to rank 0 can still
  // follow). The next submit() then continues from the tiles (a change to the
  // grid in between is not seen). In one process both mean the same.
  void wait(const ProgressCallback& progress = {}, Collect collect = Collect::on_rank_zero) {
    if (!distributed()) collect = Collect::on_rank_zero;
    last_collect_ = collect;
    const auto tick = progress_tick(progress);
    window_.wait_until_submitted(tick);
    {
      auto submission = window_.lock_submission();
      if (in_tiles_ && collected_ != collect) submit_gather(collect);
    }
    window_.wait_until_done(tick);
    if (checkpoint_failed_.load()) {
      std::lock_guard lock(checkpoint_error_mutex_);
      throw Error(checkpoint_error_);
    }
  }

  // The FieldChecksum (trapeze/field_checksum.hpp) of the latest step's
  // updated fields over the whole domain, after wait(). Spread over MPI ranks
  // every rank calls it and gets the same number: each adds the cells its
  // grid holds (its own tiles after wait(Collect::on_owners), every tile on
  // rank 0 after wait(Collect::on_rank_zero)) and the sums are added up, so
  // a run checked this way never moves its field to one rank.
  std::uint64_t checksum() const {
    const bool gathered = distributed() ? collected_.has_value() : !in_tiles_;
    if (!gathered) throw Error("checksum() needs wait() first: the values are still in the tiles");
    if (!distributed()) return checksum_of(grid_);
    FieldChecksum sum;
    for (int t = 0; t < tiling_.count(); ++t) {
      const bool held_here = *collected_ == Collect::on_owners ? tiles_.owners().local(t) : runtime_.rank() == 0;
      if (held_here) add_box(sum, grid_, tiling_.box(t));
    }
    return runtime_.sum_over_ranks(sum.value());
  }

  // Steps handed to submit() so far (in StarPU or still waiting for the window).
  Index steps_submitted() const { return steps_requested_; }

  // Checkpoints: every `every` steps (counted from step 0, so a restarted run
  // keeps the same ones), tasks copy the tiles of that step into a snapshot
  // grid (read-only fields included) while later stages go on where their
  // dependencies allow, and a task on a CPU worker then calls
  // `write(step, snapshot)`. The next snapshot waits for that write; nothing
  // else does. Call before the first submit(). A throwing `write` fails the
  // run: wait() rethrows it.
  // Spread over MPI ranks, every rank calls it (in the same order as its
  // other runs' calls) and rank 0 alone holds the snapshot and writes it:
  // StarPU-MPI sends it the other ranks' tiles of each checkpoint step, as
  // wait(Collect::on_rank_zero) does, while the run goes on; `write` is
  // called on rank 0 only.
  using CheckpointWriter = std::function<void(Index step, const Grid<T>& snapshot)>;
  void checkpoint_every(Index every, CheckpointWriter write) {
    if (grid_.is_generated()) throw Error("a generated grid's run writes no checkpoints: a snapshot would hold the whole domain");
    if (every < 1) throw InvalidArgument("checkpoint interval must be >= 1 step, got " + std::to_string(every));
    if (steps_requested_ > 0) throw Error("checkpoint_every() must come before the first submit()");
    checkpoint_every_ = every;
    checkpoint_write_ = std::move(write);
    if (writes_checkpoints_here()) {
      snapshot_ = std::make_unique<Grid<T>>(grid_.extent(), S::dims, grid_.updated_count(), grid_.constant_count(),
                                            grid_.constant_planes(), grid_.boundary());
    }
    starpu_data_handle_t handle = nullptr;
    starpu_void_data_register(&handle);
    snapshot_handle_ = DataHandle(handle, false);
    if (distributed()) register_distributed(handle, runtime_.reserve_tags(1), writing_rank);
  }
  // Steps of the checkpoints written so far (the last is the latest).
  Index checkpoints_written() const { return checkpoints_written_.load(); }
  const Tiling& tiling() const { return tiling_; }
  const Plan& plan() const { return plan_; }
  // Stages completed by one tile so far (a task callback counts them).
  Index stages_completed(int tile) const { return progress_.at(tile).stages.load(); }
  // Of those, the stages that ran on another worker than the tile's owner.
  Index stages_away_from_owner(int tile) const { return progress_.at(tile).away_from_owner.load(); }
  // The worker that owns a tile and whether it borders another owner
  // (trapeze/tile_placement.hpp; the trapeze-owner policy follows it).
  const TaskPlacement& placement(int tile) const { return placements_.at(tile); }
  // Cells of one stage's halo pieces, per updated field, whose producer and
  // consumer tiles have different owners (another rank, or another worker of
  // this rank's placement): what the partition predicts a stage's exchange
  // moves between GPUs or ranks (seed 002's write(A) ∩ read(B)).
  Index cells_between_owners_per_stage() const {
    Index cells = 0;
    for (const HaloPiece& piece : tiles_.halo_layout().pieces) {
      const int from = piece.producer, to = piece.consumer;
      if (owner_rank(from) != owner_rank(to) || placements_.at(from).worker != placements_.at(to).worker) {
        cells += piece.source.cells();
      }
    }
    return cells;
  }
  // For those who need StarPU itself: the handle of a tile's data.
  starpu_data_handle_t tile_handle(int tile) const { return tiles_.tile_handle(tile); }
  Index tasks_submitted() const { return window_.submitted(); }
  Index tasks_completed() const { return window_.completed(); }
  // The most tasks the run keeps in StarPU at once (Plan::max_tasks_in_flight).
  Index window_capacity() const { return window_.capacity(); }
  Index peak_tasks_in_flight() const { return window_.peak_in_flight(); }
  // The program has CUDA codelets for this stencil and StarPU found a GPU.
  static bool cuda_codelets_ready() { return cuda_functions_of<S>() != nullptr && starpu_cuda_worker_get_count() > 0; }
  // A stage's ghost zone: r * height, in x wider where that gives 2-D and
  // 3-D tiles on GPUs rows of a multiple of 4 cells, 3-D ones of 16 (gpu_tile_ghost).
  static Extent stage_ghost(const Plan& plan, const Tiling& tiling, const Grid<T>& grid) {
    const Extent ghost = ghost_width(S::shape, plan.height);
    const bool on_gpus = plan.devices != StageDevices::cpu && cuda_codelets_ready();
    if (!on_gpus) return ghost;
    return gpu_tile_ghost(ghost, S::dims, sizeof(T), tiling.box(0).extent()[0], grid.extent()[0],
                          grid.boundary().kind == BoundaryKind::periodic);
  }
  // Whether stage tasks may run on CUDA workers (the program has CUDA codelets
  // for this stencil, StarPU found a GPU, and the plan's devices allow it).
  bool uses_cuda() const { return stage_codelet_.where & STARPU_CUDA; }
  bool uses_cpus() const { return stage_codelet_.where & STARPU_CPU; }
  // Whether the tiles are spread over MPI ranks (Plan::distribute, several ranks).
  bool distributed() const { return tiles_.owners().distributed(); }
  // The rank that owns a tile (0 in one process).
  int owner_rank(int tile) const { return tiles_.owners().owner(tile); }
  // How halo pieces between ranks of one node travel (mpi where none do
  // otherwise), and how many of them go through mailboxes.
  NodeExchangeMode node_exchange() const { return tiles_.node_exchange().mode(); }
  int pieces_through_mailboxes() const { return tiles_.node_exchange().moved_pieces(); }

  // Out of core in one process without a disk node, every ghost zone is
  // filled in host memory before its tile goes up (ghost_fill_cpu.hpp): the
  // stages then read and publish no strips. On GPUs capped to a quarter of
  // jacobi2d's domain, a pass's strips (2048^2 tiles at H 180: 377 MB) had
  // outlived the pass on the GPU, where StarPU wrote them back and fetched
  // them again, and 8192x1024 tiles at H 96 did not fit at all with them
  // (docs/PERF.md, 2026-11-28). On CPUs the same path runs (what CI tests).
  static bool fills_ghost_from_host(const Plan& plan, const Runtime& runtime) {
    return plan.stream_tiles && !spread_over_ranks(plan, runtime) && runtime.disk_node() < 0;
  }
  // Whether the plan's tiles are shared among MPI ranks (owners_of).
  static bool spread_over_ranks(const Plan& plan, const Runtime& runtime) {
    return runtime.ranks() > 1 && plan.distribute;
  }

 private:
  struct TileProgress {
    StencilRun* run = nullptr;
    int tile = 0;
    std::atomic<Index> stages{0};
    std::atomic<Index> away_from_owner{0};
  };

  // Under MPI with several ranks, each rank owns one box of tiles (the
  // partitioner's cut for equal ranks); every rank computes the same.
  static TileOwners owners_of(const Runtime& runtime, const Tiling& tiling, const Plan& plan) {
    TileOwners owners;
    if (!spread_over_ranks(plan, runtime)) return owners;
    const Partition ranks(tiling, S::shape, std::vector<double>(static_cast<std::size_t>(runtime.ranks()), 1.0));
    for (int t = 0; t < tiling.count(); ++t) owners.rank_of_tile.push_back(ranks.owner_of(t));
    owners.rank = runtime.rank();
    return owners;
  }

  // The GPUs the run's tiles are shared among: every rank's when spread over ranks.
  int gpus_of_run() const {
    return std::max(1, distributed() ? runtime_.cuda_workers_of_all_ranks() : runtime_.cuda_worker_count());
  }

  // In core every tile stays on the GPUs. Out of core a GPU holds the task
  // it runs, the next one arriving and the last one leaving; less memory
  // than that (STARPU_LIMIT_CUDA_MEM) would have StarPU evict and fetch
  // forever, so it is refused here.
  void check_tiles_fit_gpus() const {
    const double memory = gpu_memory_bytes();
    const int gpus = gpus_of_run();
    if (memory <= 0 || tiles_.all_tiles_device_bytes(constant_fields_of<S>) <= memory * gpus) return;
    const double task = tiles_.largest_task_device_bytes(constant_fields_of<S>, !ghost_from_host_);
    if (3 * task > memory) {
      throw InvalidArgument("out of core, a stage task holds " + format_bytes(task) + " on a GPU (its tile with the ghost zone" +
                            (ghost_from_host_ ? std::string() : std::string(", and its strips")) + "), more than a third of the " +
                            format_bytes(memory) + " StarPU may use there (STARPU_LIMIT_CUDA_MEM); choose smaller "
                            "tiles or a smaller height");
    }
  }

  // Tiles stream through a memory smaller than the domain: written back
  // after each stage, or more than the GPUs hold.
  bool out_of_core() const {
    if (plan_.stream_tiles) return true;
    if (!uses_cuda()) return false;
    const double memory = gpu_memory_bytes();
    return memory > 0 &&
           tiles_.all_tiles_device_bytes(constant_fields_of<S>) > memory * gpus_of_run();
  }

  static Plan checked(const Plan& plan, const Grid<T>& grid) {
    if (plan.height < 1) throw InvalidArgument("height must be >= 1, got " + std::to_string(plan.height));
    if (grid.dims() != S::dims) {
      throw Error("grid has " + std::to_string(grid.dims()) + " dimensions but the stencil has " +
                  std::to_string(S::dims));
    }
    if (grid.updated_count() != updated_fields_of<S> || grid.constant_count() != constant_fields_of<S>) {
      throw Error("grid fields (" + std::to_string(grid.updated_count()) + " updated, " +
                  std::to_string(grid.constant_count()) + " constant) do not match the stencil's (" +
                  std::to_string(updated_fields_of<S>) + ", " + std::to_string(constant_fields_of<S>) + ")");
    }
    return plan;
  }

  // Stage tasks of one stencil type share a history model, keyed by the
  // tile's size and the stage's step count.
  static uint32_t stage_footprint(starpu_task* task) {
    StageArgs<S> args;
    starpu_codelet_unpack_args(task->cl_arg, &args);
    const Index cells = args.layout->buffer_cells();
    return starpu_hash_crc32c_be(static_cast<uint32_t>(args.steps),
                                 starpu_hash_crc32c_be(static_cast<uint32_t>(cells),
                                                       static_cast<uint32_t>(cells >> 32)));
  }

  void init_codelets() {
    starpu_codelet_init(&stage_codelet_);
    stage_codelet_.cpu_funcs[0] = &stage_cpu<S>;
    stage_codelet_.cpu_funcs_name[0] = "stage_cpu";
    const CudaStencilFunctions* cuda = cuda_functions_of<S>();
    if (cuda_codelets_ready()) {
      stage_codelet_.cuda_funcs[0] = cuda->stage;
      stage_codelet_.cuda_flags[0] = STARPU_CUDA_ASYNC;
    }
    stage_codelet_.where = codelet_where(plan_.devices, cuda != nullptr, "stencil");
    stage_codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    stage_codelet_.name = "stage";
    stage_codelet_.model =
        &runtime_.history_model(std::string("trapeze_stage_") + typeid(S).name(), &StencilRun::stage_footprint);
    starpu_codelet_init(&publish_codelet_);
    publish_codelet_.cpu_funcs[0] = &publish_cpu<T>;
    publish_codelet_.cpu_funcs_name[0] = "publish_cpu";
    publish_codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    publish_codelet_.name = "publish";
    starpu_codelet_init(&ghost_fill_codelet_);
    ghost_fill_codelet_.cpu_funcs[0] = &fill_ghost_from_neighbours_cpu<T>;
    ghost_fill_codelet_.cpu_funcs_name[0] = "fill_ghost_from_neighbours_cpu";
    ghost_fill_codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    ghost_fill_codelet_.name = "ghost_fill";
    for (auto [codelet, function, name] : {std::tuple{&scatter_codelet_, &scatter_band_cpu<T>, "scatter"},
                                           std::tuple{&gather_codelet_, &gather_band_cpu<T>, "gather"},
                                           std::tuple{&snapshot_codelet_, &gather_band_cpu<T>, "snapshot"},
                                           std::tuple{&checkpoint_codelet_, &StencilRun::checkpoint_cpu, "checkpoint"}}) {
      starpu_codelet_init(codelet);
      codelet->cpu_funcs[0] = function;
      codelet->nbuffers = STARPU_VARIABLE_NBUFFERS;
      codelet->name = name;
    }
  }

  // Automatic: enough tasks that workers never run dry between two top-ups
  // of the window (at least four stages), few enough that StarPU's memory
  // for them stays in the tens of megabytes (about 4 KB a task).
  static Index window_capacity(const Plan& plan, int tiles) {
    if (plan.max_tasks_in_flight < 0) {
      throw InvalidArgument("max_tasks_in_flight must be >= 0 (0: automatic), got " +
                            std::to_string(plan.max_tasks_in_flight));
    }
    if (plan.max_tasks_in_flight > 0) return plan.max_tasks_in_flight;
    return std::max<Index>(8192, 4 * static_cast<Index>(tiles));
  }

  // Progress in tasks: those done, and those the whole run will have.
  std::function<void()> progress_tick(const ProgressCallback& progress) {
    if (!progress) return {};
    return [this, progress] {
      const Index pending_stages = (pending_steps_.load() + plan_.height - 1) / plan_.height;
      progress(window_.completed(), window_.submitted() + pending_stages * tiling_.count());
    };
  }

  static void on_stage_done(void* arg) {
    auto* p = static_cast<TileProgress*>(arg);
    p->stages.fetch_add(1);
    // The callback runs on the worker that ran the task.
    if (starpu_worker_get_id() != p->run->placements_[static_cast<std::size_t>(p->tile)].worker) {
      p->away_from_owner.fetch_add(1);
    }
    p->run->window_.task_done();
  }
  // Copies (publish, scatter, gather) only count towards completion.
  static void on_copy_done(void* arg) { static_cast<StencilRun*>(arg)->window_.task_done(); }

  // `rank`: where the task runs when the run is spread over MPI ranks. Every
  // rank inserts every task (StarPU-MPI posts the transfers its data needs);
  // only the executing rank's window counts it.
  void insert(starpu_codelet* codelet, std::vector<starpu_data_descr>& data, const void* args,
              std::size_t args_size, void (*callback)(void*), void* callback_arg, const char* name,
              const TaskPlacement* placement = nullptr, int rank = 0, int priority = 0) {
    const bool runs_here = !distributed() || rank == tiles_.owners().rank;
    // Counted before it exists, so its callback never finds more tasks done than submitted.
    if (runs_here) window_.task_submitted();
    const int rc = distributed()
                       ? insert_distributed({codelet, args, args_size, data.data(), static_cast<int>(data.size()),
                                             callback, callback_arg, name, const_cast<TaskPlacement*>(placement), rank,
                                             priority})
                       : starpu_task_insert(codelet, STARPU_VALUE, args, args_size, STARPU_DATA_MODE_ARRAY,
                                            data.data(), static_cast<int>(data.size()), STARPU_CALLBACK_WITH_ARG_NFREE,
                                            callback, callback_arg, STARPU_NAME, name, STARPU_TASK_SCHED_DATA,
                                            const_cast<TaskPlacement*>(placement), STARPU_PRIORITY, priority, 0);
    if (rc != 0) {
      if (runs_here) window_.task_not_submitted();
      throw_task_refused(distributed() ? "starpu_mpi_task_insert" : "starpu_task_insert", rc, *codelet);
    }
  }

  // One task per band copying between the tiles and `grid`; `extra`, when
  // given, is one more handle every task holds (a snapshot's ordering handle).
  // `rank`: under MPI, the rank every task runs on; -1: each band's owner.
  void submit_band_transfers(starpu_codelet* codelet, starpu_data_access_mode mode, bool release, Grid<T>& grid,
                             const starpu_data_descr* extra = nullptr, int rank = -1) {
    const std::vector<int> bands_of_rank = copying_bands_per_rank(rank);
    const int fixed_threads = copy_threads_from_environment();
    for (int b = 0; b < static_cast<int>(tiles_.bands().size()); ++b) {
      std::vector<starpu_data_descr> data;
      const Band& band = tiles_.bands()[b];
      for (int t : band.tiles) data.push_back({tiles_.tile_handle(t), mode});
      if (constant_fields_of<S> > 0) {
        for (int t : band.tiles) data.push_back({tiles_.constant_handle(t), mode});
      }
      if (extra) data.push_back(*extra);
      const int copying_rank = rank >= 0 ? rank : band.owner;
      const int threads = fixed_threads > 0 ? fixed_threads : copy_threads_per_band(band, bands_of_rank[static_cast<std::size_t>(copying_rank)]);
      const BandTransferArgs<T> args{&tiles_, &grid, b, release, threads, &copy_cores_};
      insert(codelet, data, &args, sizeof args, &on_copy_done, this, codelet->name, nullptr,
             rank >= 0 ? rank : band.owner);
    }
  }

  // Bands each rank copies in one submission: every band goes to `rank`
  // (>= 0) or to its owner (-1).
  std::vector<int> copying_bands_per_rank(int rank) const {
    std::vector<int> bands(static_cast<std::size_t>(std::max(1, runtime_.ranks())), 0);
    for (const Band& band : tiles_.bands()) ++bands[static_cast<std::size_t>(rank >= 0 ? rank : band.owner)];
    return bands;
  }

  // Threads that copy one band between the grid and the tiles: the CPU
  // workers' cores shared among the `bands_here` bands its rank copies at
  // once (those copies wait for nothing but the grid), none with under 32 MiB
  // to move. TRAPEZE_COPY_THREADS=N fixes it (what the measurements compare).
  int copy_threads_per_band(const Band& band, int bands_here) const {
    const auto slice_cells = static_cast<double>(grid_.cells()) / static_cast<double>(grid_.extent()[S::dims - 1]);
    const double bytes = slice_cells * static_cast<double>(band.hi - band.lo) * sizeof(T) *
                         (grid_.updated_count() + grid_.constant_count() * grid_.constant_planes());
    const int by_bytes = static_cast<int>(bytes / static_cast<double>(std::size_t{32} << 20));
    const int by_cores = std::max(1, runtime_.cpu_worker_count()) / std::max(1, bands_here);
    return std::clamp(std::min(by_bytes, by_cores), 1, 16);
  }

  // Out of core the bands are scattered all at once, a share of the cores
  // each: scattering them in order with every core each (so that the first
  // stage could start on the first band) measured no faster, 0.98x and
  // 1.03x in two head-to-head runs on an H200 (docs/PERF.md, 2026-11-27).
  void submit_scatter() {
    submit_band_transfers(&scatter_codelet_, STARPU_W, tiles_.release_pages(), grid_);
    in_tiles_ = true;
  }
  // Under MPI rank 0 gathers every tile (StarPU-MPI sends it the others'),
  // or each rank its own bands, and the tiles stay the run's home.
  void submit_gather(Collect collect) {
    if (distributed()) {
      submit_band_transfers(&gather_codelet_, STARPU_R, false, grid_, nullptr, collect == Collect::on_rank_zero ? 0 : -1);
      collected_ = collect;
      return;
    }
    submit_band_transfers(&gather_codelet_, STARPU_R, tiles_.release_pages(), grid_);
    in_tiles_ = false;
    strips_current_ = false;
  }

  void submit_publish() {
    for (int t = 0; t < tiling_.count(); ++t) {
      std::vector<starpu_data_descr> data{{tiles_.tile_handle(t), STARPU_R}};
      tiles_.append_outputs(t, read_version_, data);
      const PublishArgs args{&tiles_.layout(t)};
      insert(&publish_codelet_, data, &args, sizeof args, &on_copy_done, this, tiles_.name(t), &placements_[t],
             owner_rank(t));
      submit_node_transfers(t, read_version_);
    }
    strips_current_ = true;
  }

  // The window's unit: the next stage of every tile. Every stage publishes,
  // the last one too: a later submit() continues from the tiles where they
  // are (on the GPU) without a copy task pulling them back.
  bool submit_next_stage() {
    Index steps = std::min<Index>(plan_.height, pending_steps_.load());
    // A stage ends at each checkpoint step, so the tiles hold exactly it.
    if (checkpoint_every_ > 0) steps = std::min(steps, checkpoint_every_ - steps_submitted_ % checkpoint_every_);
    submit_stage(static_cast<int>(steps), true);
    pending_steps_ -= steps;
    if (checkpoint_every_ > 0 && steps_submitted_ % checkpoint_every_ == 0) submit_checkpoint();
    return pending_steps_ > 0;
  }

  struct CheckpointArgs {
    StencilRun* run;
    Index step;
  };

  // The gather's copy into the snapshot instead of the grid (its pages are not
  // released), then the writer; all of them hold the snapshot's handle, so a
  // snapshot is never overwritten while it is written.
  // Under MPI every copy and the writer run on rank 0 (the other ranks insert
  // them too, with their grid standing in for the snapshot they do not hold:
  // a task's arguments are only read where it runs).
  void submit_checkpoint() {
    const starpu_data_descr snapshot{snapshot_handle_.get(), static_cast<starpu_data_access_mode>(STARPU_RW | STARPU_COMMUTE)};
    submit_band_transfers(&snapshot_codelet_, STARPU_R, false, snapshot_ ? *snapshot_ : grid_, &snapshot,
                          distributed() ? writing_rank : -1);
    std::vector<starpu_data_descr> data{{snapshot_handle_.get(), STARPU_R}};
    const CheckpointArgs args{this, steps_submitted_};
    insert(&checkpoint_codelet_, data, &args, sizeof args, &on_copy_done, this, "checkpoint", nullptr, writing_rank);
  }
  bool writes_checkpoints_here() const { return !distributed() || tiles_.owners().rank == writing_rank; }

  static void checkpoint_cpu(void* /*buffers*/[], void* cl_arg) {
    CheckpointArgs args;
    starpu_codelet_unpack_args(cl_arg, &args);
    StencilRun& run = *args.run;
    if (run.checkpoint_failed_.load()) return;
    try {
      run.checkpoint_write_(args.step, *run.snapshot_);
      run.checkpoints_written_ = args.step;
    } catch (const std::exception& e) {
      std::lock_guard lock(run.checkpoint_error_mutex_);
      run.checkpoint_error_ = "checkpoint at step " + std::to_string(args.step) + ": " + e.what();
      run.checkpoint_failed_ = true;
    }
  }

  // The pieces tile t has just written (their `version`) that go to another
  // rank of the node through a mailbox: a post on the tile's rank, then a
  // take on the reader's (trapeze/node_exchange.hpp). Both are short copies
  // on the path from one rank's stage to the next rank's: they go first (the
  // highest priority, placed with their tiles as border tasks), not behind
  // the stages already queued.
  void submit_node_transfers(int t, int version) {
    const NodeExchange& exchange = tiles_.node_exchange();
    if (exchange.moved_pieces() == 0) return;
    for (int i : tiles_.halo_layout().tiles[t].outputs) {
      if (!exchange.moves(i)) continue;
      const int reader = tiles_.halo_layout().pieces[static_cast<std::size_t>(i)].consumer;
      for (auto [task, tile] : {std::pair{exchange.post(i, version, tiles_.strip(i, version)), t},
                                std::pair{exchange.take(i, version), reader}}) {
        std::vector<starpu_data_descr> data(task.data.begin(), task.data.end());
        insert(task.codelet, data, &task.args, sizeof task.args, &on_copy_done, this, task.codelet->name,
               &placements_[static_cast<std::size_t>(tile)], task.rank, STARPU_MAX_PRIO);
      }
    }
  }

  void prepare_ghost_fills() {
    const HaloLayout& halo = tiles_.halo_layout();
    for (int t = 0; t < tiling_.count(); ++t) {
      TileLayout layout = tiles_.layout(t);
      layout.input_destinations.clear();
      layout.output_sources.clear();
      stage_layouts_.push_back(std::move(layout));
      std::vector<int> producers;
      std::vector<GhostSource> sources;
      for (int i : halo.tiles[t].inputs) {
        const HaloPiece& piece = halo.pieces[static_cast<std::size_t>(i)];
        auto found = std::find(producers.begin(), producers.end(), piece.producer);
        if (found == producers.end()) found = producers.insert(producers.end(), piece.producer);
        const int buffer = 1 + static_cast<int>(found - producers.begin());
        sources.push_back({buffer, &tiles_.layout(piece.producer), piece.source, piece.destination});
      }
      ghost_producers_.push_back(std::move(producers));
      ghost_sources_.push_back(std::move(sources));
    }
    // Two fills that share a tile run one after the other (one writes it, the
    // other reads it): fills go in by the parity of their tile's coordinates,
    // so those of one parity run side by side.
    auto parity = [&](int t) {
      const Extent c = tiling_.coordinates(t);
      return (c[0] % 2) + 2 * (c[1] % 2) + 4 * (c[2] % 2);
    };
    for (int t = 0; t < tiling_.count(); ++t) fill_order_.push_back(t);
    std::stable_sort(fill_order_.begin(), fill_order_.end(), [&](int a, int b) { return parity(a) < parity(b); });
  }
  void submit_ghost_fills() {
    for (int t : fill_order_) {
      if (ghost_sources_[static_cast<std::size_t>(t)].empty()) continue;
      std::vector<starpu_data_descr> data{{tiles_.tile_handle(t), STARPU_RW}};
      for (int q : ghost_producers_[static_cast<std::size_t>(t)]) data.push_back({tiles_.tile_handle(q), STARPU_R});
      const GhostFillArgs args{&tiles_.layout(t), &ghost_sources_[static_cast<std::size_t>(t)]};
      insert(&ghost_fill_codelet_, data, &args, sizeof args, &on_copy_done, this, "ghost fill");
    }
  }

  void submit_stage(int steps, bool publish) {
    if (ghost_from_host_) submit_ghost_fills();
    publish = publish && !ghost_from_host_;
    const bool chunk_scratch = uses_cpus();  // only a CPU stage uses it
    for (int t = 0; t < tiling_.count(); ++t) {
      std::vector<starpu_data_descr> data{{tiles_.tile_handle(t), STARPU_RW}};
      if (constant_fields_of<S> > 0) data.push_back({tiles_.constant_handle(t), STARPU_R});
      if (chunk_scratch) data.push_back({tiles_.scratch_handle(), STARPU_SCRATCH});
      if (!ghost_from_host_) tiles_.append_inputs(t, read_version_, data);
      if (publish) tiles_.append_outputs(t, 1 - read_version_, data);
      const TileLayout* layout = ghost_from_host_ ? &stage_layouts_[static_cast<std::size_t>(t)] : &tiles_.layout(t);
      const StageArgs<S> args{layout,        &stencil_,           steps,        steps_submitted_, publish,
                              plan_.mode,    plan_.kernel_height, chunk_scratch};
      insert(&stage_codelet_, data, &args, sizeof args, &on_stage_done, &progress_[t], tiles_.name(t),
             &placements_[t], owner_rank(t));
      if (publish) submit_node_transfers(t, 1 - read_version_);
      if (plan_.stream_tiles && tiles_.owners().local(t)) {
        // Takes effect once this stage has run (it is ordered after it).
        starpu_data_wont_use(tiles_.tile_handle(t));
        if (constant_fields_of<S> > 0) starpu_data_wont_use(tiles_.constant_handle(t));
      }
    }
    collected_.reset();
    read_version_ = 1 - read_version_;
    steps_submitted_ += steps;
  }

  Runtime& runtime_;
  S stencil_;
  Grid<T>& grid_;
  Plan plan_;
  Tiling tiling_;
  TileStore<T> tiles_;
  std::vector<TileProgress> progress_;
  std::vector<TaskPlacement> placements_;  // per tile; tasks point at them (starpu_task::sched_data)
  std::vector<int> copy_cores_ = runtime_.cpu_worker_cores();  // where band copies' helper threads run
  starpu_codelet stage_codelet_{};
  starpu_codelet publish_codelet_{};
  starpu_codelet ghost_fill_codelet_{};
  // Out of core: ghost zones filled in host memory (fills_ghost_from_host).
  const bool ghost_from_host_ = fills_ghost_from_host(plan_, runtime_);
  std::vector<TileLayout> stage_layouts_;                // the tiles' layouts without strips
  std::vector<std::vector<int>> ghost_producers_;        // per tile: the tiles its ghost zone reads
  std::vector<std::vector<GhostSource>> ghost_sources_;  // per tile: its pieces, read from them
  std::vector<int> fill_order_;
  starpu_codelet scatter_codelet_{};
  starpu_codelet gather_codelet_{};
  starpu_codelet snapshot_codelet_{};
  starpu_codelet checkpoint_codelet_{};
  // The graph's state below changes only under the window's submission lock.
  Index steps_submitted_ = 0;  // in StarPU
  Index steps_requested_ = 0;  // handed to submit(); only the caller's thread touches it
  std::atomic<Index> pending_steps_{0};  // submitted to the run, not yet to StarPU (read by progress)
  int read_version_ = 0;
  bool strips_current_ = false;
  bool in_tiles_ = false;  // the values live in the tiles (scattered, not yet gathered)
  // Under MPI, where the grids hold the tiles' latest values (gathered since
  // the last stage): nowhere, on rank 0, or each rank its own tiles.
  std::optional<Collect> collected_;
  Collect last_collect_ = Collect::on_rank_zero;
  // Checkpoints (checkpoint_every()).
  Index checkpoint_every_ = 0;
  CheckpointWriter checkpoint_write_;
  std::unique_ptr<Grid<T>> snapshot_;
  DataHandle snapshot_handle_;  // orders snapshots and their writers
  std::atomic<Index> checkpoints_written_{-1};
  std::atomic<bool> checkpoint_failed_{false};
  std::mutex checkpoint_error_mutex_;
  std::string checkpoint_error_;
  TaskWindow window_;
};

}  // namespace trapeze
