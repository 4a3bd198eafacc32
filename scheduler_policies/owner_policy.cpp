// trapeze-owner: a tile's tasks run on the worker that owns the tile
// (owner computes; trapeze/partition.hpp decides owners). Each worker has its
// own queue in priority order, its border tasks first within a priority;
// tasks with no owner (grid copies, checkpoint writes) wait in a shared one.
// A worker with nothing of its own takes a shared task, else a task of
// another owner's border that shares its memory node: interiors never move,
// and no tile moves between memory nodes, so a partition's data stays where
// it is, while a worker that ran dry can still help along the edges where
// owners wait for each other. (A GPU taking another GPU's border tile
// moves the whole tile: on two H200s with 1 GiB tiles, 176 GB crossed
// between the GPUs for a 0.27 GB halo, PERF.md.)
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "policies.hpp"
#include "policy_support.hpp"
#include "task_queue.hpp"

namespace trapeze::policies {

namespace {

// Counts read without the lock let a worker with nothing to take return at
// once: on one GPU with fifteen idle CPU workers, every pop taking the lock
// and scanning the GPU's queue for border tasks held the GPU worker back
// (0.131 s against eager's 0.108 s for 64 tiles on an H100, PERF.md).
struct OwnerQueues {
  explicit OwnerQueues(std::size_t workers)
      : owned(workers), owned_count(std::make_unique<std::atomic<std::size_t>[]>(workers)) {}
  std::mutex mutex;
  std::vector<TaskQueue> owned;  // by StarPU worker id
  TaskQueue shared;
  std::unique_ptr<std::atomic<std::size_t>[]> owned_count;  // tasks in each owner's queue
  std::atomic<std::size_t> shared_count{0};
  std::atomic<std::size_t> border_count{0};  // border tasks in all owners' queues
};

OwnerQueues& queues_of(unsigned context) {
  return *static_cast<OwnerQueues*>(starpu_sched_ctx_get_policy_data(context));
}

void init(unsigned context) {
  auto queues = std::make_unique<OwnerQueues>(starpu_worker_get_count());
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
    if (owner >= 0) {
      queues.owned[static_cast<std::size_t>(owner)].push(task);
      queues.owned_count[static_cast<std::size_t>(owner)].fetch_add(1);
      if (placement->border) queues.border_count.fetch_add(1);
    } else {
      queues.shared.push(task);
      queues.shared_count.fetch_add(1);
    }
    starpu_push_task_end(task);
  }
  wake_up.wake();  // `task` may already have run and been freed
  return 0;
}

starpu_task* pop(unsigned context) {
  OwnerQueues& queues = queues_of(context);
  const unsigned worker = static_cast<unsigned>(starpu_worker_get_id_check());
  if (queues.owned_count[worker].load() == 0 && queues.shared_count.load() == 0 && queues.border_count.load() == 0) {
    return nullptr;
  }
  auto runnable = [worker](starpu_task* t) { return can_run(worker, t); };
  RelaxedLock lock(queues.mutex);
  auto took_owned = [&](starpu_task* task, std::size_t from) {
    queues.owned_count[from].fetch_sub(1);
    if (placement_of(task)->border) queues.border_count.fetch_sub(1);
    return task;
  };
  // Border tasks first (within a priority): their strips are what the
  // neighbouring owners wait for, so they cross while this worker computes
  // its interior. In arrival order, a GPU ran its border tile last in each
  // stage and the other GPU waited for its strip (0.07-0.09 s of 0.75 s on
  // two H100s, jacobi3d; PERF.md).
  starpu_task* task = queues.owned[worker].take_preferring([](starpu_task*) { return true; },
                                                           [](starpu_task* t) { return placement_of(t)->border; });
  if (task) return claimed(worker, took_owned(task, worker));
  task = queues.shared.take_first(runnable);
  if (task) {
    queues.shared_count.fetch_sub(1);
    return claimed(worker, task);
  }
  for (std::size_t i = 1; queues.border_count.load() > 0 && i < queues.owned.size(); ++i) {
    const std::size_t victim = (worker + i) % queues.owned.size();
    if (queues.owned_count[victim].load() == 0) continue;
    if (starpu_worker_get_memory_node(static_cast<unsigned>(victim)) != starpu_worker_get_memory_node(worker)) {
      continue;
    }
    task = queues.owned[victim].take_first([&](starpu_task* t) { return placement_of(t)->border && runnable(t); });
    if (task) return claimed(worker, took_owned(task, victim));
  }
  return claimed(worker, nullptr);
}

starpu_sched_policy policy =
    make_policy("trapeze-owner", "Trapeze: owner computes (tiles run where the partitioner placed them; idle workers take only border tiles)", init, deinit, push, pop);

}  // namespace

starpu_sched_policy* owner_policy() { return &policy; }

}  // namespace trapeze::policies
