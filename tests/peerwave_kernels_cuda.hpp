#pragma once
// The PeerWave kernel launched directly (tests/peerwave_kernels_cuda.cu):
// several launches of a few sweeps each, which the codelet never makes (it
// puts all of a task's sweeps in one launch).
#include <string>
#include <vector>

#include "wavefronts/over_relaxation.hpp"

namespace trapeze_test {

// `sweeps` sweeps of a rows x columns grid (row-major), `per_launch` sweeps a
// launch; "" or the CUDA error.
std::string peerwave_sweeps(const apps::OverRelaxation& sweep, std::vector<double>& cells, long rows, long columns,
                            int width, int sweeps, int per_launch);

}  // namespace trapeze_test
