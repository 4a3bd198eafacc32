#pragma once
// The PeerWave kernels launched directly (tests/peerwave_kernels_cuda.cu),
// each of the two forced: the codelet's rule takes the pair kernel for every
// small grid, so only a direct launch reaches the one-warp kernel there.
#include <string>
#include <vector>

#include "wavefronts/over_relaxation.hpp"

namespace trapeze_test {

// `sweeps` sweeps of a rows x columns grid (row-major), `per_launch` sweeps a
// launch, by the one-warp kernel (pair false) or the pair kernel; "" or the
// CUDA error.
std::string peerwave_sweeps(const apps::OverRelaxation& sweep, std::vector<double>& cells, long rows, long columns,
                            int width, int sweeps, int per_launch, bool pair);

}  // namespace trapeze_test
