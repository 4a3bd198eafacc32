#pragma once
// Boxes and extents over a structured domain of up to three dimensions. Unused
// dimensions have extent 1, so every loop in Trapeze is a plain 3-deep nest.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace trapeze {

using Index = std::int64_t;
inline constexpr int max_dims = 3;
using Extent = std::array<Index, max_dims>;

inline constexpr Index cell_count(const Extent& extent) {
  return extent[0] * extent[1] * extent[2];
}

// Half-open box [lo, hi) per dimension.
struct Box {
  Extent lo{0, 0, 0};
  Extent hi{1, 1, 1};

  constexpr Extent extent() const { return {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}; }
  constexpr Index cells() const { return empty() ? 0 : cell_count(extent()); }
  constexpr bool empty() const {
    return hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2];
  }
  constexpr Box shifted(const Extent& by) const {
    Box b = *this;
    for (int d = 0; d < max_dims; ++d) { b.lo[d] += by[d]; b.hi[d] += by[d]; }
    return b;
  }
  constexpr Box grown(const Extent& by) const {
    Box b = *this;
    for (int d = 0; d < max_dims; ++d) { b.lo[d] -= by[d]; b.hi[d] += by[d]; }
    return b;
  }
  friend constexpr bool operator==(const Box&, const Box&) = default;
};

inline constexpr Box intersect(const Box& a, const Box& b) {
  Box r;
  for (int d = 0; d < max_dims; ++d) {
    r.lo[d] = std::max(a.lo[d], b.lo[d]);
    r.hi[d] = std::min(a.hi[d], b.hi[d]);
  }
  return r;
}

// Row-major strides (x fastest) of a buffer with the given extent.
struct Strides {
  Index y = 0;
  Index z = 0;
  static constexpr Strides of(const Extent& extent) { return {extent[0], extent[0] * extent[1]}; }
  constexpr Index offset(Index x, Index y_, Index z_) const { return x + y_ * y + z_ * z; }
};

std::string to_string(const Extent& extent, int dims);

}  // namespace trapeze
