#pragma once
// The flexible hyper-tile width of a PeerWave GPU wavefront (seed 004, section
// 4): the width w that minimises the wavefront's critical path, from two
// measured constants, the time d a band takes per column of its sweep and the
// cost tau_s of one peer synchronisation (publishing a hyper-tile's flag and
// waiting on the band above's).
//
// The seed's equation 3 for our kernel's geometry (codelets/cuda/
// wavefront_peerwave_kernel.cuh): a band of h rows (32 lanes x L rows) sweeps
// n(w) = ceil((columns + 31) / w) hyper-tiles of w columns (its lanes are
// skewed by one column each), each costing u(w) = w d + tau_s; a band may start
// a hyper-tile once the band above is lag(w) = 1 + ceil(31 / w) hyper-tiles
// ahead; P resident warps take the bands round-robin, so band b + P also
// waits for its warp to finish band b (the seed's blocking term B). The
// critical path is then the recurrence
//
//   start(b) = max(start(b - 1) + lag(w) u(w), start(b - P) + n(w) u(w)),
//   T = start(last band) + n(w) u(w),
//
// whose solution for the last band B is max(B lag, floor(B / P) n + (B mod P) lag)
// (either no band ever waits for its warp, or the last band's warp was busy
// all along). T is u(w) times that count G(w) of hyper-tile times,
// T = d w G(w) + tau_s G(w),
// linear in d and tau_s, so timings of a training run at two or more widths
// fit both (least squares), and the width minimising T for the real space is
// found by evaluating it for every width (the seed's closed form, its
// equation 4, is the minimum of the same curve where the blocking term holds).
#include <algorithm>
#include <vector>

#include "trapeze/wavefront.hpp"  // WavefrontGeometry: what the model needs of the kernel

namespace trapeze {

struct HyperTileCosts {
  double column_seconds = 0;  // d: a band's time per column of its sweep
  double sync_seconds = 0;    // tau_s: one hyper-tile's peer synchronisation
};

// G(w): the critical path in hyper-tile times (the recurrence above).
double hyper_tile_times(const WavefrontGeometry& g, int width);

// T(w) = (w d + tau_s) G(w).
double predicted_wavefront_seconds(const HyperTileCosts& costs, const WavefrontGeometry& g, int width);

// A training run's timing at one width, with the geometry the kernel had.
struct WidthSample {
  WavefrontGeometry geometry;
  int width = 32;
  double seconds = 0;
};

// d and tau_s from two or more samples (least squares, neither negative).
HyperTileCosts fit_hyper_tile_costs(const std::vector<WidthSample>& samples);

// The same fit for any kernel whose time is (w d + tau_s) G(w): a timing at
// width w with the kernel's G(w) (the in-place sweeps' model,
// sweep_width_model.hpp, has its own G).
struct HyperTileTiming {
  int width = 32;
  double hyper_tile_times = 0;  // G(w)
  double seconds = 0;
};
HyperTileCosts fit_hyper_tile_costs(const std::vector<HyperTileTiming>& samples);

// The width of smallest, smallest + step, ... <= largest whose `seconds_at(w)`
// is least (the first of equals): the choice both width models make.
template <typename SecondsAt>
int width_with_least_seconds(int smallest, int largest, int step, SecondsAt seconds_at) {
  int best = smallest;
  double best_seconds = 0;
  for (int w = smallest; w <= largest; w += std::max(1, step)) {
    const double seconds = seconds_at(w);
    if (w == smallest || seconds < best_seconds) best = w, best_seconds = seconds;
  }
  return best;
}

// The width in [smallest, largest] with the least predicted time, `geometry`
// giving the kernel's geometry at each width (its resident warps can depend on it).
template <typename GeometryAt>
int optimal_hyper_tile_width(const HyperTileCosts& costs, GeometryAt geometry, int smallest = 8, int largest = 512) {
  return width_with_least_seconds(smallest, largest, 1,
                                  [&](int w) { return predicted_wavefront_seconds(costs, geometry(w), w); });
}

}  // namespace trapeze
