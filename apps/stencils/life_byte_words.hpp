#pragma once
// Conway's Game of Life on byte cells (0 dead, 1 alive) read four to a
// 32-bit word: byte i of word (x, y) is cell (4 x + i, y), which is exactly
// where a board of bytes keeps it, so the memory and the bytes a step moves
// are the byte-cell game's (life.hpp): 2 B a cell.
//
// Why: the byte-cell update costs about 15 instructions a cell on a GPU, so
// it is bound by instructions, at a quarter of the 2 B a cell roofline (0.25
// plain, 0.35 with trapezoids on an H100). Here one update evaluates a word's
// four cells together, bytes as lanes of the word's integer adds, about 10
// instructions for four cells. (life_bits.hpp packs a cell a bit and moves
// an eighth of the bytes; this keeps the board as the user has it.)
//
// It is the same game byte for byte (tests/life_byte_words_test.cpp) under
// conditions the app checks: every cell 0 or 1 (no byte's sums may carry into
// the next), the board's width a multiple of 4, and a dead, alive or periodic
// boundary (a word of dead or alive cells; clamping a word is not clamping
// its cells).
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "trapeze/boundary.hpp"
#include "trapeze/stencil.hpp"

namespace apps {

struct LifeByteWords {
  using value_type = std::uint32_t;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::box};
  static constexpr int cells_per_value = 4;  // throughput is reported in cells

  static constexpr std::uint32_t lanes(std::uint32_t byte) { return byte * 0x01010101u; }

  // The word of west neighbours of a word's 4 cells (byte i: cell i - 1) and of east ones.
  TRAPEZE_HOST_DEVICE static std::uint32_t west(std::uint32_t left, std::uint32_t centre) {
    return (centre << 8) | (left >> 24);
  }
  TRAPEZE_HOST_DEVICE static std::uint32_t east(std::uint32_t centre, std::uint32_t right) {
    return (centre >> 8) | (right << 24);
  }
  // Each byte the count of its column's three cells (at most 3: no carry).
  // Written the same way for every column, so a kernel that updates
  // neighbouring words together computes each column's count once.
  TRAPEZE_HOST_DEVICE static std::uint32_t column(std::uint32_t up, std::uint32_t self, std::uint32_t down) {
    return up + self + down;
  }

  TRAPEZE_HOST_DEVICE std::uint32_t operator()(const trapeze::Neighbourhood<std::uint32_t>& at) const {
    const std::uint32_t self = at(0, 0);
    const std::uint32_t left = column(at(-1, -1), at(-1, 0), at(-1, 1));
    const std::uint32_t middle = column(at(0, -1), self, at(0, 1));
    const std::uint32_t right = column(at(1, -1), at(1, 0), at(1, 1));
    // Each byte: the 3x3 box's count (at most 9), less the cell itself: its
    // 8 neighbours' count n (at most 8; the box holds the cell, no borrow).
    const std::uint32_t neighbours = west(left, middle) + middle + east(middle, right) - self;
    // Alive next: n = 3, or n = 2 and alive now; with the cell 0 or 1 that
    // is exactly (n | cell) = 3. Bytes equal to 3 become 0 under the xor; each
    // byte is below 16, so adding 0x7f sets its top bit unless it was 0, and
    // no byte carries into the next.
    const std::uint32_t off_by = (neighbours | self) ^ lanes(3);
    const std::uint32_t not_three = off_by + lanes(0x7f);
    return (~not_three & lanes(0x80)) >> 7;
  }
};

// The words' boundary for a board's: a dead (alive) cell outside it is a
// word of four dead (alive) cells; periodic stays periodic.
inline trapeze::Boundary life_byte_words_boundary(const trapeze::Boundary& cells) {
  return cells.kind == trapeze::BoundaryKind::constant
             ? trapeze::Boundary::constant(cells.value != 0 ? static_cast<double>(LifeByteWords::lanes(1)) : 0.0)
             : cells;
}

// The board's bytes as words and back: the same bytes in the same order, on
// the little-endian machines (x86-64, and every CUDA device) where byte i of
// a word is the i-th byte in memory.
static_assert(std::endian::native == std::endian::little, "LifeByteWords assumes little-endian words");

inline std::vector<std::uint32_t> life_cells_as_words(const std::uint8_t* cells, long width, long height) {
  std::vector<std::uint32_t> words(static_cast<std::size_t>(width / 4 * height));
  std::memcpy(words.data(), cells, words.size() * sizeof(std::uint32_t));
  return words;
}

template <typename Words>
std::vector<std::uint8_t> life_words_as_cells(const Words& words) {
  std::vector<std::uint8_t> cells(words.size() * sizeof(std::uint32_t));
  std::memcpy(cells.data(), words.data(), cells.size());
  return cells;
}

}  // namespace apps
