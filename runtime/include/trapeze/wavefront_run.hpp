#pragma once
// Runs a wavefront (trapeze/wavefront.hpp) as a StarPU task graph of tiles.
//
//   trapeze::WavefrontRun run(runtime, SmithWaterman{...}, data, trapeze::WavefrontPlan{});
//   run.submit();
//   run.wait();
//   int best = run.result();
//
// The DAG is built from the tiles' boundary strips, not from a schedule: each
// column of tiles shares one top strip (the row above its next tile) and each
// row of tiles one left strip (the column left of its next tile); a tile
// reads and rewrites both (STARPU_RW), so StarPU's implicit dependencies make
// tile (a, b) wait for exactly (a-1, b) and (a, b-1), and the up-left corner
// travels inside the top strip. No barrier separates anti-diagonals: a tile
// starts when its two producers are done. Tasks carry priorities from their
// distance to the end of the critical path, for the policies that use them.
//
// Memory by need: strips hold rows + columns values (plus the tile count of
// the first row and column), so a score-only run of n x m cells needs O(n + m)
// memory; the whole iteration space is kept only when an output is given.
// Tiles enter StarPU one anti-diagonal at a time through a bounded window
// (trapeze/task_window.hpp), so the task count does not grow the memory either.
//
// Across MPI ranks (WavefrontPlan::distribute on a Runtime with several),
// rows of tiles are dealt to the ranks in turn, as seed 004 deals them to
// SMs: a row's left strip, results and outputs belong to its rank, and a
// column's top strip migrates down to the rank of each next row, so only
// strips travel, once per tile row boundary. Every rank inserts every task;
// wait() brings the results, the last cell and any output to rank 0, whose
// result() and last_cell() are the run's.
//
// A wavefront with fewer than all three dependency vectors still gets both
// strips: the result is the same, some parallelism is given up (a
// single-vector wavefront is a set of independent sweeps).
//
// Layouts (WavefrontPlan::layout): in the banded layout, the tiles' cell
// inputs and output are kept in seed 004's hybrid row/diagonal-major layout
// (trapeze/banded_layout.hpp) where the tasks run, in which the GPU kernel's
// warps read and write whole lines. The caller's arrays stay row-major; the
// run inserts the conversions as tasks of their own on the tile's data: a
// tile's cell inputs are converted after they reach the GPU, into a banded
// copy that the tile task reads there, and its output is written banded and
// converted back before it leaves for host memory. Each copy is converted once, by the
// kernels of codelets/cuda/banded_layout_kernels.cuh, where it is; a banded
// copy is dropped (starpu_data_unregister_submit) once its last reader is done.
#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <tuple>
#include <string>
#include <typeinfo>
#include <vector>

#include "codelets/banded_layout_args.hpp"
#include "codelets/cpu/banded_layout_cpu.hpp"
#include "codelets/cpu/wavefront_tile_cpu.hpp"
#include "codelets/wavefront_args.hpp"
#include "trapeze/banded_layout.hpp"
#include "trapeze/cuda_stencils.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/distributed_data.hpp"
#include "trapeze/error.hpp"
#include "trapeze/memory_limits.hpp"
#include "trapeze/plan.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/task_window.hpp"
#include "trapeze/tile_placement.hpp"
#include "trapeze/wavefront.hpp"
#include "trapeze/windowed_task.hpp"

namespace trapeze {

template <Wavefront W>
class WavefrontRun {
  static_assert(dependencies_supported<W>(),
                "a wavefront's dependency vectors must be among (-1, 0), (0, -1) and (-1, -1)");

 public:
  using T = typename W::value_type;
  using Result = result_of<W>;

  // `resume`: start after the rows a checkpoint holds (default: from row 0).
  WavefrontRun(Runtime& runtime, const W& wavefront, const WavefrontData<W>& data, const WavefrontPlan& plan,
               WavefrontResume<W> resume = {})
      : runtime_(runtime), wavefront_(wavefront), data_(checked(data)), plan_(checked(plan)),
        first_row_(checked(resume, data).first_row), resumed_(std::move(resume)),
        tile_rows_(tile_count(data.rows - first_row_, plan.tile_rows)),
        tile_columns_(tile_count(data.columns, plan.tile_columns)),
        ranks_(plan.distribute ? runtime.ranks() : 1), rank_(ranks_ > 1 ? runtime.rank() : 0),
        window_(window_capacity(plan, std::min(tile_rows_, tile_columns_)), [this] { return submit_next_diagonal(); },
                [this] { return submitted_ && next_diagonal_ < diagonals(); }) {
    check_memory();
    init_codelets();
    choose_layout();
    // Rows of tiles dealt to the workers in turn (seed 004 deals rows to SMs):
    // trapeze-wavefront lets a worker prefer its own rows among the ready
    // tiles of the front. Every tile is a border: any worker may take it.
    const std::vector<int> workers = workers_of(codelet_.where);
    for (Index a = 0; a < tile_rows_ && !workers.empty(); ++a) {
      row_placements_.push_back({workers[static_cast<std::size_t>(a) % workers.size()], true});
    }
    register_strips();
    register_inputs_and_output();
    if (distributed()) register_with_ranks();
  }

