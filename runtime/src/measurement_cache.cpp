#include "trapeze/measurement_cache.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <utility>

#include "json_file.hpp"
#include "trapeze/cost_model_cache.hpp"

namespace trapeze {

namespace {

constexpr int format_version = 1;

}  // namespace

MeasurementCache::MeasurementCache(std::filesystem::path file, std::string machine, std::string build)
    : file_(std::move(file)), machine_(std::move(machine)), build_(std::move(build)) {}

std::filesystem::path MeasurementCache::default_path(const std::string& name) {
  return CostModelCache::default_path().parent_path() / name;
}

std::optional<MeasurementCache::Values> MeasurementCache::find(const std::string& key,
                                                               std::initializer_list<const char*> names) const {
  const nlohmann::json entries = read_cache_entries(file_, format_version, &machine_);
  if (!entries.contains(key) || !entries[key].is_object()) return std::nullopt;
  const nlohmann::json& e = entries[key];
  if (!e.contains("build") || e["build"] != build_) return std::nullopt;
  Values values;
  for (const char* name : names) {
    if (!e.contains(name) || !e[name].is_number()) return std::nullopt;
    const double v = e[name].get<double>();
    if (!std::isfinite(v)) return std::nullopt;
    values[name] = v;
  }
  return values;
}

void MeasurementCache::store(const std::string& key, const Values& values) const {
  nlohmann::json entries = read_cache_entries(file_, format_version, &machine_);
  nlohmann::json entry = {{"build", build_}};
  for (const auto& [name, value] : values) entry[name] = value;
  entries[key] = entry;
  write_cache_entries(file_, format_version, &machine_, entries, "measurement cache");
}

}  // namespace trapeze
