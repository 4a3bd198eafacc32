// Smith-Waterman's CPU rows in 16-bit AVX2 lanes (SmithWaterman::cpu_rows).
//
// Same order as the generic codelet (codelets/cpu/wavefront_tile_cpu.hpp):
// stripes of 16 rows swept along their anti-diagonals, lane k computing cell
// (k, s - k) of the stripe at step s from lane k - 1's last two steps (up,
// up-left) and its own last step (left). What the generic codelet cannot do:
// keep the lanes in registers from step to step (shifting them by one lane
// with two shuffles instead of storing and reloading them, which stalled
// store-to-load forwarding), 16 cells a register instead of 8, and the
// substitution scores read from a target profile (one row per query residue,
// the tile's columns along it) and transposed 16 steps at a time, instead of
// a lookup per cell.
//
// Exact, not saturating: it runs only when no score in the tile can leave 16
// bits (the highest score entering the tile plus the best substitution score
// times the tile's shorter side stays below 2^15), and gap values at "minus
// infinity" (the wavefront's boundary) stay pinned at the lowest 16-bit value
// by saturating subtraction, where in 32 bits they stay far below any score:
// either way they lose every max they enter. So every cell equals the 32-bit
// update's, bit for bit (tests/wavefront_test.cpp compares both with parasail
// and with the generic codelet).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "smith_waterman.hpp"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace apps {

#if defined(__AVX2__)
namespace {

constexpr int lanes = 16;
constexpr std::int16_t lowest = INT16_MIN;
// Columns of zero scores on both sides of the target profile: lanes before
// their first column and after their last read them.
constexpr trapeze::Index profile_margin = lanes;

// v shifted up by one lane, `first` entering lane 0 (lane 15 drops out).
inline __m256i shift_in(__m256i v, std::int16_t first) {
  const __m256i entering = _mm256_set1_epi16(first);
  const __m256i below = _mm256_permute2x128_si256(entering, v, 0x20);  // low half: `first`s, high half: v's low half
  return _mm256_alignr_epi8(v, below, 14);
}

// rows[k] holds lane k's 16 values for 16 steps; afterwards rows[j] holds
// step j's value of every lane (a 16 x 16 transposition of 16-bit values).
inline void transpose(__m256i rows[lanes]) {
  __m256i b[lanes], c[lanes], d[lanes];
  for (int i = 0; i < 8; ++i) {
    b[2 * i] = _mm256_unpacklo_epi16(rows[2 * i], rows[2 * i + 1]);
    b[2 * i + 1] = _mm256_unpackhi_epi16(rows[2 * i], rows[2 * i + 1]);
  }
  // c[4g + m]: rows 4g..4g+3, elements {2m, 2m + 1} (and 8 more in the high half).
  for (int g = 0; g < 4; ++g) {
    c[4 * g + 0] = _mm256_unpacklo_epi32(b[4 * g], b[4 * g + 2]);
    c[4 * g + 1] = _mm256_unpackhi_epi32(b[4 * g], b[4 * g + 2]);
    c[4 * g + 2] = _mm256_unpacklo_epi32(b[4 * g + 1], b[4 * g + 3]);
    c[4 * g + 3] = _mm256_unpackhi_epi32(b[4 * g + 1], b[4 * g + 3]);
  }
  // d[8h + e]: rows 8h..8h+7, element e (and e + 8 in the high half).
  for (int h = 0; h < 2; ++h) {
    for (int m = 0; m < 4; ++m) {
      d[8 * h + 2 * m] = _mm256_unpacklo_epi64(c[8 * h + m], c[8 * h + 4 + m]);
      d[8 * h + 2 * m + 1] = _mm256_unpackhi_epi64(c[8 * h + m], c[8 * h + 4 + m]);
    }
  }
  for (int e = 0; e < 8; ++e) {
    rows[e] = _mm256_permute2x128_si256(d[e], d[8 + e], 0x20);
    rows[e + 8] = _mm256_permute2x128_si256(d[e], d[8 + e], 0x31);
  }
}

std::int16_t narrow(std::int32_t value) {
  return static_cast<std::int16_t>(std::clamp<std::int32_t>(value, lowest, INT16_MAX));
}

std::int32_t widen(std::int16_t value) {
  return value == lowest ? SmithWaterman::minus_infinity : value;
}

// Whether every value of the tile's cells fits 16 bits exactly.
bool fits_16_bits(const SmithWaterman& w, const trapeze::WavefrontTileCells<SmithWaterman>& tile, trapeze::Index rows) {
  const std::int32_t gap_room = 30000;  // gap values down to minus the costs stay clear of `lowest`
  if (w.gap_open > gap_room || w.gap_extend > gap_room) return false;
  std::int32_t best_score = 0, worst_score = 0;
  for (std::int32_t s : w.scores) best_score = std::max(best_score, s), worst_score = std::min(worst_score, s);
  if (worst_score < -gap_room) return false;
  std::int32_t highest = 0;
  auto gap_ok = [&](std::int32_t g) { return g == SmithWaterman::minus_infinity || (g >= -gap_room && g <= INT16_MAX); };
  for (trapeze::Index c = 0; c <= tile.columns; ++c) {
    const AlignmentCell& cell = tile.top[c];
    if (cell.h < 0 || !gap_ok(cell.e) || !gap_ok(cell.f)) return false;
    highest = std::max(highest, cell.h);
  }
  for (trapeze::Index r = 0; r < rows; ++r) {
    const AlignmentCell& cell = tile.left[r];
    if (cell.h < 0 || !gap_ok(cell.e) || !gap_ok(cell.f)) return false;
    highest = std::max(highest, cell.h);
  }
  // A path gains at most the best score per diagonal move, and crosses the
  // tile in at most its shorter side's number of them.
  const double reachable = highest + static_cast<double>(best_score) * static_cast<double>(std::min(rows, tile.columns));
  return reachable < INT16_MAX;
}

class StripeSweep {
 public:
  StripeSweep(const SmithWaterman& w, const trapeze::WavefrontTileCells<SmithWaterman>& tile)
      : w_(w), tile_(tile), columns_(tile.columns), steps_(tile.columns + lanes - 1),
        profile_(static_cast<std::size_t>(SmithWaterman::max_alphabet) * profile_stride()),
        above_h_(static_cast<std::size_t>(steps_ + 2 * lanes) * lanes),
        above_f_(above_h_.size()), above_e_(above_h_.size()) {
    build_profile();
    // The row above the first stripe, where each stripe leaves it for the
    // next: lane 15's value at step c + 15 is column c's.
    for (trapeze::Index c = 0; c < columns_; ++c) {
      const AlignmentCell& cell = tile.top[c + 1];
      above_h_[slot(c + lanes - 1, lanes - 1)] = narrow(cell.h);
      above_f_[slot(c + lanes - 1, lanes - 1)] = narrow(cell.f);
    }
  }

