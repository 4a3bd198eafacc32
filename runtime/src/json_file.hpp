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

}  // namespace trapeze
