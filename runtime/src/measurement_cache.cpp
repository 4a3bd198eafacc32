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

nlohmann::json read_entries(const std::filesystem::path& file, const std::string& machine) {
  std::ifstream in(file);
  if (!in) return nlohmann::json::object();
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || doc.value("version", 0) != format_version || !doc.contains("machine") ||
      doc["machine"] != machine || !doc.contains("entries") || !doc["entries"].is_object()) {
    return nlohmann::json::object();
  }
  return doc["entries"];
}

}  // namespace

MeasurementCache::MeasurementCache(std::filesystem::path file, std::string machine, std::string build)
    : file_(std::move(file)), machine_(std::move(machine)), build_(std::move(build)) {}

std::filesystem::path MeasurementCache::default_path(const std::string& name) {
  return CostModelCache::default_path().parent_path() / name;
}

std::optional<MeasurementCache::Values> MeasurementCache::find(const std::string& key,
                                                               std::initializer_list<const char*> names) const {
  const nlohmann::json entries = read_entries(file_, machine_);
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
  nlohmann::json entries = read_entries(file_, machine_);
  nlohmann::json entry = {{"build", build_}};
  for (const auto& [name, value] : values) entry[name] = value;
  entries[key] = entry;
  const nlohmann::json doc = {{"version", format_version}, {"machine", machine_}, {"entries", entries}};
  replace_json_file(file_, doc, "measurement cache");
}

}  // namespace trapeze
