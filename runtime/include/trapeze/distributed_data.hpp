#pragma once
// StarPU-MPI without MPI's headers: what a distributed run (a Runtime whose
// ranks() > 1) needs to give its handles owners and to insert tasks that
// every rank sees. Every rank registers every handle of a run in the same
// order with the same tags and inserts the same tasks; StarPU-MPI runs each
// task on the rank owning the data it writes (or the rank named) and moves
// only the data a task reads from another rank. Kept apart from mpi.h so the
// runtime's public headers compile without it.
#include <starpu.h>

#include <cstdint>

namespace trapeze {

// Tells StarPU-MPI that `owner` (a rank) holds `handle`, exchanged under `tag`
// (unique among the process's registered handles, the same on every rank).
// Read-only data every rank builds alike (inputs) is `on_every_rank`: tasks
// read their own rank's copy and nothing moves.
inline constexpr int on_every_rank = -2;
void register_distributed(starpu_data_handle_t handle, std::int64_t tag, int owner);

// Makes `rank` the owner of `handle` for the tasks inserted after (its value
// moves there when it is next needed). Every rank calls it, in task order.
void migrate_distributed(starpu_data_handle_t handle, int rank);

// Brings the owner's latest value of `handle` into `rank`'s copy, blocking on
// those two ranks; every rank calls it (the others return at once).
void fetch_to_rank(starpu_data_handle_t handle, int rank);

// The rank that gathers what is written to files (outputs, checkpoints) and reports.
inline constexpr int writing_rank = 0;

// Where a distributed task runs: the owner of the data it writes, or a rank named.
inline constexpr int owner_of_written_data = -1;

struct DistributedTask {
  starpu_codelet* codelet;
  const void* args;  // copied (STARPU_VALUE)
  std::size_t args_size;
  starpu_data_descr* data;
  int data_count;
  void (*callback)(void*);  // runs on the executing rank only
  void* callback_arg;
  const char* name;
  void* sched_data;
  int execute_on = owner_of_written_data;
  int priority = 0;
};

// starpu_mpi_task_insert on MPI_COMM_WORLD; StarPU's return code.
int insert_distributed(const DistributedTask& task);

}  // namespace trapeze
