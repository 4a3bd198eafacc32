#pragma once
// Skewed slabs: the out-of-core schedule that moves no ghost zone (seed 003,
// PACC, streams chunks of a block plus a halo of r*k; this streams the same
// chunks without the halo). The domain is cut along its slowest axis into
// slabs of L planes, full in the other axes. A pass advances every plane by
// k steps, one task a slab in order: task j, at its step t, updates the
// planes [jL - r(t-1), (j+1)L - 1 - r(t-1)], the parallelogram of its slab
// leaning back by r planes a step. What it leaves unfinished at its top is
// finished by task j+1, which reads task j's planes at the step before from
// the other buffer of the double-buffered fields (buffers by the parity of
// the step). Every plane is updated once a step; a slab crosses PCIe once a
// pass. Measured with a probe on an H200 (docs/PERF.md, 2026-11-28, session
// 34): Himeno L under a quarter cap moved 7x fewer bytes than trapezoids.
//
// Passes alternate direction (zig-zag): odd passes run down the axis, task j
// of such a pass working on slab count - 1 - j with its parallelogram
// leaning up. A pass then starts where the one before ended: the slabs its
// last task touched are still in the device's ring (codelets/skewed_args.hpp),
// at the step the next pass starts from, so they neither go home at the end
// of one pass nor come back at the start of the next (skewed_schedule), and
// the next pass's first tasks, small ones, wait for no upload.
//
// Needs a radius r >= 1 along the axis, L >= r, and a boundary along the
// axis that does not wrap (a periodic one would read the far end at another
// step).
#include <utility>
#include <vector>

#include "trapeze/geometry.hpp"
#include "trapeze/leaning_planes.hpp"

namespace trapeze {

// The axis skewed slabs cut: the slowest of the grid's dimensions.
inline int skewed_axis(int dims) { return dims >= 3 ? 2 : dims - 1; }

class SkewedSlabs {
 public:
  // planes: the domain's extent along the axis; slab: L; height: k, the
  // steps of a full pass; radius: r along the axis. Throws InvalidArgument
  // naming a value out of range.
  SkewedSlabs(Index planes, Index slab, Index height, Index radius);

  int count() const { return count_; }
  Index planes() const { return planes_; }
  Index slab() const { return slab_; }
  Index height() const { return height_; }
  Index radius() const { return radius_; }

  PlaneRange slab_planes(int j) const;
  // A pass's direction: passes 0, 2, ... run up the axis, 1, 3, ... down.
  static bool runs_down(Index pass) { return pass % 2 == 1; }
  // The slab of task j (its place in its pass).
  int slab_of(int j, bool down = false) const { return down ? count_ - 1 - j : j; }
  // Planes task j updates, step by step.
  LeaningPlanes leaning(int j, bool down = false) const;
  // Planes task j updates at its step t (1..steps of its pass).
  PlaneRange updated(int j, Index t, bool down = false) const { return leaning(j, down).at(t, planes_); }
  // Slabs task j reads or writes in a pass of `steps` steps: first, last.
  std::pair<int, int> touched(int j, Index steps, bool down = false) const;
  // The last task of a pass of `steps` steps that reads slab s: after it,
  // slab s holds the pass's last step and can leave the GPU.
  int last_task(int s, Index steps, bool down = false) const;
  // The most slabs a task of a full pass touches, up or down.
  int most_touched() const;
  // Slabs a GPU holds at once: those a task touches, and the one the next
  // task adds, arriving while it computes.
  int resident_slabs() const;

 private:
  Index planes_, slab_, height_, radius_;
  int count_;
};

// One task of a skewed run, in the order the run submits them.
struct SkewedTask {
  Index pass = 0;
  int order = 0;           // j, its place in its pass
  int slab = 0;            // the slab it works on
  bool down = false;       // its pass runs down the axis
  Index first_step = 0;    // the pass's first step, from the run's start
  Index steps = 0;         // the pass's steps
  int first_slab = 0;      // the slabs it touches
  int last_slab = 0;
  int in_first = 0;        // the slabs it copies from their home into the
  int in_last = -1;        // ring, at the pass's first step (none: last < first)
  int out_first = 0;       // the slabs it copies home, at the pass's last step
  int out_last = -1;
  LeaningPlanes planes;    // the planes it updates, step by step

  bool copies_in() const { return in_last >= in_first; }
  bool copies_out() const { return out_last >= out_first; }
};

// Every task of a run of `steps` steps, in order. A task copies in the
// slabs it touches that the ring does not hold: those no task before it
// touched since they last went home (a pass's first task: only those the
// pass before's last task did not touch). It copies home the slabs whose
// last task of the pass it is, but for the last task of a pass that is not
// the run's last, whose slabs the next pass takes over in the ring. Throws
// std::logic_error where the slabs to copy in are not one range.
std::vector<SkewedTask> skewed_schedule(const SkewedSlabs& slabs, Index steps);

// The slab width and pass height for a GPU budget: the fewest passes over
// `steps` whose resident slabs fit `budget_bytes` at `plane_bytes` a plane
// (a slab of L planes takes L * plane_bytes), besides three slabs on the
// move (arriving, in use, leaving) at `moving_plane_bytes` a plane, then the widest slab that
// keeps them and still leaves `min_count` slabs (wider slabs launch fewer,
// larger kernels; fewer slabs than that leave the copies between the grid
// and the slabs, one CPU task a slab, too few tasks, and nothing to overlap
// them: one slab of Himeno L in core ran 2.9x slower than slabs of 8
// planes), else the narrowest wider one, then the lowest pass height that
// keeps all that (passes as even as they can be). Slabs are at least
// `min_slab` planes where any such fits (a task's launches must not be so
// small that launching costs more than computing), and a task touches at
// most `max_touched` slabs (0: any number). Throws InvalidArgument when not
// even L = r, k = 1 fits.
SkewedSlabs choose_skewed_slabs(Index planes, Index radius, Index steps, double plane_bytes, double budget_bytes,
                                Index min_slab = 1, int max_touched = 0, int min_count = 1,
                                double moving_plane_bytes = 0);

}  // namespace trapeze
