#pragma once
// Smith-Waterman local alignment with affine gaps (Gotoh), as parasail scores
// it: a gap of length L costs open + (L - 1) * extend, so open = extend is the
// linear gap of seed 004. The query runs down the rows, the target along the
// columns; residues arrive already encoded as indices into `scores`.
#include <array>
#include <cstdint>

#include "trapeze/wavefront.hpp"

namespace apps {

struct AlignmentCell {
  std::int32_t h;  // best score of an alignment ending here
  std::int32_t e;  // ... ending in a gap in the query (a horizontal move)
  std::int32_t f;  // ... ending in a gap in the target (a vertical move)
};

struct SmithWaterman {
  using value_type = AlignmentCell;
  using row_input_type = std::uint8_t;
  using column_input_type = std::uint8_t;
  using result_type = std::int32_t;
  static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};
  static constexpr int max_alphabet = 24;
  // Far below any score, yet subtracting a gap cost cannot wrap.
  static constexpr std::int32_t minus_infinity = INT32_MIN / 2;

  std::int32_t scores[max_alphabet * max_alphabet];  // scores[a * max_alphabet + b]
  std::int32_t gap_open;
  std::int32_t gap_extend;

  TRAPEZE_HOST_DEVICE AlignmentCell boundary(trapeze::Index, trapeze::Index) const {
    return {0, minus_infinity, minus_infinity};
  }
  TRAPEZE_HOST_DEVICE AlignmentCell operator()(const trapeze::WavefrontNeighbours<AlignmentCell>& at,
                                               std::uint8_t query, std::uint8_t target, trapeze::NoInput) const {
    const std::int32_t e = max(at.left.e - gap_extend, at.left.h - gap_open);
    const std::int32_t f = max(at.up.f - gap_extend, at.up.h - gap_open);
    const std::int32_t diagonal = at.up_left.h + scores[query * max_alphabet + target];
    return {max(max(0, diagonal), max(e, f)), e, f};
  }
  // Whole stripes of 16 rows in 16-bit AVX2 lanes (smith_waterman_rows.cpp),
  // where the tile's scores cannot reach 16 bits; 0 rows otherwise.
  trapeze::Index cpu_rows(const trapeze::WavefrontTileCells<SmithWaterman>& tile, std::int32_t& best) const;
  TRAPEZE_HOST_DEVICE void fold(std::int32_t& best, const AlignmentCell& cell) const { best = max(best, cell.h); }
  TRAPEZE_HOST_DEVICE void merge(std::int32_t& best, std::int32_t other) const { best = max(best, other); }

 private:
  TRAPEZE_HOST_DEVICE static std::int32_t max(std::int32_t a, std::int32_t b) { return a > b ? a : b; }
};

}  // namespace apps
