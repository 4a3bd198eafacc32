#include "trapeze/skewed_slabs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "trapeze/error.hpp"

namespace trapeze {

namespace {

Index ceil_div(Index a, Index b) { return (a + b - 1) / b; }

}  // namespace

SkewedSlabs::SkewedSlabs(Index planes, Index slab, Index height, Index radius)
    : planes_(planes), slab_(slab), height_(height), radius_(radius) {
  if (planes < 1) throw InvalidArgument("skewed slabs need at least one plane, got " + std::to_string(planes));
  if (radius < 1) throw InvalidArgument("skewed slabs need a radius >= 1 along their axis, got " + std::to_string(radius));
  if (slab < radius || slab > planes) {
    throw InvalidArgument("slab of " + std::to_string(slab) + " planes: must be from the radius (" +
                          std::to_string(radius) + ") to the domain's " + std::to_string(planes) + " planes");
  }
  if (height < 1) throw InvalidArgument("skewed slabs need a pass height >= 1, got " + std::to_string(height));
  count_ = static_cast<int>(ceil_div(planes, slab));
}

PlaneRange SkewedSlabs::slab_planes(int j) const {
  return {j * slab_, std::min(planes_, (j + 1) * slab_) - 1};
}

LeaningPlanes SkewedSlabs::leaning(int j, bool down) const {
  const int s = slab_of(j, down);
  return {slab_planes(s), down ? radius_ : -radius_, down && s == 0, !down && s == count_ - 1};
}

std::pair<int, int> SkewedSlabs::touched(int j, Index steps, bool down) const {
  const Index s = slab_of(j, down);
  if (down) {
    // Its lowest plane at its first step reads r below, in the slab below
    // (L >= r); its highest at its last step reads r above.
    const Index highest = std::min(planes_ - 1, (s + 1) * slab_ - 1 + radius_ * steps);
    return {static_cast<int>(std::max<Index>(0, s - 1)), static_cast<int>(highest / slab_)};
  }
  const Index lowest = std::max<Index>(0, s * slab_ - radius_ * steps);
  return {static_cast<int>(lowest / slab_), static_cast<int>(std::min<Index>(count_ - 1, s + 1))};
}

int SkewedSlabs::last_task(int s, Index steps, bool down) const {
  if (down) {
    // The lowest slab whose task reaches up to slab s.
    const Index lowest = std::max<Index>(0, s - 1 - (radius_ * steps - 1) / slab_);
    return count_ - 1 - static_cast<int>(lowest);
  }
  return static_cast<int>(std::min<Index>(count_ - 1, s + ceil_div(radius_ * steps, slab_)));
}

int SkewedSlabs::most_touched() const {
  int most = 0;
  for (const bool down : {false, true}) {
    for (int j = 0; j < count_; ++j) {
      const auto [first, last] = touched(j, height_, down);
      most = std::max(most, last - first + 1);
    }
  }
  return most;
}

int SkewedSlabs::resident_slabs() const {
  return static_cast<int>(std::min<Index>(count_, ceil_div(radius_ * height_, slab_) + 3));
}

std::vector<SkewedTask> skewed_schedule(const SkewedSlabs& slabs, Index steps) {
  if (steps < 0) throw InvalidArgument("skewed slabs need steps >= 0, got " + std::to_string(steps));
  std::vector<SkewedTask> tasks;
  const int count = slabs.count();
  const Index passes = ceil_div(steps, slabs.height());
  tasks.reserve(static_cast<std::size_t>(passes * count));
  // The slabs whose newest values the ring holds: first, last (none: last < first).
  int held_first = 0, held_last = -1;
  for (Index pass = 0; pass < passes; ++pass) {
    const bool down = SkewedSlabs::runs_down(pass);
    const Index done = pass * slabs.height(), pass_steps = std::min(slabs.height(), steps - done);
    for (int j = 0; j < count; ++j) {
      SkewedTask task;
      task.pass = pass;
      task.order = j;
      task.slab = slabs.slab_of(j, down);
      task.down = down;
      task.first_step = done;
      task.steps = pass_steps;
      std::tie(task.first_slab, task.last_slab) = slabs.touched(j, pass_steps, down);
      // New to the ring: what it touches beyond what the ring holds, at one end.
      const bool below = task.first_slab < held_first, above = task.last_slab > held_last;
      if (held_last < held_first || task.last_slab < held_first || task.first_slab > held_last) {
        task.in_first = task.first_slab, task.in_last = task.last_slab;
      } else if (below && above) {
        throw std::logic_error("skewed task " + std::to_string(j) + " of pass " + std::to_string(pass) +
                               " needs slabs on both sides of the ring's");
      } else if (below) {
        task.in_first = task.first_slab, task.in_last = held_first - 1;
      } else if (above) {
        task.in_first = held_last + 1, task.in_last = task.last_slab;
      }
      // New planes may overwrite those of slabs it does not touch.
      if (task.copies_in()) held_first = task.first_slab, held_last = task.last_slab;
      if (j < count - 1 || pass == passes - 1) {
        for (int s = task.first_slab; s <= task.last_slab; ++s) {
          if (slabs.last_task(s, pass_steps, down) != j) continue;
          if (!task.copies_out()) task.out_first = s;
          task.out_last = s;
        }
      }
      task.planes = slabs.leaning(j, down);
      tasks.push_back(task);
    }
  }
  return tasks;
}

SkewedSlabs choose_skewed_slabs(Index planes, Index radius, Index steps, double plane_bytes, double budget_bytes,
                                Index min_slab, int max_touched, int min_count, double moving_plane_bytes) {
  if (steps < 1) throw InvalidArgument("skewed slabs need steps >= 1, got " + std::to_string(steps));
  const auto fits = [&](Index slab, Index height) {
    const SkewedSlabs s(planes, slab, height, radius);
    if (max_touched > 0 && std::min<Index>(s.count(), ceil_div(radius * height, slab) + 2) > max_touched) return false;
    const double moving = static_cast<double>(std::min(3, s.count()));
    return static_cast<double>(slab) *
               (static_cast<double>(s.resident_slabs()) * plane_bytes + moving * moving_plane_bytes) <=
           budget_bytes;
  };
  // Slabs up to this width leave at least min_count of them.
  const Index widest_preferred = std::max<Index>(1, planes / std::max(1, min_count));
  // Of two slabs with the same passes: one within the preferred width over
  // one beyond it; within it, the wider; beyond it, the narrower.
  const auto better = [&](Index slab, Index than) {
    const bool in = slab <= widest_preferred, than_in = than <= widest_preferred;
    if (in != than_in) return in;
    return in ? slab > than : slab < than;
  };
  const auto best_from = [&](Index narrowest) -> std::pair<Index, Index> {  // slab, passes; slab 0: none fits
    Index best_passes = 0, best_slab = 0;
    for (Index slab = std::max(narrowest, radius); slab <= planes; ++slab) {
      if (!fits(slab, 1)) continue;
      // The tallest pass this slab fits: resident slabs grow with the height.
      Index low = 1, high = steps;
      while (low < high) {
        const Index mid = (low + high + 1) / 2;
        if (fits(slab, mid)) low = mid; else high = mid - 1;
      }
      const Index passes = ceil_div(steps, low);
      if (best_slab == 0 || passes < best_passes || (passes == best_passes && better(slab, best_slab))) {
        best_passes = passes;
        best_slab = slab;
      }
    }
    return {best_slab, best_passes};
  };
  auto [slab, passes] = best_from(std::min(std::max<Index>(min_slab, 1), planes));
  if (slab == 0) std::tie(slab, passes) = best_from(1);
  if (slab == 0) {
    throw InvalidArgument("skewed slabs do not fit " + std::to_string(budget_bytes / 1048576.0) +
                          " MiB: a slab of " + std::to_string(radius) + " planes takes " +
                          std::to_string(plane_bytes * static_cast<double>(radius) / 1048576.0) + " MiB");
  }
  return SkewedSlabs(planes, slab, ceil_div(steps, passes), radius);
}

}  // namespace trapeze