  // Brings every cell home (outputs, strips) before the buffers go.
  ~WavefrontRun() {
    try {
      wait();
    } catch (...) {
      window_.drop_pending();
      window_.wait_until_done();
    }
  }
  WavefrontRun(const WavefrontRun&) = delete;
  WavefrontRun& operator=(const WavefrontRun&) = delete;

  // Hands the whole DAG to the run and returns once its first window of
  // anti-diagonals is in StarPU; wait() submits the rest as tasks complete.
  void submit() {
    if (submitted_) throw Error("a wavefront run is submitted once");
    submitted_ = true;
    auto submission = window_.lock_submission();
    const bool throttled = runtime_.submission_throttled();
    const PausedWorkers paused(!throttled);
    window_.fill(submission, !throttled);
  }

  // Checkpoints: after every `tile_rows` rows of tiles, tasks copy the top
  // strips (the row below the last finished tile row) and the fold so far,
  // each as soon as its column's tile is done, and a task on a CPU worker then
  // calls `write`, while the tiles below go on (each waits only for its
  // column's copy). Checkpoints are written in order. Call before submit().
  // A throwing `write` fails the run: wait() rethrows it.
  // Spread over MPI ranks, every rank calls it, and the copies and writes run
  // on rank 0, which alone holds the snapshots: StarPU-MPI sends it each
  // column's strip (and the rows' folds) from the rank of the row above the
  // checkpoint; `write` is called on rank 0 only.
  using CheckpointWriter = std::function<void(const WavefrontCheckpoint<W>&)>;
  void checkpoint_every(Index tile_rows, CheckpointWriter write) {
    if (tile_rows < 1) throw InvalidArgument("checkpoint interval must be >= 1 row of tiles, got " + std::to_string(tile_rows));
    if (submitted_) throw Error("checkpoint_every() must come before submit()");
    checkpoint_every_ = tile_rows;
    checkpoint_write_ = std::move(write);
    writer_order_ = void_handle();
    if (distributed()) {
      // Tags for the writer's order and each checkpoint's, taken now so every
      // rank has the same ones whatever else it registers while submitting.
      first_checkpoint_tag_ = runtime_.reserve_tags(1 + checkpoints_in_run());
      register_distributed(writer_order_.get(), first_checkpoint_tag_, writing_rank);
    }
  }
  // The first row of the latest checkpoint written (-1: none yet).
  Index checkpoint_rows_written() const { return checkpoint_rows_written_.load(); }

  // Blocks until every tile has run, then gathers the folded result.
  void wait(const ProgressCallback& progress = {}) {
    std::function<void()> tick;
    if (progress) tick = [this, progress] { progress(window_.completed(), tasks_in_run()); };
    window_.wait_until_done(tick);
    if (checkpoint_failed_.load()) {
      std::lock_guard lock(checkpoint_error_mutex_);
      throw Error(checkpoint_error_);
    }
    if (!submitted_ || gathered_) return;
    gathered_ = true;
    if (distributed()) {
      gather_on_rank_zero();
      if (rank_ != 0) return;
    }
    if constexpr (folds_result_v<W>) {
      result_ = resumed_.folded;
      for (std::size_t a = 0; a < results_.size(); ++a) {
        Acquired acquired(result_handles_[a].get());
        wavefront_.merge(result_, results_[a]);
      }
    }
    if (tiles() > 0) {
      Acquired acquired(top_handles_.back().get());
      last_cell_ = top_strips_.back().back();
    } else if (first_row_ == data_.rows && data_.rows > 0 && data_.columns > 0) {
      last_cell_ = resumed_.top_row.back();  // resumed after the last row: nothing left to run
    }
  }

  // The fold over every cell (after wait()).
  Result result() const {
    if (!gathered_) throw Error("a wavefront's result is known after wait()");
    return result_;
  }
  // The value of the last cell, (rows - 1, columns - 1) (after wait()).
  T last_cell() const {
    if (!gathered_ || data_.rows == 0 || data_.columns == 0) throw Error("a wavefront's last cell is known after wait() of a non-empty run");
    return last_cell_;
  }

