#include "trapeze/task_refused.hpp"

#include <cerrno>
#include <string>

#include "trapeze/error.hpp"

namespace trapeze {

namespace {

// The worker kinds a codelet names: its `where` mask, or else the functions it has.
bool runs_on(const starpu_codelet& codelet, uint32_t kind) {
  if (codelet.where != 0) return (codelet.where & kind) != 0;
  if (kind == STARPU_CPU) return codelet.cpu_funcs[0] != nullptr || codelet.cpu_funcs_name[0] != nullptr;
  if (kind == STARPU_CUDA) return codelet.cuda_funcs[0] != nullptr;
  return false;
}

}  // namespace

std::string no_worker_message(const starpu_codelet& codelet, unsigned cpu_workers, unsigned cuda_workers) {
  const bool cpu = runs_on(codelet, STARPU_CPU), cuda = runs_on(codelet, STARPU_CUDA);
  const std::string name = codelet.name ? codelet.name : "unnamed";
  const std::string kinds = cpu && cuda ? "CPU or CUDA" : cpu ? "CPU" : cuda ? "CUDA" : "other";
  std::string fix;
  if (cpu && cpu_workers == 0) fix = ": give STARPU_NCPU 1 or more (host-side tasks run on CPU workers)";
  else if (cuda && !cpu && cuda_workers == 0) fix = ": it needs a GPU (STARPU_NCUDA=0, or none found)";
  return "StarPU has no worker for '" + name + "' tasks, which run on " + kinds + " workers (started: " +
         std::to_string(cpu_workers) + " CPU, " + std::to_string(cuda_workers) + " CUDA)" + fix;
}

void throw_task_refused(const char* call, int code, const starpu_codelet& codelet) {
  if (code != -ENODEV) throw RuntimeError(call, code);
  throw InvalidArgument(no_worker_message(codelet, starpu_cpu_worker_get_count(), starpu_cuda_worker_get_count()));
}

}  // namespace trapeze
