#include "trapeze/tiling.hpp"

#include <limits>
#include <string>

#include "trapeze/error.hpp"
#include "trapeze/grid.hpp"

namespace trapeze {

static constexpr const char* axis_name[max_dims] = {"x", "y", "z"};

Tiling::Tiling(const Extent& domain, int dims, const Extent& tile)
    : domain_(checked_domain(domain, dims)), dims_(dims) {
  for (int d = 0; d < max_dims; ++d) {
    if (d < dims && tile[d] <= 0) {
      throw InvalidArgument("tile size in " + std::string(axis_name[d]) + " must be > 0, got " +
                  std::to_string(tile[d]));
    }
    tile_[d] = d < dims ? std::min(tile[d], domain_[d]) : 1;
    counts_[d] = (domain_[d] + tile_[d] - 1) / tile_[d];
  }
  // Tiles are numbered with an int (StarPU's task and handle counts are too).
  if (counts_[0] * counts_[1] * counts_[2] > std::numeric_limits<int>::max()) {
    throw InvalidArgument("tile size " + to_string(tile, dims) + " cuts domain " + to_string(domain_, dims) + " into " +
                          std::to_string(counts_[0] * counts_[1] * counts_[2]) +
                          " tiles, more than 2^31 - 1; use larger tiles");
  }
}

Extent Tiling::coordinates(int tile) const {
  return {tile % counts_[0], (tile / counts_[0]) % counts_[1], tile / (counts_[0] * counts_[1])};
}

int Tiling::index(const Extent& c) const {
  return static_cast<int>(c[0] + counts_[0] * (c[1] + counts_[1] * c[2]));
}

Box Tiling::box(int tile) const {
  const Extent c = coordinates(tile);
  Box b;
  for (int d = 0; d < max_dims; ++d) {
    b.lo[d] = c[d] * tile_[d];
    b.hi[d] = std::min(b.lo[d] + tile_[d], domain_[d]);
  }
  return b;
}

}  // namespace trapeze
