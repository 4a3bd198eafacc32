#pragma once
// How a stencil runs, chosen apart from what it computes: tile size, trapezoid
// height, how a trapezoid computes its ghost zone.
#include <string>
#include <string_view>

#include "trapeze/geometry.hpp"

namespace trapeze {

// Seed 000, section 3.3: a trapezoid can shrink the computed region by r each
// step (no redundant work past what stays valid), or compute the whole
// enlarged tile every step and commit only the valid part (uniform work, the
// GPU-friendly variant).
enum class TrapezoidMode { shrink, full };

TrapezoidMode parse_trapezoid_mode(std::string_view text);
std::string to_string(TrapezoidMode mode);

struct Plan {
  Extent tile{256, 256, 1};  // cells per tile per dimension; clipped to the domain
  int height = 1;            // time steps per stage (trapezoid height h)
  TrapezoidMode mode = TrapezoidMode::shrink;
};

}  // namespace trapeze
