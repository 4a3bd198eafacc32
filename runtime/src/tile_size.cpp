#include "trapeze/tile_size.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace trapeze {

Extent choose_tile(const Extent& domain, int dims, int workers, int height) {
  Extent tile = domain;
  Index wanted = static_cast<Index>(std::max(1, workers)) * (height == 1 ? tiles_per_worker_at_height_1 : tiles_per_worker);
  // Cut from the slowest dimension down, never x unless the domain is 1-D.
  for (int d = dims - 1; d >= 0 && wanted > 1; --d) {
    if (d == 0 && dims > 1) break;
    const Index pieces = std::min(wanted, domain[d]);
    tile[d] = (domain[d] + pieces - 1) / pieces;
    wanted = (wanted + pieces - 1) / pieces;
  }
  return tile;
}

Index slabs_within_vector_limit(const Extent& domain, int dims, double read_only_elements_per_cell) {
  const double most = 0.9 * static_cast<double>(std::numeric_limits<std::uint32_t>::max());
  double cells = 1;
  for (int e = 0; e < dims; ++e) cells *= static_cast<double>(domain[e]);
  const double elements = cells * read_only_elements_per_cell;
  if (elements <= most) return 1;
  return std::min<Index>(domain[dims - 1], static_cast<Index>(std::ceil(elements / most)));
}

Extent choose_gpu_tile(const Extent& domain, int dims, int gpus, int per_gpu, double read_only_elements_per_cell) {
  Extent tile = domain;
  const int d = dims - 1;
  if (per_gpu <= 0) per_gpu = default_tiles_per_gpu(gpus);
  const Index pieces =
      std::min<Index>(std::max<Index>(static_cast<Index>(std::max(1, gpus)) * per_gpu,
                                      slabs_within_vector_limit(domain, dims, read_only_elements_per_cell)),
                      domain[d]);
  tile[d] = (domain[d] + pieces - 1) / pieces;
  return tile;
}

int default_tiles_per_gpu(int gpus) { return gpus == 1 ? 1 : tiles_per_gpu; }

int one_gpu_bands(const Extent& domain, int dims, double host_bytes, double one_tile_stepping_seconds) {
  if (dims < 2) return 1;
  const double share = dims == 3 ? stepping_share_for_bands_3d : stepping_share_for_bands;
  if (one_tile_stepping_seconds >= share * host_bytes * host_copy_seconds_per_byte) return 1;
  double cells = 1;
  for (int d = 0; d < dims; ++d) cells *= static_cast<double>(domain[d]);
  for (const int bands : {host_copy_bands, 4}) {
    if (cells / bands >= least_band_cells && domain[dims - 1] / bands >= thinnest_band) return bands;
  }
  return 1;
}

int gpu_tiles_per_gpu(const Extent& domain, int dims, int gpus, int ranks, Index radius, double cell_bytes) {
  if (ranks <= 1 || gpus <= 1) return tiles_per_gpu;
  const double slab = static_cast<double>(domain[dims - 1]) / gpus;  // cut along the slowest dimension
  const double share = static_cast<double>(radius) * cell_bytes * gpu_cells_per_second / (rank_link_bytes_per_second * slab);
  if (share < strip_trip_share_for_more_tiles) return tiles_per_gpu;
  const auto thick_enough = static_cast<int>(slab / static_cast<double>(thinnest_tile_between_ranks));
  return std::clamp(thick_enough, tiles_per_gpu, most_tiles_per_gpu_between_ranks);
}

std::vector<Extent> out_of_core_tiles(const Extent& domain, int dims, double cell_bytes, double budget_bytes, int larger) {
  std::vector<Extent> halvings{domain};
  const auto bytes = [&](const Extent& tile) {
    double cells = 1;
    for (int d = 0; d < dims; ++d) cells *= static_cast<double>(tile[d]);
    return cells * cell_bytes;
  };
  while (bytes(halvings.back()) > budget_bytes) {
    Extent tile = halvings.back();
    int longest = 0;
    for (int d = 1; d < dims; ++d) {
      if (tile[d] >= tile[longest]) longest = d;  // ties: the slowest dimension, so rows stay long
    }
    if (tile[longest] <= 1) break;
    tile[longest] = (tile[longest] + 1) / 2;
    halvings.push_back(tile);
  }
  std::vector<Extent> tiles;
  for (int i = static_cast<int>(halvings.size()) - 1; i >= 0 && static_cast<int>(tiles.size()) <= larger; --i) {
    tiles.push_back(halvings[static_cast<std::size_t>(i)]);
  }
  return tiles;
}

}  // namespace trapeze
