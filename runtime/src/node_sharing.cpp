#include "node_sharing.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include "mpi_session.hpp"
#include "trapeze/local_devices.hpp"

namespace trapeze {

std::vector<int> gpus_of_local_rank(int local_rank, int local_ranks, int gpus) {
  if (gpus <= 0 || local_ranks <= 1 || local_rank < 0 || local_rank >= local_ranks) return {};
  if (gpus < local_ranks) return {local_rank % gpus};
  const int share = gpus / local_ranks;
  std::vector<int> mine(static_cast<std::size_t>(share));
  for (int i = 0; i < share; ++i) mine[static_cast<std::size_t>(i)] = local_rank * share + i;
  return mine;
}

CoreShare cores_of_local_rank(int local_rank, int local_ranks, int cores, int gpus) {
  CoreShare mine;
  const int share = cores / std::max(1, local_ranks);
  if (share <= 1) return mine;
  const int first = local_rank * share;
  mine.cpu_workers = std::max(1, share - 1 - gpus);
  for (int c = 0; c < share - 1; ++c) mine.worker_cores.push_back(static_cast<unsigned>((first + c) % cores));
  mine.progress_core = (first + share - 1) % cores;
  return mine;
}

namespace node_sharing {

namespace {

bool is_set(const char* name) { return std::getenv(name) != nullptr; }

// Entries of CUDA_VISIBLE_DEVICES ("0,1", "GPU-uuid,..."); -1 when unset.
int cuda_visible_devices() {
  const char* value = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!value) return -1;
  const std::string_view text(value);
  if (text.empty()) return 0;
  return static_cast<int>(std::count(text.begin(), text.end(), ',')) + 1;
}

}  // namespace

int visible_nvidia_gpus(const RuntimeOptions& options) {
  if (options.cuda_devices == 0) return 0;
  int count = 0;
  while (count < 64 && access(("/dev/nvidia" + std::to_string(count)).c_str(), F_OK) == 0) ++count;
  if (const int listed = cuda_visible_devices(); listed >= 0) count = std::min(count, listed);
  // check_worker_count_variables has refused malformed counts.
  if (const char* n = std::getenv("STARPU_NCUDA"); n && *n) count = std::min(count, std::atoi(n));
  if (options.cuda_devices > 0) count = std::min(count, options.cuda_devices);
  return count;
}

void share_cores_between_local_ranks(starpu_conf& conf, const RuntimeOptions& options, int gpus) {
  const int local_ranks = mpi::local_ranks();
  const int local_rank = mpi::local_rank();
  if (local_ranks <= 1 || local_rank < 0 || options.cpus >= 0) return;
  for (const char* name : {"STARPU_NCPU", "STARPU_NCPUS", "STARPU_WORKERS_CPUID"}) {
    if (is_set(name)) return;
  }
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const CoreShare mine = cores_of_local_rank(local_rank, local_ranks, cores, gpus);
  conf.ncpus = mine.cpu_workers;
  if (mine.worker_cores.empty()) {
    if (!is_set("STARPU_WORKERS_NOBIND")) setenv("STARPU_WORKERS_NOBIND", "1", 1);
    return;
  }
  // StarPU binds a GPU's driver thread to the first free entry of this list
  // near the GPU: a list of the CPU workers' cores alone (the rest zeros) put
  // the second rank's driver on core 0, beside a worker of the first rank.
  // The list repeats the share to its end.
  conf.use_explicit_workers_bindid = 1;
  for (std::size_t i = 0; i < STARPU_NMAXWORKERS; ++i) conf.workers_bindid[i] = mine.worker_cores[i % mine.worker_cores.size()];
  // StarPU reads the progress thread's core only from the variable.
  if (!is_set("STARPU_MPI_THREAD_CPUID") && !is_set("STARPU_MPI_THREAD_COREID")) {
    setenv("STARPU_MPI_THREAD_CPUID", std::to_string(mine.progress_core).c_str(), 1);
  }
}

int share_gpus_between_local_ranks(starpu_conf& conf, const RuntimeOptions& options, int gpus) {
  if (options.cuda_devices >= 0 || is_set("STARPU_NCUDA") || is_set("STARPU_WORKERS_CUDAID")) return gpus;
  const std::vector<int> mine = gpus_of_local_rank(mpi::local_rank(), mpi::local_ranks(), gpus);
  if (mine.empty()) return gpus;
  conf.ncuda = static_cast<int>(mine.size());
  conf.use_explicit_workers_cuda_gpuid = 1;
  for (std::size_t i = 0; i < mine.size(); ++i) conf.workers_cuda_gpuid[i] = static_cast<unsigned>(mine[i]);
  return conf.ncuda;
}

}  // namespace node_sharing

}  // namespace trapeze
