#pragma once
// A queue of ready tasks in priority order (highest first, then first come,
// first served), from which a worker takes the first task that suits it. Not
// locked: the policy that owns it holds its lock around every call.
#include <starpu.h>

#include <cstdint>
#include <set>

namespace trapeze::policies {

class TaskQueue {
 public:
  void push(starpu_task* task) { entries_.insert({task->priority, next_++, task}); }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

  // Removes and returns the first task (in priority order) for which
  // `suits(task)` holds, or nullptr.
  template <typename Predicate>
  starpu_task* take_first(Predicate&& suits) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (suits(it->task)) return take(it);
    }
    return nullptr;
  }

  // Among the tasks of the highest priority that `can_run` accepts, the first
  // that `prefers` too, else the first of them; nullptr when none is accepted.
  template <typename CanRun, typename Prefers>
  starpu_task* take_preferring(CanRun&& can_run, Prefers&& prefers) {
    auto first = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (first != entries_.end() && it->priority != first->priority) break;
      if (!can_run(it->task)) continue;
      if (prefers(it->task)) return take(it);
      if (first == entries_.end()) first = it;
    }
    return first == entries_.end() ? nullptr : take(first);
  }

 private:
  struct Entry {
    int priority;
    std::uint64_t order;
    starpu_task* task;
    bool operator<(const Entry& other) const {
      return priority != other.priority ? priority > other.priority : order < other.order;
    }
  };
  starpu_task* take(std::set<Entry>::iterator it) {
    starpu_task* task = it->task;
    entries_.erase(it);
    return task;
  }

  std::set<Entry> entries_;
  std::uint64_t next_ = 0;
};

}  // namespace trapeze::policies
