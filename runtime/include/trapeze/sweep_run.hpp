#pragma once
// Runs in-place sweeps (trapeze/sweep.hpp) as a StarPU task graph of tiles
// over a wavefront in space and time.
//
//   trapeze::SweepRun run(runtime, HeatAverage{}, grid, rows, columns, trapeze::SweepPlan{});
//   run.submit(100);  // sweeps
//   run.wait();       // grid holds the result
//
// The grid is the data's only home: each tile is a StarPU matrix handle on
// its own cells. Between tiles only edge strips travel, each with its own
// handle: a tile publishes its last row and last column (read by the tiles
// below and right of it in the same sweep, as their up and left) and its
// first row and first column (read by the tiles above and left of it in the
// next sweep, as their down and right). Tasks are inserted in the order of
// their level a + b + 2t (tile row, tile column, sweep), which keeps every
// handle's accesses in the sequential order, so StarPU's implicit
// dependencies alone make tile (a, b) of sweep t wait for exactly (a-1, b)
// and (a, b-1) of sweep t and (a+1, b) and (a, b+1) of sweep t-1, besides
// itself: no barrier between sweeps or diagonals. The level is also each
// task's distance from the start of the critical path, so priorities follow
// from it.
//
// On a GPU a tile's sweep is one PeerWave launch over its hyper-tiles
// (codelets/cuda/sweep_peerwave_kernel.cuh), when the program registered
// the sweep with TRAPEZE_CUDA_SWEEP (trapeze/cuda_sweep.cuh); a GPU wants
// large tiles (the apps give it the whole grid as one tile).
//
// Tasks enter StarPU one level at a time through a bounded window
// (trapeze/task_window.hpp). The result equals trapeze/sweep_reference.hpp
// bit for bit: every cell is computed from the same five values.
//
// Across MPI ranks (SweepPlan::distribute on a Runtime with several),
// each rank owns a band of whole tile rows, with the strips its tiles write;
// every rank registers every handle with its tag and owner and inserts
// every task (starpu_mpi_task_insert), so only edge strips cross ranks:
// each band's first row down, its last row up, once per sweep. wait() brings
// every tile to rank 0, whose grid then holds the result. Every rank holds
// the whole grid (the caller's), as the initial values come from there.
#include <starpu.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <typeinfo>
#include <vector>

#include "codelets/cpu/sweep_tile_cpu.hpp"
#include "codelets/sweep_args.hpp"
#include "trapeze/cuda_stencils.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/distributed_data.hpp"
#include "trapeze/error.hpp"
#include "trapeze/memory_limits.hpp"
#include "trapeze/plan.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/sweep.hpp"
#include "trapeze/task_window.hpp"
#include "trapeze/tile_placement.hpp"
#include "trapeze/wavefront.hpp"  // critical_path_priority
#include "trapeze/windowed_task.hpp"

namespace trapeze {

template <InPlaceSweep S>
class SweepRun {
 public:
  using T = typename S::value_type;

  SweepRun(Runtime& runtime, const S& sweep, std::span<T> grid, Index rows, Index columns, const SweepPlan& plan)
      : runtime_(runtime), sweep_(sweep), grid_(checked(grid, rows, columns)), rows_(rows), columns_(columns),
        plan_(checked(plan)), tile_rows_(tile_count(rows, plan.tile_rows)),
        tile_columns_(tile_count(columns, plan.tile_columns)),
        ranks_(plan.distribute ? runtime.ranks() : 1), rank_(ranks_ > 1 ? runtime.rank() : 0),
        window_(window_capacity(plan, std::min(tile_rows_, tile_columns_)), [this] { return submit_next_level(); },
                [this] { return next_level_ < levels(); }) {
    if (plan.sweeps_per_task > 1 && tiles() > 1) {
      throw InvalidArgument("more than one sweep per task (" + std::to_string(plan.sweeps_per_task) +
                            ") needs the grid in one tile, not " + std::to_string(tiles()));
    }
    check_memory();
    init_codelet();
    const std::vector<int> workers = workers_of(codelet_.where);
    for (Index a = 0; a < tile_rows_ && !workers.empty(); ++a) {
      row_placements_.push_back({workers[static_cast<std::size_t>(a) % workers.size()], true});
    }
    register_tiles_and_strips();
    if (distributed()) register_with_ranks();
  }