  Index tiles() const { return tile_rows_ * tile_columns_; }
  // Whether the rows of tiles are dealt to MPI ranks, and the rank of a tile row.
  bool distributed() const { return ranks_ > 1; }
  int owner_rank(Index tile_row) const { return static_cast<int>(tile_row % ranks_); }
  // Tile tasks, their layout conversions, and the copies and writes of checkpoints.
  Index tasks_in_run() const { return tiles() * (1 + conversions_per_tile()) + checkpoints_in_run() * (tile_columns_ + 1); }
  // Checkpoints the run writes: after every checkpoint_every() rows of tiles but the last.
  Index checkpoints_in_run() const {
    return checkpoint_every_ > 0 && tile_rows_ > 0 ? (tile_rows_ - 1) / checkpoint_every_ : 0;
  }
  Index tile_rows() const { return tile_rows_; }
  Index tile_columns() const { return tile_columns_; }
  // Whether the tiles' cell inputs and output are banded where the tasks run,
  // and the rows of a lane in tile row a's bands (0: row-major).
  bool banded() const { return !banded_lane_rows_.empty(); }
  int banded_lane_rows(Index tile_row) const { return banded() ? banded_lane_rows_[static_cast<std::size_t>(tile_row)] : 0; }
  Index tasks_submitted() const { return window_.submitted(); }
  Index tasks_completed() const { return window_.completed(); }
  Index window_capacity() const { return window_.capacity(); }
  Index peak_tasks_in_flight() const { return window_.peak_in_flight(); }

 private:
  // starpu_data_acquire for a scope: the handle's latest value in main memory.
  class Acquired {
   public:
    explicit Acquired(starpu_data_handle_t handle) : handle_(handle) {
      const int rc = starpu_data_acquire(handle_, STARPU_R);
      if (rc != 0) throw RuntimeError("starpu_data_acquire", rc);
    }
    ~Acquired() { starpu_data_release(handle_); }
    Acquired(const Acquired&) = delete;
    Acquired& operator=(const Acquired&) = delete;

   private:
    starpu_data_handle_t handle_;
  };

  static Index tile_count(Index extent, Index tile) { return extent == 0 ? 0 : (extent + tile - 1) / tile; }

  static const WavefrontData<W>& checked(const WavefrontData<W>& data) {
    if (data.rows < 0 || data.columns < 0) {
      throw InvalidArgument("a wavefront's extent must be >= 0, got " + std::to_string(data.rows) + "x" +
                            std::to_string(data.columns));
    }
    const auto expect = [](std::size_t given, Index wanted, const char* what) {
      if (static_cast<Index>(given) != wanted) {
        throw InvalidArgument(std::string(what) + " hold " + std::to_string(given) + " values, the wavefront needs " +
                              std::to_string(wanted));
      }
    };
    if constexpr (has_input_v<row_input_of<W>>) expect(data.row_inputs.size(), data.rows, "row inputs");
    if constexpr (has_input_v<column_input_of<W>>) expect(data.column_inputs.size(), data.columns, "column inputs");
    if constexpr (has_input_v<cell_input_of<W>>) expect(data.cell_inputs.size(), data.rows * data.columns, "cell inputs");
    if (!data.output.empty()) expect(data.output.size(), data.rows * data.columns, "the output");
    return data;
  }

  static const WavefrontResume<W>& checked(const WavefrontResume<W>& resume, const WavefrontData<W>& data) {
    if (resume.first_row < 0 || resume.first_row > data.rows) {
      throw InvalidArgument("a resumed wavefront starts at row " + std::to_string(resume.first_row) +
                            ", outside its " + std::to_string(data.rows) + " rows");
    }
    if (resume.first_row > 0 && static_cast<Index>(resume.top_row.size()) != data.columns + 1) {
      throw InvalidArgument("a resumed wavefront's row above holds " + std::to_string(resume.top_row.size()) +
                            " values, the wavefront needs " + std::to_string(data.columns + 1));
    }
    return resume;
  }

  static DataHandle void_handle() {
    starpu_data_handle_t handle = nullptr;
    starpu_void_data_register(&handle);
    return DataHandle(handle, false);
  }

  static const WavefrontPlan& checked(const WavefrontPlan& plan) {
    if (plan.tile_rows < 1 || plan.tile_columns < 1) {
      throw InvalidArgument("a wavefront tile must be at least 1x1, got " + std::to_string(plan.tile_rows) + "x" +
                            std::to_string(plan.tile_columns));
    }
    if (plan.tile_columns > (Index{1} << 30)) {
      throw InvalidArgument("a wavefront tile may be at most 2^30 columns wide, got " + std::to_string(plan.tile_columns));
    }
    if (plan.hyper_tile_width < 8) {
      throw InvalidArgument("a wavefront hyper-tile must be at least 8 steps wide, got " +
                            std::to_string(plan.hyper_tile_width));
    }
    if (plan.max_tasks_in_flight < 0) {
      throw InvalidArgument("max_tasks_in_flight must be >= 0 (0: automatic), got " +
                            std::to_string(plan.max_tasks_in_flight));
    }
    return plan;
  }

  static Index window_capacity(const WavefrontPlan& plan, Index longest_diagonal) {
    if (plan.max_tasks_in_flight > 0) return plan.max_tasks_in_flight;
    return std::max<Index>(8192, 4 * longest_diagonal);
  }

