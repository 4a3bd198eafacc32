#pragma once
// Conway's Game of Life on uint8_t cells (1 alive, 0 dead), the 3x3 box.
#include <cstdint>

#include "trapeze/stencil.hpp"

namespace apps {

struct Life {
  using value_type = std::uint8_t;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::box};
  TRAPEZE_HOST_DEVICE std::uint8_t operator()(const trapeze::Neighbourhood<std::uint8_t>& at) const {
    const int alive = at(-1, -1) + at(0, -1) + at(1, -1) + at(-1, 0) + at(1, 0) + at(-1, 1) + at(0, 1) + at(1, 1);
    // Bitwise, not short-circuit: no branch, so the row loop vectorises.
    return static_cast<std::uint8_t>((alive == 3) | ((alive == 2) & (at(0, 0) != 0)));
  }
};

}  // namespace apps
