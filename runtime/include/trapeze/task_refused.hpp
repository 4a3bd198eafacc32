#pragma once
// What a run says when StarPU will not take one of its tasks.
#include <starpu.h>

#include <string>

namespace trapeze {

// The line for a task of `codelet` that no worker can run, with `cpu_workers`
// and `cuda_workers` started: the task, the kinds it runs on, and the fix.
std::string no_worker_message(const starpu_codelet& codelet, unsigned cpu_workers, unsigned cuda_workers);

// Throws for `code`, what `call` (starpu_task_insert, starpu_mpi_task_insert)
// returned for a task of `codelet`. -ENODEV means no worker of the kinds the
// codelet runs on was started, which only the user's worker counts cause
// (STARPU_NCPU=0 on a GPU machine leaves the grid's copies and other
// host-side tasks nowhere to run): an InvalidArgument naming the task, the
// kinds it needs and the workers there are. Any other code: a RuntimeError.
[[noreturn]] void throw_task_refused(const char* call, int code, const starpu_codelet& codelet);

}  // namespace trapeze
