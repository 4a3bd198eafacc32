#pragma once
// The hyper-tile width of the in-place sweeps' PeerWave kernel
// (codelets/cuda/sweep_peerwave_kernel.cuh) from seed 004's model, for that
// kernel's schedule: a task makes S sweeps of a tile of B bands (32 rows) in
// one launch, each work item (sweep t, band b) sweeps n(w) = ceil((columns +
// 31) / w) hyper-tiles of w columns, each costing u(w) = w d + tau_s, and P(w)
// blocks (as many as the GPU holds at once; fewer when wider hyper-tiles need
// more shared memory) take the items in order t B + b. In hyper-tile times,
// an item starts its first hyper-tile when
//   - the band above in its sweep has published 2 (its row 31 of chunks 0, 1),
//   - its own band in the sweep before has published 4, the band below there 3
//     (the old values its first copy reads),
//   - its block has finished item i - P (n + 1: the memory warp's last store),
// a count k <= n being out k hyper-tiles after an item's start (counts past n
// at n + 1), and it ends n after its start. G(w) is the last end, and
// T(w) = u(w) G(w) is linear in d and tau_s, so the training run's timings
// at a few widths fit both (fit_hyper_tile_costs) and the width with the
// least predicted time is chosen, as for wavefronts (hyper_tile_width_model.hpp).
#include <functional>

#include "trapeze/hyper_tile_width_model.hpp"
#include "trapeze/sweep.hpp"

namespace trapeze {

struct SweepGeometry {
  Index rows = 0;           // the tile's
  Index columns = 0;
  Index sweeps = 1;         // a launch's (a task's)
  int resident_blocks = 1;  // P(w)
};

// G(w): one launch's time in hyper-tile times (the recurrence above).
double sweep_hyper_tile_times(const SweepGeometry& g, int width);

// T(w) = (w d + tau_s) G(w).
double predicted_sweep_seconds(const HyperTileCosts& costs, const SweepGeometry& g, int width);

// The width of [smallest, largest] in steps of `step` with the least
// predicted time, `geometry` giving the launch's geometry at each width.
int optimal_sweep_width(const HyperTileCosts& costs, const std::function<SweepGeometry(int)>& geometry, int smallest = 32,
                        int largest = 256, int step = 8);

}  // namespace trapeze
