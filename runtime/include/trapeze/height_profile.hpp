#pragma once
// The one-time profiling run behind the height model (seed 000: "a one-time
// profiling for the target application with a small input size"). A few short
// runs of the real stencil through the real runtime on a small domain, with
// tile counts and heights chosen so that task overhead, computation and ghost
// work each dominate somewhere; a least-squares fit of the model's per-unit
// costs to their measured times; memory bandwidth from a streaming copy.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "trapeze/height_model.hpp"
#include "trapeze/machine_probe.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/tile_store.hpp"  // chunk_slices

namespace trapeze {

struct ProfileSample {
  StageWork work;  // per stage
  Index stages = 0;
  double seconds = 0;
};

// With the cell cost measured in cache and the memory time from the bandwidth
// curve, fits seconds = stages * ((tasks*a + ghost*c) / W + max(cells*b / W, memory))
// for a, c >= 0 (least squares, dropping any term that comes out negative).
CostModel fit_cost_model(const std::vector<ProfileSample>& samples, int workers, double seconds_per_cell,
                         const BandwidthCurve& bandwidth);

// Seconds per cell update of the stencil's point function on one core, data in
// cache: the sweep kernel itself, timed without tasks or memory traffic.
template <Stencil S>
double measure_cell_seconds(const S& stencil) {
  using T = typename S::value_type;
  // About 128 KiB per field: in any core's L2, with the chunk buffers.
  TileLayout layout;
  layout.dims = S::dims;
  const Index side = S::dims == 1 ? 16384 / static_cast<Index>(sizeof(T)) * 2
                                  : S::dims == 2 ? 180 : 32;
  for (int d = 0; d < S::dims; ++d) layout.padded[d] = side;
  layout.tile = Box{{0, 0, 0}, layout.padded};
  layout.domain = layout.padded;
  layout.radius = S::shape.radius;
  layout.updated_fields = updated_fields_of<S>;
  // Chunks of 4 slices, except in 1-D, where a slice is a cell: 4-cell
  // chunks made the chunk's own overhead most of the time, and PathFinder's
  // cell cost came out 6x a run's, whose 1-D tiles take 128 KiB chunks
  // (trapeze/tile_store.hpp; docs/PERF.md, session 38). A 1-D probe takes a
  // run's chunk. In 2-D and 3-D a run's chunk moved jacobi3d's far height from
  // 2 to 1, which ran slower, so there the probe keeps 4 slices.
  const Index radius = S::shape.radius[S::dims - 1];
  layout.chunk_thickness = S::dims == 1 ? chunk_slices(static_cast<Index>(sizeof(T)) * updated_fields_of<S>, radius, side)
                                        : std::max<Index>(4, radius);
  const Index cells = cell_count(layout.padded);
  std::vector<T> a(static_cast<std::size_t>(updated_fields_of<S> * cells));
  std::vector<T> chunks(static_cast<std::size_t>(layout.chunk_cells()));
  std::vector<T> constants(static_cast<std::size_t>(std::max(1, constant_fields_of<S>) * cells));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(i % 2);
  for (std::size_t i = 0; i < constants.size(); ++i) constants[i] = static_cast<T>(i % 3);
  Box region{{0, 0, 0}, layout.padded};
  for (int d = 0; d < S::dims; ++d) region.lo[d] = S::shape.radius[d], region.hi[d] = layout.padded[d] - S::shape.radius[d];
  const double region_cells = static_cast<double>(region.cells());
  const T* c = constant_fields_of<S> > 0 ? constants.data() : nullptr;
  double best = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < 5; ++trial) {
    constexpr int sweeps = 40;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < sweeps; ++k) sweep_in_place(stencil, a.data(), c, cells, layout, region, k, chunks.data());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, seconds / (sweeps * region_cells));
  }
  return best;
}

template <Stencil S>
ModelShape model_shape(const Extent& domain, const Extent& tile, BoundaryKind boundary, TrapezoidMode mode,
                       int workers) {
  ModelShape shape;
  shape.domain = domain;
  shape.dims = S::dims;
  shape.tile = tile;
  shape.radius = S::shape.radius;
  shape.boundary = boundary;
  shape.mode = mode;
  shape.element_bytes = static_cast<int>(sizeof(typename S::value_type));
  shape.updated_fields = updated_fields_of<S>;
  shape.constant_fields = constant_fields_of<S>;
  shape.workers = workers;
  return shape;
}

template <Stencil S>
CostModel profile_cost_model(Runtime& runtime, const S& stencil) {
  using T = typename S::value_type;
  // About a million cells: seconds of work in total, yet large enough that
  // tiles come in every size from cache-resident to streaming.
  Extent domain{1, 1, 1};
  const Index side = S::dims == 1 ? Index{1} << 20 : S::dims == 2 ? 1024 : 96;
  for (int d = 0; d < S::dims; ++d) domain[d] = side;
  struct Config {
    Index tiles;
    int height;
    Index steps;
  };
  const Config configs[] = {{4, 1, 16}, {16, 2, 16}, {64, 4, 16}, {64, 8, 16}, {256, 1, 8}, {1024, 1, 4}};
  const int workers = runtime.worker_count();
  const BandwidthCurve bandwidth = measure_bandwidth_curve(workers);
  std::vector<ProfileSample> samples;
  Grid<T> grid(domain, S::dims, updated_fields_of<S>, constant_fields_of<S>, 1, Boundary::clamp());
  for (int f = 0; f < grid.updated_count(); ++f) {
    for (std::size_t i = 0; i < grid.updated(f).size(); ++i) grid.updated(f)[i] = static_cast<T>(i % 7);
  }
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (std::size_t i = 0; i < grid.constant(c).size(); ++i) grid.constant(c)[i] = static_cast<T>(i % 3);
  }
  for (const Config& config : configs) {
    // The same number of cuts in every dimension, about the wanted tile count in all.
    const auto cuts = static_cast<Index>(std::lround(std::pow(static_cast<double>(config.tiles), 1.0 / S::dims)));
    Extent tile = domain;
    for (int d = 0; d < S::dims; ++d) tile[d] = (domain[d] + cuts - 1) / cuts;
    // The CPU model profiles CPU workers, whatever else the machine has.
    // Each process profiles by itself, also under MPI.
    Plan plan{tile, config.height, TrapezoidMode::shrink, 1, StageDevices::cpu};
    plan.distribute = false;
    // The median of five: a slow spell of a shared machine falls on one or two.
    std::vector<double> times;
    for (int repeat = 0; repeat < 5; ++repeat) {
      StencilRun<S> run(runtime, stencil, grid, plan);
      const auto start = std::chrono::steady_clock::now();
      run.submit(config.steps);
      run.wait();
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    const ModelShape shape = model_shape<S>(domain, tile, BoundaryKind::clamp, TrapezoidMode::shrink, workers);
    samples.push_back({stage_work(shape, config.height, bandwidth), config.steps / config.height, times[2]});
  }
  return fit_cost_model(samples, workers, measure_cell_seconds(stencil), bandwidth);
}

}  // namespace trapeze
