// trapeze-owner: a tile's tasks run on the worker that owns the tile
// (owner computes; trapeze/partition.hpp decides owners). Each worker has its
// own queue in priority order; tasks with no owner (grid copies, checkpoint
// writes) wait in a shared one. A worker with nothing of its own takes a
// shared task, else a task of another owner's border: interiors never move,
// so a partition's data stays where it is, while a worker that ran dry can
// still help along the edges where owners wait for each other.
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "policies.hpp"
#include "policy_support.hpp"
#include "task_queue.hpp"

namespace trapeze::policies {

namespace {

struct OwnerQueues {
  std::mutex mutex;
  std::vector<TaskQueue> owned;  // by StarPU worker id
  TaskQueue shared;
  std::atomic<std::size_t> queued{0};  // read without the lock to skip an empty scheduler
};

OwnerQueues& queues_of(unsigned context) {
  return *static_cast<OwnerQueues*>(starpu_sched_ctx_get_policy_data(context));
}

void init(unsigned context) {
  auto queues = std::make_unique<OwnerQueues>();
  queues->owned.resize(starpu_worker_get_count());
  starpu_sched_ctx_set_policy_data(context, queues.release());
}

void deinit(unsigned context) {
  delete static_cast<OwnerQueues*>(starpu_sched_ctx_get_policy_data(context));
  starpu_sched_ctx_set_policy_data(context, nullptr);
}

int push(starpu_task* task) {
  OwnerQueues& queues = queues_of(task->sched_ctx);
  const TaskPlacement* placement = placement_of(task);
  int owner = placement ? placement->worker : -1;
  if (owner >= static_cast<int>(queues.owned.size()) || (owner >= 0 && !can_run(static_cast<unsigned>(owner), task))) {
    owner = -1;  // an owner that cannot run this kind of task: anyone may
  }
  const WakeUp wake_up(task->sched_ctx, task, owner, owner < 0 || placement->border);
  {
    RelaxedLock lock(queues.mutex);
    (owner >= 0 ? queues.owned[static_cast<std::size_t>(owner)] : queues.shared).push(task);
    queues.queued.fetch_add(1);
    starpu_push_task_end(task);
  }
  wake_up.wake();  // `task` may already have run and been freed
  return 0;
}

starpu_task* pop(unsigned context) {
  OwnerQueues& queues = queues_of(context);
  if (queues.queued.load() == 0) return nullptr;
  const unsigned worker = static_cast<unsigned>(starpu_worker_get_id_check());
  auto runnable = [worker](starpu_task* t) { return can_run(worker, t); };
  RelaxedLock lock(queues.mutex);
  starpu_task* task = queues.owned[worker].take_first([](starpu_task*) { return true; });
  if (!task) task = queues.shared.take_first(runnable);
  for (std::size_t i = 1; !task && i < queues.owned.size(); ++i) {
    TaskQueue& victim = queues.owned[(worker + i) % queues.owned.size()];
    task = victim.take_first([&](starpu_task* t) { return placement_of(t)->border && runnable(t); });
  }
  if (task) queues.queued.fetch_sub(1);
  return claimed(worker, task);
}

starpu_sched_policy policy =
    make_policy("trapeze-owner", "Trapeze: owner computes (tiles run where the partitioner placed them; idle workers take only border tiles)", init, deinit, push, pop);

}  // namespace

starpu_sched_policy* owner_policy() { return &policy; }

}  // namespace trapeze::policies