  // Brings every cell home before the handles go.
  ~SweepRun() {
    try {
      wait();
    } catch (...) {
      window_.drop_pending();
      window_.wait_until_done();
    }
  }
  SweepRun(const SweepRun&) = delete;
  SweepRun& operator=(const SweepRun&) = delete;

  // Hands `sweeps` sweeps to the run and returns once the first window of
  // levels is in StarPU; wait() submits the rest as tasks complete.
  void submit(Index sweeps) {
    if (submitted_) throw Error("a sweep run is submitted once");
    if (sweeps < 0) throw InvalidArgument("the number of sweeps must be >= 0, got " + std::to_string(sweeps));
    submitted_ = true;
    sweeps_ = sweeps;
    group_ = sweeps_per_task();
    groups_ = (sweeps + group_ - 1) / group_;
    auto submission = window_.lock_submission();
    const bool throttled = runtime_.submission_throttled();
    const PausedWorkers paused(!throttled);
    window_.fill(submission, !throttled);
  }

  // Blocks until every tile of every sweep has run; the grid then holds the
  // result (the handles are given up, which brings each tile home).
  void wait(const ProgressCallback& progress = {}) {
    std::function<void()> tick;
    if (progress) tick = [this, progress] { progress(window_.completed(), tasks_in_run()); };
    window_.wait_until_done(tick);
    if (distributed() && submitted_ && !gathered_) {
      for (DataHandle& tile : tiles_) fetch_to_rank(tile.get(), 0);
    }
    gathered_ = true;
    strips_.clear();
    tiles_.clear();
  }

  Index tiles() const { return tile_rows_ * tile_columns_; }
  // Whether the tile rows are dealt to MPI ranks, and the rank of a tile row:
  // bands of whole rows, so a sweep crosses each band boundary once.
  bool distributed() const { return ranks_ > 1; }
  int owner_rank(Index tile_row) const { return static_cast<int>(tile_row * ranks_ / std::max<Index>(tile_rows_, 1)); }
  Index tile_rows() const { return tile_rows_; }
  Index tile_columns() const { return tile_columns_; }
  // The tile tasks this rank runs.
  Index tasks_in_run() const {
    if (!distributed()) return tiles() * groups_;
    Index mine = 0;
    for (Index a = 0; a < tile_rows_; ++a) mine += owner_rank(a) == rank_;
    return mine * tile_columns_ * groups_;
  }
  Index tasks_completed() const { return window_.completed(); }
  Index window_capacity() const { return window_.capacity(); }
  Index peak_tasks_in_flight() const { return window_.peak_in_flight(); }
  // Levels a + b + 2t, the length of the critical path in tasks.
  Index levels() const { return tiles() == 0 || groups_ == 0 ? 0 : tile_rows_ + tile_columns_ - 1 + 2 * (groups_ - 1); }
  // Sweeps a task makes (SweepPlan::sweeps_per_task, resolved).
  Index sweeps_per_task() const {
    if (tiles() != 1) return 1;
    return plan_.sweeps_per_task > 0 ? plan_.sweeps_per_task : automatic_sweeps_per_task;
  }

 private:
  static Index tile_count(Index extent, Index tile) { return extent == 0 ? 0 : (extent + tile - 1) / tile; }

  static std::span<T> checked(std::span<T> grid, Index rows, Index columns) {
    if (rows < 0 || columns < 0) {
      throw InvalidArgument("a sweep's grid must be at least 0x0, got " + std::to_string(rows) + "x" +
                            std::to_string(columns));
    }
    if (static_cast<Index>(grid.size()) != rows * columns) {
      throw InvalidArgument("a sweep's grid holds " + std::to_string(grid.size()) + " values, " +
                            std::to_string(rows) + "x" + std::to_string(columns) + " needs " +
                            std::to_string(rows * columns));
    }
    return grid;
  }

