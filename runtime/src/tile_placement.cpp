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

std::vector<TaskPlacement> place_tiles(const Tiling& tiling, const StencilShape& shape, const HaloLayout& halo,
                                       const std::vector<int>& workers) {
  std::vector<TaskPlacement> placement(static_cast<std::size_t>(tiling.count()));
  if (workers.empty()) return placement;
  const std::size_t owners = std::min<std::size_t>(workers.size(), static_cast<std::size_t>(tiling.count()));
  const Partition partition(tiling, shape, std::vector<double>(owners, 1.0));
  const std::vector<bool> border = border_tiles(partition, halo);
  for (int t = 0; t < tiling.count(); ++t) {
    placement[static_cast<std::size_t>(t)] = {workers[static_cast<std::size_t>(partition.owner_of(t))],
                                              border[static_cast<std::size_t>(t)]};
  }
  return placement;
}

}  // namespace trapeze
