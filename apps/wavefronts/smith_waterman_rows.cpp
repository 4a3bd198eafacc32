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
#include <limits>
#include <vector>

#include "smith_waterman.hpp"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace apps {

#if defined(__AVX2__)
namespace {

// 16 lanes of 16 bits.
struct Lanes16 {
  using value_type = std::int16_t;
  static constexpr int count = 16;
  static __m256i set1(int v) { return _mm256_set1_epi16(static_cast<std::int16_t>(v)); }
  static __m256i adds(__m256i a, __m256i b) { return _mm256_adds_epi16(a, b); }
  static __m256i subs(__m256i a, __m256i b) { return _mm256_subs_epi16(a, b); }
  static __m256i max(__m256i a, __m256i b) { return _mm256_max_epi16(a, b); }
  static __m256i greater(__m256i a, __m256i b) { return _mm256_cmpgt_epi16(a, b); }
  static __m256i lane_index() { return _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
  // v shifted up by one lane, `first` entering lane 0 (the last lane drops out).
  static __m256i shift_in(__m256i v, value_type first) {
    const __m256i below = _mm256_permute2x128_si256(set1(first), v, 0x20);  // low half: `first`s, high half: v's low half
    return _mm256_alignr_epi8(v, below, 16 - sizeof(value_type));
  }
  // rows[k] holds lane k's values for 16 steps; afterwards rows[j] holds
  // step j's value of every lane (a 16 x 16 transposition).
  static void transpose(__m256i rows[count]) {
    __m256i b[16], c[16], d[16];
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
};

// 32 lanes of 8 bits.
struct Lanes8 {
  using value_type = std::int8_t;
  static constexpr int count = 32;
  static __m256i set1(int v) { return _mm256_set1_epi8(static_cast<char>(v)); }
  static __m256i adds(__m256i a, __m256i b) { return _mm256_adds_epi8(a, b); }
  static __m256i subs(__m256i a, __m256i b) { return _mm256_subs_epi8(a, b); }
  static __m256i max(__m256i a, __m256i b) { return _mm256_max_epi8(a, b); }
  static __m256i greater(__m256i a, __m256i b) { return _mm256_cmpgt_epi8(a, b); }
  static __m256i lane_index() {
    return _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
                            26, 27, 28, 29, 30, 31);
  }
  static __m256i shift_in(__m256i v, value_type first) {
    const __m256i below = _mm256_permute2x128_si256(set1(first), v, 0x20);
    return _mm256_alignr_epi8(v, below, 16 - sizeof(value_type));
  }
  // A 32 x 32 transposition of bytes, as Lanes16's with one more stage.
  static void transpose(__m256i rows[count]) {
    __m256i b[32], c[32], d[32], e[32];
    for (int i = 0; i < 16; ++i) {
      b[2 * i] = _mm256_unpacklo_epi8(rows[2 * i], rows[2 * i + 1]);
      b[2 * i + 1] = _mm256_unpackhi_epi8(rows[2 * i], rows[2 * i + 1]);
    }
    // c[4g + m]: rows 4g..4g+3, elements 4m..4m+3 (and 16 more in the high half).
    for (int g = 0; g < 8; ++g) {
      c[4 * g + 0] = _mm256_unpacklo_epi16(b[4 * g], b[4 * g + 2]);
      c[4 * g + 1] = _mm256_unpackhi_epi16(b[4 * g], b[4 * g + 2]);
      c[4 * g + 2] = _mm256_unpacklo_epi16(b[4 * g + 1], b[4 * g + 3]);
      c[4 * g + 3] = _mm256_unpackhi_epi16(b[4 * g + 1], b[4 * g + 3]);
    }
    // d[8h + n]: rows 8h..8h+7, elements 2n, 2n + 1 (and 16 more).
    for (int h = 0; h < 4; ++h) {
      for (int m = 0; m < 4; ++m) {
        d[8 * h + 2 * m] = _mm256_unpacklo_epi32(c[8 * h + m], c[8 * h + 4 + m]);
        d[8 * h + 2 * m + 1] = _mm256_unpackhi_epi32(c[8 * h + m], c[8 * h + 4 + m]);
      }
    }
    // e[16q + x]: rows 16q..16q+15, element x (and x + 16).
    for (int q = 0; q < 2; ++q) {
      for (int n = 0; n < 8; ++n) {
        e[16 * q + 2 * n] = _mm256_unpacklo_epi64(d[16 * q + n], d[16 * q + 8 + n]);
        e[16 * q + 2 * n + 1] = _mm256_unpackhi_epi64(d[16 * q + n], d[16 * q + 8 + n]);
      }
    }
    for (int x = 0; x < 16; ++x) {
      rows[x] = _mm256_permute2x128_si256(e[x], e[16 + x], 0x20);
      rows[x + 16] = _mm256_permute2x128_si256(e[x], e[16 + x], 0x31);
    }
  }
};

// Lanes of `L` hold a value exactly when it lies in [floor, ceiling): the
// lowest value stands for minus infinity, and a score reaching the highest
// may have saturated.
template <typename L>
struct Range {
  using V = typename L::value_type;
  static constexpr std::int32_t lowest = std::numeric_limits<V>::min();
  static constexpr std::int32_t highest = std::numeric_limits<V>::max();
  // Gap values go down to minus the gap costs: those must stay clear of `lowest`.
  static constexpr std::int32_t gap_room = highest * 9 / 10;
  static V narrow(std::int32_t value) { return static_cast<V>(std::clamp(value, lowest, highest)); }
  static std::int32_t widen(V value) { return value == lowest ? SmithWaterman::minus_infinity : value; }
};

// Whether the scoring and the strips entering the tile fit lanes of `L`;
// with `worst_case`, also whether no cell can reach L's highest value.
template <typename L>
bool fits(const SmithWaterman& w, const trapeze::WavefrontTileCells<SmithWaterman>& tile, trapeze::Index rows,
          bool worst_case) {
  using R = Range<L>;
  if (w.gap_open > R::gap_room || w.gap_extend > R::gap_room) return false;
  std::int32_t best_score = 0, worst_score = 0;
  for (std::int32_t s : w.scores) best_score = std::max(best_score, s), worst_score = std::min(worst_score, s);
  if (worst_score < -R::gap_room || best_score >= R::highest) return false;
  std::int32_t highest = 0;
  auto ok = [&](const AlignmentCell& cell) {
    auto gap_ok = [](std::int32_t g) { return g == SmithWaterman::minus_infinity || (g >= -R::gap_room && g < R::highest); };
    highest = std::max(highest, cell.h);
    return cell.h >= 0 && cell.h < R::highest && gap_ok(cell.e) && gap_ok(cell.f);
  };
  for (trapeze::Index c = 0; c <= tile.columns; ++c) {
    if (!ok(tile.top[c])) return false;
  }
  for (trapeze::Index r = 0; r < rows; ++r) {
    if (!ok(tile.left[r])) return false;
  }
  if (!worst_case) return true;
  // A path gains at most the best score per diagonal move, and crosses the
  // tile in at most its shorter side's number of them.
  return highest + static_cast<double>(best_score) * static_cast<double>(std::min(rows, tile.columns)) < R::highest;
}

// Columns of zero scores on both sides of the target profile: lanes before
// their first column and after their last read them.
template <typename L>
class StripeSweep {
  using V = typename L::value_type;
  using R = Range<L>;
  static constexpr int lanes = L::count;
  static constexpr trapeze::Index profile_margin = lanes;

