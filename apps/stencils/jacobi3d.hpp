#pragma once
// 7-point Jacobi relaxation in 3-D.
#include "trapeze/stencil.hpp"

namespace apps {

template <typename T>
struct Jacobi3D {
  using value_type = T;
  static constexpr int dims = 3;
  static constexpr trapeze::StencilShape shape{{1, 1, 1}, trapeze::ShapeKind::star};
  TRAPEZE_HOST_DEVICE T operator()(const trapeze::Neighbourhood<T>& at) const {
    return (T(1) / T(7)) *
           (at(0, 0, 0) + at(-1, 0, 0) + at(1, 0, 0) + at(0, -1, 0) + at(0, 1, 0) + at(0, 0, -1) + at(0, 0, 1));
  }
};

}  // namespace apps
