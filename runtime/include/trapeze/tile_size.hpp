#pragma once
// A default tile size for CPUs: whole rows (long unit-stride inner loops and
// no halo across x), the slowest dimension cut so each worker gets several
// tiles to balance the load and overlap neighbouring stages.
#include "trapeze/geometry.hpp"

namespace trapeze {

inline constexpr int tiles_per_worker = 4;

Extent choose_tile(const Extent& domain, int dims, int workers);

}  // namespace trapeze
