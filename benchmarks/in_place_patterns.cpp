// What updating a tile in place costs on this machine's memory, against
// sweeping from one buffer into another (issue 9: Trapeze's CPU tiles are
// updated in place, so a run's host memory stays near one copy of the domain;
// a hand-written per-step StarPU program sweeps between two whole buffers).
// One core, no StarPU: jacobi2d float sweeps of a 4096^2 grid (64 MiB):
// Trapeze's in-place sweep (codelets/cpu/sweep_in_place.hpp: each chunk
// of rows computed into a small buffer, written back over the tile once the
// next chunk is computed) at several chunk sizes, against the same update
// function sweeping between two buffers. Every variant once per round in
// turn, medians; the in-place grids are checked equal to the two-buffer one.
// A table last.
//
//   build/benchmarks/in_place_patterns [--rounds 5]
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "codelets/cpu/sweep_in_place.hpp"
#include "common/app_main.hpp"
#include "stencils/jacobi2d.hpp"

namespace {

using trapeze::Index;

double seconds_of(const std::function<void()>& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Variant {
  std::string name;
  double units;  // cell updates per call
  std::function<void()> body;
  std::vector<double> seconds{};
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"In-place updates against sweeps between two buffers, one core"};
  int rounds = 5;
  cli.add_option("--rounds", rounds, "rounds of every variant")->capture_default_str()->check(CLI::Range(1, 99));
  return apps::app_main("in_place_patterns", cli, argc, argv, [&] {
    using Stencil = apps::Jacobi2D<float>;
    std::vector<Variant> variants;
    // jacobi2d 4096^2 in a padded tile (ghost ring of 1, clamp values left as they are).
    const Index side = 4096;
    trapeze::TileLayout layout;
    layout.dims = 2;
    layout.padded = {side + 2, side + 2, 1};
    layout.tile = trapeze::Box{{0, 0, 0}, {side, side, 1}};
    layout.ghost = {1, 1, 0};
    layout.domain = {side, side, 1};
    layout.radius = Stencil::shape.radius;
    layout.updated_fields = 1;
    const Index cells = layout.padded_cells();
    const trapeze::Box region{{1, 1, 0}, {side + 1, side + 1, 1}};
    std::vector<float> grid(static_cast<std::size_t>(cells));
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = static_cast<float>(i % 7);
    std::vector<float> other = grid;  // the same ghost ring: both sweeps read it
    const std::vector<Index> chunk_rows{1, 8, 32};  // 16 KiB to 512 KiB chunks (Trapeze: 128 KiB, 8 rows here)
    // Each in-place variant its own grid, from the same start: every call
    // makes two sweeps, as the two-buffer call does, so after each round
    // all grids hold the same step.
    std::vector<std::vector<float>> in_place(chunk_rows.size(), grid);
    std::vector<std::vector<float>> chunks(chunk_rows.size());
    const double updates = static_cast<double>(side) * static_cast<double>(side);
    // Two buffers: one sweep reads `grid` and writes `other`, then the same back.
    variants.push_back({"jacobi2d 4096^2: two buffers (2 sweeps)", 2 * updates, [&] {
                          trapeze::detail::sweep_into(Stencil{}, grid.data(), other.data(), 0, cells, static_cast<const float*>(nullptr),
                                                      0, layout.padded, region, 0);
                          trapeze::detail::sweep_into(Stencil{}, other.data(), grid.data(), 0, cells, static_cast<const float*>(nullptr),
                                                      0, layout.padded, region, 1);
                        }});
    for (std::size_t v = 0; v < chunk_rows.size(); ++v) {
      trapeze::TileLayout p = layout;
      p.chunk_thickness = chunk_rows[v];
      chunks[v].resize(static_cast<std::size_t>(p.chunk_cells()));
      variants.push_back({fmt::format("jacobi2d 4096^2: in place, chunks of {} rows (2 sweeps)", chunk_rows[v]), 2 * updates,
                          [&, p, v] {
                            for (Index k = 0; k < 2; ++k) {
                              trapeze::sweep_in_place(Stencil{}, in_place[v].data(), static_cast<const float*>(nullptr), 0, p,
                                                      region, k, chunks[v].data());
                            }
                          }});
    }
    for (int round = 0; round < rounds; ++round) {
      for (Variant& v : variants) v.seconds.push_back(seconds_of(v.body));
      fmt::print(stderr, "\rround {} of {}", round + 1, rounds);
    }
    fmt::print(stderr, "\n");
    const bool same = std::all_of(in_place.begin(), in_place.end(), [&](const std::vector<float>& g) {
      return std::memcmp(grid.data(), g.data(), grid.size() * sizeof(float)) == 0;
    });
    fmt::print("one core, medians of {} rounds\n", rounds);
    fmt::print("{:<58} {:>14} {:>12}\n", "variant", "G cells/s", "x two buf.");
    const double two_buffers = variants.front().units / median(variants.front().seconds) / 1e9;
    for (const Variant& v : variants) {
      const double rate = v.units / median(v.seconds) / 1e9;
      fmt::print("{:<58} {:>14.3f} {:>12.3f}\n", v.name, rate, rate / two_buffers);
    }
    fmt::print("in-place grids {} the two-buffer grid after {} rounds\n", same ? "equal" : "DIFFER FROM", rounds);
    return same ? 0 : 1;
  });
}
