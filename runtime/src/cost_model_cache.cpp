#include "trapeze/cost_model_cache.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <utility>

#include "json_file.hpp"
#include "trapeze/error.hpp"

namespace trapeze {

namespace {

constexpr int format_version = 2;  // 2: bandwidth from a stencil-like stream, build per entry

std::optional<double> finite_non_negative(const nlohmann::json& entry, const char* name) {
  if (!entry.contains(name) || !entry[name].is_number()) return std::nullopt;
  const double v = entry[name].get<double>();
  if (!std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

}  // namespace

CostModelCache::CostModelCache(std::filesystem::path file, std::string machine, std::string build)
    : file_(std::move(file)), machine_(std::move(machine)), build_(std::move(build)) {}

std::filesystem::path CostModelCache::default_path() {
  if (const char* home = std::getenv("TRAPEZE_HOME"); home && *home) return std::filesystem::path(home) / "height_models.json";
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "trapeze" / "height_models.json";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "trapeze" / "height_models.json";
}

std::optional<CostModel> CostModelCache::find(const std::string& key) const {
  const nlohmann::json entries = read_cache_entries(file_, format_version, &machine_);
  if (!entries.contains(key) || !entries[key].is_object()) return std::nullopt;
  const nlohmann::json& e = entries[key];
  if (!e.contains("build") || e["build"] != build_) return std::nullopt;
  const auto task = finite_non_negative(e, "seconds_per_task"), cell = finite_non_negative(e, "seconds_per_cell"),
             ghost = finite_non_negative(e, "seconds_per_ghost_cell");
  if (!task || !cell || !ghost || *cell <= 0) return std::nullopt;
  if (!e.contains("bandwidth") || !e["bandwidth"].is_array() || e["bandwidth"].empty()) return std::nullopt;
  CostModel model{*task, *cell, *ghost, {}};
  for (const nlohmann::json& point : e["bandwidth"]) {
    if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number()) return std::nullopt;
    const double bytes = point[0].get<double>(), rate = point[1].get<double>();
    if (!std::isfinite(bytes) || !std::isfinite(rate) || bytes <= 0 || rate <= 0) return std::nullopt;
    if (!model.bandwidth.points.empty() && bytes <= model.bandwidth.points.back().working_set_bytes) return std::nullopt;
    model.bandwidth.points.push_back({bytes, rate});
  }
  return model;
}

void CostModelCache::store(const std::string& key, const CostModel& m) const {
  nlohmann::json entries = read_cache_entries(file_, format_version, &machine_);
  nlohmann::json bandwidth = nlohmann::json::array();
  for (const auto& point : m.bandwidth.points) bandwidth.push_back({point.working_set_bytes, point.bytes_per_second});
  entries[key] = {{"build", build_},
                  {"seconds_per_task", m.seconds_per_task},
                  {"seconds_per_cell", m.seconds_per_cell},
                  {"seconds_per_ghost_cell", m.seconds_per_ghost_cell},
                  {"bandwidth", bandwidth}};
  write_cache_entries(file_, format_version, &machine_, entries, "height model cache");
}

}  // namespace trapeze
