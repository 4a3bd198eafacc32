#pragma once
// Rodinia's text formats: one value per line in, "index<TAB>value" lines out.
// Every write goes to a temporary file renamed into place, so an error never
// leaves a half-written output.
#include <functional>
#include <string>
#include <vector>

namespace apps {

// Reads exactly `expected` numbers, one per line; throws trapeze::Error naming the
// file and the line when it is missing, malformed, short or too long.
std::vector<double> read_values(const std::string& path, long expected, const std::string& what);

// Writes through `fill` into path.tmp, then renames; removes the temporary on error.
void write_atomically(const std::string& path, const std::function<void(std::FILE*)>& fill);

// Fails early (before any compute) when `path` cannot be created.
void check_writable(const std::string& path);

}  // namespace apps
