// trapeze-wavefront: one queue of ready tasks in priority order, the
// wavefront's critical-path priorities (trapeze/wavefront.hpp) putting the
// front first. Among the ready tiles of the front, a worker takes one of the
// rows it owns when there is one (seed 004's rows assigned to SMs, here to
// workers): the left strip it reads was written by the same worker a moment
// ago and is still in its cache. It never waits for its own rows: any ready
// task of the highest priority will do.
#include <atomic>
#include <memory>
#include <mutex>

#include "policies.hpp"
#include "policy_support.hpp"
#include "task_queue.hpp"

namespace trapeze::policies {

namespace {

struct FrontQueue {
  std::mutex mutex;
  TaskQueue ready;
  std::atomic<std::size_t> queued{0};
};

FrontQueue& queue_of(unsigned context) { return *static_cast<FrontQueue*>(starpu_sched_ctx_get_policy_data(context)); }

void init(unsigned context) { starpu_sched_ctx_set_policy_data(context, new FrontQueue); }

void deinit(unsigned context) {
  delete static_cast<FrontQueue*>(starpu_sched_ctx_get_policy_data(context));
  starpu_sched_ctx_set_policy_data(context, nullptr);
}

int push(starpu_task* task) {
  FrontQueue& front = queue_of(task->sched_ctx);
  const TaskPlacement* placement = placement_of(task);
  int preferred = placement ? placement->worker : -1;
  if (preferred >= static_cast<int>(starpu_worker_get_count())) preferred = -1;
  const WakeUp wake_up(task->sched_ctx, task, preferred, false);
  {
    RelaxedLock lock(front.mutex);
    front.ready.push(task);
    front.queued.fetch_add(1);
    starpu_push_task_end(task);
  }
  wake_up.wake();  // `task` may already have run and been freed
  return 0;
}

starpu_task* pop(unsigned context) {
  FrontQueue& front = queue_of(context);
  if (front.queued.load() == 0) return nullptr;
  const unsigned worker = static_cast<unsigned>(starpu_worker_get_id_check());
  RelaxedLock lock(front.mutex);
  starpu_task* task = front.ready.take_preferring([worker](starpu_task* t) { return can_run(worker, t); },
                                                  [worker](starpu_task* t) {
                                                    const TaskPlacement* p = placement_of(t);
                                                    return p && p->worker == static_cast<int>(worker);
                                                  });
  if (task) front.queued.fetch_sub(1);
  return claimed(worker, task);
}

starpu_sched_policy policy =
    make_policy("trapeze-wavefront", "Trapeze: critical-path priorities first, each worker preferring its own rows of the front", init, deinit, push, pop);

}  // namespace

starpu_sched_policy* wavefront_policy() { return &policy; }

}  // namespace trapeze::policies
