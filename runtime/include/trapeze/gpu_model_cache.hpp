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
