#pragma once
// Values a model measured for one key (a run shape's best height, a GPU's
// hyper-tile costs), kept on disk beside the cost models in $TRAPEZE_HOME, so
// each is measured once per machine and build. Like the model caches: a file
// from another machine, an entry from another build, or anything that does
// not parse is ignored and rewritten, never trusted.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace trapeze {

class MeasurementCache {
 public:
  using Values = std::map<std::string, double>;

  MeasurementCache(std::filesystem::path file, std::string machine, std::string build);
  // `name` in the directory of the cost models (CostModelCache::default_path()).
  static std::filesystem::path default_path(const std::string& name);

  // The entry's values if it has every name in `names`, each finite.
  std::optional<Values> find(const std::string& key, std::initializer_list<const char*> names) const;
  // Adds or replaces one entry; the file is replaced atomically.
  void store(const std::string& key, const Values& values) const;

 private:
  std::filesystem::path file_;
  std::string machine_;
  std::string build_;
};

}  // namespace trapeze
