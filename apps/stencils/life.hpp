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
    // The count (at most 8) in a byte on CPUs, so the row loop adds 32 cells
    // a vector instruction instead of widening them to 32 bits; in 32 bits
    // on GPUs, whose registers are.
#ifdef __CUDA_ARCH__
    using Count = int;
#else
    using Count = std::uint8_t;
#endif
    const Count alive = static_cast<Count>(at(-1, -1) + at(0, -1) + at(1, -1) + at(-1, 0) + at(1, 0) + at(-1, 1) +
                                           at(0, 1) + at(1, 1));
    // Bitwise, not short-circuit: no branch, so the row loop vectorises.
    return static_cast<std::uint8_t>((alive == 3) | ((alive == 2) & (at(0, 0) != 0)));
  }
};

}  // namespace apps
