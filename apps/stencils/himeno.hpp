#pragma once
// The Himeno benchmark (RIKEN, himenoBMTxps.c): Jacobi iterations of a 3-D
// pressure Poisson equation, a 19-point stencil over 14 single-precision
// arrays, and its residual gosa.
//
// Axes: x is the original's k (contiguous in memory), y is j and z is i, so
// p[i+1][j][k] is at(0, 0, 1). The original updates the cells 1..n-2 of each
// axis and leaves the outer layer fixed; here every cell is updated and the
// outer layer's bnd is 0, which leaves it fixed the same way (ss = 0 there, so
// p + omega * ss is p) and adds nothing to gosa. Interior cells compute the
// original's expressions in the original's order, so p and gosa equal the
// original program's bit for bit (built without fused multiply-add).
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "trapeze/grid.hpp"
#include "trapeze/stencil.hpp"

namespace apps {

struct Himeno {
  using value_type = float;
  static constexpr int dims = 3;
  // The six faces and twelve edges of the 3x3x3 box.
  static constexpr trapeze::StencilShape shape{{1, 1, 1}, trapeze::ShapeKind::box};
  // p, and ss: the residual of the step that produced p (gosa is the sum of
  // its squares, as the original's jacobi() returns it for its last step).
  static constexpr int updated_fields = 2;
  // The original's read-only arrays a[4], b[3], c[3], wrk1 and bnd.
  static constexpr int constant_fields = 12;
  enum Constant { a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd };
  // Every read-only array is read at the updated cell only (a[..][i][j][k]):
  // kernels keep them out of shared memory, and skewed slabs leave them in
  // place (trapeze/stencil.hpp).
  static constexpr bool constants_at_cell_only = true;

  float omega = 0.8f;

  TRAPEZE_HOST_DEVICE std::array<float, 2> operator()(const trapeze::Neighbourhood<float>& at) const {
    const float s0 = at.constant(a0) * at(0, 0, 1) + at.constant(a1) * at(0, 1, 0) + at.constant(a2) * at(1, 0, 0) +
                     at.constant(b0) * (at(0, 1, 1) - at(0, -1, 1) - at(0, 1, -1) + at(0, -1, -1)) +
                     at.constant(b1) * (at(1, 1, 0) - at(1, -1, 0) - at(-1, 1, 0) + at(-1, -1, 0)) +
                     at.constant(b2) * (at(1, 0, 1) - at(1, 0, -1) - at(-1, 0, 1) + at(-1, 0, -1)) +
                     at.constant(c0) * at(0, 0, -1) + at.constant(c1) * at(0, -1, 0) + at.constant(c2) * at(-1, 0, 0) +
                     at.constant(wrk1);
    const float ss = (s0 * at.constant(a3) - at(0, 0, 0)) * at.constant(bnd);
    return {at(0, 0, 0) + omega * ss, ss};
  }
};

// The benchmark's sizes (x = k, y = j, z = i: the original's MKMAX-1 x
// MJMAX-1 x MIMAX-1); XS is the original's SSMALL.
inline trapeze::Extent himeno_size(const std::string& name) {
  if (name == "XS") return {64, 32, 32};
  if (name == "S") return {128, 64, 64};
  if (name == "M") return {256, 128, 128};
  if (name == "L") return {512, 256, 256};
  if (name == "XL") return {1024, 512, 512};
  throw std::invalid_argument("not a Himeno size: '" + name + "' (XS, S, M, L or XL)");
}

// The original's initmt(): unit coefficients, a3 = 1/6, no source term, and
// p rising with the square of i from 0 to 1. bnd marks the updated cells.
inline void fill_himeno(trapeze::Grid<float>& grid) {
  const auto e = grid.extent();
  for (int c = Himeno::a0; c <= Himeno::c2; ++c) {
    const bool b = c >= Himeno::b0 && c <= Himeno::b2;
    const float value = c == Himeno::a3 ? static_cast<float>(1.0 / 6.0) : b ? 0.0f : 1.0f;
    std::fill(grid.constant(c).begin(), grid.constant(c).end(), value);
  }
  std::fill(grid.constant(Himeno::wrk1).begin(), grid.constant(Himeno::wrk1).end(), 0.0f);
  std::fill(grid.updated(1).begin(), grid.updated(1).end(), 0.0f);
  auto& p = grid.updated(0);
  auto& bnd = grid.constant(Himeno::bnd);
  const auto edge = [](trapeze::Index v, trapeze::Index n) { return v == 0 || v == n - 1; };
  const int last_i = static_cast<int>(e[2]) - 1;
  for (trapeze::Index i = 0; i < e[2]; ++i) {
    const float pi = static_cast<float>(static_cast<int>(i * i)) / static_cast<float>(last_i * last_i);
    for (trapeze::Index j = 0; j < e[1]; ++j) {
      for (trapeze::Index k = 0; k < e[0]; ++k) {
        const auto at = grid.linear(k, j, i);
        p[at] = pi;
        bnd[at] = edge(i, e[2]) || edge(j, e[1]) || edge(k, e[0]) ? 0.0f : 1.0f;
      }
    }
  }
}

// gosa: the sum of ss * ss in the original's loop order (i, j, k), in float.
inline float himeno_gosa(const trapeze::Grid<float>& grid) {
  float gosa = 0.0f;
  for (const float ss : grid.updated(1)) gosa += ss * ss;
  return gosa;
}

// The benchmark's floating-point operations: 34 per interior cell and step.
inline double himeno_flops(const trapeze::Extent& e, trapeze::Index steps) {
  return 34.0 * static_cast<double>(e[0] - 2) * static_cast<double>(e[1] - 2) * static_cast<double>(e[2] - 2) *
         static_cast<double>(steps);
}

}  // namespace apps
