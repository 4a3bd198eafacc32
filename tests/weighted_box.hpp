#pragma once
// A box stencil of any radius in 2-D with integer weights, for the GPU
// equality tests: it exercises the box kernels' windows beyond Life's 3x3,
// and unsigned arithmetic wraps exactly alike on CPU and GPU, so results
// compare bit for bit.
#include <cstdint>

#include "trapeze/stencil.hpp"

namespace tests {

template <int RadiusX, int RadiusY>
struct WeightedBox {
  using value_type = std::uint32_t;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{RadiusX, RadiusY, 0}, trapeze::ShapeKind::box};
  TRAPEZE_HOST_DEVICE std::uint32_t operator()(const trapeze::Neighbourhood<std::uint32_t>& at) const {
    std::uint32_t sum = 0;
    for (int dy = -RadiusY; dy <= RadiusY; ++dy) {
      for (int dx = -RadiusX; dx <= RadiusX; ++dx) {
        sum += at(dx, dy) * static_cast<std::uint32_t>(3 + (dx + RadiusX) + 7 * (dy + RadiusY));
      }
    }
    return sum ^ (sum >> 7);  // every neighbour's bits spread over the cell's
  }
};

}  // namespace tests
