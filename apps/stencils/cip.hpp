#pragma once
// The CIP (constrained interpolation profile) scheme of Yabe, Xiao and Utsumi
// (J. Comput. Phys. 169, 2001) for 2-D advection, df/dt + u df/dx + v df/dy =
// 0, with the value f and its gradient (gx, gy) as the state (seed 003's third
// code). Per cell and step:
//   advection: the incomplete cubic F(X, Y) with ten coefficients matches f,
//     gx and gy at the cell, f and gx at the upwind cell in x, f and gy at the
//     upwind cell in y, and f at the upwind corner; the new f, gx and gy are
//     F, dF/dX and dF/dY at the departure point (-u dt, -v dt);
//   non-advective phase of the gradient: d(gx)/dt = -(du/dx gx + dv/dx gy),
//     d(gy)/dt = -(du/dy gx + dv/dy gy), with centred velocity differences.
// The grid spacing is 1 cell; u and v are read-only fields in cells per unit
// of time, and |u dt|, |v dt| <= 1 keeps the departure point in the upwind cell.
#include <algorithm>
#include <array>
#include <cmath>

#include "trapeze/grid.hpp"
#include "trapeze/stencil.hpp"

namespace apps {

template <typename T>
struct Cip {
  using value_type = T;
  static constexpr int dims = 2;
  // The upwind corner is a diagonal neighbour.
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::box};
  static constexpr int updated_fields = 3;   // f, df/dx, df/dy
  static constexpr int constant_fields = 2;  // u, v
  enum Field { f_field, gx_field, gy_field };
  enum Constant { u_field, v_field };

  T dt = T(1);

  TRAPEZE_HOST_DEVICE std::array<T, 3> operator()(const trapeze::Neighbourhood<T>& at) const {
    const T u = at.constant(u_field), v = at.constant(v_field);
    // The upwind side in each axis, and its distance (+-1 cell) as a value:
    // with unit spacing 1/sx = sx, so the fit's divisions are products.
    const trapeze::Index ux = u >= T(0) ? -1 : 1, uy = v >= T(0) ? -1 : 1;
    const T sx = static_cast<T>(ux), sy = static_cast<T>(uy);
    const T f = at(0, 0), gx = at.field(gx_field), gy = at.field(gy_field);
    const T f_x = at(ux, 0), f_y = at(0, uy), f_xy = at(ux, uy);
    const T gx_x = at.field(gx_field, ux, 0), gy_x = at.field(gy_field, ux, 0);
    const T gx_y = at.field(gx_field, 0, uy), gy_y = at.field(gy_field, 0, uy);
    // Along x and along y: 1-D cubic Hermite coefficients (X^3, X^2; Y^3, Y^2).
    const T a = ((gx_x + gx) * sx - T(2) * (f_x - f)) * sx;
    const T e = T(3) * (f_x - f) - (gx_x + T(2) * gx) * sx;
    const T b = ((gy_y + gy) * sy - T(2) * (f_y - f)) * sy;
    const T h = T(3) * (f_y - f) - (gy_y + T(2) * gy) * sy;
    // Cross terms X^2 Y, X Y^2 and X Y from the corner and the two cross gradients.
    const T twist = f_xy - f_x - f_y + f;
    const T d = (twist - (gy_x - gy) * sy) * sx;
    const T c = (twist - (gx_y - gx) * sx) * sy;
    const T g = (gy_x - gy - c) * sx;
    const T X = -u * dt, Y = -v * dt;
    const T f_new = ((a * X + c * Y + e) * X + g * Y + gx) * X + ((b * Y + d * X + h) * Y + gy) * Y + f;
    const T gx_adv = (T(3) * a * X + T(2) * (c * Y + e)) * X + (d * Y + g) * Y + gx;
    const T gy_adv = (T(3) * b * Y + T(2) * (d * X + h)) * Y + (c * X + g) * X + gy;
    const T half = T(0.5);
    const T du_dx = (at.constant(u_field, 1, 0) - at.constant(u_field, -1, 0)) * half;
    const T dv_dx = (at.constant(v_field, 1, 0) - at.constant(v_field, -1, 0)) * half;
    const T du_dy = (at.constant(u_field, 0, 1) - at.constant(u_field, 0, -1)) * half;
    const T dv_dy = (at.constant(v_field, 0, 1) - at.constant(v_field, 0, -1)) * half;
    return {f_new, gx_adv - dt * (gx_adv * du_dx + gy_adv * dv_dx), gy_adv - dt * (gx_adv * du_dy + gy_adv * dv_dy)};
  }
};

// Solid-body rotation about the domain's centre, one turn in `period` steps
// (dt = 1), carrying a Gaussian hill that starts a quarter of the domain above
// the centre: the classic rotating-hill test, whose exact solution after a
// whole turn is the initial field.
struct RotatingHill {
  double period = 0;  // steps per turn

  // The shortest turn whose fastest cell moves `courant` cells per step.
  static double period_for(const trapeze::Extent& e, double courant) {
    const double reach = 0.5 * static_cast<double>(std::max(e[0], e[1]) - 1);
    return std::ceil(2 * M_PI * std::max(reach, 1.0) / courant);
  }
  // The largest |u| or |v| in cells per step.
  double courant(const trapeze::Extent& e) const {
    return 2 * M_PI / period * 0.5 * static_cast<double>(std::max(e[0], e[1]) - 1);
  }

  template <typename T>
  void fill(trapeze::Grid<T>& grid) const {
    const auto e = grid.extent();
    const double xc = 0.5 * static_cast<double>(e[0] - 1), yc = 0.5 * static_cast<double>(e[1] - 1);
    const double x0 = xc, y0 = yc + 0.25 * static_cast<double>(e[1]);
    const double sigma = std::max(1.5, 0.05 * static_cast<double>(std::min(e[0], e[1])));
    const double omega = 2 * M_PI / period;
    using F = Cip<T>;
    for (trapeze::Index y = 0; y < e[1]; ++y) {
      for (trapeze::Index x = 0; x < e[0]; ++x) {
        const auto at = grid.linear(x, y);
        const double rx = static_cast<double>(x) - x0, ry = static_cast<double>(y) - y0;
        // Cut below 1e-12: far from the hill the tail would be subnormal in
        // float, and subnormal arithmetic runs a hundred times slower on CPUs.
        const double tail = std::exp(-(rx * rx + ry * ry) / (2 * sigma * sigma));
        const double f = tail < 1e-12 ? 0.0 : tail;
        grid.updated(F::f_field)[at] = static_cast<T>(f);
        grid.updated(F::gx_field)[at] = static_cast<T>(-f * rx / (sigma * sigma));
        grid.updated(F::gy_field)[at] = static_cast<T>(-f * ry / (sigma * sigma));
        grid.constant(F::u_field)[at] = static_cast<T>(-omega * (static_cast<double>(y) - yc));
        grid.constant(F::v_field)[at] = static_cast<T>(omega * (static_cast<double>(x) - xc));
      }
    }
  }
};

}  // namespace apps
