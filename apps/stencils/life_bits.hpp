#pragma once
// Conway's Game of Life with its cells packed 32 to a word: bit i of word
// (x, y) is cell (32 x + i, y). One update evaluates a word's 32 cells at once
// with bitwise adders, about 1.5 instructions a cell where the byte-cell
// update (life.hpp) costs about 15 and is bound by instructions, not bytes;
// and a step moves 8 bytes for 32 cells instead of 64.
//
// It is the same game bit for bit (tests/life_bits_test.cpp), under two
// conditions the app checks: the board's width is a multiple of 32, so no
// word holds a cell outside the board, and the boundary is dead or alive
// cells (a word of zeros or of ones) or periodic: clamping a word is not
// clamping its cells.
#include <cstdint>
#include <vector>

#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace apps {

struct LifeBits {
  using value_type = std::uint32_t;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::box};
  static constexpr int cells_per_value = 32;  // throughput is reported in cells

  // The word of west neighbours of a row's 32 cells (bit i: cell i - 1) and of east ones.
  TRAPEZE_HOST_DEVICE static std::uint32_t west(std::uint32_t left, std::uint32_t centre) {
    return (centre << 1) | (left >> 31);
  }
  TRAPEZE_HOST_DEVICE static std::uint32_t east(std::uint32_t centre, std::uint32_t right) {
    return (centre >> 1) | (right << 31);
  }

  TRAPEZE_HOST_DEVICE std::uint32_t operator()(const trapeze::Neighbourhood<std::uint32_t>& at) const {
    // Each bit position counts its own cell's 8 neighbours, in binary.
    // The rows above and below: three neighbours each, a 2-bit count apiece
    // (a full adder: ones, twos).
    const std::uint32_t up = at(0, -1), down = at(0, 1), self = at(0, 0);
    const std::uint32_t uw = west(at(-1, -1), up), ue = east(up, at(1, -1));
    const std::uint32_t dw = west(at(-1, 1), down), de = east(down, at(1, 1));
    const std::uint32_t mw = west(at(-1, 0), self), me = east(self, at(1, 0));
    const std::uint32_t up_ones = uw ^ up ^ ue, up_twos = (uw & up) | (ue & (uw ^ up));
    const std::uint32_t down_ones = dw ^ down ^ de, down_twos = (dw & down) | (de & (dw ^ down));
    const std::uint32_t mid_ones = mw ^ me, mid_twos = mw & me;
    // The ones column of the total, and its carry into the twos.
    const std::uint32_t ones = up_ones ^ down_ones ^ mid_ones;
    const std::uint32_t carry = (up_ones & down_ones) | (mid_ones & (up_ones ^ down_ones));
    // The twos column adds four bits: its parity is the total's twos bit;
    // two or more of them make the total four or more (the cell dies).
    const std::uint32_t p = up_twos ^ down_twos, q = up_twos & down_twos;
    const std::uint32_t r = mid_twos ^ carry, s = mid_twos & carry;
    const std::uint32_t twos = p ^ r, four_or_more = q | s | (p & r);
    // Alive next: a total of 3, or 2 and alive now.
    return twos & (ones | self) & ~four_or_more;
  }
};

// The words' boundary for a board's: a dead (alive) cell outside it is a
// word of zeros (ones); periodic stays periodic.
inline trapeze::Boundary life_bits_boundary(const trapeze::Boundary& cells) {
  return cells.kind == trapeze::BoundaryKind::constant
             ? trapeze::Boundary::constant(cells.value != 0 ? 4294967295.0 : 0.0)
             : cells;
}

// A board of byte cells (0 dead, anything else alive; width a multiple of 32)
// as words, and back.
inline std::vector<std::uint32_t> pack_life_cells(const std::uint8_t* cells, long width, long height) {
  const long words = width / 32;
  std::vector<std::uint32_t> packed(static_cast<std::size_t>(words * height), 0);
  for (long y = 0; y < height; ++y) {
    for (long x = 0; x < width; ++x) {
      if (cells[y * width + x] != 0) packed[static_cast<std::size_t>(y * words + x / 32)] |= std::uint32_t{1} << (x % 32);
    }
  }
  return packed;
}

template <typename Words>
std::vector<std::uint8_t> unpack_life_words(const Words& words, long width, long height) {
  std::vector<std::uint8_t> cells(static_cast<std::size_t>(width * height));
  const long per_row = width / 32;
  for (long y = 0; y < height; ++y) {
    for (long x = 0; x < width; ++x) {
      cells[static_cast<std::size_t>(y * width + x)] =
          static_cast<std::uint8_t>((words[static_cast<std::size_t>(y * per_row + x / 32)] >> (x % 32)) & 1u);
    }
  }
  return cells;
}

}  // namespace apps
