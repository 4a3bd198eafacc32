#pragma once
// Summed-area table: S(i, j) = I(i, j) + S(i-1, j) + S(i, j-1) - S(i-1, j-1),
// the sum of the image over the rectangle from (0, 0) to (i, j). Integers, so
// every tiling gives exactly the sequential sums (unsigned arithmetic wraps
// the same way in every order, should an image ever overflow 64 bits).
#include <array>
#include <cstdint>

#include "trapeze/wavefront.hpp"

namespace apps {

struct SummedAreaTable {
  using value_type = std::uint64_t;
  using cell_input_type = std::uint32_t;
  static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};

  TRAPEZE_HOST_DEVICE std::uint64_t boundary(trapeze::Index, trapeze::Index) const { return 0; }
  TRAPEZE_HOST_DEVICE std::uint64_t operator()(const trapeze::WavefrontNeighbours<std::uint64_t>& at,
                                               trapeze::NoInput, trapeze::NoInput, std::uint32_t pixel) const {
    return pixel + at.up + at.left - at.up_left;
  }
};

}  // namespace apps
