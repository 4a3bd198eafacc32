#include "rodinia_wall.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include "text_io.hpp"
#include "trapeze/error.hpp"

namespace apps {

Wall rodinia_wall(trapeze::Index cols, trapeze::Index rows) {
  if (cols <= 0 || rows <= 0) {
    throw trapeze::InvalidArgument("a Rodinia wall needs cols and rows > 0, got " + std::to_string(cols) + "x" +
                                   std::to_string(rows));
  }
  Wall wall{cols, rows, std::vector<std::int32_t>(static_cast<std::size_t>(cols * rows))};
  // Rodinia's generator is the C library's: std::srand/std::rand are that
  // generator, and this is the only place an app touches its state.
  std::srand(9);
  for (std::int32_t& v : wall.values) v = static_cast<std::int32_t>(std::rand() % 10);
  return wall;
}

namespace {

// The row's integers; an error names the file, the line and the token.
void parse_row(const std::string& path, long line_number, const std::string& line, std::vector<std::int32_t>& out) {
  const char* p = line.data();
  const char* end = p + line.size();
  while (true) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (p == end) return;
    const char* token_end = p;
    while (token_end < end && *token_end != ' ' && *token_end != '\t' && *token_end != '\r') ++token_end;
    std::int64_t value = 0;
    const auto [stop, ec] = std::from_chars(p, token_end, value);
    if (ec != std::errc() || stop != token_end || value < 0 || value > std::numeric_limits<std::int32_t>::max()) {
      throw trapeze::Error("wall file '" + trapeze::quoted(path) + "' line " + std::to_string(line_number) +
                           ": expected whole numbers >= 0, got '" + trapeze::quoted(std::string(p, token_end)) + "'");
    }
    out.push_back(static_cast<std::int32_t>(value));
    p = token_end;
  }
}

}  // namespace

Wall read_wall(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw trapeze::Error("cannot open wall file '" + trapeze::quoted(path) + "': " + std::strerror(errno));
  Wall wall;
  std::string line;
  long line_number = 0;
  std::int64_t largest = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::size_t before = wall.values.size();
    parse_row(path, line_number, line, wall.values);
    const auto in_row = static_cast<trapeze::Index>(wall.values.size() - before);
    if (in_row == 0) continue;  // blank lines carry nothing
    if (wall.rows == 0) wall.cols = in_row;
    if (in_row != wall.cols) {
      throw trapeze::Error("wall file '" + trapeze::quoted(path) + "' line " + std::to_string(line_number) + " has " +
                           std::to_string(in_row) + " values, the first row " + std::to_string(wall.cols) +
                           " (rows must have equal lengths)");
    }
    for (std::size_t i = before; i < wall.values.size(); ++i) largest = std::max<std::int64_t>(largest, wall.values[i]);
    ++wall.rows;
  }
  if (wall.rows == 0) throw trapeze::Error("wall file '" + trapeze::quoted(path) + "' holds no values");
  // A path's cost is the sum of one weight per row, kept in 32 bits.
  if (largest * wall.rows > std::numeric_limits<std::int32_t>::max()) {
    throw trapeze::Error("wall file '" + trapeze::quoted(path) + "': weights up to " + std::to_string(largest) +
                         " over " + std::to_string(wall.rows) + " rows could pass 32-bit path costs");
  }
  return wall;
}

void write_wall(const std::string& path, const Wall& wall) {
  write_atomically(path, [&](std::FILE* f) {
    for (trapeze::Index r = 0; r < wall.rows; ++r) {
      for (trapeze::Index c = 0; c < wall.cols; ++c) fmt::print(f, "{} ", wall.values[static_cast<std::size_t>(r * wall.cols + c)]);
      fmt::print(f, "\n");
    }
  });
}

void write_rodinia_result(const std::string& path, const std::int32_t* first_row, const std::int32_t* costs,
                          trapeze::Index cols) {
  write_atomically(path, [&](std::FILE* f) {
    for (const std::int32_t* row : {first_row, costs}) {
      for (trapeze::Index c = 0; c < cols; ++c) fmt::print(f, "{} ", row[c]);
      fmt::print(f, "\n");
    }
  });
}

}  // namespace apps
