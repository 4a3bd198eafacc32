#pragma once
// An exact checksum of a run's final fields that needs neither the whole
// domain in one place nor any order: the sum, modulo 2^64, of a hash of each
// cell's field, position and bits. Tiles, bands and threads add their cells
// in whatever order they finish and the sum is the same, so a run too large
// to gather (Grid::generated) is checked against a reference computed band by
// band (reference_in_bands.hpp) by comparing two numbers. Any change of one
// cell's bits changes it except with probability about 2^-64.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "trapeze/geometry.hpp"
#include "trapeze/grid.hpp"

namespace trapeze {

namespace detail {

// SplitMix64's finaliser: every input bit reaches every output bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <typename T>
std::uint64_t cell_hash(int field, Index linear, const T& value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t), "cells of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  const std::uint64_t where = mix64(static_cast<std::uint64_t>(linear) * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(field));
  return mix64(bits ^ where);
}

}  // namespace detail

class FieldChecksum {
 public:
  // Adds `count` cells of field `field` whose first has linear index `linear`
  // in the domain (Grid::linear); safe from several threads at once.
  template <typename T>
  void add(int field, Index linear, const T* values, Index count) {
    std::uint64_t sum = 0;
    for (Index i = 0; i < count; ++i) sum += detail::cell_hash(field, linear + i, values[i]);
    sum_.fetch_add(sum, std::memory_order_relaxed);
  }
  std::uint64_t value() const { return sum_.load(); }

 private:
  std::atomic<std::uint64_t> sum_{0};
};

// Adds the cells of `box` (of the grid's updated fields) to `sum`: row by row,
// so parts of a domain held in different places add up to checksum_of().
template <typename T>
void add_box(FieldChecksum& sum, const Grid<T>& grid, const Box& box) {
  if (box.empty()) return;
  const Index row = box.hi[0] - box.lo[0];
  for (int f = 0; f < grid.updated_count(); ++f) {
    const T* values = grid.updated(f).data();
    for (Index z = box.lo[2]; z < box.hi[2]; ++z) {
      for (Index y = box.lo[1]; y < box.hi[1]; ++y) {
        const Index first = grid.linear(box.lo[0], y, z);
        sum.add(f, first, values + first, row);
      }
    }
  }
}

// The checksum of a grid's updated fields (what a generated grid's run sums in its sink).
template <typename T>
std::uint64_t checksum_of(const Grid<T>& grid) {
  FieldChecksum sum;
  for (int f = 0; f < grid.updated_count(); ++f) sum.add(f, 0, grid.updated(f).data(), grid.cells());
  return sum.value();
}

}  // namespace trapeze
