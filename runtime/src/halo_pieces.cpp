#include "trapeze/halo_pieces.hpp"

#include <algorithm>
#include <string>

#include "trapeze/error.hpp"

namespace trapeze {

namespace {

// The range of tile coordinates along one dimension that cover [lo, hi).
struct TileRange {
  Index first;
  Index last;
};

TileRange covering_tiles(Index lo, Index hi, Index tile) { return {lo / tile, (hi - 1) / tile}; }

void add_pieces_for_window(const Tiling& tiling, int consumer, const Box& padded_global,
                           const Box& window, const Extent& wrap, HaloLayout& layout) {
  // `window` is in the consumer's frame; the producers live at window - wrap.
  const Box home = window.shifted({-wrap[0], -wrap[1], -wrap[2]});
  TileRange range[max_dims];
  for (int d = 0; d < max_dims; ++d) {
    range[d] = covering_tiles(home.lo[d], home.hi[d], tiling.tile_extent()[d]);
  }
  const bool wrapped = wrap[0] != 0 || wrap[1] != 0 || wrap[2] != 0;
  for (Index tz = range[2].first; tz <= range[2].last; ++tz) {
    for (Index ty = range[1].first; ty <= range[1].last; ++ty) {
      for (Index tx = range[0].first; tx <= range[0].last; ++tx) {
        const int producer = tiling.index({tx, ty, tz});
        const Box producer_box = tiling.box(producer);
        const Box cut = intersect(home, producer_box);
        if (cut.empty()) continue;
        if (producer == consumer && !wrapped) continue;  // the tile's own interior
        HaloPiece piece;
        piece.producer = producer;
        piece.consumer = consumer;
        piece.source = cut.shifted({-producer_box.lo[0], -producer_box.lo[1], -producer_box.lo[2]});
        piece.destination = cut.shifted(wrap).shifted(
            {-padded_global.lo[0], -padded_global.lo[1], -padded_global.lo[2]});
        const int id = static_cast<int>(layout.pieces.size());
        layout.pieces.push_back(piece);
        if (producer == consumer) {
          layout.tiles[consumer].self_wraps.push_back(id);
        } else {
          layout.tiles[consumer].inputs.push_back(id);
          layout.tiles[producer].outputs.push_back(id);
        }
      }
    }
  }
}

}  // namespace

Index minimum_pieces_per_tile(const Tiling& tiling, const Extent& ghost) {
  Index neighbourhood = 1;
  for (int d = 0; d < max_dims; ++d) {
    if (ghost[d] <= 0) continue;
    const Index tile = tiling.tile_extent()[d];
    const Index reach = std::min(tiling.counts()[d] - 1, (ghost[d] + tile - 1) / tile);
    neighbourhood *= 1 + reach;
  }
  return neighbourhood - 1;
}

HaloLayout build_halo_layout(const Tiling& tiling, const Extent& ghost, BoundaryKind boundary) {
  const bool periodic = boundary == BoundaryKind::periodic;
  const Extent& domain = tiling.domain();
  static constexpr const char* axis_name[max_dims] = {"x", "y", "z"};
  if (periodic) {
    for (int d = 0; d < max_dims; ++d) {
      if (ghost[d] > domain[d]) {
        throw InvalidArgument("ghost zone width " + std::to_string(ghost[d]) + " in " + axis_name[d] +
                    " exceeds the periodic domain extent " + std::to_string(domain[d]) +
                    "; use a smaller height or a larger domain");
      }
    }
  }
  HaloLayout layout;
  layout.tiles.resize(tiling.count());
  const Box whole{{0, 0, 0}, domain};
  for (int consumer = 0; consumer < tiling.count(); ++consumer) {
    const Box padded = tiling.box(consumer).grown(ghost);
    // Periodic dimensions see the domain repeated at -N, 0, +N; the others see it once.
    Index wrap_span[max_dims];
    for (int d = 0; d < max_dims; ++d) wrap_span[d] = periodic && ghost[d] > 0 ? 1 : 0;
    for (Index wz = -wrap_span[2]; wz <= wrap_span[2]; ++wz) {
      for (Index wy = -wrap_span[1]; wy <= wrap_span[1]; ++wy) {
        for (Index wx = -wrap_span[0]; wx <= wrap_span[0]; ++wx) {
          const Extent wrap{wx * domain[0], wy * domain[1], wz * domain[2]};
          const Box window = intersect(padded, whole.shifted(wrap));
          if (window.empty()) continue;
          add_pieces_for_window(tiling, consumer, padded, window, wrap, layout);
        }
      }
    }
  }
  return layout;
}

}  // namespace trapeze