 public:
  StripeSweep(const SmithWaterman& w, const trapeze::WavefrontTileCells<SmithWaterman>& tile, trapeze::Index rows)
      : w_(w), tile_(tile), rows_(rows), columns_(tile.columns), steps_(tile.columns + lanes - 1),
        profile_(static_cast<std::size_t>(SmithWaterman::max_alphabet) * profile_stride()),
        above_h_(static_cast<std::size_t>(steps_ + 2 * lanes) * lanes),
        above_f_(above_h_.size()), above_e_(above_h_.size()), left_out_(static_cast<std::size_t>(rows)) {
    build_profile();
    // The row above the first stripe, where each stripe leaves it for the
    // next: the last lane's value at step c + lanes - 1 is column c's.
    for (trapeze::Index c = 0; c < columns_; ++c) {
      const AlignmentCell& cell = tile.top[c + 1];
      above_h_[slot(c + lanes - 1, lanes - 1)] = R::narrow(cell.h);
      above_f_[slot(c + lanes - 1, lanes - 1)] = R::narrow(cell.f);
    }
  }

  // Rows [0, rows) in stripes; false (strips untouched) when a score reached
  // the lanes' highest value and may have saturated.
  bool run() {
    V corner = R::narrow(tile_.top[0].h);
    for (trapeze::Index first = 0; first < rows_; first += lanes) {
      stripe(first, corner, first + lanes == rows_);
      if (highest_reached()) return false;
      corner = R::narrow(tile_.left[first + lanes - 1].h);
    }
    // The strips change only now, so a sweep that gives up leaves them as they were.
    tile_.top[0] = tile_.left[rows_ - 1];
    for (trapeze::Index c = 0; c < columns_; ++c) {
      const std::size_t at = slot(c + lanes - 1, lanes - 1);
      tile_.top[c + 1] = {R::widen(above_h_[at]), R::widen(above_e_[at]), R::widen(above_f_[at])};
    }
    std::copy(left_out_.begin(), left_out_.end(), tile_.left);
    return true;
  }

