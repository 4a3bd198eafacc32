#pragma once
// What a stencil reads outside the domain.
#include <string>
#include <string_view>

#include "trapeze/geometry.hpp"

namespace trapeze {

enum class BoundaryKind {
  clamp,     // the nearest edge cell (Rodinia HotSpot / PathFinder)
  constant,  // a fixed value
  periodic,  // wrap around
};

struct Boundary {
  BoundaryKind kind = BoundaryKind::clamp;
  double value = 0.0;  // used by BoundaryKind::constant

  static Boundary clamp() { return {BoundaryKind::clamp, 0.0}; }
  static Boundary constant(double v) { return {BoundaryKind::constant, v}; }
  static Boundary periodic() { return {BoundaryKind::periodic, 0.0}; }
};

// Parses "clamp", "periodic", "constant" (value 0) or "constant:V".
Boundary parse_boundary(std::string_view text);
std::string to_string(const Boundary& boundary);

// The in-domain coordinate whose value an out-of-domain coordinate takes, for
// clamp and periodic; the caller handles BoundaryKind::constant.
inline constexpr Index boundary_source(Index coordinate, Index extent, BoundaryKind kind) {
  if (kind == BoundaryKind::periodic) {
    const Index m = coordinate % extent;
    return m < 0 ? m + extent : m;
  }
  return coordinate < 0 ? 0 : (coordinate >= extent ? extent - 1 : coordinate);
}

}  // namespace trapeze
