#pragma once
// Which MPI rank owns each tile of a run spread over ranks (Plan::distribute
// on a Runtime with several ranks): the rank that allocates the tile, runs its
// tasks and publishes its halo pieces. Empty for a run in one process.
#include <cstdint>
#include <vector>

namespace trapeze {

struct TileOwners {
  std::vector<int> rank_of_tile;  // empty: one process holds every tile
  int rank = 0;                   // this process's rank
  std::int64_t first_tag = 0;     // StarPU-MPI tags of the run's handles start here

  bool distributed() const { return !rank_of_tile.empty(); }
  int owner(int tile) const { return rank_of_tile.empty() ? 0 : rank_of_tile[static_cast<std::size_t>(tile)]; }
  bool local(int tile) const { return owner(tile) == rank; }
};

}  // namespace trapeze
