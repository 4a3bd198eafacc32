#pragma once
// Small helpers the apps share: random initial fields, and a field written as
// Rodinia's "index<TAB>value" lines or turned into doubles for a picture.
#include <fmt/core.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "text_io.hpp"

namespace apps {

// `Values` is a std::vector or a grid's FieldBuffer.
template <typename Values>
void fill_random(Values& values, std::uint64_t seed, double lo, double hi) {
  using T = typename Values::value_type;
  std::mt19937_64 engine(seed);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> pick(static_cast<T>(lo), static_cast<T>(hi));
    for (T& v : values) v = pick(engine);
  } else {
    std::uniform_int_distribution<long> pick(static_cast<long>(lo), static_cast<long>(hi));
    for (T& v : values) v = static_cast<T>(pick(engine));
  }
}

template <typename Values>
void write_indexed(const std::string& path, const Values& values) {
  write_atomically(path, [&](std::FILE* f) {
    for (std::size_t i = 0; i < values.size(); ++i) fmt::print(f, "{}\t{}\n", i, +values[i]);
  });
}

template <typename Values>
std::vector<double> as_doubles(const Values& values) {
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace apps
