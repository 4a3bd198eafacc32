#pragma once
// What a wavefront is: a 2-D iteration space of rows x columns whose cell
// (i, j) is computed once, from the cells its dependency vectors point to
// (among (-1, 0), (0, -1) and (-1, -1)) and from optional read-only inputs:
// one value per row (a query sequence), one per column (a target sequence),
// one per cell (an image). Row -1 and column -1 hold the wavefront's boundary
// values. Everything else (tiles, strips, tasks, priorities) is the plan's.
//
//   struct LongestCommonSubsequence {
//     using value_type = int;
//     using row_input_type = char;
//     using column_input_type = char;
//     static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};
//     TRAPEZE_HOST_DEVICE int boundary(trapeze::Index, trapeze::Index) const { return 0; }
//     TRAPEZE_HOST_DEVICE int operator()(const trapeze::WavefrontNeighbours<int>& at, char a, char b,
//                                        trapeze::NoInput) const {
//       return a == b ? at.up_left + 1 : (at.up > at.left ? at.up : at.left);
//     }
//   };
//
// A wavefront that reports one value folded over all cells (Smith-Waterman's
// best score) declares `result_type` with `fold(result&, cell)` and
// `merge(result&, other)` (Result{} is the fold's identity: tiles and SIMD lanes
// fold from it and merge); its run then keeps only boundary strips, never the
// whole iteration space.
#include <array>
#include <concepts>
#include <span>
#include <type_traits>
#include <vector>

#include "trapeze/geometry.hpp"
#include "trapeze/neighbourhood.hpp"  // TRAPEZE_HOST_DEVICE

