#pragma once
// What every Trapeze policy needs from StarPU's scheduler interface, done
// the way StarPU's own policies do it.
#include <starpu.h>
#include <starpu_scheduler.h>

#include <mutex>
#include <vector>

#include "trapeze/task_placement.hpp"

namespace trapeze::policies {

// A policy's lock taken from a worker (or the submitting thread): while it
// waits, the worker is marked relaxed, so StarPU may wake or pause it
// meanwhile instead of deadlocking on the worker's own scheduling mutex.
class RelaxedLock {
 public:
  explicit RelaxedLock(std::mutex& mutex) {
    starpu_worker_relax_on();
    lock_ = std::unique_lock(mutex);
    starpu_worker_relax_off();
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

// A task without a codelet (StarPU's own synchronisation tasks) runs anywhere.
inline bool can_run(unsigned worker, starpu_task* task) {
  return !task->cl || starpu_worker_can_execute_task_first_impl(worker, task, nullptr) != 0;
}

// Hands `task` to `worker`: picks the implementation for the worker's kind.
inline starpu_task* claimed(unsigned worker, starpu_task* task) {
  if (!task || !task->cl) return task;
  unsigned implementation = 0;
  if (starpu_worker_can_execute_task_first_impl(worker, task, &implementation)) {
    starpu_task_set_implementation(task, implementation);
  }
  return task;
}

inline const TaskPlacement* placement_of(const starpu_task* task) {
  return static_cast<const TaskPlacement*>(task->sched_data);
}

// Whom to wake for a pushed task: decided while the policy's lock is held,
// since once it is released another worker may run the task and StarPU free it.
class WakeUp {
 public:
  // `preferred` (>= 0) first; unless it woke, or `wake_another` asks for a
  // second worker anyway, the first other worker of the context that can run
  // the task and was asleep.
  WakeUp(unsigned context, starpu_task* task, int preferred, bool wake_another)
      : preferred_(preferred), wake_another_(wake_another) {
    starpu_worker_collection* workers = starpu_sched_ctx_get_worker_collection(context);
    starpu_sched_ctx_iterator it;
    workers->init_iterator(workers, &it);
    while (workers->has_next(workers, &it)) {
      const int worker = static_cast<int>(workers->get_next(workers, &it));
      if (worker != preferred && can_run(static_cast<unsigned>(worker), task)) others_.push_back(worker);
    }
  }
  // Call after the lock is released (waking takes the workers' own locks).
  void wake() const {
    const bool woke = preferred_ >= 0 && starpu_wake_worker_relax_light(preferred_);
    if (woke && !wake_another_) return;
    for (int worker : others_) {
      if (starpu_wake_worker_relax_light(worker)) return;
    }
  }

 private:
  int preferred_;
  bool wake_another_;
  std::vector<int> others_;
};

// A policy of StarPU's kind "worker list" with only the hooks Trapeze's
// policies use; the rest stay empty.
inline starpu_sched_policy make_policy(const char* name, const char* description, void (*init)(unsigned),
                                       void (*deinit)(unsigned), int (*push)(starpu_task*),
                                       starpu_task* (*pop)(unsigned)) {
  starpu_sched_policy policy{};
  policy.init_sched = init;
  policy.deinit_sched = deinit;
  policy.push_task = push;
  policy.pop_task = pop;
  policy.policy_name = name;
  policy.policy_description = description;
  policy.worker_type = STARPU_WORKER_LIST;
  return policy;
}

}  // namespace trapeze::policies
