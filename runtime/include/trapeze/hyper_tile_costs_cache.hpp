#pragma once
// The two constants of seed 004's width model (d and tau_s,
// hyper_tile_width_model.hpp) for one key: from the measurement cache, or
// from `train` and then stored. What the wavefront and the in-place sweep
// width choices (hyper_tile_width_choice.hpp, sweep_width_choice.hpp) share.
#include <filesystem>
#include <string>

#include "trapeze/error.hpp"
#include "trapeze/hyper_tile_width_model.hpp"
#include "trapeze/machine_probe.hpp"
#include "trapeze/measurement_cache.hpp"

namespace trapeze {

// What a --width auto choice decided, for the wavefront and the sweep alike.
struct HyperTileWidthDecision {
  int width = 32;
  bool trained = false;  // this call ran the training (no usable cache entry)
  HyperTileCosts costs;
};

// `trained` says whether `train` ran (no usable cache entry).
template <typename Train>
HyperTileCosts cached_hyper_tile_costs(const std::filesystem::path& cache_file, const std::string& key, Train train,
                                       bool& trained) {
  const MeasurementCache cache(cache_file, machine_fingerprint(), build_identity());
  if (auto cached = cache.find(key, {"column_seconds", "sync_seconds"});
      cached && cached->at("column_seconds") >= 0 && cached->at("sync_seconds") >= 0) {
    trained = false;
    return {cached->at("column_seconds"), cached->at("sync_seconds")};
  }
  const HyperTileCosts costs = train();
  trained = true;
  try {
    cache.store(key, {{"column_seconds", costs.column_seconds}, {"sync_seconds", costs.sync_seconds}});
  } catch (const Error&) {
    // An unwritable cache costs a training run next time, nothing more.
  }
  return costs;
}

}  // namespace trapeze
