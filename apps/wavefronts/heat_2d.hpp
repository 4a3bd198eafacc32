#pragma once
// Seed 004's Heat2D: each cell becomes the average of its four neighbours,
// in place and in row-major order (Gauss-Seidel), so the up and left
// neighbours are already this sweep's:
//   A[i, j] = (A[i-1, j] + A[i, j-1] + A[i+1, j]'' + A[i, j+1]'') / 4.
// The plate's top edge is held at `hot`, its other edges at `cold`.
#include "trapeze/sweep.hpp"

namespace apps {

struct Heat2D {
  using value_type = double;
  double hot = 100.0;
  double cold = 0.0;

  TRAPEZE_HOST_DEVICE double boundary(trapeze::Index i, trapeze::Index) const { return i < 0 ? hot : cold; }
  TRAPEZE_HOST_DEVICE double operator()(const trapeze::SweepNeighbours<double>& at) const {
    return (at.up + at.left + at.down + at.right) * 0.25;
  }
};

}  // namespace apps
