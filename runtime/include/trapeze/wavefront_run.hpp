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
// A wavefront with fewer than all three dependency vectors still gets both
// strips: the result is the same, some parallelism is given up (a
// single-vector wavefront is a set of independent sweeps).
#include <starpu.h>

#include <algorithm>
#include <string>
#include <typeinfo>
#include <vector>

#include "codelets/cpu/wavefront_tile_cpu.hpp"
#include "codelets/wavefront_args.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/error.hpp"
#include "trapeze/memory_limits.hpp"
#include "trapeze/plan.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/task_window.hpp"
#include "trapeze/wavefront.hpp"

namespace trapeze {

template <Wavefront W>
class WavefrontRun {
  static_assert(dependencies_supported<W>(),
                "a wavefront's dependency vectors must be among (-1, 0), (0, -1) and (-1, -1)");

 public:
  using T = typename W::value_type;
  using Result = result_of<W>;

  WavefrontRun(Runtime& runtime, const W& wavefront, const WavefrontData<W>& data, const WavefrontPlan& plan)
      : runtime_(runtime), wavefront_(wavefront), data_(checked(data)), plan_(checked(plan)),
        tile_rows_(tile_count(data.rows, plan.tile_rows)), tile_columns_(tile_count(data.columns, plan.tile_columns)),
        window_(window_capacity(plan, std::min(tile_rows_, tile_columns_)), [this] { return submit_next_diagonal(); },
                [this] { return submitted_ && next_diagonal_ < diagonals(); }) {
    check_memory();
    init_codelet();
    register_strips();
    register_inputs_and_output();
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

  // Blocks until every tile has run, then gathers the folded result.
  void wait(const ProgressCallback& progress = {}) {
    std::function<void()> tick;
    if (progress) tick = [this, progress] { progress(window_.completed(), tiles()); };
    window_.wait_until_done(tick);
    if (!submitted_ || gathered_) return;
    gathered_ = true;
    if constexpr (folds_result_v<W>) {
      result_ = Result{};
      for (std::size_t a = 0; a < results_.size(); ++a) {
        Acquired acquired(result_handles_[a].get());
        wavefront_.merge(result_, results_[a]);
      }
    }
    if (tiles() > 0) {
      Acquired acquired(top_handles_.back().get());
      last_cell_ = top_strips_.back().back();
    }
  }

  // The fold over every cell (after wait()).
  Result result() const {
    if (!gathered_) throw Error("a wavefront's result is known after wait()");
    return result_;
  }
  // The value of the last cell, (rows - 1, columns - 1) (after wait()).
  T last_cell() const {
    if (!gathered_ || tiles() == 0) throw Error("a wavefront's last cell is known after wait() of a non-empty run");
    return last_cell_;
  }

  Index tiles() const { return tile_rows_ * tile_columns_; }
  Index tile_rows() const { return tile_rows_; }
  Index tile_columns() const { return tile_columns_; }
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

  static const WavefrontPlan& checked(const WavefrontPlan& plan) {
    if (plan.tile_rows < 1 || plan.tile_columns < 1) {
      throw InvalidArgument("a wavefront tile must be at least 1x1, got " + std::to_string(plan.tile_rows) + "x" +
                            std::to_string(plan.tile_columns));
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
  Index rows_of(Index a) const { return std::min(plan_.tile_rows, data_.rows - a * plan_.tile_rows); }
  Index columns_of(Index b) const { return std::min(plan_.tile_columns, data_.columns - b * plan_.tile_columns); }

  // Strips, inputs and (with an output) a handle per tile: refused when
  // StarPU's bookkeeping for them alone would not fit.
  void check_memory() const {
    const double per_tile = (has_input_v<cell_input_of<W>> ? 1.0 : 0.0) + (data_.output.empty() ? 0.0 : 1.0);
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

  void init_codelet() {
    starpu_codelet_init(&codelet_);
    codelet_.cpu_funcs[0] = &wavefront_tile_cpu<W>;
    codelet_.cpu_funcs_name[0] = "wavefront_tile_cpu";
    codelet_.where = STARPU_CPU;
    codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    codelet_.name = "wavefront_tile";
    codelet_.model = &runtime_.history_model(std::string("trapeze_wavefront_") + typeid(W).name(),
                                             &WavefrontRun::tile_footprint);
  }

  // Top strips start as row -1 (with the corner (-1, j0 - 1) in front), left
  // strips as column -1: the boundary values.
  void register_strips() {
    for (Index b = 0; b < tile_columns_; ++b) {
      const Index first = b * plan_.tile_columns;
      std::vector<T>& strip = top_strips_.emplace_back(static_cast<std::size_t>(columns_of(b) + 1));
      for (Index c = 0; c <= columns_of(b); ++c) strip[c] = wavefront_.boundary(-1, first + c - 1);
      top_handles_.push_back(DataHandle::vector(strip.data(), strip.size(), sizeof(T), true));
    }
    for (Index a = 0; a < tile_rows_; ++a) {
      const Index first = a * plan_.tile_rows;
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
        row_input_handles_.push_back(DataHandle::vector(const_cast<RowInput*>(data_.row_inputs.data()) + a * plan_.tile_rows,
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
        const Index at = a * plan_.tile_rows * data_.columns + b * plan_.tile_columns;
        if constexpr (has_input_v<CellInput>) {
          cell_input_handles_.push_back(matrix(data_.cell_inputs.data() + at, data_.columns, columns_of(b), rows_of(a),
                                               sizeof(CellInput), false));
        }
        if (!data_.output.empty()) {
          output_handles_.push_back(
              matrix(data_.output.data() + at, data_.columns, columns_of(b), rows_of(a), sizeof(T), true));
        }
      }
    }
  }

  static void on_tile_done(void* arg) { static_cast<WavefrontRun*>(arg)->window_.task_done(); }

  bool submit_next_diagonal() {
    const Index d = next_diagonal_++;
    const int priority = critical_path_priority(diagonals() - 1 - d, diagonals() - 1, starpu_sched_get_min_priority(),
                                                starpu_sched_get_max_priority());
    for (Index a = std::max<Index>(0, d - (tile_columns_ - 1)); a <= std::min(d, tile_rows_ - 1); ++a) {
      submit_tile(a, d - a, priority);
    }
    return next_diagonal_ < diagonals();
  }

  void submit_tile(Index a, Index b, int priority) {
    std::vector<starpu_data_descr> data{{top_handles_[b].get(), STARPU_RW}, {left_handles_[a].get(), STARPU_RW}};
    if constexpr (folds_result_v<W>) data.push_back({result_handles_[a].get(), STARPU_RW});
    if (!row_input_handles_.empty()) data.push_back({row_input_handles_[a].get(), STARPU_R});
    if (!column_input_handles_.empty()) data.push_back({column_input_handles_[b].get(), STARPU_R});
    const std::size_t tile = static_cast<std::size_t>(a * tile_columns_ + b);
    if (!cell_input_handles_.empty()) data.push_back({cell_input_handles_[tile].get(), STARPU_R});
    if (!output_handles_.empty()) data.push_back({output_handles_[tile].get(), STARPU_W});
    const WavefrontTileArgs<W> args{&wavefront_,   a * plan_.tile_rows, b * plan_.tile_columns,
                                    rows_of(a),    columns_of(b),       !output_handles_.empty()};
    // Counted before it exists, so its callback never finds more tasks done than submitted.
    window_.task_submitted();
    const int rc = starpu_task_insert(&codelet_, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY, data.data(),
                                      static_cast<int>(data.size()), STARPU_PRIORITY, priority,
                                      STARPU_CALLBACK_WITH_ARG_NFREE, &WavefrontRun::on_tile_done, this, STARPU_NAME,
                                      "wavefront tile", 0);
    if (rc != 0) {
      window_.task_not_submitted();
      throw RuntimeError("starpu_task_insert", rc);
    }
  }

  Runtime& runtime_;
  W wavefront_;
  WavefrontData<W> data_;
  WavefrontPlan plan_;
  Index tile_rows_;
  Index tile_columns_;
  starpu_codelet codelet_{};
  std::vector<std::vector<T>> top_strips_;
  std::vector<std::vector<T>> left_strips_;
  std::vector<Result> results_;
  // Handles are declared after the buffers they point into, so they unregister first.
  std::vector<DataHandle> top_handles_;
  std::vector<DataHandle> left_handles_;
  std::vector<DataHandle> result_handles_;
  std::vector<DataHandle> row_input_handles_;
  std::vector<DataHandle> column_input_handles_;
  std::vector<DataHandle> cell_input_handles_;
  std::vector<DataHandle> output_handles_;
  Index next_diagonal_ = 0;  // under the window's submission lock
  bool submitted_ = false;
  bool gathered_ = false;
  Result result_{};
  T last_cell_{};
  TaskWindow window_;
};

}  // namespace trapeze