  static const SweepPlan& checked(const SweepPlan& plan) {
    if (plan.tile_rows < 1 || plan.tile_columns < 1) {
      throw InvalidArgument("a sweep tile must be at least 1x1, got " + std::to_string(plan.tile_rows) + "x" +
                            std::to_string(plan.tile_columns));
    }
    if (plan.max_tasks_in_flight < 0) {
      throw InvalidArgument("max_tasks_in_flight must be >= 0 (0: automatic), got " +
                            std::to_string(plan.max_tasks_in_flight));
    }
    if (plan.sweeps_per_task < 0 || plan.sweeps_per_task > 4096) {
      throw InvalidArgument("sweeps per task must be 0 (automatic) to 4096, got " + std::to_string(plan.sweeps_per_task));
    }
    if (plan.hyper_tile_width < 32 || plan.hyper_tile_width > 65536) {
      throw InvalidArgument("a hyper-tile is 32 to 65536 columns wide, got " + std::to_string(plan.hyper_tile_width));
    }
    return plan;
  }

  static Index window_capacity(const SweepPlan& plan, Index longest_diagonal) {
    if (plan.max_tasks_in_flight > 0) return plan.max_tasks_in_flight;
    return std::max<Index>(8192, 8 * longest_diagonal);
  }

  Index row_of(Index a) const { return a * plan_.tile_rows; }
  Index column_of(Index b) const { return b * plan_.tile_columns; }
  Index rows_of(Index a) const { return std::min(plan_.tile_rows, rows_ - row_of(a)); }
  Index columns_of(Index b) const { return std::min(plan_.tile_columns, columns_ - column_of(b)); }
  std::size_t at(Index a, Index b) const { return static_cast<std::size_t>(a * tile_columns_ + b); }

  // The grid is the caller's; the run adds four strips per tile and the
  // boundary ring, plus StarPU's bookkeeping for their handles.
  void check_memory() const {
    const double handles = 5.0 * static_cast<double>(tiles()) + 2.0 * static_cast<double>(tile_rows_ + tile_columns_);
    const double strip_bytes = (2.0 * static_cast<double>(rows_) * static_cast<double>(tile_columns_) +
                                2.0 * static_cast<double>(columns_) * static_cast<double>(tile_rows_) +
                                2.0 * static_cast<double>(rows_ + columns_)) * sizeof(T);
    check_fits_in_memory(strip_bytes + handles * starpu_handle_bytes(),
                         std::to_string(tile_rows_) + "x" + std::to_string(tile_columns_) + " sweep tiles of " +
                             std::to_string(plan_.tile_rows) + "x" + std::to_string(plan_.tile_columns),
                         "choose larger tiles");
  }

