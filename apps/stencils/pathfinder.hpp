#pragma once
// Rodinia PathFinder: dynamic programming down a grid of weights; each row's
// cost is its weight plus the minimum of the three cells above. The state is
// one row; step t adds wall row t+1, a time-varying read-only field.
#include <cstdint>

#include "trapeze/stencil.hpp"

namespace apps {

struct Pathfinder {
  using value_type = std::int32_t;
  static constexpr int dims = 1;
  static constexpr trapeze::StencilShape shape{{1, 0, 0}, trapeze::ShapeKind::star};
  static constexpr int constant_fields = 1;  // the wall, one plane per step

  TRAPEZE_HOST_DEVICE std::int32_t operator()(const trapeze::Neighbourhood<std::int32_t>& at) const {
    const std::int32_t left = at(-1), centre = at(0), right = at(1);
    std::int32_t best = centre < left ? centre : left;
    best = right < best ? right : best;
    return at.constant(0) + best;
  }
};

}  // namespace apps
