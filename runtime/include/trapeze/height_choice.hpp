#pragma once
// --height auto: the cost model from the cache (or from a one-time profiling
// run, then cached), and the height it predicts fastest for this run's shape.
#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>

#include "trapeze/cost_model_cache.hpp"
#include "trapeze/height_calibration.hpp"
#include "trapeze/height_model.hpp"
#include "trapeze/height_profile.hpp"
#include "trapeze/machine_probe.hpp"
#include "trapeze/measurement_cache.hpp"

namespace trapeze {

template <typename T>
std::string element_type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  else return std::string(std::is_floating_point_v<T> ? "float" : "int") + std::to_string(8 * sizeof(T));
}

struct HeightDecision {
  int height = 1;
  double predicted_seconds_per_step = 0;
  bool profiled = false;  // true when this call ran the profiling (no usable cache entry)
  bool measured = false;  // the height was measured on this shape (now or in an earlier run), not only predicted
  CostModel costs;
};

// `app` names the stencil in the cache (with its element type and worker count).
// Given the run's grid and plan, a domain of measured_height_min_bytes to
// measured_height_max_bytes has its height measured among the model's
// candidates (height_calibration.hpp), once per shape: the cache keeps it
// beside the models.
template <Stencil S>
HeightDecision decide_height(Runtime& runtime, const S& stencil, const std::string& app, const ModelShape& shape,
                             const std::filesystem::path& cache_file = CostModelCache::default_path(),
                             const Grid<typename S::value_type>* grid = nullptr, const Plan* plan = nullptr) {
  const CostModelCache cache(cache_file, machine_fingerprint(), build_identity());
  const std::string key =
      app + "/" + element_type_name<typename S::value_type>() + "/workers=" + std::to_string(shape.workers);
  HeightDecision decision;
  if (auto cached = cache.find(key)) {
    decision.costs = *cached;
  } else {
    decision.costs = profile_cost_model(runtime, stencil);
    decision.profiled = true;
    try {
      cache.store(key, decision.costs);
    } catch (const Error&) {
      // An unwritable cache costs a profiling run next time, nothing more.
    }
  }
  const HeightChoice choice = choose_height(decision.costs, shape);
  decision.height = choice.height;
  decision.predicted_seconds_per_step = choice.predicted_seconds_per_step;
  // A grid with a read-only plane per step (PathFinder's walls) holds only
  // the run's steps: trials would need more. Such grids keep the model.
  if (grid == nullptr || plan == nullptr || grid->is_generated() || grid->constant_planes() > 1 ||
      !heights_measured_from_environment()) {
    return decision;
  }
  const double grid_bytes = static_cast<double>(grid->cells()) * sizeof(typename S::value_type) *
                            static_cast<double>(grid->updated_count() + grid->constant_count() * grid->constant_planes());
  if (grid_bytes < measured_height_min_bytes || grid_bytes > measured_height_max_bytes) return decision;
  const MeasurementCache measured(cache_file.parent_path() / "measured_heights.json", machine_fingerprint(), build_identity());
  const std::string shape_key = measured_height_key(key, shape);
  const auto cached = measured.find(shape_key, {"height"});
  if (cached && cached->at("height") >= 1 && cached->at("height") <= max_useful_height(shape)) {
    decision.height = static_cast<int>(cached->at("height"));
  } else {
    decision.height = measure_best_height(runtime, stencil, *grid, *plan, height_candidates(decision.costs, shape, choice.height),
                                          shape.steps);
    try {
      measured.store(shape_key, {{"height", decision.height}});
    } catch (const Error&) {
      // An unwritable cache costs a measurement next time, nothing more.
    }
  }
  decision.measured = true;
  decision.predicted_seconds_per_step = predict_seconds_per_step(decision.costs, shape, decision.height);
  return decision;
}

}  // namespace trapeze
