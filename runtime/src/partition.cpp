#include "trapeze/partition.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "trapeze/error.hpp"

namespace trapeze {

namespace {

// A cut whose heaviest group carries at most this much more work per unit of
// speed than another dimension's still counts as balanced: the cheaper surface wins.
constexpr double balance_tolerance = 1.02;

std::vector<double> checked_speeds(const std::vector<double>& speeds) {
  if (speeds.empty()) throw InvalidArgument("a partition needs at least one owner, got none");
  for (std::size_t o = 0; o < speeds.size(); ++o) {
    if (!std::isfinite(speeds[o]) || speeds[o] <= 0) {
      throw InvalidArgument("owner " + std::to_string(o) + "'s speed must be a finite number > 0, got " +
                            std::to_string(speeds[o]));
    }
  }
  return speeds;
}

// Slab sizes along a dimension of `extent` tiles for groups of the given
// speeds: proportional (largest remainders), each at least its minimum.
// Empty when the minima do not fit.
std::vector<Index> proportional_sizes(Index extent, const std::vector<double>& group_speeds,
                                      const std::vector<Index>& minimum) {
  const double total = std::accumulate(group_speeds.begin(), group_speeds.end(), 0.0);
  const std::size_t groups = group_speeds.size();
  if (std::accumulate(minimum.begin(), minimum.end(), Index{0}) > extent) return {};
  std::vector<double> target(groups);
  std::vector<Index> size(groups);
  Index used = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    target[g] = static_cast<double>(extent) * group_speeds[g] / total;
    size[g] = std::max(minimum[g], static_cast<Index>(std::floor(target[g])));
    used += size[g];
  }
  while (used < extent) {  // the largest shortfall gets the next tile
    std::size_t best = 0;
    for (std::size_t g = 1; g < groups; ++g) {
      if (target[g] - static_cast<double>(size[g]) > target[best] - static_cast<double>(size[best])) best = g;
    }
    ++size[best];
    ++used;
  }
  while (used > extent) {  // minima pushed past the extent: the largest excess gives one back
    std::size_t best = groups;
    for (std::size_t g = 0; g < groups; ++g) {
      if (size[g] <= minimum[g]) continue;
      if (best == groups || static_cast<double>(size[g]) - target[g] > static_cast<double>(size[best]) - target[best]) {
        best = g;
      }
    }
    --size[best];
    --used;
  }
  return size;
}

}  // namespace

std::vector<int> cut_order(const Extent& domain, int dims, const StencilShape& shape) {
  std::vector<int> order(static_cast<std::size_t>(dims));
  std::iota(order.begin(), order.end(), 0);
  const double cells = static_cast<double>(cell_count(domain));
  auto surface = [&](int d) {
    return 2.0 * static_cast<double>(shape.radius[d]) * cells / static_cast<double>(domain[d]);
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (surface(a) != surface(b)) return surface(a) < surface(b);
    return a > b;
  });
  return order;
}

Extent gcd_groups(const Extent& tile_counts, const std::vector<int>& order, int owners) {
  Extent groups{1, 1, 1};
  Index remaining = owners;
  for (int d : order) {
    groups[d] = std::gcd(tile_counts[d], remaining);
    remaining /= groups[d];
  }
  return groups;
}

Partition::Partition(const Tiling& tiling, const StencilShape& shape, const std::vector<double>& speeds)
    : tiling_(tiling), speeds_(checked_speeds(speeds)) {
  const int owners = owner_count();
  if (owners > tiling.count()) {
    throw InvalidArgument(std::to_string(owners) + " owners but the tiling has only " + std::to_string(tiling.count()) +
                          " tiles (tile " + to_string(tiling.tile_extent(), tiling.dims()) + " of domain " +
                          to_string(tiling.domain(), tiling.dims()) + "): use smaller tiles or fewer owners");
  }
  for (int d : trapeze::cut_order(tiling.domain(), tiling.dims(), shape)) {
    if (tiling.counts()[d] > 1) cut_order_.push_back(d);
  }
  gcd_groups_ = trapeze::gcd_groups(tiling.counts(), cut_order_, owners);
  owner_of_tile_.assign(static_cast<std::size_t>(tiling.count()), -1);
  owner_tiles_.resize(static_cast<std::size_t>(owners));
  Region all{Box{{0, 0, 0}, tiling.counts()}, {}};
  all.owners.resize(static_cast<std::size_t>(owners));
  std::iota(all.owners.begin(), all.owners.end(), 0);
  cut(all, 0);
}