  Index diagonals() const { return tiles() == 0 ? 0 : tile_rows_ + tile_columns_ - 1; }
  // Tile row a starts at row first_row_ + a * tile_rows (a resumed run skips the rows done).
  Index row_of(Index a) const { return first_row_ + a * plan_.tile_rows; }
  Index rows_of(Index a) const { return std::min(plan_.tile_rows, data_.rows - row_of(a)); }
  Index columns_of(Index b) const { return std::min(plan_.tile_columns, data_.columns - b * plan_.tile_columns); }

  // Strips, inputs and (with an output) a handle per tile: refused when
  // StarPU's bookkeeping for them alone would not fit.
  void check_memory() const {
    // Cell inputs and output; twice for banded copies.
    const double per_tile = 2.0 * ((has_input_v<cell_input_of<W>> ? 1.0 : 0.0) + (data_.output.empty() ? 0.0 : 1.0));
    const double handles = static_cast<double>(tiles()) * per_tile + 5.0 * static_cast<double>(tile_rows_ + tile_columns_);
    const double strip_bytes = static_cast<double>(data_.rows + data_.columns + tile_rows_ + tile_columns_) * sizeof(T);
    check_fits_in_memory(strip_bytes + handles * starpu_handle_bytes(),
                         std::to_string(tile_rows_) + "x" + std::to_string(tile_columns_) + " wavefront tiles of " +
                             std::to_string(plan_.tile_rows) + "x" + std::to_string(plan_.tile_columns) + " and " +
                             std::to_string(static_cast<long long>(handles)) + " StarPU data handles",
                         "choose larger tiles");
  }

  // Tile tasks share a history model keyed by the tile's cell count.
  static uint32_t tile_footprint(starpu_task* task) {
    WavefrontTileArgs<W> args;
    starpu_codelet_unpack_args(task->cl_arg, &args);
    const Index cells = args.rows * args.columns;
    return starpu_hash_crc32c_be(static_cast<uint32_t>(cells), static_cast<uint32_t>(cells >> 32));
  }

  void init_codelets() {
    for (auto [codelet, function, name] : {std::tuple{&copy_codelet_, &WavefrontRun::checkpoint_copy_cpu, "checkpoint copy"},
                                           std::tuple{&write_codelet_, &WavefrontRun::checkpoint_write_cpu, "checkpoint"}}) {
      starpu_codelet_init(codelet);
      codelet->cpu_funcs[0] = function;
      codelet->where = STARPU_CPU;
      codelet->nbuffers = STARPU_VARIABLE_NBUFFERS;
      codelet->name = name;
    }
    starpu_codelet_init(&codelet_);
    codelet_.cpu_funcs[0] = &wavefront_tile_cpu<W>;
    codelet_.cpu_funcs_name[0] = "wavefront_tile_cpu";
    const CudaStencilFunctions* cuda = cuda_functions_of<W>();
    const bool has_cuda = cuda && cuda->wavefront_tile;
    if (has_cuda && starpu_cuda_worker_get_count() > 0) {
      codelet_.cuda_funcs[0] = cuda->wavefront_tile;
      codelet_.cuda_flags[0] = STARPU_CUDA_ASYNC;
    }
    codelet_.where = codelet_where(plan_.devices, has_cuda, "wavefront");
    codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    codelet_.name = "wavefront_tile";
    // Layout conversions run where the tiles do: a banded copy is made and read on one device.
    using CellInput = cell_input_of<W>;
    starpu_cpu_func_t inputs_to_banded = nullptr;
    if constexpr (has_input_v<CellInput>) inputs_to_banded = &to_banded_cpu<CellInput>;
    for (auto [codelet, cpu, cuda_function, name] :
         {std::tuple{&to_banded_codelet_, inputs_to_banded, has_cuda ? cuda->wavefront_inputs_to_banded : nullptr,
                     "to banded layout"},
          std::tuple{&from_banded_codelet_, starpu_cpu_func_t{&from_banded_cpu<T>},
                     has_cuda ? cuda->wavefront_output_from_banded : nullptr, "from banded layout"}}) {
      starpu_codelet_init(codelet);
      codelet->cpu_funcs[0] = cpu;
      if (cuda_function && starpu_cuda_worker_get_count() > 0) {
        codelet->cuda_funcs[0] = cuda_function;
        codelet->cuda_flags[0] = STARPU_CUDA_ASYNC;
      }
      codelet->where = codelet_.where;
      codelet->nbuffers = 2;
      codelet->modes[0] = STARPU_R;
      codelet->modes[1] = STARPU_W;
      codelet->name = name;
    }
    codelet_.model = &runtime_.history_model(std::string("trapeze_wavefront_") + typeid(W).name(),
                                             &WavefrontRun::tile_footprint);
  }

