#pragma once
// Where a task would like to run, for Trapeze's scheduling policies
// (scheduler_policies/): the worker that owns its tile (the partitioner's
// choice, trapeze/partition.hpp), and whether the tile lies on its owner's
// border. Tasks carry a pointer to one in starpu_task::sched_data, which
// StarPU leaves to the scheduler; StarPU's own policies ignore it. The run
// that submits the task owns the placement and outlives the task.
namespace trapeze {

struct TaskPlacement {
  int worker = -1;      // StarPU worker id of the owner; -1: any worker
  bool border = false;  // reads or writes a tile of another owner
};

}  // namespace trapeze
