#include "trapeze/gpu_model_cache.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <utility>

#include "trapeze/cost_model_cache.hpp"
#include "json_file.hpp"
#include "trapeze/error.hpp"

namespace trapeze {

namespace {

constexpr int format_version = 1;

bool positive_finite(const nlohmann::json& v) { return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0; }

}  // namespace

std::string gpu_profile_cache_key(const std::string& full_key, long long side, long long full_side) {
  return side >= full_side ? full_key : full_key + "/side " + std::to_string(side);
}

GpuModelCache::GpuModelCache(std::filesystem::path file, std::string build)
    : file_(std::move(file)), build_(std::move(build)) {}

std::filesystem::path GpuModelCache::default_path() {
  return CostModelCache::default_path().parent_path() / "gpu_models.json";
}

std::optional<GpuCostModel> GpuModelCache::find(const std::string& key) const {
  const nlohmann::json entries = read_cache_entries(file_, format_version);
  if (!entries.contains(key) || !entries[key].is_object()) return std::nullopt;
  const nlohmann::json& e = entries[key];
  if (e.value("build", "") != build_) return std::nullopt;
  if (!e.contains("task_seconds") || !positive_finite(e["task_seconds"]) || !e.contains("launch_seconds") ||
      !positive_finite(e["launch_seconds"]) || !e.contains("kernels") || !e["kernels"].is_array() || e["kernels"].empty()) {
    return std::nullopt;
  }
  GpuCostModel model;
  model.task_seconds = e["task_seconds"].get<double>();
  model.launch_seconds = e["launch_seconds"].get<double>();
  for (const nlohmann::json& kernel : e["kernels"]) {
    if (!kernel.is_array() || kernel.size() != 2 || !kernel[0].is_number_integer() || !positive_finite(kernel[1])) {
      return std::nullopt;
    }
    const int k = kernel[0].get<int>();
    if (k < 1 || (!model.kernels.empty() && k <= model.kernels.back().k) || kernel[1].get<double>() <= 0) return std::nullopt;
    model.kernels.push_back({k, kernel[1].get<double>()});
  }
  return model;
}

void GpuModelCache::store(const std::string& key, const GpuCostModel& m) const {
  nlohmann::json entries = read_cache_entries(file_, format_version);
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : m.kernels) kernels.push_back({k.k, k.cell_seconds});
  entries[key] = {{"build", build_}, {"task_seconds", m.task_seconds}, {"launch_seconds", m.launch_seconds},
                  {"kernels", kernels}};
  write_cache_entries(file_, format_version, nullptr, entries, "GPU model cache");
}

}  // namespace trapeze
