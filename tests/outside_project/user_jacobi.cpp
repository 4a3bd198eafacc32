// An outside project's stencil through the installed package: runs, and
// equals the sequential reference bit for bit.
#include <trapeze/reference.hpp>
#include <trapeze/runtime.hpp>
#include <trapeze/stencil_run.hpp>

#include <cstdio>

struct Smooth {
  using value_type = float;
  static constexpr int dims = 2;
  static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::star};
  TRAPEZE_HOST_DEVICE float operator()(const trapeze::Neighbourhood<float>& at) const {
    return 0.2f * (at(0, 0) + at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1));
  }
};

int main() {
  trapeze::Runtime runtime;
  trapeze::Grid<float> grid({301, 203, 1}, 2, 1);
  for (std::size_t i = 0; i < grid.updated().size(); ++i) grid.updated()[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
  auto expected = grid;
  {
    trapeze::StencilRun run(runtime, Smooth{}, grid, trapeze::Plan{{301, 64, 1}, 3});
    run.submit(10);
    run.wait();
  }
  trapeze::reference::advance(Smooth{}, expected, 10);
  const bool same = grid.updated() == expected.updated();
  std::printf("outside project: %s\n", same ? "equal to the reference" : "DIFFERS from the reference");
  return same ? 0 : 1;
}
