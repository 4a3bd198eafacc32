#pragma once
// The CPU implementation of a wavefront tile. Buffers as in
// codelets/wavefront_args.hpp.
//
// Rows go in stripes of `wavefront_lanes` rows swept along their
// anti-diagonals: at step s, lane k computes cell (k, s - k) of the stripe,
// from lane k - 1's previous two steps (up, up-left) and its own previous
// step (left). The lanes of one step are independent, so they overlap in
// the pipeline and the compiler vectorises across them: the row-by-row
// order chains every cell to the one before it and ran Smith-Waterman at
// 0.16 G cells/s on 2 cores, stripes of 32 lanes at 1.7 (docs/PERF.md).
// Rows left over after the last whole stripe go row by row.
// Both orders compute every cell from the same three neighbours, so results
// are identical, bit for bit.
//
// The strips are updated in place: the top strip always holds the row above
// the next cells (the stripe's last lane writes its cells behind the first
// lane's reads), with the cell left of it in front; after the tile it holds
// the tile's last row and the left strip's last value (the corner the tile
// below reads as its up-left). The left strip receives the tile's last column.
#include <starpu.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../wavefront_args.hpp"
#include "trapeze/banded_layout.hpp"
#include "trapeze/wavefront.hpp"

namespace trapeze {

inline constexpr int wavefront_lanes = 32;

// The lanes' cells stored as a structure of arrays: a cell made of whole
// machine words (Smith-Waterman's three int32, a summed-area uint64) is kept
// word by word, lane k's word beside lane k + 1's, so the update reads and
// writes each field contiguously across lanes and vectorises; stored as an
// array of structs, GCC interleaved the fields and vectorised 2 lanes at most.
template <typename T, int Lanes>
struct LaneCells {
  using Word = std::conditional_t<alignof(T) >= 8 && sizeof(T) % 8 == 0, std::uint64_t,
                                  std::conditional_t<alignof(T) >= 4 && sizeof(T) % 4 == 0, std::uint32_t,
                                                     unsigned char>>;
  static constexpr int words = sizeof(T) / sizeof(Word);
  alignas(64) Word word[words][Lanes];

  T get(int lane) const {
    T cell;
    for (int i = 0; i < words; ++i) std::memcpy(reinterpret_cast<char*>(&cell) + i * sizeof(Word), &word[i][lane], sizeof(Word));
    return cell;
  }
  void set(int lane, const T& cell) {
    for (int i = 0; i < words; ++i) std::memcpy(&word[i][lane], reinterpret_cast<const char*>(&cell) + i * sizeof(Word), sizeof(Word));
  }
};

template <Wavefront W>
struct WavefrontTileView {
  using T = typename W::value_type;
  T* top = nullptr;
  T* left = nullptr;
  const row_input_of<W>* row_inputs = nullptr;
  const column_input_of<W>* column_inputs = nullptr;
  const cell_input_of<W>* cell_inputs = nullptr;
  Index cell_ld = 0;
  T* output = nullptr;
  Index output_ld = 0;