namespace trapeze {

struct DependencyVector {
  int di;
  int dj;
};
inline constexpr DependencyVector from_up{-1, 0};
inline constexpr DependencyVector from_left{0, -1};
inline constexpr DependencyVector from_up_left{-1, -1};

// The values a cell update reads: its three earlier neighbours (those outside
// the iteration space hold the boundary) and its own coordinates.
template <typename T>
struct WavefrontNeighbours {
  T up;
  T left;
  T up_left;
  Index i;
  Index j;
};

// The input type of a wavefront that reads no input of that kind.
struct NoInput {};
// The result type of a wavefront that folds nothing.
struct NoResult {};

template <typename W>
concept Wavefront = requires(const W w) {
  typename W::value_type;
  { W::dependencies.size() } -> std::convertible_to<std::size_t>;
  { w.boundary(Index{}, Index{}) } -> std::convertible_to<typename W::value_type>;
} && std::is_trivially_copyable_v<typename W::value_type> && std::is_trivially_copyable_v<W>;

namespace detail {
template <typename W> struct row_input { using type = NoInput; };
template <typename W> requires requires { typename W::row_input_type; }
struct row_input<W> { using type = typename W::row_input_type; };
template <typename W> struct column_input { using type = NoInput; };
template <typename W> requires requires { typename W::column_input_type; }
struct column_input<W> { using type = typename W::column_input_type; };
template <typename W> struct cell_input { using type = NoInput; };
template <typename W> requires requires { typename W::cell_input_type; }
struct cell_input<W> { using type = typename W::cell_input_type; };
template <typename W> struct result { using type = NoResult; };
template <typename W> requires requires { typename W::result_type; }
struct result<W> { using type = typename W::result_type; };
}  // namespace detail

// What a wavefront reads per row, per column and per cell, and what it folds
// (NoInput, NoResult where it declares none).
template <typename W> using row_input_of = typename detail::row_input<W>::type;
template <typename W> using column_input_of = typename detail::column_input<W>::type;
template <typename W> using cell_input_of = typename detail::cell_input<W>::type;
template <typename W> using result_of = typename detail::result<W>::type;

template <typename W>
inline constexpr bool has_input_v = !std::is_same_v<W, NoInput>;
template <typename W>
inline constexpr bool folds_result_v = !std::is_same_v<result_of<W>, NoResult>;

// Only the three vectors a tile's boundary strips carry are allowed: a vector
// reaching two cells back would need strips two cells wide.
template <typename W>
constexpr bool dependencies_supported() {
  for (const DependencyVector& v : W::dependencies) {
    const bool known = (v.di == -1 && v.dj == 0) || (v.di == 0 && v.dj == -1) || (v.di == -1 && v.dj == -1);
    if (!known) return false;
  }
  return W::dependencies.size() > 0;
}

// What a wavefront reads and where its cells go; inputs a wavefront does not
// declare stay empty.
template <Wavefront W>
struct WavefrontData {
  Index rows = 0;
  Index columns = 0;
  std::span<const row_input_of<W>> row_inputs;        // `rows` values
  std::span<const column_input_of<W>> column_inputs;  // `columns` values
  std::span<const cell_input_of<W>> cell_inputs;      // rows x columns, row-major
  // rows x columns, row-major: every cell's value, when the caller wants them
  // (empty: only strips and the folded result are kept).
  std::span<typename W::value_type> output;
};

// A run that resumes where another stopped (a checkpoint): the rows before
// `first_row` are done, `top_row` holds row first_row - 1 (columns + 1 values,
// column -1 first) and `folded` the fold over the rows done. The default
// starts at row 0 from the boundary.
template <Wavefront W>
struct WavefrontResume {
  Index first_row = 0;
  std::vector<typename W::value_type> top_row;
  result_of<W> folded{};
};

// What a checkpoint holds: the same, after a whole row of tiles.
template <Wavefront W>
using WavefrontCheckpoint = WavefrontResume<W>;

// One tile task's cells as the CPU codelet holds them, for a wavefront that
// brings its own CPU routine for whole rows of a tile (SIMD the generic
// codelet's lanes cannot reach, e.g. Smith-Waterman in 16-bit lanes):
//
//   Index cpu_rows(const trapeze::WavefrontTileCells<W>& tile, result_of<W>& folded) const;
//
// computes rows [0, n) of the tile, folds their cells into `folded`, leaves
// the strips as the codelet leaves them after those rows (top: the cell left
// of row n - 1, then row n - 1; left[0, n): the tile's last column) and
// returns n, 0 where it does not apply. The codelet computes rows [n, rows)
// from there. Asked only for tasks that keep no output and read no cell input.
// (Not constrained: the wavefront names it while it is still incomplete.)
template <typename W>
struct WavefrontTileCells {
  Index first_row = 0;  // global coordinates of the tile's top-left cell
  Index first_column = 0;
  Index rows = 0;
  Index columns = 0;
  typename W::value_type* top = nullptr;   // columns + 1 values, the cell left of the row above first
  typename W::value_type* left = nullptr;  // rows values
  const row_input_of<W>* row_inputs = nullptr;        // rows values (null without row inputs)
  const column_input_of<W>* column_inputs = nullptr;  // columns values (null without column inputs)
};

// How the GPU codelet lays out one tile (codelets/cuda/wavefront_tile_cuda.cuh),
// as the hyper-tile width model (hyper_tile_width_model.hpp) sees it.
struct WavefrontGeometry {
  double rows = 0;         // the tile's rows (seed 004's H)
  double columns = 0;      // its columns (the seed's W)
  int band_rows = 256;     // rows a warp's band holds (the seed's h_t): 32 lanes x L rows
  int resident_warps = 1;  // warps resident at once (the seed's P, in warps, not SMs)
};

template <typename W>
concept HasCpuRows = requires(const W w, const WavefrontTileCells<W>& tile, result_of<W>& folded) {
  { w.cpu_rows(tile, folded) } -> std::convertible_to<Index>;
};

// StarPU priority of a tile task `remaining` tiles from the end of the
// wavefront's critical path (of `longest` tiles after the first): the
// farther from the end, the sooner it should run. Spread over the policy's
// [lowest, highest] range (a single value for policies without priorities).
constexpr int critical_path_priority(Index remaining, Index longest, int lowest, int highest) {
  if (longest <= 0 || highest <= lowest) return lowest;
  const Index span = static_cast<Index>(highest) - lowest;
  // In 64 bits: with lws the range is all of int, whose span does not fit one.
  return static_cast<int>(static_cast<Index>(lowest) + (remaining * span + longest / 2) / longest);
}

}  // namespace trapeze