  // Banded where the plan says so, or automatically where the tiles run on
  // GPUs alone in one process (WavefrontPlan::layout); one lane-row count
  // per tile row: the GPU codelet's own choice for its rows, which the last,
  // shorter row of tiles may change.
  void choose_layout() {
    const bool has_cells = has_input_v<cell_input_of<W>> || !data_.output.empty();
    if (plan_.banded_lane_rows < 0 || plan_.banded_lane_rows > 64) {
      throw InvalidArgument("banded lanes must hold 1 to 64 rows (0: automatic), got " + std::to_string(plan_.banded_lane_rows));
    }
    const CudaStencilFunctions* cuda = cuda_functions_of<W>();
    const bool may_run_on_gpu = (codelet_.where & STARPU_CUDA) != 0 && codelet_.cuda_funcs[0] != nullptr;
    const bool gpus_alone = may_run_on_gpu && (codelet_.where & STARPU_CPU) == 0;
    const bool wanted = plan_.layout == WavefrontLayout::banded ||
                        (plan_.layout == WavefrontLayout::automatic && gpus_alone && !distributed());
    if (!has_cells || !wanted) return;
    if (distributed()) {
      throw InvalidArgument("the banded wavefront layout is not available on several MPI ranks; use the row-major layout");
    }
    for (Index a = 0; a < tile_rows_; ++a) {
      int lane_rows = plan_.banded_lane_rows;
      if (lane_rows == 0) {
        lane_rows = may_run_on_gpu && cuda->wavefront_geometry
                        ? cuda->wavefront_geometry(rows_of(a), plan_.tile_columns, plan_.hyper_tile_width).band_rows / banded_lanes
                        : 8;
      }
      if (may_run_on_gpu && lane_rows != cuda->wavefront_lane_rows[0] && lane_rows != cuda->wavefront_lane_rows[1]) {
        throw InvalidArgument("banded lanes of " + std::to_string(lane_rows) + " rows: the GPU kernels of this wavefront take " +
                              std::to_string(cuda->wavefront_lane_rows[0]) + " or " + std::to_string(cuda->wavefront_lane_rows[1]));
      }
      banded_lane_rows_.push_back(lane_rows);
    }
  }

  BandedLayout banded_layout_of(Index a, Index b) const { return {rows_of(a), columns_of(b), banded_lane_rows(a)}; }

  // Conversion tasks a tile adds: its cell inputs', its output's.
  Index conversions_per_tile() const {
    if (!banded()) return 0;
    return (has_input_v<cell_input_of<W>> ? 1 : 0) + (data_.output.empty() ? 0 : 1);
  }

  // A tile's banded copy, with no home: StarPU allocates it where a task
  // first writes it. Contiguous, registered as a matrix of a band's cells by
  // bands (a vector's 32-bit count is too few for a large tile).
  static DataHandle banded_copy(const BandedLayout& layout, std::size_t element_size) {
    const Index band_cells = layout.band_rows() * layout.columns;
    if (band_cells > static_cast<Index>(UINT32_MAX) || layout.bands() > static_cast<Index>(UINT32_MAX)) {
      throw InvalidArgument("a banded wavefront tile of " + std::to_string(layout.columns) +
                            " columns exceeds StarPU's matrix limit; use narrower tiles or the row-major layout");
    }
    starpu_data_handle_t h = nullptr;
    starpu_matrix_data_register(&h, -1, 0, static_cast<uint32_t>(band_cells), static_cast<uint32_t>(band_cells),
                                static_cast<uint32_t>(layout.bands()), element_size);
    return DataHandle(h, false);
  }

  // Top strips start as row -1 (with the corner (-1, j0 - 1) in front), left
  // strips as column -1: the boundary values.
  void register_strips() {
    for (Index b = 0; b < tile_columns_; ++b) {
      const Index first = b * plan_.tile_columns;
      std::vector<T>& strip = top_strips_.emplace_back(static_cast<std::size_t>(columns_of(b) + 1));
      for (Index c = 0; c <= columns_of(b); ++c) {
        strip[c] = first_row_ > 0 ? resumed_.top_row[first + c] : wavefront_.boundary(-1, first + c - 1);
      }
      top_handles_.push_back(DataHandle::vector(strip.data(), strip.size(), sizeof(T), true));
    }
    for (Index a = 0; a < tile_rows_; ++a) {
      const Index first = row_of(a);
      std::vector<T>& strip = left_strips_.emplace_back(static_cast<std::size_t>(rows_of(a)));
      for (Index r = 0; r < rows_of(a); ++r) strip[r] = wavefront_.boundary(first + r, -1);
      left_handles_.push_back(DataHandle::vector(strip.data(), strip.size(), sizeof(T), true));
    }
    if constexpr (folds_result_v<W>) {
      results_.assign(static_cast<std::size_t>(tile_rows_), Result{});
      for (Result& r : results_) result_handles_.push_back(DataHandle::vector(&r, 1, sizeof(Result), true));
    }
  }

