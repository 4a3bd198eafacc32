#pragma once
// Writes a JSON document over a file atomically (a temporary file in the same
// directory, then a rename), so a reader never sees half a cache. Throws
// trapeze::Error naming `what` and the file when it cannot.
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "trapeze/error.hpp"

namespace trapeze {

inline void replace_json_file(const std::filesystem::path& file, const nlohmann::json& doc, const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  // One temporary per process: MPI ranks on one node update the same cache at once.
  const std::filesystem::path temporary = file.string() + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary);
    out << doc.dump(2) << '\n';
    if (!out) {
      std::filesystem::remove(temporary, ec);
      throw Error("cannot write the " + what + " '" + file.string() + "'");
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) throw Error("cannot write the " + what + " '" + file.string() + "': " + ec.message());
}

// The entries of a model cache file ({"version", "machine"?, "entries"}) if
// it exists, parses, has `version` and, when `machine` is given, that
// machine; an empty object otherwise (the caller then measures again).
inline nlohmann::json read_cache_entries(const std::filesystem::path& file, int version, const std::string* machine = nullptr) {
  std::ifstream in(file);
  if (!in) return nlohmann::json::object();
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || doc.value("version", 0) != version || !doc.contains("entries") || !doc["entries"].is_object()) {
    return nlohmann::json::object();
  }
  if (machine != nullptr && (!doc.contains("machine") || doc["machine"] != *machine)) return nlohmann::json::object();
  return doc["entries"];
}

// Writes `entries` back as such a file, atomically.
inline void write_cache_entries(const std::filesystem::path& file, int version, const std::string* machine,
                                const nlohmann::json& entries, const std::string& what) {
  nlohmann::json doc = {{"version", version}, {"entries", entries}};
  if (machine != nullptr) doc["machine"] = *machine;
  replace_json_file(file, doc, what);
}

}  // namespace trapeze
