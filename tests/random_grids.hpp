#pragma once
// Fresh random inputs for every test run (the seed is printed on failure).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "trapeze/grid.hpp"

namespace tests {

inline std::uint64_t fresh_seed() { return std::random_device{}(); }

template <typename T>
void randomise(trapeze::Grid<T>& grid, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  auto fill = [&](auto& values) {
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<T> pick(T(0), T(1));
      for (T& v : values) v = pick(engine);
    } else if constexpr (sizeof(T) == 1) {
      std::bernoulli_distribution pick(0.35);
      for (T& v : values) v = static_cast<T>(pick(engine));
    } else {
      std::uniform_int_distribution<int> pick(0, 9);
      for (T& v : values) v = static_cast<T>(pick(engine));
    }
  };
  for (int f = 0; f < grid.updated_count(); ++f) fill(grid.updated(f));
  for (int c = 0; c < grid.constant_count(); ++c) fill(grid.constant(c));
}

// CIP's random velocities (its read-only fields) moved from [0, 1) to
// [-0.5, 0.5): both upwind sides, at most half a cell per step.
template <typename T>
void velocities_of_both_signs(trapeze::Grid<T>& grid) {
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (T& v : grid.constant(c)) v -= T(0.5);
  }
}

}  // namespace tests