  static DataHandle matrix(const void* home, Index ld, Index columns, Index rows, std::size_t element_size,
                           bool keep_data) {
    starpu_data_handle_t h = nullptr;
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(home), static_cast<uint32_t>(ld),
                                static_cast<uint32_t>(columns), static_cast<uint32_t>(rows), element_size);
    return DataHandle(h, keep_data);
  }

  void register_inputs_and_output() {
    using RowInput = row_input_of<W>;
    using ColumnInput = column_input_of<W>;
    using CellInput = cell_input_of<W>;
    // Inputs are read-only (STARPU_R): StarPU never writes through the pointers.
    if constexpr (has_input_v<RowInput>) {
      for (Index a = 0; a < tile_rows_; ++a) {
        row_input_handles_.push_back(DataHandle::vector(const_cast<RowInput*>(data_.row_inputs.data()) + row_of(a),
                                                        static_cast<std::size_t>(rows_of(a)), sizeof(RowInput), false));
      }
    }
    if constexpr (has_input_v<ColumnInput>) {
      for (Index b = 0; b < tile_columns_; ++b) {
        column_input_handles_.push_back(
            DataHandle::vector(const_cast<ColumnInput*>(data_.column_inputs.data()) + b * plan_.tile_columns,
                               static_cast<std::size_t>(columns_of(b)), sizeof(ColumnInput), false));
      }
    }
    for (Index a = 0; a < tile_rows_; ++a) {
      for (Index b = 0; b < tile_columns_; ++b) {
        const Index at = row_of(a) * data_.columns + b * plan_.tile_columns;
        if constexpr (has_input_v<CellInput>) {
          cell_input_handles_.push_back(matrix(data_.cell_inputs.data() + at, data_.columns, columns_of(b), rows_of(a),
                                               sizeof(CellInput), false));
          if (banded()) banded_input_handles_.push_back(banded_copy(banded_layout_of(a, b), sizeof(CellInput)));
        }
        if (!data_.output.empty()) {
          output_handles_.push_back(
              matrix(data_.output.data() + at, data_.columns, columns_of(b), rows_of(a), sizeof(T), true));
          if (banded()) banded_output_handles_.push_back(banded_copy(banded_layout_of(a, b), sizeof(T)));
        }
      }
    }
  }

  // Every handle gets a tag and an owner, in the same order on every rank:
  // a column's top strip starts on the rank of the first row; inputs, which
  // every rank builds alike, are read where the task runs.
  void register_with_ranks() {
    std::int64_t tag = runtime_.reserve_tags(static_cast<std::int64_t>(
        top_handles_.size() + left_handles_.size() + result_handles_.size() + row_input_handles_.size() +
        column_input_handles_.size() + cell_input_handles_.size() + output_handles_.size()));
    for (DataHandle& h : top_handles_) register_distributed(h.get(), tag++, owner_rank(0));
    for (std::size_t a = 0; a < left_handles_.size(); ++a) register_distributed(left_handles_[a].get(), tag++, owner_rank(static_cast<Index>(a)));
    for (std::size_t a = 0; a < result_handles_.size(); ++a) register_distributed(result_handles_[a].get(), tag++, owner_rank(static_cast<Index>(a)));
    for (auto* inputs : {&row_input_handles_, &column_input_handles_, &cell_input_handles_}) {
      for (DataHandle& h : *inputs) register_distributed(h.get(), tag++, on_every_rank);
    }
    for (std::size_t t = 0; t < output_handles_.size(); ++t) {
      register_distributed(output_handles_[t].get(), tag++, owner_rank(static_cast<Index>(t) / tile_columns_));
    }
  }

  // Rank 0 receives what the result is made of: every row's fold, the last
  // column's strip (the last cell) and the output's tiles.
  void gather_on_rank_zero() {
    for (DataHandle& h : result_handles_) fetch_to_rank(h.get(), 0);
    if (!top_handles_.empty()) fetch_to_rank(top_handles_.back().get(), 0);
    for (DataHandle& h : output_handles_) fetch_to_rank(h.get(), 0);
  }

  static void on_tile_done(void* arg) { static_cast<WavefrontRun*>(arg)->window_.task_done(); }

  bool submit_next_diagonal() {
    const Index d = next_diagonal_++;
    const int priority = critical_path_priority(diagonals() - 1 - d, diagonals() - 1, starpu_sched_get_min_priority(),
                                                starpu_sched_get_max_priority());
    for (Index a = std::max<Index>(0, d - (tile_columns_ - 1)); a <= std::min(d, tile_rows_ - 1); ++a) {
      submit_tile(a, d - a, priority);
    }
    if (checkpoint_every_ > 0) submit_checkpoint_copies(d);
    return next_diagonal_ < diagonals();
  }

