#pragma once
// An app's grid from a cell function: filled (the usual grid), or, with
// --no-grid, generated (trapeze::Grid::generated): the run's tiles ask the
// function for their initial cells, and the final cells go only into a
// checksum. The two give the same field, so their checksums agree.
#include <cstdint>
#include <memory>
#include <type_traits>

#include "app_options.hpp"
#include "trapeze/field_checksum.hpp"
#include "trapeze/grid.hpp"

namespace apps {

// A uniform value in [0, 1) from a counter-based hash of (seed, cell): any
// cell's value without generating those before it, so tiles fill in parallel.
// Floats get 24 random bits, doubles 53: every value is exact.
template <typename T>
T hashed_uniform(std::uint64_t seed, trapeze::Index cell) {
  static_assert(std::is_floating_point_v<T>);
  const std::uint64_t h = trapeze::detail::mix64(trapeze::detail::mix64(seed) ^ static_cast<std::uint64_t>(cell));
  constexpr int bits = std::is_same_v<T, float> ? 24 : 53;
  return static_cast<T>(static_cast<double>(h >> (64 - bits)) * (1.0 / static_cast<double>(std::uint64_t{1} << bits)));
}

template <typename T>
struct AppGrid {
  trapeze::Grid<T> grid;
  // --no-grid: the final fields' checksum, summed by the run's gather tasks.
  std::shared_ptr<trapeze::FieldChecksum> checksum;
};

// One updated field, no read-only ones; value(linear cell index) -> T.
template <typename T, typename CellValue>
AppGrid<T> app_grid(const CommonOptions& options, const trapeze::Extent& extent, int dims, trapeze::Boundary boundary,
                    CellValue value) {
  if (!options.no_grid) {
    trapeze::Grid<T> grid(extent, dims, 1, 0, 1, boundary);
    T* cells = grid.updated().data();
    for (trapeze::Index i = 0; i < grid.cells(); ++i) cells[i] = value(i);
    return {std::move(grid), nullptr};
  }
  auto checksum = std::make_shared<trapeze::FieldChecksum>();
  const trapeze::Strides strides = trapeze::Strides::of(trapeze::checked_domain(extent, dims));
  auto linear = [strides](trapeze::Index x, trapeze::Index y, trapeze::Index z) { return strides.offset(x, y, z); };
  trapeze::GridRows<T> rows{
      [value, linear](int, trapeze::Index x, trapeze::Index y, trapeze::Index z, trapeze::Index count, T* out) {
        const trapeze::Index first = linear(x, y, z);
        for (trapeze::Index i = 0; i < count; ++i) out[i] = value(first + i);
      },
      [checksum, linear](int field, trapeze::Index x, trapeze::Index y, trapeze::Index z, trapeze::Index count,
                         const T* values) { checksum->add(field, linear(x, y, z), values, count); }};
  return {trapeze::Grid<T>::generated(extent, dims, 1, 0, 1, boundary, std::move(rows)), checksum};
}

}  // namespace apps