  // Rows [first, first + 16); `corner` is the cell left of the row above.
  void stripe(trapeze::Index first, std::int16_t corner, bool last) {
    alignas(32) std::int16_t init_h[lanes], init_e[lanes], init_f[lanes];
    for (int k = 0; k < lanes; ++k) {
      const AlignmentCell& cell = tile_.left[first + k];
      init_h[k] = narrow(cell.h), init_e[k] = narrow(cell.e), init_f[k] = narrow(cell.f);
    }
    __m256i h = _mm256_load_si256(reinterpret_cast<const __m256i*>(init_h));
    __m256i e = _mm256_load_si256(reinterpret_cast<const __m256i*>(init_e));
    __m256i f = _mm256_load_si256(reinterpret_cast<const __m256i*>(init_f));
    __m256i up_before = shift_in(h, corner);  // the up-left of step 0
    const __m256i open = _mm256_set1_epi16(static_cast<std::int16_t>(w_.gap_open));
    const __m256i extend = _mm256_set1_epi16(static_cast<std::int16_t>(w_.gap_extend));
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lane_index = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const std::int16_t* lane_profile[lanes];
    for (int k = 0; k < lanes; ++k) {
      lane_profile[k] = &profile_[static_cast<std::size_t>(tile_.row_inputs[first + k]) * profile_stride() + profile_margin - k];
    }
    for (trapeze::Index s0 = 0; s0 < steps_; s0 += lanes) {
      __m256i score[lanes];
      for (int k = 0; k < lanes; ++k) score[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lane_profile[k] + s0));
      transpose(score);
      const int batch = static_cast<int>(std::min<trapeze::Index>(lanes, steps_ - s0));
      for (int j = 0; j < batch; ++j) {
        const trapeze::Index s = s0 + j;
        const __m256i up_h = shift_in(h, above_h_[slot(s + lanes - 1, lanes - 1)]);
        const __m256i up_f = shift_in(f, above_f_[slot(s + lanes - 1, lanes - 1)]);
        const __m256i new_e = _mm256_max_epi16(_mm256_subs_epi16(e, extend), _mm256_subs_epi16(h, open));
        const __m256i new_f = _mm256_max_epi16(_mm256_subs_epi16(up_f, extend), _mm256_subs_epi16(up_h, open));
        const __m256i diagonal = _mm256_adds_epi16(up_before, score[j]);
        __m256i new_h = _mm256_max_epi16(_mm256_max_epi16(diagonal, zero), _mm256_max_epi16(new_e, new_f));
        if (s < lanes - 1 || s >= columns_) {
          // The ramp and the tail. Lanes past s have not reached column 0:
          // they keep their row's left value (column -1), which the lanes
          // below read as theirs. Lanes past their last column go on (the
          // lanes below no longer read them) but fold nothing: lane 0 would
          // fold a value of the row above.
          const __m256i started = _mm256_cmpgt_epi16(_mm256_set1_epi16(static_cast<std::int16_t>(std::min<trapeze::Index>(s + 1, lanes))), lane_index);
          const __m256i live = _mm256_and_si256(
              started, _mm256_cmpgt_epi16(lane_index, _mm256_set1_epi16(static_cast<std::int16_t>(std::max<trapeze::Index>(s - columns_, -1)))));
          best_ = _mm256_max_epi16(best_, _mm256_and_si256(new_h, live));  // h >= 0: a cleared lane folds nothing
          new_h = _mm256_blendv_epi8(h, new_h, started);
          e = _mm256_blendv_epi8(e, new_e, started);
          f = _mm256_blendv_epi8(f, new_f, started);
        } else {
          best_ = _mm256_max_epi16(best_, new_h);
          e = new_e;
          f = new_f;
        }
        h = new_h;
        up_before = up_h;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(&above_h_[slot(s, 0)]), h);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(&above_f_[slot(s, 0)]), f);
        if (last || s >= columns_ - 1) _mm256_storeu_si256(reinterpret_cast<__m256i*>(&above_e_[slot(s, 0)]), e);
      }
    }
    // Lane k's last column came at step columns - 1 + k: the left strip's.
    for (int k = 0; k < lanes; ++k) {
      const std::size_t at = slot(columns_ - 1 + k, k);
      tile_.left[first + k] = {widen(above_h_[at]), widen(above_e_[at]), widen(above_f_[at])};
    }
  }

  // The stripe's last row into the top strip (after the last stripe).
  void leave_top_row(const AlignmentCell& left_of_row) {
    tile_.top[0] = left_of_row;
    for (trapeze::Index c = 0; c < columns_; ++c) {
      const std::size_t at = slot(c + lanes - 1, lanes - 1);
      tile_.top[c + 1] = {widen(above_h_[at]), widen(above_e_[at]), widen(above_f_[at])};
    }
  }

  std::int32_t best() const {
    alignas(32) std::int16_t lane_best[lanes];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane_best), best_);
    return *std::max_element(lane_best, lane_best + lanes);
  }

 private:
  trapeze::Index profile_stride() const { return columns_ + 3 * lanes; }
  static std::size_t slot(trapeze::Index step, int lane) { return static_cast<std::size_t>(step) * lanes + lane; }

  // profile_[a][margin + c]: the score of query residue a against column c.
  void build_profile() {
    constexpr int n = SmithWaterman::max_alphabet;
    for (int a = 0; a < n; ++a) {
      std::int16_t* row = &profile_[static_cast<std::size_t>(a) * profile_stride() + profile_margin];
      for (trapeze::Index c = 0; c < columns_; ++c) row[c] = static_cast<std::int16_t>(w_.scores[a * n + tile_.column_inputs[c]]);
    }
  }

  const SmithWaterman& w_;
  const trapeze::WavefrontTileCells<SmithWaterman>& tile_;
  trapeze::Index columns_;
  trapeze::Index steps_;
  std::vector<std::int16_t> profile_;
  // Every step's lanes (h, f; e where the strips need it): lane 15's are
  // the next stripe's row above, lane k's at its last column the left strip.
  std::vector<std::int16_t> above_h_, above_f_, above_e_;
  __m256i best_ = _mm256_setzero_si256();
};

}  // namespace
#endif

trapeze::Index SmithWaterman::cpu_rows(const trapeze::WavefrontTileCells<SmithWaterman>& tile, std::int32_t& best) const {
#if defined(__AVX2__)
  const trapeze::Index rows = tile.rows / lanes * lanes;
  if (rows == 0 || tile.columns == 0 || !tile.row_inputs || !tile.column_inputs || !fits_16_bits(*this, tile, rows)) return 0;
  StripeSweep sweep(*this, tile);
  std::int16_t corner = narrow(tile.top[0].h);
  for (trapeze::Index first = 0; first < rows; first += lanes) {
    const AlignmentCell left_of_last_row = tile.left[first + lanes - 1];  // before the stripe overwrites it
    sweep.stripe(first, corner, first + lanes == rows);
    corner = narrow(left_of_last_row.h);
    if (first + lanes == rows) sweep.leave_top_row(left_of_last_row);
  }
  best = std::max(best, sweep.best());
  return rows;
#else
  (void)tile;
  (void)best;
  return 0;
#endif
}

}  // namespace apps