  // A checkpoint after tile row A - 1: for each column b, once tile (A-1, b)
  // has run (diagonal A - 1 + b), a copy of its top strip; the last column's
  // copy also folds the rows' results, and a write task follows it.
  struct Snapshot {
    WavefrontCheckpoint<W> state;
    DataHandle order;  // its copies, then its write
  };
  struct CopyArgs {
    WavefrontRun* run;
    Snapshot* snapshot;
    Index column_offset;  // of the strip's first value (column b * tile_columns - 1) in top_row, plus one
    Index values;
    Index result_rows;    // > 0 for the last column's copy: result buffers that follow
  };

  void submit_checkpoint_copies(Index d) {
    const Index n = checkpoint_every_;
    const Index lowest = std::max<Index>(n, d - tile_columns_ + 2);
    for (Index boundary = (lowest + n - 1) / n * n; boundary <= std::min(d + 1, tile_rows_ - 1); boundary += n) {
      const Index b = d - (boundary - 1);
      if (b == 0) {
        auto snapshot = std::make_unique<Snapshot>();
        snapshot->state.first_row = row_of(boundary);
        // Only the writing rank fills a snapshot (its copies run there).
        if (rank_ == writing_rank) snapshot->state.top_row.resize(static_cast<std::size_t>(data_.columns + 1));
        snapshot->state.folded = resumed_.folded;
        snapshot->order = void_handle();
        if (distributed()) register_distributed(snapshot->order.get(), first_checkpoint_tag_ + boundary / n, writing_rank);
        snapshots_.push_back(std::move(snapshot));
      }
      Snapshot* snapshot = pending_snapshot(row_of(boundary));
      const bool last = b == tile_columns_ - 1;
      std::vector<starpu_data_descr> data{{top_handles_[b].get(), STARPU_R}, {snapshot->order.get(), STARPU_RW}};
      if (last && folds_result_v<W>) {
        for (Index a = 0; a < boundary; ++a) data.push_back({result_handles_[a].get(), STARPU_R});
      }
      const CopyArgs args{this, snapshot, b * plan_.tile_columns, columns_of(b) + 1,
                          last && folds_result_v<W> ? boundary : 0};
      insert_cpu_task(&copy_codelet_, data, &args, sizeof args);
      if (last) {
        std::vector<starpu_data_descr> write{{snapshot->order.get(), STARPU_RW}, {writer_order_.get(), STARPU_RW}};
        insert_cpu_task(&write_codelet_, write, &args, sizeof args);
      }
    }
  }

  Snapshot* pending_snapshot(Index first_row) {
    for (auto it = snapshots_.rbegin(); it != snapshots_.rend(); ++it) {
      if ((*it)->state.first_row == first_row) return it->get();
    }
    throw Error("wavefront checkpoint of row " + std::to_string(first_row) + " lost");
  }

  static void checkpoint_copy_cpu(void* buffers[], void* cl_arg) {
    CopyArgs args;
    starpu_codelet_unpack_args(cl_arg, &args);
    const T* strip = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
    std::copy(strip, strip + args.values, args.snapshot->state.top_row.begin() + args.column_offset);
    if constexpr (folds_result_v<W>) {
      for (Index a = 0; a < args.result_rows; ++a) {
        args.run->wavefront_.merge(args.snapshot->state.folded,
                                   *reinterpret_cast<const Result*>(STARPU_VECTOR_GET_PTR(buffers[2 + a])));
      }
    }
  }

  static void checkpoint_write_cpu(void* /*buffers*/[], void* cl_arg) {
    CopyArgs args;
    starpu_codelet_unpack_args(cl_arg, &args);
    WavefrontRun& run = *args.run;
    if (!run.checkpoint_failed_.load()) {
      try {
        run.checkpoint_write_(args.snapshot->state);
        run.checkpoint_rows_written_ = args.snapshot->state.first_row;
      } catch (const std::exception& e) {
        std::lock_guard lock(run.checkpoint_error_mutex_);
        run.checkpoint_error_ = "checkpoint at row " + std::to_string(args.snapshot->state.first_row) + ": " + e.what();
        run.checkpoint_failed_ = true;
      }
    }
    std::vector<T>().swap(args.snapshot->state.top_row);  // written: its memory goes back
  }

  // Under MPI on rank 0, where the snapshots are.
  void insert_cpu_task(starpu_codelet* codelet, std::vector<starpu_data_descr>& data, const CopyArgs* args,
                       std::size_t size) {
    insert_windowed(window_, {codelet, args, size, data.data(), static_cast<int>(data.size()), &WavefrontRun::on_tile_done,
                              this, codelet->name, nullptr, writing_rank},
                    distributed() ? rank_ : -1);
  }

