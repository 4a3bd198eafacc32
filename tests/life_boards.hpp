#pragma once
// Random Life boards of byte cells and the byte-cell game's result on them
// (the sequential reference): what the packed Life stencils (32 cells a
// word, four byte cells a word) are checked against.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "stencils/life.hpp"
#include "trapeze/boundary.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/reference.hpp"

namespace tests {

inline std::vector<std::uint8_t> random_life_cells(long width, long height, std::uint64_t seed, double density) {
  std::mt19937_64 engine(seed);
  std::bernoulli_distribution is_alive(density);
  std::vector<std::uint8_t> cells(static_cast<std::size_t>(width * height));
  for (auto& c : cells) c = is_alive(engine);
  return cells;
}

// The byte-cell game after `steps`, by the sequential reference.
inline std::vector<std::uint8_t> life_cells_after(const std::vector<std::uint8_t>& start, long width, long height,
                                                  const trapeze::Boundary& boundary, trapeze::Index steps) {
  trapeze::Grid<std::uint8_t> grid({width, height, 1}, 2, 1, 0, 1, boundary);
  std::copy(start.begin(), start.end(), grid.updated().begin());
  trapeze::reference::advance(apps::Life{}, grid, steps);
  return {grid.updated().begin(), grid.updated().end()};
}

}  // namespace tests