  // Tile tasks share a history model keyed by the tile's cell count.
  static uint32_t tile_footprint(starpu_task* task) {
    const Index cells = static_cast<Index>(starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, 0))) *
                        static_cast<Index>(starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0)));
    return starpu_hash_crc32c_be(static_cast<uint32_t>(cells), static_cast<uint32_t>(cells >> 32));
  }

  void init_codelet() {
    starpu_codelet_init(&codelet_);
    codelet_.cpu_funcs[0] = &sweep_tile_cpu<S>;
    codelet_.cpu_funcs_name[0] = "sweep_tile_cpu";
    const CudaStencilFunctions* cuda = cuda_functions_of<S>();
    const bool cuda_ready = cuda && cuda->sweep_tile && starpu_cuda_worker_get_count() > 0;
    if (cuda_ready) {
      codelet_.cuda_funcs[0] = cuda->sweep_tile;
      codelet_.cuda_flags[0] = STARPU_CUDA_ASYNC;
    }
    codelet_.where = codelet_where(plan_.devices, cuda && cuda->sweep_tile, "sweep");
    codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    codelet_.name = "sweep_tile";
    codelet_.model = &runtime_.history_model(std::string("trapeze_sweep_") + typeid(S).name(), &SweepRun::tile_footprint);
  }

  // A strip's buffer and handle; `values` filled by the caller.
  struct Strip {
    std::vector<T> values;
    DataHandle handle;
  };
  Strip* new_strip(Index count) {
    strips_.push_back(std::make_unique<Strip>());
    Strip* s = strips_.back().get();
    s->values.resize(static_cast<std::size_t>(std::max<Index>(count, 1)));
    return s;
  }
  void register_strip(Strip* s, Index count) {
    s->handle = DataHandle::vector(s->values.data(), static_cast<std::size_t>(count), sizeof(T), true);
  }

  // Each tile's handle sits on its cells of the grid. Strips start as what
  // the tiles hold before the first sweep (first row and column) or as the
  // boundary; last rows and columns are written before anyone reads them.
  void register_tiles_and_strips() {
    const std::size_t n = static_cast<std::size_t>(tiles());
    last_row_.assign(n, nullptr);
    last_column_.assign(n, nullptr);
    first_row_.assign(n, nullptr);
    first_column_.assign(n, nullptr);
    for (Index a = 0; a < tile_rows_; ++a) {
      for (Index b = 0; b < tile_columns_; ++b) {
        T* home = grid_.data() + row_of(a) * columns_ + column_of(b);
        starpu_data_handle_t h = nullptr;
        starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(home),
                                    static_cast<uint32_t>(columns_), static_cast<uint32_t>(columns_of(b)),
                                    static_cast<uint32_t>(rows_of(a)), sizeof(T));
        tiles_.emplace_back(h, true);
        const Index r = rows_of(a), c = columns_of(b);
        if (a + 1 < tile_rows_) register_strip(last_row_[at(a, b)] = new_strip(c), c);
        if (b + 1 < tile_columns_) register_strip(last_column_[at(a, b)] = new_strip(r), r);
        if (a > 0) {
          Strip* s = first_row_[at(a, b)] = new_strip(c);
          std::copy(home, home + c, s->values.begin());
          register_strip(s, c);
        }
        if (b > 0) {
          Strip* s = first_column_[at(a, b)] = new_strip(r);
          for (Index k = 0; k < r; ++k) s->values[k] = home[k * columns_];
          register_strip(s, r);
        }
      }
    }
    // The boundary ring, cut like the tiles: read-only for the whole run.
    for (Index b = 0; b < tile_columns_; ++b) {
      Strip* above = above_.emplace_back(new_strip(columns_of(b)));
      Strip* below = below_.emplace_back(new_strip(columns_of(b)));
      for (Index c = 0; c < columns_of(b); ++c) {
        above->values[c] = sweep_.boundary(-1, column_of(b) + c);
        below->values[c] = sweep_.boundary(rows_, column_of(b) + c);
      }
      register_strip(above, columns_of(b));
      register_strip(below, columns_of(b));
    }
    for (Index a = 0; a < tile_rows_; ++a) {
      Strip* left = left_of_grid_.emplace_back(new_strip(rows_of(a)));
      Strip* right = right_of_grid_.emplace_back(new_strip(rows_of(a)));
      for (Index r = 0; r < rows_of(a); ++r) {
        left->values[r] = sweep_.boundary(row_of(a) + r, -1);
        right->values[r] = sweep_.boundary(row_of(a) + r, columns_);
      }
      register_strip(left, rows_of(a));
      register_strip(right, rows_of(a));
    }
  }

  // Every handle gets a tag and an owner, in the same order on every rank:
  // a tile and the strips it writes belong to its row's rank; the boundary,
  // which every rank builds alike, is read where the task runs.
  void register_with_ranks() {
    std::int64_t tag = runtime_.reserve_tags(static_cast<std::int64_t>(tiles_.size() + strips_.size()));
    for (Index a = 0; a < tile_rows_; ++a) {
      for (Index b = 0; b < tile_columns_; ++b) {
        register_distributed(tiles_[at(a, b)].get(), tag++, owner_rank(a));
        for (Strip* s : {last_row_[at(a, b)], last_column_[at(a, b)], first_row_[at(a, b)], first_column_[at(a, b)]}) {
          if (s) register_distributed(s->handle.get(), tag++, owner_rank(a));
        }
      }
    }
    for (auto* ring : {&above_, &below_, &left_of_grid_, &right_of_grid_}) {
      for (Strip* s : *ring) register_distributed(s->handle.get(), tag++, on_every_rank);
    }
  }

  static void on_tile_done(void* arg) { static_cast<SweepRun*>(arg)->window_.task_done(); }

  bool submit_next_level() {
    const Index level = next_level_++;
    const int priority = critical_path_priority(levels() - 1 - level, levels() - 1, starpu_sched_get_min_priority(),
                                                starpu_sched_get_max_priority());
    const Index last_diagonal = tile_rows_ + tile_columns_ - 2;
    // Level = d + 2t with d = a + b: the earliest sweep still on the grid first.
    // t counts groups of sweeps_per_task() sweeps (one sweep unless the grid is one tile).
    for (Index t = std::max<Index>(0, (level - last_diagonal + 1) / 2); t < groups_ && 2 * t <= level; ++t) {
      const Index d = level - 2 * t;
      for (Index a = std::max<Index>(0, d - (tile_columns_ - 1)); a <= std::min(d, tile_rows_ - 1); ++a) {
        submit_tile(a, d - a, priority, static_cast<int>(std::min(group_, sweeps_ - t * group_)));
      }
    }
    return next_level_ < levels();
  }

  void submit_tile(Index a, Index b, int priority, int sweeps) {
    const auto strip = [](Strip* s) { return s->handle.get(); };
    std::vector<starpu_data_descr> data{
        {tiles_[at(a, b)].get(), STARPU_RW},
        {strip(a > 0 ? last_row_[at(a - 1, b)] : above_[b]), STARPU_R},
        {strip(b > 0 ? last_column_[at(a, b - 1)] : left_of_grid_[a]), STARPU_R},
        {strip(a + 1 < tile_rows_ ? first_row_[at(a + 1, b)] : below_[b]), STARPU_R},
        {strip(b + 1 < tile_columns_ ? first_column_[at(a, b + 1)] : right_of_grid_[a]), STARPU_R}};
    const SweepTileArgs<S> args{&sweep_, row_of(a), column_of(b), a + 1 < tile_rows_, b + 1 < tile_columns_,
                                a > 0,   b > 0,       plan_.hyper_tile_width, sweeps};
    for (Strip* out : {last_row_[at(a, b)], last_column_[at(a, b)], first_row_[at(a, b)], first_column_[at(a, b)]}) {
      if (out) data.push_back({strip(out), STARPU_W});
    }
    TaskPlacement* placement = row_placements_.empty() ? nullptr : &row_placements_[static_cast<std::size_t>(a)];
    insert_windowed(window_, {&codelet_, &args, sizeof args, data.data(), static_cast<int>(data.size()),
                              &SweepRun::on_tile_done, this, "sweep tile", placement, owner_rank(a), priority},
                    distributed() ? rank_ : -1);
  }

  Runtime& runtime_;
  S sweep_;
  std::span<T> grid_;
  Index rows_;
  Index columns_;
  SweepPlan plan_;
  Index tile_rows_;
  Index tile_columns_;
  int ranks_;  // MPI ranks the tile rows are dealt to (1: this process runs all)
  int rank_;
  Index sweeps_ = 0;
  Index group_ = 1;   // sweeps per task
  Index groups_ = 0;  // tasks per tile
  starpu_codelet codelet_{};
  std::vector<TaskPlacement> row_placements_;  // per tile row; tasks point at them (starpu_task::sched_data)
  std::vector<std::unique_ptr<Strip>> strips_;  // every strip; the pointers below index into it
  std::vector<Strip*> last_row_, last_column_, first_row_, first_column_;  // per tile, null where unused
  std::vector<Strip*> above_, below_;               // per tile column: the boundary rows
  std::vector<Strip*> left_of_grid_, right_of_grid_;  // per tile row: the boundary columns
  std::vector<DataHandle> tiles_;
  Index next_level_ = 0;  // under the window's submission lock
  bool submitted_ = false;
  bool gathered_ = false;
  TaskWindow window_;
};

}  // namespace trapeze