  void submit_tile(Index a, Index b, int priority) {
    std::vector<starpu_data_descr> data{{top_handles_[b].get(), STARPU_RW}, {left_handles_[a].get(), STARPU_RW}};
    if constexpr (folds_result_v<W>) data.push_back({result_handles_[a].get(), STARPU_RW});
    if (!row_input_handles_.empty()) data.push_back({row_input_handles_[a].get(), STARPU_R});
    if (!column_input_handles_.empty()) data.push_back({column_input_handles_[b].get(), STARPU_R});
    const std::size_t tile = static_cast<std::size_t>(a * tile_columns_ + b);
    TaskPlacement* placement = row_placements_.empty() ? nullptr : &row_placements_[static_cast<std::size_t>(a)];
    const BandedConversionArgs conversion{banded_layout_of(a, b)};
    if (!cell_input_handles_.empty()) {
      if (banded()) {
        submit_conversion(&to_banded_codelet_, cell_input_handles_[tile], banded_input_handles_[tile], conversion, placement, priority);
        data.push_back({banded_input_handles_[tile].get(), STARPU_R});
      } else {
        data.push_back({cell_input_handles_[tile].get(), STARPU_R});
      }
    }
    if (!output_handles_.empty()) data.push_back({(banded() ? banded_output_handles_ : output_handles_)[tile].get(), STARPU_W});
    const WavefrontTileArgs<W> args{&wavefront_,   row_of(a),     b * plan_.tile_columns,
                                    rows_of(a),    columns_of(b), !output_handles_.empty(),
                                    plan_.hyper_tile_width,       banded_lane_rows(a)};
    // The column's strip moves to this row's rank; the task runs there.
    if (distributed()) migrate_distributed(top_handles_[b].get(), owner_rank(a));
    insert_windowed(window_, {&codelet_, &args, sizeof args, data.data(), static_cast<int>(data.size()),
                              &WavefrontRun::on_tile_done, this, "wavefront tile", placement, owner_rank(a), priority},
                    distributed() ? rank_ : -1);
    if (banded()) {
      if (!banded_input_handles_.empty()) banded_input_handles_[tile].unregister_when_done();
      if (!output_handles_.empty()) {
        submit_conversion(&from_banded_codelet_, banded_output_handles_[tile], output_handles_[tile], conversion, placement, priority);
        banded_output_handles_[tile].unregister_when_done();
      }
    }
  }

  // A layout conversion from `from` (R) into `to` (W), beside the tile it serves.
  void submit_conversion(starpu_codelet* codelet, const DataHandle& from, const DataHandle& to,
                         const BandedConversionArgs& args, TaskPlacement* placement, int priority) {
    starpu_data_descr data[2]{{from.get(), STARPU_R}, {to.get(), STARPU_W}};
    insert_windowed(window_, {codelet, &args, sizeof args, data, 2, &WavefrontRun::on_tile_done, this, codelet->name,
                              placement, owner_of_written_data, priority},
                    -1);  // never across ranks (choose_layout)
  }

  Runtime& runtime_;
  W wavefront_;
  WavefrontData<W> data_;
  WavefrontPlan plan_;
  Index first_row_;
  WavefrontResume<W> resumed_;
  Index tile_rows_;
  Index tile_columns_;
  int ranks_;  // MPI ranks the rows of tiles are dealt to (1: this process runs all)
  int rank_;
  starpu_codelet codelet_{};
  starpu_codelet to_banded_codelet_{};
  starpu_codelet from_banded_codelet_{};
  std::vector<int> banded_lane_rows_;  // per tile row; empty: row-major
  starpu_codelet copy_codelet_{};
  starpu_codelet write_codelet_{};
  std::vector<std::vector<T>> top_strips_;
  std::vector<std::vector<T>> left_strips_;
  std::vector<Result> results_;
  // Handles are declared after the buffers they point into, so they unregister first.
  std::vector<DataHandle> top_handles_;
  std::vector<DataHandle> left_handles_;
  std::vector<TaskPlacement> row_placements_;  // per tile row; tasks point at them (starpu_task::sched_data)
  std::vector<DataHandle> result_handles_;
  std::vector<DataHandle> row_input_handles_;
  std::vector<DataHandle> column_input_handles_;
  std::vector<DataHandle> cell_input_handles_;
  std::vector<DataHandle> output_handles_;
  // Banded copies of the cell inputs and the output (no home; unregistered once used).
  std::vector<DataHandle> banded_input_handles_;
  std::vector<DataHandle> banded_output_handles_;
  // Checkpoints.
  Index checkpoint_every_ = 0;
  CheckpointWriter checkpoint_write_;
  std::deque<std::unique_ptr<Snapshot>> snapshots_;  // their handles live as long as the run
  DataHandle writer_order_;
  std::int64_t first_checkpoint_tag_ = 0;  // under MPI: the writer's order, then checkpoint i's (i >= 1)
  std::atomic<Index> checkpoint_rows_written_{-1};
  std::atomic<bool> checkpoint_failed_{false};
  std::mutex checkpoint_error_mutex_;
  std::string checkpoint_error_;
  Index next_diagonal_ = 0;  // under the window's submission lock
  bool submitted_ = false;
  bool gathered_ = false;
  Result result_{};
  T last_cell_{};
  TaskWindow window_;
};

}  // namespace trapeze
