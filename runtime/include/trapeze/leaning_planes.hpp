#pragma once
// The planes a skewed task updates, step by step (trapeze/skewed_slabs.hpp):
// its slab's planes at the pass's first step, moving `lean` planes a step,
// kept inside the domain but for an end held at the domain's edge. One
// formula for the schedule (the runtime) and the task (its CPU and CUDA
// codelets, which see the core only).
#include <algorithm>

#include "trapeze/geometry.hpp"

namespace trapeze {

struct PlaneRange {
  Index first = 0;
  Index last = -1;
  bool empty() const { return last < first; }
  Index count() const { return empty() ? 0 : last - first + 1; }
};

struct LeaningPlanes {
  PlaneRange start;         // the planes at the pass's first step
  Index lean = 0;           // planes moved a step: -r in a pass up the axis, +r down
  bool first_held = false;  // the first slab's bottom in a pass down
  bool last_held = false;   // the last slab's top in a pass up

  // The planes at step t (1..steps of the pass) of a domain of `planes`
  // planes (none: last < first).
  PlaneRange at(Index t, Index planes) const {
    const Index move = lean * (t - 1);
    return {first_held ? start.first : std::max<Index>(start.first + move, 0),
            last_held ? start.last : std::min<Index>(start.last + move, planes - 1)};
  }
};

}  // namespace trapeze
