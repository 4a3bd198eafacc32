#pragma once
// Rodinia HotSpot: transient chip temperature from a power map, the thermal
// RC equations of Rodinia's hotspot (CUDA version, single precision).
#include <algorithm>

#include "trapeze/stencil.hpp"

namespace apps {

struct HotspotConstants {
  static constexpr double max_pd = 3.0e6;       // maximum power density (W/m^2)
  static constexpr double precision = 0.001;    // required precision (degrees)
  static constexpr double spec_heat_si = 1.75e6;
  static constexpr double k_si = 100;
  static constexpr double factor_chip = 0.5;    // capacitance fitting factor
  static constexpr double t_chip = 0.0005;      // chip thickness (m)
  static constexpr double chip_height = 0.016;  // m
  static constexpr double chip_width = 0.016;   // m
  static constexpr float ambient = 80.0f;       // ambient temperature (degrees)
};

struct Hotspot {
  using value_type = float;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::star};
  static constexpr int constant_fields = 1;  // the power map
  static constexpr bool constants_at_cell_only = true;  // at.constant(0) alone: GPU kernels keep it in registers

  float step_div_cap = 0;
  float rx_1 = 0, ry_1 = 0, rz_1 = 0;

  // Rodinia's coefficients for a rows x cols grid over the 16 mm chip, with
  // one change: the time step is bounded by the explicit scheme's monotonicity
  // limit, step / cap * (2 / rx + 2 / ry + 1 / rz) <= 1. Rodinia's step is
  // proportional to nothing but the constants while cap shrinks with the cell
  // area, so above about 1385x1385 cells Rodinia's own equations diverge (NaN
  // after a few dozen steps at 2048x2048). Below that size (Rodinia's 64, 512
  // and 1024 inputs) the bound is not reached and the step is Rodinia's.
  static Hotspot for_grid(long rows, long cols) {
    using C = HotspotConstants;
    const double grid_height = C::chip_height / static_cast<double>(rows);
    const double grid_width = C::chip_width / static_cast<double>(cols);
    const double cap = C::factor_chip * C::spec_heat_si * C::t_chip * grid_width * grid_height;
    const double rx = grid_width / (2.0 * C::k_si * C::t_chip * grid_height);
    const double ry = grid_height / (2.0 * C::k_si * C::t_chip * grid_width);
    const double rz = C::t_chip / (C::k_si * grid_height * grid_width);
    const double max_slope = C::max_pd / (C::factor_chip * C::t_chip * C::spec_heat_si);
    const double rodinia_step = C::precision / max_slope;
    const double monotone_step = cap / (2.0 / rx + 2.0 / ry + 1.0 / rz);
    const double step = std::min(rodinia_step, monotone_step);
    return {static_cast<float>(step / cap), static_cast<float>(1 / rx), static_cast<float>(1 / ry),
            static_cast<float>(1 / rz)};
  }

  TRAPEZE_HOST_DEVICE float operator()(const trapeze::Neighbourhood<float>& at) const {
    const float t = at(0, 0);
    return t + step_div_cap * (at.constant(0) + (at(0, 1) + at(0, -1) - 2.0f * t) * ry_1 +
                               (at(1, 0) + at(-1, 0) - 2.0f * t) * rx_1 + (HotspotConstants::ambient - t) * rz_1);
  }
};

}  // namespace apps
