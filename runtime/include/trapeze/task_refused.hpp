#pragma once
// What a run says when StarPU will not take one of its tasks.
#include <starpu.h>

namespace trapeze {

// Throws for `code`, what `call` (starpu_task_insert, starpu_mpi_task_insert)
// returned for a task of `codelet`. -ENODEV means no worker of the kinds the
// codelet runs on was started, which only the user's worker counts cause
// (STARPU_NCPU=0 on a GPU machine leaves the grid's copies and other
// host-side tasks nowhere to run): an InvalidArgument naming the task, the
// kinds it needs and the workers there are. Any other code: a RuntimeError.
[[noreturn]] void throw_task_refused(const char* call, int code, const starpu_codelet& codelet);

}  // namespace trapeze
