#pragma once
// The shape of a stencil: how far a point looks per dimension, and whether it
// reads only along the axes (star) or the whole box (box, e.g. Game of Life).
#include "trapeze/geometry.hpp"

namespace trapeze {

enum class ShapeKind { star, box };

struct StencilShape {
  Extent radius{0, 0, 0};
  ShapeKind kind = ShapeKind::star;
};

// Width of the ghost zone a trapezoid of height h needs: r*h per dimension
// (seed 000, section 3: ghost zone width = HaloWidth * h).
inline constexpr Extent ghost_width(const StencilShape& shape, int height) {
  return {shape.radius[0] * height, shape.radius[1] * height, shape.radius[2] * height};
}

}  // namespace trapeze
