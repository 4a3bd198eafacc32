#include "trapeze/tile_placement.hpp"

#include <starpu.h>

#include <algorithm>

#include "trapeze/partition.hpp"

namespace trapeze {

std::vector<int> workers_of(std::uint32_t where) {
  std::vector<int> workers;
  for (auto [flag, kind] : {std::pair{STARPU_CUDA, STARPU_CUDA_WORKER}, std::pair{STARPU_CPU, STARPU_CPU_WORKER}}) {
    if (!(where & flag)) continue;
    std::vector<int> ids(starpu_worker_get_count());
    const int n = starpu_worker_get_ids_by_type(kind, ids.data(), static_cast<unsigned>(ids.size()));
    workers.insert(workers.end(), ids.begin(), ids.begin() + n);
  }
  return workers;
}

namespace {

// The box of tile coordinates this rank owns (a box: the rank partition cuts boxes).
Box local_tile_box(const Tiling& tiling, const TileOwners& owners) {
  Box box{{0, 0, 0}, {0, 0, 0}};
  bool first = true;
  for (int t = 0; t < tiling.count(); ++t) {
    if (!owners.local(t)) continue;
    const Extent c = tiling.coordinates(t);
    for (int d = 0; d < max_dims; ++d) {
      box.lo[d] = first ? c[d] : std::min(box.lo[d], c[d]);
      box.hi[d] = first ? c[d] + 1 : std::max(box.hi[d], c[d] + 1);
    }
    first = false;
  }
  return box;
}

}  // namespace

std::vector<TaskPlacement> place_tiles(const Tiling& tiling, const StencilShape& shape, const HaloLayout& halo,
                                       const std::vector<int>& workers, const TileOwners& owners) {
  std::vector<TaskPlacement> placement(static_cast<std::size_t>(tiling.count()));
  if (workers.empty()) return placement;
  if (!owners.distributed()) {
    const std::size_t count = std::min<std::size_t>(workers.size(), static_cast<std::size_t>(tiling.count()));
    const Partition partition(tiling, shape, std::vector<double>(count, 1.0));
    const std::vector<bool> border = border_tiles(partition, halo);
    for (int t = 0; t < tiling.count(); ++t) {
      placement[static_cast<std::size_t>(t)] = {workers[static_cast<std::size_t>(partition.owner_of(t))],
                                                border[static_cast<std::size_t>(t)]};
    }
    return placement;
  }
  // This rank's box of tiles is a tiling of its own (the same tile size from
  // the box's first cell), cut among the workers like a whole domain.
  const Box tiles = local_tile_box(tiling, owners);
  if (tiles.empty()) return placement;
  Box cells = tiling.box(tiling.index(tiles.lo));
  Extent last = tiles.hi;
  for (int d = 0; d < max_dims; ++d) last[d] -= 1;
  cells.hi = tiling.box(tiling.index(last)).hi;
  const Tiling local(cells.extent(), tiling.dims(), tiling.tile_extent());
  const std::size_t count = std::min<std::size_t>(workers.size(), static_cast<std::size_t>(local.count()));
  const Partition partition(local, shape, std::vector<double>(count, 1.0));
  std::vector<int> worker_of(static_cast<std::size_t>(tiling.count()), -1);
  for (int l = 0; l < local.count(); ++l) {
    Extent c = local.coordinates(l);
    for (int d = 0; d < max_dims; ++d) c[d] += tiles.lo[d];
    worker_of[static_cast<std::size_t>(tiling.index(c))] = workers[static_cast<std::size_t>(partition.owner_of(l))];
  }
  for (int t = 0; t < tiling.count(); ++t) placement[static_cast<std::size_t>(t)].worker = worker_of[static_cast<std::size_t>(t)];
  for (const HaloPiece& piece : halo.pieces) {
    const auto producer = static_cast<std::size_t>(piece.producer), consumer = static_cast<std::size_t>(piece.consumer);
    if (worker_of[producer] != worker_of[consumer]) placement[producer].border = placement[consumer].border = true;
  }
  return placement;
}

}  // namespace trapeze