  std::int32_t best() const {
    alignas(32) V lane_best[lanes];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane_best), best_);
    return *std::max_element(lane_best, lane_best + lanes);
  }

 private:
  bool highest_reached() const { return best() >= R::highest; }

  // Rows [first, first + lanes); `corner` is the cell left of the row above.
  void stripe(trapeze::Index first, V corner, bool last) {
    alignas(32) V init_h[lanes], init_e[lanes], init_f[lanes];
    for (int k = 0; k < lanes; ++k) {
      const AlignmentCell& cell = tile_.left[first + k];
      init_h[k] = R::narrow(cell.h), init_e[k] = R::narrow(cell.e), init_f[k] = R::narrow(cell.f);
    }
    __m256i h = _mm256_load_si256(reinterpret_cast<const __m256i*>(init_h));
    __m256i e = _mm256_load_si256(reinterpret_cast<const __m256i*>(init_e));
    __m256i f = _mm256_load_si256(reinterpret_cast<const __m256i*>(init_f));
    __m256i up_before = L::shift_in(h, corner);  // the up-left of step 0
    const __m256i open = L::set1(w_.gap_open);
    const __m256i extend = L::set1(w_.gap_extend);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lane_index = L::lane_index();
    const V* lane_profile[lanes];
    for (int k = 0; k < lanes; ++k) {
      lane_profile[k] = &profile_[static_cast<std::size_t>(tile_.row_inputs[first + k]) * profile_stride() + profile_margin - k];
    }
    for (trapeze::Index s0 = 0; s0 < steps_; s0 += lanes) {
      __m256i score[lanes];
      for (int k = 0; k < lanes; ++k) score[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lane_profile[k] + s0));
      L::transpose(score);
      const int batch = static_cast<int>(std::min<trapeze::Index>(lanes, steps_ - s0));
      for (int j = 0; j < batch; ++j) {
        const trapeze::Index s = s0 + j;
        const __m256i up_h = L::shift_in(h, above_h_[slot(s + lanes - 1, lanes - 1)]);
        const __m256i up_f = L::shift_in(f, above_f_[slot(s + lanes - 1, lanes - 1)]);
        const __m256i new_e = L::max(L::subs(e, extend), L::subs(h, open));
        const __m256i new_f = L::max(L::subs(up_f, extend), L::subs(up_h, open));
        const __m256i diagonal = L::adds(up_before, score[j]);
        __m256i new_h = L::max(L::max(diagonal, zero), L::max(new_e, new_f));
        if (s < lanes - 1 || s >= columns_) {
          // The ramp and the tail. Lanes past s have not reached column 0:
          // they keep their row's left value (column -1), which the lanes
          // below read as theirs. Lanes past their last column go on (the
          // lanes below no longer read them) but fold nothing: lane 0 would
          // fold a value of the row above.
          const __m256i started = L::greater(L::set1(static_cast<int>(std::min<trapeze::Index>(s + 1, lanes))), lane_index);
          const __m256i live =
              _mm256_and_si256(started, L::greater(lane_index, L::set1(static_cast<int>(std::max<trapeze::Index>(s - columns_, -1)))));
          best_ = L::max(best_, _mm256_and_si256(new_h, live));  // h >= 0: a cleared lane folds nothing
          new_h = _mm256_blendv_epi8(h, new_h, started);
          e = _mm256_blendv_epi8(e, new_e, started);
          f = _mm256_blendv_epi8(f, new_f, started);
        } else {
          // Lanes past their last column go on with zero scores (and zeros
          // for lane 0's row above), so they never rise above the tile's
          // cells they read: the fold needs no mask.
          best_ = L::max(best_, new_h);
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
      left_out_[static_cast<std::size_t>(first + k)] = {R::widen(above_h_[at]), R::widen(above_e_[at]), R::widen(above_f_[at])};
    }
  }

  trapeze::Index profile_stride() const { return columns_ + 3 * lanes; }
  static std::size_t slot(trapeze::Index step, int lane) { return static_cast<std::size_t>(step) * lanes + lane; }

  // profile_[a][margin + c]: the score of query residue a against column c.
  void build_profile() {
    constexpr int n = SmithWaterman::max_alphabet;
    for (int a = 0; a < n; ++a) {
      V* row = &profile_[static_cast<std::size_t>(a) * profile_stride() + profile_margin];
      for (trapeze::Index c = 0; c < columns_; ++c) row[c] = static_cast<V>(w_.scores[a * n + tile_.column_inputs[c]]);
    }
  }

  const SmithWaterman& w_;
  const trapeze::WavefrontTileCells<SmithWaterman>& tile_;
  trapeze::Index rows_;
  trapeze::Index columns_;
  trapeze::Index steps_;
  std::vector<V> profile_;
  // Every step's lanes (h, f; e where the strips need it): the last lane's
  // are the next stripe's row above, lane k's at its last column the left
  // strip's cell.
  std::vector<V> above_h_, above_f_, above_e_;
  std::vector<AlignmentCell> left_out_;
  __m256i best_ = _mm256_setzero_si256();
};

template <typename L>
trapeze::Index sweep_rows(const SmithWaterman& w, const trapeze::WavefrontTileCells<SmithWaterman>& tile,
                          std::int32_t& best, bool worst_case) {
  const trapeze::Index rows = tile.rows / L::count * L::count;
  if (rows == 0 || !fits<L>(w, tile, rows, worst_case)) return 0;
  StripeSweep<L> sweep(w, tile, rows);
  if (!sweep.run()) return 0;
  best = std::max(best, sweep.best());
  return rows;
}

}  // namespace
#endif

trapeze::Index SmithWaterman::cpu_rows(const trapeze::WavefrontTileCells<SmithWaterman>& tile, std::int32_t& best) const {
#if defined(__AVX2__)
  if (tile.columns == 0 || !tile.row_inputs || !tile.column_inputs) return 0;
  // 8 bits first, as long as no score reaches 127 (random pairs' local
  // scores stay far below it; a tile that reaches it is redone in 16 bits),
  // then 16 bits where the worst case stays below 2^15.
  if (const trapeze::Index rows = sweep_rows<Lanes8>(*this, tile, best, false); rows > 0) return rows;
  return sweep_rows<Lanes16>(*this, tile, best, true);
#else
  (void)tile;
  (void)best;
  return 0;
#endif
}

}  // namespace apps
