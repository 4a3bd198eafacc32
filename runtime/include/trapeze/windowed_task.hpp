#pragma once
// A task inserted under a TaskWindow (the wavefront and sweep runs): counted
// before it exists, so its callback never finds more tasks done than
// submitted, and uncounted if StarPU refuses it. Across MPI ranks every rank
// inserts it (starpu_mpi_task_insert) and only the rank that runs it
// (task.execute_on) counts it.
#include <starpu.h>

#include "trapeze/distributed_data.hpp"
#include "trapeze/error.hpp"
#include "trapeze/task_refused.hpp"
#include "trapeze/task_window.hpp"

namespace trapeze {

// `this_rank`: this process's rank when the run is spread over MPI ranks, -1 when it is not.
inline void insert_windowed(TaskWindow& window, const DistributedTask& task, int this_rank) {
  const bool distributed = this_rank >= 0;
  const bool counted = !distributed || task.execute_on == this_rank;
  if (counted) window.task_submitted();
  const int rc =
      distributed ? insert_distributed(task)
                  : starpu_task_insert(task.codelet, STARPU_VALUE, task.args, task.args_size, STARPU_DATA_MODE_ARRAY,
                                       task.data, task.data_count, STARPU_PRIORITY, task.priority,
                                       STARPU_CALLBACK_WITH_ARG_NFREE, task.callback, task.callback_arg, STARPU_NAME,
                                       task.name, STARPU_TASK_SCHED_DATA, task.sched_data, 0);
  if (rc != 0) {
    if (counted) window.task_not_submitted();
    throw_task_refused(distributed ? "starpu_mpi_task_insert" : "starpu_task_insert", rc, *task.codelet);
  }
}

}  // namespace trapeze
