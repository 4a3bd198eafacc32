#pragma once
// Which owner (a worker, a GPU, an MPI rank) each tile belongs to: seed 002
// (STEPOCL, section II.A.4), at the granularity of Trapeze's tiles.
//
// - Dimensions are split in the order of the surface a cut exchanges: the
//   projection of the stencil's reach on the dimension (2r per step) times the
//   cross-section a cut there leaves (the domain's cells over its extent).
//   Seed 002's example (reach 10 along x, 1 along y, square domain) splits y
//   first. Ties go to the slower dimension (its cut faces are contiguous).
// - The owner grid follows the gcd rule: along the dimensions in that order,
//   gcd(tiles along it, owners still to place) groups. Where the gcd leaves
//   owners over (a prime count against an even tile count, say), the seed
//   would run on fewer devices; Trapeze places them anyway, splitting
//   unevenly along the first dimension that has tiles enough, so every owner
//   works. More owners than tiles is an error.
// - Sizes follow speed: a dimension's cut gives each group of owners a slab of
//   tiles proportional to the group's summed speed, then each slab is cut
//   among its group the same way (a hierarchy of cuts; with equal speeds and
//   dividing counts, exactly the seed's grid).
// - What crosses owners is exactly write(A) ∩ read(B) (seed 002, equation 4):
//   the halo pieces of trapeze/halo_pieces.hpp whose producer and consumer
//   tiles have different owners; owner_exchanges() sums them.
#include <vector>

#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/halo_pieces.hpp"
#include "trapeze/stencil_shape.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

class Partition {
 public:
  // speeds: one per owner, relative (only their ratios matter), each > 0.
  Partition(const Tiling& tiling, const StencilShape& shape, const std::vector<double>& speeds);

  int owner_count() const { return static_cast<int>(speeds_.size()); }
  int owner_of(int tile) const { return owner_of_tile_.at(static_cast<std::size_t>(tile)); }
  // The tiles an owner holds: a box in tile coordinates (every owner's tiles form one).
  const Box& tiles_of(int owner) const { return owner_tiles_.at(static_cast<std::size_t>(owner)); }
  // The cells an owner holds.
  Box cells_of(int owner) const;
  // Dimensions in the order they are cut (those with one tile left out).
  const std::vector<int>& cut_order() const { return cut_order_; }
  // The gcd rule's owner groups per dimension (seed 002's "list of gcd"); their
  // product is the owners the even grid places, the rest are placed unevenly.
  const Extent& gcd_groups() const { return gcd_groups_; }
  const std::vector<double>& speeds() const { return speeds_; }

 private:
  struct Region {
    Box tiles;
    std::vector<int> owners;
  };
  void cut(const Region& region, std::size_t order_position);

  Tiling tiling_;
  std::vector<double> speeds_;
  std::vector<int> cut_order_;
  Extent gcd_groups_{1, 1, 1};
  std::vector<int> owner_of_tile_;
  std::vector<Box> owner_tiles_;
};

// Seed 002's dimension order for a domain and a stencil's reach (all
// dimensions of the domain, cheapest cut first).
std::vector<int> cut_order(const Extent& domain, int dims, const StencilShape& shape);

// Seed 002's gcd rule: groups per dimension in `order`, each gcd(tiles along
// it, owners still to place).
Extent gcd_groups(const Extent& tile_counts, const std::vector<int>& order, int owners);

// Cells owner `from` sends owner `to` per exchange (a stage of `height` steps,
// ghost width r*height): [from][to], zero on the diagonal.
using OwnerExchanges = std::vector<std::vector<Index>>;
OwnerExchanges owner_exchanges(const Partition& partition, const HaloLayout& halo);

// Whether a tile reads from or writes for a tile of another owner: the tiles
// an idle worker of another owner may take without pulling a partition's
// interior across (trapeze-owner's steal rule).
std::vector<bool> border_tiles(const Partition& partition, const HaloLayout& halo);

}  // namespace trapeze
