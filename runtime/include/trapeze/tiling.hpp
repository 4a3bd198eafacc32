#pragma once
// Cuts a domain into tiles of a user-given size. Sizes need not divide the
// domain (the last tile in a dimension is shorter) and a tile larger than the
// domain is clipped to it.
#include <vector>

#include "trapeze/geometry.hpp"

namespace trapeze {

class Tiling {
 public:
  Tiling(const Extent& domain, int dims, const Extent& tile);

  int count() const { return static_cast<int>(counts_[0] * counts_[1] * counts_[2]); }
  const Extent& counts() const { return counts_; }
  const Extent& tile_extent() const { return tile_; }
  const Extent& domain() const { return domain_; }
  int dims() const { return dims_; }

  Box box(int tile) const;
  Extent coordinates(int tile) const;
  int index(const Extent& coordinates) const;

 private:
  Extent domain_;
  int dims_;
  Extent tile_;
  Extent counts_;
};

}  // namespace trapeze
