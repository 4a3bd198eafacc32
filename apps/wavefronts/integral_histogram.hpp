#pragma once
// Integral histogram with `Bins` bins: cell (i, j) counts, per bin, the pixels
// of the rectangle from (0, 0) to (i, j) that fall in it: H(i, j) = e(bin(i,
// j)) + H(i-1, j) + H(i, j-1) - H(i-1, j-1). The input is each pixel's bin.
// Unsigned integers, so every tiling gives exactly the sequential counts.
#include <array>
#include <cstdint>

#include "trapeze/wavefront.hpp"

namespace apps {

template <int Bins>
struct BinCounts {
  std::uint32_t count[Bins];
};

template <int Bins>
struct IntegralHistogram {
  using value_type = BinCounts<Bins>;
  using cell_input_type = std::uint8_t;  // the pixel's bin
  static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};

  TRAPEZE_HOST_DEVICE BinCounts<Bins> boundary(trapeze::Index, trapeze::Index) const { return {}; }
  TRAPEZE_HOST_DEVICE BinCounts<Bins> operator()(const trapeze::WavefrontNeighbours<BinCounts<Bins>>& at,
                                                 trapeze::NoInput, trapeze::NoInput, std::uint8_t bin) const {
    BinCounts<Bins> h;
    for (int b = 0; b < Bins; ++b) {
      h.count[b] = at.up.count[b] + at.left.count[b] - at.up_left.count[b] + (b == bin ? 1u : 0u);
    }
    return h;
  }
};

}  // namespace apps
