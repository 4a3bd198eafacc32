#pragma once
// Runs a stencil through Trapeze and through the sequential reference from the
// same random grid and asserts bit-for-bit equality.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "random_grids.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/stencil_run.hpp"

namespace tests {

struct Case {
  trapeze::Extent size;
  trapeze::Extent tile;
  trapeze::Boundary boundary;
  int height = 1;
  trapeze::Index steps = 9;
  trapeze::TrapezoidMode mode = trapeze::TrapezoidMode::shrink;
  trapeze::Index constant_planes = 1;  // PathFinder: one wall row per step
  int kernel_height = 1;               // GPU: steps per kernel launch
  trapeze::StageDevices devices = trapeze::StageDevices::automatic;
  bool stream_tiles = false;           // out-of-core streaming: tiles written back after each stage
};

inline std::string describe(const Case& c, int dims) {
  return "size " + trapeze::to_string(c.size, dims) + " tile " + trapeze::to_string(c.tile, dims) + " boundary " +
         trapeze::to_string(c.boundary) + " h " + std::to_string(c.height) + " steps " + std::to_string(c.steps) +
         " mode " + trapeze::to_string(c.mode) + " k " + std::to_string(c.kernel_height) + " devices " +
         trapeze::to_string(c.devices) + (c.stream_tiles ? " streamed" : "");
}

// Builds the grid a stencil needs (constant fields and planes included).
template <trapeze::Stencil S>
trapeze::Grid<typename S::value_type> make_grid(const Case& c) {
  return trapeze::Grid<typename S::value_type>(c.size, S::dims, trapeze::updated_fields_of<S>,
                                               trapeze::constant_fields_of<S>, c.constant_planes, c.boundary);
}

// `shape_values` adjusts the random grid first where a stencil needs values of
// its own (CIP's velocities of both signs).
template <trapeze::Stencil S>
void expect_matches_reference(trapeze::Runtime& runtime, const S& stencil, const Case& c,
                              const std::function<void(trapeze::Grid<typename S::value_type>&)>& shape_values = {}) {
  using T = typename S::value_type;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(describe(c, S::dims) + " seed " + std::to_string(seed));
  auto grid = make_grid<S>(c);
  randomise(grid, seed);
  if (shape_values) shape_values(grid);
  auto expected = grid;
  {
    trapeze::Plan plan{c.tile, c.height, c.mode, c.kernel_height, c.devices};
    plan.stream_tiles = c.stream_tiles;
    trapeze::StencilRun<S> run(runtime, stencil, grid, plan);
    run.submit(c.steps);
    run.wait();
    EXPECT_EQ(run.steps_submitted(), c.steps);
  }
  trapeze::reference::advance(stencil, expected, c.steps);
  for (int f = 0; f < grid.updated_count(); ++f) {
    const auto& got = grid.updated(f);
    const auto& want = expected.updated(f);
    std::size_t differing = 0, first = got.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
        if (first == got.size()) first = i;
        ++differing;
      }
    }
    ASSERT_EQ(differing, 0u) << "field " << f << " first difference at linear index " << first << ": got "
                             << +got[first] << ", expected " << +want[first];
  }
}

}  // namespace tests
