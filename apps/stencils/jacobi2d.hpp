#pragma once
// 5-point Jacobi relaxation in 2-D.
#include "trapeze/stencil.hpp"

namespace apps {

template <typename T>
struct Jacobi2D {
  using value_type = T;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::star};
  TRAPEZE_HOST_DEVICE T operator()(const trapeze::Neighbourhood<T>& at) const {
    return T(0.2) * (at(0, 0) + at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1));
  }
};

}  // namespace apps
