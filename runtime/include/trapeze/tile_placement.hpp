#pragma once
// Which worker owns each tile of a run: the workers that may run its stage
// tasks (StarPU worker kinds in `where`: STARPU_CPU, STARPU_CUDA or both) are
// the owners of a partition of the tiles (trapeze/partition.hpp, equal
// speeds), and each tile's placement names its owner and whether it borders
// another owner. trapeze-owner follows it; other policies ignore it.
#include <cstdint>
#include <vector>

#include "trapeze/halo_pieces.hpp"
#include "trapeze/stencil_shape.hpp"
#include "trapeze/task_placement.hpp"
#include "trapeze/tile_owners.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

// StarPU's workers of the kinds in `where`, in id order (CUDA first, then CPU).
std::vector<int> workers_of(std::uint32_t where);

// One placement per tile. With more workers than tiles the first
// workers own one tile each and the others own none.
// Spread over MPI ranks (`owners` distributed), only this rank's tiles (one
// box of them) are partitioned among its workers; the others get no worker,
// and a tile borders another owner when it exchanges a piece with another
// worker or another rank.
std::vector<TaskPlacement> place_tiles(const Tiling& tiling, const StencilShape& shape, const HaloLayout& halo,
                                       const std::vector<int>& workers, const TileOwners& owners = {});

}  // namespace trapeze
