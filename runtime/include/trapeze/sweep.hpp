#pragma once
// What an in-place sweep is (seed 004's Heat2D and SOR): a rows x columns
// grid whose cells are replaced one after another in row-major order, each
// from its up and left neighbours (already replaced in this sweep), itself,
// and its down and right neighbours (not yet replaced: the previous sweep's
// values), and the whole sweep repeated. Cells outside the grid are fixed
// boundary values. Cell (i, j) of sweep t+1 needs (i+1, j) and (i, j+1) of
// sweep t, so the sweeps form a wavefront in space and time: sweep t+1 can
// start at the top-left corner while sweep t is still under way below.
//
//   struct GaussSeidelAverage {
//     using value_type = double;
//     TRAPEZE_HOST_DEVICE double boundary(trapeze::Index i, trapeze::Index) const { return i < 0 ? 100.0 : 0.0; }
//     TRAPEZE_HOST_DEVICE double operator()(const trapeze::SweepNeighbours<double>& at) const {
//       return (at.up + at.left + at.down + at.right) * 0.25;
//     }
//   };
//
// Everything else (tiles, strips, tasks, priorities) is the run's
// (trapeze/sweep_run.hpp); trapeze/sweep_reference.hpp is the plain loop.
#include <concepts>
#include <type_traits>

#include "trapeze/geometry.hpp"
#include "trapeze/neighbourhood.hpp"  // TRAPEZE_HOST_DEVICE

namespace trapeze {

// What a cell update reads: up and left from this sweep, self, down and
// right from the previous one (the boundary where they fall outside), and
// the cell's coordinates.
template <typename T>
struct SweepNeighbours {
  T up;
  T left;
  T self;
  T down;
  T right;
  Index i;
  Index j;
};

template <typename S>
concept InPlaceSweep = requires(const S s, const SweepNeighbours<typename S::value_type>& at) {
  typename S::value_type;
  { s.boundary(Index{}, Index{}) } -> std::convertible_to<typename S::value_type>;
  { s(at) } -> std::convertible_to<typename S::value_type>;
} && std::is_trivially_copyable_v<typename S::value_type> && std::is_trivially_copyable_v<S>;

}  // namespace trapeze
