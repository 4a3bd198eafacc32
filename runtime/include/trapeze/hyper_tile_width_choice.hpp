#pragma once
// --width auto: the hyper-tile width from seed 004's model
// (hyper_tile_width_model.hpp) with its two constants measured by a short
// training run, as the seed's findOptimumTileWidth does: the real wavefront
// on the first columns of the real space (its rows, hence its bands and
// resident warps, as the run will have them), timed through the runtime at
// three widths, d and tau_s fitted to those timings, then the width with the
// least predicted time for the whole tile. The constants are cached per GPU,
// wavefront and tile shape (MeasurementCache), so a shape trains once.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "trapeze/cuda_stencils.hpp"
#include "trapeze/gpu_device.hpp"
#include "trapeze/hyper_tile_costs_cache.hpp"
#include "trapeze/hyper_tile_width_model.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_run.hpp"

namespace trapeze {

// The widths the training times, and the range the model chooses from.
inline constexpr int trained_widths[] = {16, 32, 64};
inline constexpr int narrowest_width = 8, widest_width = 256;

// The training run's columns: a sixteenth of the tile's (at least 8192, at
// most all of them). Three widths timed twice each then cost about 0.4 of
// the run itself, once per tile shape.
inline Index training_columns(Index columns) { return std::min(columns, std::max<Index>(8192, columns / 16)); }

// Seconds of one GPU run of `data` under `plan` (submission to completion).
template <Wavefront W>
double timed_wavefront_run(Runtime& runtime, const W& wavefront, const WavefrontData<W>& data, const WavefrontPlan& plan) {
  WavefrontRun<W> run(runtime, wavefront, data, plan);
  const auto start = std::chrono::steady_clock::now();
  run.submit();
  run.wait();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The width for the GPU tiles of `plan` over `data` (the GPU must run the
// wavefront's tiles: TRAPEZE_CUDA_WAVEFRONT and a CUDA worker).
template <Wavefront W>
HyperTileWidthDecision decide_hyper_tile_width(Runtime& runtime, const W& wavefront, const WavefrontData<W>& data,
                                      const WavefrontPlan& plan, const std::string& app,
                                      const std::filesystem::path& cache_file = MeasurementCache::default_path("hyper_tile_widths.json")) {
  const CudaStencilFunctions* cuda = cuda_functions_of<W>();
  if (cuda == nullptr || cuda->wavefront_geometry == nullptr || runtime.cuda_worker_count() == 0) {
    throw Error("--width auto needs the wavefront on a GPU (TRAPEZE_CUDA_WAVEFRONT and a CUDA worker)");
  }
  const Index rows = std::clamp<Index>(std::min(plan.tile_rows, data.rows), 1, data.rows > 0 ? data.rows : 1);
  const Index columns = std::clamp<Index>(std::min(plan.tile_columns, data.columns), 1, data.columns > 0 ? data.columns : 1);
  auto geometry = [&](Index cols) { return [&, cols](int w) { return cuda->wavefront_geometry(rows, cols, w); }; };
  HyperTileWidthDecision decision;
  if (data.rows == 0 || data.columns == 0) return decision;
  const std::string key = gpu_device_name() + "/" + app + "/" + std::to_string(rows) + "x" + std::to_string(columns);
  decision.costs = cached_hyper_tile_costs(
      cache_file, key,
      [&] {
        // The space's first columns, all of the tile's rows.
        const Index train = training_columns(columns);
        WavefrontData<W> slice;
        slice.rows = rows;
        slice.columns = train;
        if (!data.row_inputs.empty()) slice.row_inputs = data.row_inputs.first(static_cast<std::size_t>(rows));
        if (!data.column_inputs.empty()) slice.column_inputs = data.column_inputs.first(static_cast<std::size_t>(train));
        std::vector<cell_input_of<W>> cells;
        if (!data.cell_inputs.empty()) {
          cells.resize(static_cast<std::size_t>(rows * train));
          for (Index i = 0; i < rows; ++i) {
            std::copy_n(data.cell_inputs.begin() + i * data.columns, train, cells.begin() + i * train);
          }
          slice.cell_inputs = cells;
        }
        std::vector<typename W::value_type> output(data.output.empty() ? 0 : static_cast<std::size_t>(rows * train));
        if (!output.empty()) slice.output = output;
        WavefrontPlan p = plan;
        p.tile_rows = rows;
        p.tile_columns = train;
        p.devices = StageDevices::gpu;
        p.distribute = false;  // each process trains its own GPU, also under MPI
        timed_wavefront_run(runtime, wavefront, slice, p);  // warm-up: modules, scratch pools
        std::vector<WidthSample> samples;
        for (int w : trained_widths) {
          p.hyper_tile_width = w;
          const double seconds = std::min(timed_wavefront_run(runtime, wavefront, slice, p),
                                          timed_wavefront_run(runtime, wavefront, slice, p));
          samples.push_back({cuda->wavefront_geometry(rows, train, w), w, seconds});
        }
        return fit_hyper_tile_costs(samples);
      },
      decision.trained);
  decision.width = optimal_hyper_tile_width(decision.costs, geometry(columns), narrowest_width, widest_width);
  return decision;
}

}  // namespace trapeze
