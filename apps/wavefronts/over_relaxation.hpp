#pragma once
// Successive over-relaxation for Laplace's equation on a square mesh of
// spacing h: each cell moves from its value towards the average of its four
// neighbours by the factor omega, in place and in row-major order:
//   A[i, j] = A[i, j] + omega * ((A[i-1, j] + A[i, j-1] + A[i+1, j]'' + A[i, j+1]'') / 4 - A[i, j]).
// omega = 1 is Gauss-Seidel (seed 004's Heat2D); omega = 0.8 is seed 004's
// SOR, the five-point average with the cell itself.
//
// The boundary holds u(x, y) = x^2 - y^2 at x = (j + 1) h, y = (i + 1) h.
// Its five-point Laplacian is exactly zero, so u is also the fixed point of
// the sweeps, and the distance to it measures how far they have converged.
#include <cmath>
#include <numbers>

#include "trapeze/sweep.hpp"

namespace apps {

struct OverRelaxation {
  using value_type = double;
  double omega = 1.0;
  double h = 1.0;  // mesh spacing

  TRAPEZE_HOST_DEVICE double solution(trapeze::Index i, trapeze::Index j) const {
    const double x = static_cast<double>(j + 1) * h, y = static_cast<double>(i + 1) * h;
    return x * x - y * y;
  }
  TRAPEZE_HOST_DEVICE double boundary(trapeze::Index i, trapeze::Index j) const { return solution(i, j); }
  TRAPEZE_HOST_DEVICE double operator()(const trapeze::SweepNeighbours<double>& at) const {
    return at.self + omega * ((at.up + at.left + at.down + at.right) * 0.25 - at.self);
  }
};

// The omega that converges fastest for Laplace's equation on a grid whose
// longer side has n cells: 2 / (1 + sin(pi / (n + 1))).
inline double optimal_omega(trapeze::Index n) {
  return 2.0 / (1.0 + std::sin(std::numbers::pi / static_cast<double>(n + 1)));
}

}  // namespace apps
