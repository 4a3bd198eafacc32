#pragma once
// Profiled GPU cost models kept on disk beside the CPU ones
// ($TRAPEZE_HOME/gpu_models.json), keyed by device name, stencil and element
// type, each entry stamped with the build that measured it; anything that
// does not parse, or comes from another build, is ignored and re-profiled.
#include <filesystem>
#include <optional>
#include <string>

#include "trapeze/gpu_height_model.hpp"

namespace trapeze {

// A profile made under a small STARPU_LIMIT_CUDA_MEM fills the GPU with a
// smaller tile, whose launches leave it part idle and rank the kernel heights
// wrongly: cached under the device's own key, it steered later runs without a
// cap too (jacobi2d 16384^2 in core chose H 7, k 1 after a capped --verify
// run had profiled, 0.61 of its usual speed on an H200, docs/PERF.md
// 2026-11-28). Such a profile gets a key of its own, naming its side; a run
// under a cap still takes the full profile where one is cached.
std::string gpu_profile_cache_key(const std::string& full_key, long long side, long long full_side);

class GpuModelCache {
 public:
  GpuModelCache(std::filesystem::path file, std::string build);
  static std::filesystem::path default_path();

  std::optional<GpuCostModel> find(const std::string& key) const;
  void store(const std::string& key, const GpuCostModel& model) const;

 private:
  std::filesystem::path file_;
  std::string build_;
};

}  // namespace trapeze
