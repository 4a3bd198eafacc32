#pragma once
// Profiled cost models kept on disk, like StarPU keeps its performance models,
// so the height model profiles once per machine, app and element type. The
// file records the machine it was measured on and each entry the build of the
// program that measured it; a file from another machine, an entry from another
// build, or anything that does not parse is ignored and rewritten, never trusted.
#include <filesystem>
#include <optional>
#include <string>

#include "trapeze/height_model.hpp"

namespace trapeze {

class CostModelCache {
 public:
  CostModelCache(std::filesystem::path file, std::string machine, std::string build);

  // $TRAPEZE_HOME/height_models.json, else $XDG_CACHE_HOME/trapeze/..., else ~/.cache/trapeze/...
  static std::filesystem::path default_path();

  std::optional<CostModel> find(const std::string& key) const;
  // Adds or replaces one entry; the file is replaced atomically.
  void store(const std::string& key, const CostModel& model) const;
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::string machine_;
  std::string build_;
};

}  // namespace trapeze