  row_input_of<W> row_input(Index r) const {
    if constexpr (has_input_v<row_input_of<W>>) return row_inputs[r];
    else return {};
  }
  column_input_of<W> column_input(Index c) const {
    if constexpr (has_input_v<column_input_of<W>>) return column_inputs[c];
    else return {};
  }
  cell_input_of<W> cell_input(Index r, Index c) const {
    if constexpr (has_input_v<cell_input_of<W>>) return cell_inputs[r * cell_ld + c];
    else return {};
  }
};

// Rows [first, last) of the tile, one after another.
template <Wavefront W>
void wavefront_rows(const W& w, const WavefrontTileArgs<W>& a, const WavefrontTileView<W>& v, Index first, Index last,
                    result_of<W>& folded) {
  using T = typename W::value_type;
  T* top = v.top;
  for (Index r = first; r < last; ++r) {
    const Index i = a.first_row + r;
    T up_left = top[0];
    top[0] = v.left[r];
    for (Index c = 0; c < a.columns; ++c) {
      const T up = top[c + 1];
      const T value = w(WavefrontNeighbours<T>{up, top[c], up_left, i, a.first_column + c}, v.row_input(r),
                        v.column_input(c), v.cell_input(r, c));
      if constexpr (folds_result_v<W>) w.fold(folded, value);
      if (v.output) v.output[r * v.output_ld + c] = value;
      up_left = up;
      top[c + 1] = value;
    }
    v.left[r] = top[a.columns];
  }
}

// Rows [first, first + wavefront_lanes) of the tile along anti-diagonals.
template <Wavefront W>
void wavefront_stripe(const W& w, const WavefrontTileArgs<W>& a, const WavefrontTileView<W>& v, Index first,
                      result_of<W>* lane_results) {
  using T = typename W::value_type;
  constexpr int lanes = wavefront_lanes;
  const Index columns = a.columns;
  // [0] is the row above the stripe; [k + 1] lane k. A lane that has not
  // started holds its row's left boundary (column -1).
  LaneCells<T, lanes + 1> buffers[3];
  LaneCells<T, lanes + 1>* two_back = &buffers[0];
  LaneCells<T, lanes + 1>* one_back = &buffers[1];
  LaneCells<T, lanes + 1>* now = &buffers[2];
  for (int k = 0; k < lanes; ++k) {
    for (auto* b : {two_back, one_back, now}) b->set(k + 1, v.left[first + k]);
  }
  const T corner = v.left[first + lanes - 1];  // (last row, column -1): the next stripe's up-left
  row_input_of<W> row_inputs[lanes];
  for (int k = 0; k < lanes; ++k) row_inputs[k] = v.row_input(first + k);
  const Index i0 = a.first_row + first;
  for (Index s = 0; s < columns + lanes - 1; ++s) {
    // Lane 0's up and up-left: the row above at columns s and s - 1 (the
    // stripe's last lane rewrites column c only at step c + lanes - 1).
    one_back->set(0, s < columns ? v.top[s + 1] : T{});
    two_back->set(0, s <= columns ? v.top[s] : T{});
    const Index j0 = a.first_column + s;
    if (s >= lanes - 1 && s < columns) {
      // Every lane inside the tile: no conditions and independent lanes (the
      // three buffers are distinct, which the compiler cannot see through
      // the rotating pointers).
      const LaneCells<T, lanes + 1>* __restrict up_row = one_back;
      const LaneCells<T, lanes + 1>* __restrict diagonal_row = two_back;
      LaneCells<T, lanes + 1>* __restrict out = now;
      for (int k = 0; k < lanes; ++k) {
        out->set(k + 1, w(WavefrontNeighbours<T>{up_row->get(k), up_row->get(k + 1), diagonal_row->get(k), i0 + k, j0 - k},
                          row_inputs[k], v.column_input(s - k), v.cell_input(first + k, s - k)));
      }
      if constexpr (folds_result_v<W>) {
        for (int k = 0; k < lanes; ++k) w.fold(lane_results[k], now->get(k + 1));
      }
    } else {
      for (int k = 0; k < lanes; ++k) {
        const Index c = s - k;
        if (c < 0 || c >= columns) {
          now->set(k + 1, one_back->get(k + 1));
          continue;
        }
        now->set(k + 1, w(WavefrontNeighbours<T>{one_back->get(k), one_back->get(k + 1), two_back->get(k), i0 + k, j0 - k},
                          row_inputs[k], v.column_input(c), v.cell_input(first + k, c)));
        if constexpr (folds_result_v<W>) w.fold(lane_results[k], now->get(k + 1));
      }
    }
    if (v.output) {
      for (int k = 0; k < lanes; ++k) {
        const Index c = s - k;
        if (c >= 0 && c < columns) v.output[(first + k) * v.output_ld + c] = now->get(k + 1);
      }
    }
    if (s >= lanes - 1) v.top[s - (lanes - 1) + 1] = now->get(lanes);  // the last lane's cell: the row below reads it
    if (s >= columns - 1) v.left[first + (s - (columns - 1))] = now->get(s - (columns - 1) + 1);  // a lane's last cell
    auto* oldest = two_back;
    two_back = one_back;
    one_back = now;
    now = oldest;
  }
  v.top[0] = corner;
}

template <Wavefront W>
void wavefront_tile_cpu(void* buffers[], void* cl_arg) {
  using Result = result_of<W>;
  WavefrontTileArgs<W> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const W& wavefront = *args.wavefront;
  const WavefrontTaskBuffers<W> b = wavefront_task_buffers<W>(buffers, args);
  WavefrontTileView<W> view;
  view.top = b.top;
  view.left = b.left;
  view.row_inputs = b.row_inputs;
  view.column_inputs = b.column_inputs;
  view.cell_inputs = b.cell_inputs;
  view.cell_ld = b.cell_ld;
  view.output = b.output;
  view.output_ld = b.output_ld;
  // Banded cell inputs and output (a run that keeps the GPU's layout on CPU
  // workers too): the tile goes row-major inside the task, converted on the way in and out.
  const bool banded = args.banded_lane_rows > 0;
  std::vector<cell_input_of<W>> row_major_inputs;
  std::vector<typename W::value_type> row_major_output;
  if (banded) {
    if constexpr (has_input_v<cell_input_of<W>>) {
      row_major_inputs.resize(static_cast<std::size_t>(args.rows * args.columns));
      from_banded(b.cell_inputs, args.banded_layout(), row_major_inputs.data(), args.columns);
      view.cell_inputs = row_major_inputs.data();
      view.cell_ld = args.columns;
    }
    if (args.output) {
      row_major_output.resize(static_cast<std::size_t>(args.rows * args.columns));
      view.output = row_major_output.data();
      view.output_ld = args.columns;
    }
  }
  Result* const result = b.result;
  Result folded{};
  if constexpr (folds_result_v<W>) folded = *result;
  // Each lane folds its own cells from the fold's identity (Result{}), merged after.
  Result lane_results[wavefront_lanes]{};
  Index row = 0;
  if constexpr (HasCpuRows<W> && !has_input_v<cell_input_of<W>>) {
    if (!args.output) {
      const WavefrontTileCells<W> cells{args.first_row, args.first_column, args.rows, args.columns,
                                        view.top,       view.left,          view.row_inputs, view.column_inputs};
      row = wavefront.cpu_rows(cells, folded);
    }
  }
  // A stripe pays lanes - 1 steps of ramp; below that many columns the rows go one by one.
  if (args.columns >= wavefront_lanes) {
    for (; row + wavefront_lanes <= args.rows; row += wavefront_lanes) {
      wavefront_stripe(wavefront, args, view, row, lane_results);
    }
  }
  if constexpr (folds_result_v<W>) {
    for (const Result& r : lane_results) wavefront.merge(folded, r);
  }
  wavefront_rows(wavefront, args, view, row, args.rows, folded);
  if constexpr (folds_result_v<W>) *result = folded;
  if (banded && args.output) to_banded(row_major_output.data(), args.columns, args.banded_layout(), b.output);
}

}  // namespace trapeze