// One level of the hierarchy: the region's owners split into groups (the
// gcd's many where it divides the tiles, else two), each given a slab of
// tiles along one dimension in proportion to its speed. Of the dimensions
// that can be cut, the first in cut order whose heaviest slab is within the
// tolerance of the most balanced cut.
void Partition::cut(const Region& region, std::size_t order_position) {
  const std::size_t owners = region.owners.size();
  if (owners == 1) {
    const int owner = region.owners[0];
    owner_tiles_[static_cast<std::size_t>(owner)] = region.tiles;
    for (Index z = region.tiles.lo[2]; z < region.tiles.hi[2]; ++z) {
      for (Index y = region.tiles.lo[1]; y < region.tiles.hi[1]; ++y) {
        for (Index x = region.tiles.lo[0]; x < region.tiles.hi[0]; ++x) {
          owner_of_tile_[static_cast<std::size_t>(tiling_.index({x, y, z}))] = owner;
        }
      }
    }
    return;
  }
  struct Candidate {
    std::size_t position = 0;
    std::vector<std::vector<int>> groups;
    std::vector<Index> sizes;
    double heaviest = 0;
  };
  std::vector<Candidate> candidates;
  const double region_speed = std::accumulate(region.owners.begin(), region.owners.end(), 0.0,
                                              [&](double s, int o) { return s + speeds_[static_cast<std::size_t>(o)]; });
  const Index region_tiles = region.tiles.cells();
  for (std::size_t i = 0; i < cut_order_.size(); ++i) {
    const std::size_t position = (order_position + i) % cut_order_.size();
    const int d = cut_order_[position];
    const Index extent = region.tiles.extent()[d];
    if (extent < 2) continue;
    const Index across = region_tiles / extent;
    // The gcd's groups where it divides the tiles, else two; where those leave
    // some group fewer tiles than owners, one group per slice (always fits:
    // the region has a tile per owner).
    const Index even = std::gcd(extent, static_cast<Index>(owners));
    std::vector<std::size_t> group_counts;
    if (even > 1) group_counts.push_back(static_cast<std::size_t>(even));
    group_counts.push_back(2);
    group_counts.push_back(static_cast<std::size_t>(std::min<Index>(extent, static_cast<Index>(owners))));
    Candidate c;
    std::vector<double> group_speeds;
    for (const std::size_t group_count : group_counts) {
      c = Candidate{position, std::vector<std::vector<int>>(group_count), {}, 0};
      group_speeds.assign(group_count, 0.0);
      std::vector<Index> minimum(group_count);
      for (std::size_t g = 0, next = 0; g < group_count; ++g) {
        const std::size_t members = owners / group_count + (g < owners % group_count ? 1 : 0);
        for (std::size_t m = 0; m < members; ++m, ++next) {
          c.groups[g].push_back(region.owners[next]);
          group_speeds[g] += speeds_[static_cast<std::size_t>(region.owners[next])];
        }
        minimum[g] = (static_cast<Index>(members) + across - 1) / across;  // a tile per owner at least
      }
      c.sizes = proportional_sizes(extent, group_speeds, minimum);
      if (!c.sizes.empty()) break;
    }
    if (c.sizes.empty()) continue;
    for (std::size_t g = 0; g < c.groups.size(); ++g) {
      const double load = static_cast<double>(c.sizes[g] * across) / group_speeds[g];
      c.heaviest = std::max(c.heaviest, load / (static_cast<double>(region_tiles) / region_speed));
    }
    candidates.push_back(std::move(c));
  }
  if (candidates.empty()) {  // unreachable while every region has a tile per owner; kept as a guard
    throw Error("partition: no dimension of tiles " + to_string(region.tiles.extent(), tiling_.dims()) +
                " can be cut among " + std::to_string(owners) + " owners");
  }
  double most_balanced = candidates.front().heaviest;
  for (const Candidate& c : candidates) most_balanced = std::min(most_balanced, c.heaviest);
  const Candidate& chosen = *std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) {
    return c.heaviest <= most_balanced * balance_tolerance;
  });
  const int d = cut_order_[chosen.position];
  Index lo = region.tiles.lo[d];
  for (std::size_t g = 0; g < chosen.groups.size(); ++g) {
    Region slab{region.tiles, chosen.groups[g]};
    slab.tiles.lo[d] = lo;
    slab.tiles.hi[d] = lo + chosen.sizes[g];
    lo = slab.tiles.hi[d];
    cut(slab, chosen.position + 1);
  }
}

Box Partition::cells_of(int owner) const {
  const Box& tiles = tiles_of(owner);
  Box cells;
  for (int d = 0; d < max_dims; ++d) {
    cells.lo[d] = tiles.lo[d] * tiling_.tile_extent()[d];
    cells.hi[d] = std::min(tiles.hi[d] * tiling_.tile_extent()[d], tiling_.domain()[d]);
  }
  return cells;
}

OwnerExchanges owner_exchanges(const Partition& partition, const HaloLayout& halo) {
  const auto owners = static_cast<std::size_t>(partition.owner_count());
  OwnerExchanges cells(owners, std::vector<Index>(owners, 0));
  for (const HaloPiece& piece : halo.pieces) {
    const int from = partition.owner_of(piece.producer), to = partition.owner_of(piece.consumer);
    if (from != to) cells[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)] += piece.source.cells();
  }
  return cells;
}

std::vector<bool> border_tiles(const Partition& partition, const HaloLayout& halo) {
  std::vector<bool> border(halo.tiles.size(), false);
  for (const HaloPiece& piece : halo.pieces) {
    if (partition.owner_of(piece.producer) != partition.owner_of(piece.consumer)) {
      border[static_cast<std::size_t>(piece.producer)] = true;
      border[static_cast<std::size_t>(piece.consumer)] = true;
    }
  }
  return border;
}

}  // namespace trapeze
