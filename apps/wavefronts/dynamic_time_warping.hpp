#pragma once
// Dynamic time warping of two series: D(i, j) = |a_i - b_j| + min(D(i-1, j),
// D(i, j-1), D(i-1, j-1)), with D(-1, -1) = 0 and the rest of row and column
// -1 infinite, so every warping path starts at (0, 0). The distance is the
// last cell. Every order of the tiles adds and compares the same values in
// the same order, so the result equals the sequential one bit for bit.
#include <array>
#include <limits>

#include "trapeze/wavefront.hpp"

namespace apps {

struct DynamicTimeWarping {
  using value_type = double;
  using row_input_type = double;
  using column_input_type = double;
  static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};

  TRAPEZE_HOST_DEVICE double boundary(trapeze::Index i, trapeze::Index j) const {
    return i < 0 && j < 0 ? 0.0 : std::numeric_limits<double>::infinity();
  }
  TRAPEZE_HOST_DEVICE double operator()(const trapeze::WavefrontNeighbours<double>& at, double a, double b,
                                        trapeze::NoInput) const {
    const double cost = a > b ? a - b : b - a;
    const double best = at.up < at.left ? at.up : at.left;
    return cost + (at.up_left < best ? at.up_left : best);
  }
};

}  // namespace apps
