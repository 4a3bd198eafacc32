#include "text_io.hpp"

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "trapeze/error.hpp"

namespace apps {

std::vector<double> read_values(const std::string& path, long expected, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw trapeze::Error("cannot open " + what + " file '" + path + "': " + std::strerror(errno));
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(expected));
  std::string line;
  long line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;  // blank lines carry nothing
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(line.c_str() + first, &end);
    const bool rest_blank = end && std::string(end).find_first_not_of(" \t\r") == std::string::npos;
    if (end == line.c_str() + first || !rest_blank || errno == ERANGE) {
      throw trapeze::Error(what + " file '" + path + "' line " + std::to_string(line_number) +
                           ": expected one number, got '" + trapeze::quoted(line) + "'");
    }
    if (!std::isfinite(v)) {
      throw trapeze::Error(what + " file '" + path + "' line " + std::to_string(line_number) +
                           ": expected a finite number, got '" + trapeze::quoted(line) + "'");
    }
    if (static_cast<long>(values.size()) == expected) {
      throw trapeze::Error(what + " file '" + path + "' has more than the " + std::to_string(expected) +
                           " values the grid size needs; does --size match the file?");
    }
    values.push_back(v);
  }
  if (static_cast<long>(values.size()) != expected) {
    throw trapeze::Error(what + " file '" + path + "' has " + std::to_string(values.size()) + " values, expected " +
                         std::to_string(expected) + " (truncated, or --size does not match the file)");
  }
  return values;
}

void write_atomically(const std::string& path, const std::function<void(std::FILE*)>& fill) {
  const std::string temporary = path + ".tmp";
  std::FILE* f = std::fopen(temporary.c_str(), "w");
  if (!f) throw trapeze::Error("cannot write '" + path + "': " + std::strerror(errno));
  try {
    fill(f);
  } catch (...) {
    std::fclose(f);
    std::remove(temporary.c_str());
    throw;
  }
  const bool failed = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || failed) {
    std::remove(temporary.c_str());
    throw trapeze::Error("writing '" + path + "' failed: " + std::strerror(errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw trapeze::Error("cannot rename onto '" + path + "': " + std::strerror(errno));
  }
}

void check_writable(const std::string& path) {
  if (path.empty()) return;
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw trapeze::InvalidArgument("cannot write '" + path + "': it is a directory; name a file");
  }
  const std::string probe = path + ".tmp";
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) throw trapeze::Error("cannot write '" + path + "': " + std::strerror(errno));
  std::fclose(f);
  std::remove(probe.c_str());
}

}  // namespace apps
