#pragma once
// The runtime object: owns StarPU's lifetime (starpu_init / starpu_shutdown).
// One exists at a time in a process; everything that submits work takes it by
// reference so nothing outlives it.
#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "trapeze/bus_traffic.hpp"

namespace trapeze {

struct TileInterfaceOps;

// Whether the process is one of several MPI ranks (StarPU-MPI): automatic
// when an MPI launcher (mpirun) started it.
enum class MpiMode { automatic, off, on };

struct RuntimeOptions {
  std::string scheduler;  // empty: STARPU_SCHED or StarPU's default
  int cpus = -1;          // -1: STARPU_NCPU or all cores
  int cuda_devices = -1;  // -1: STARPU_NCUDA or all GPUs
  // Non-empty: StarPU records an FxT trace of the whole session into this
  // directory (needs StarPU built with FxT); scripts/timeline.py draws it.
  std::string trace_directory = {};
  MpiMode mpi = MpiMode::automatic;
  // Non-empty: a StarPU disk node in this directory (files StarPU creates and
  // removes), where tiles go when main memory is full (STARPU_LIMIT_CPU_MEM,
  // in MiB, caps what StarPU may take); runs then keep their tiles in memory
  // StarPU allocates, so it can move them there (out-of-core on the CPU).
  std::string disk_directory = {};
  // Most bytes the disk node may hold; 0: as much as the file system takes.
  std::uint64_t disk_bytes = 0;
};

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int worker_count() const;
  // The FxT trace this session records (empty without trace_directory); the
  // file is complete once the Runtime is destroyed.
  const std::string& trace_file() const { return trace_file_; }
  int cpu_worker_count() const;
  // The cores (the operating system's numbers) StarPU bound its CPU workers
  // to, each once: where helper threads of a task may run
  // (trapeze/parallel_parts.hpp). Empty without hwloc.
  std::vector<int> cpu_worker_cores() const;
  // Under MPI: this process's rank and the ranks in all (0 and 1 without MPI).
  // Runs spread their tiles over the ranks when there are several
  // (Plan::distribute); each rank must then build the same runs in the same order.
  bool uses_mpi() const { return mpi_; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // Copies `size` bytes from rank 0's `bytes` into every rank's (nothing without MPI).
  void broadcast(void* bytes, std::size_t size) const;
  template <typename Value>
  void broadcast(Value& value) const {
    broadcast(&value, sizeof value);
  }
  // The sum modulo 2^64 of every rank's `value`, on every rank (`value` without MPI).
  std::uint64_t sum_over_ranks(std::uint64_t value) const;
  // The first of `count` consecutive StarPU-MPI tags no other handle of this
  // session uses; every rank gets the same numbers when it asks in the same order.
  std::int64_t reserve_tags(std::int64_t count) {
    const std::int64_t first = next_tag_;
    next_tag_ += count;
    return first;
  }
  int cuda_worker_count() const;
  // The next of the consecutive orders (1, 2, ...) in which worker `worker`
  // runs the tasks submitted with STARPU_EXECUTE_ON_WORKER and
  // STARPU_WORKER_ORDER (StarPU counts them from 1 for the whole session);
  // give_back_worker_order returns the last one taken when its task could
  // not be submitted, or the worker would wait for it forever.
  unsigned take_worker_order(int worker);
  void give_back_worker_order(int worker);
  // CUDA workers of every rank together (cuda_worker_count() without MPI):
  // the GPUs a run spread over the ranks shares its tiles among.
  int cuda_workers_of_all_ranks() const { return cuda_workers_of_all_ranks_; }
  // CPU workers of every rank together (cpu_worker_count() without MPI): what
  // the automatic CPU tile of a run spread over the ranks is cut for.
  int cpu_workers_of_all_ranks() const { return cpu_workers_of_all_ranks_; }
  // The StarPU memory node of the disk (RuntimeOptions::disk_directory), -1 without one.
  int disk_node() const { return disk_node_; }
  // Bytes StarPU moved over each kind of bus since the Runtime started.
  BusTraffic bus_traffic() const;
  std::string scheduler() const;
  // Whether StarPU blocks task submission itself (STARPU_LIMIT_MAX_SUBMITTED_TASKS
  // is set): submitting must then never wait on paused workers.
  bool submission_throttled() const { return submission_throttled_; }
  // Blocks until every submitted task has finished.
  void wait_for_all() const;
  // The StarPU data interface of tiles (registered once per StarPU session).
  TileInterfaceOps& tile_interface() const { return *tile_interface_; }
  // The history-based performance model named `symbol` (created on first use;
  // StarPU keeps its measurements under STARPU_HOME between runs). The Runtime
  // owns it because StarPU saves every model it used at shutdown.
  starpu_perfmodel& history_model(const std::string& symbol, uint32_t (*footprint)(starpu_task*));

 private:
  std::unique_ptr<TileInterfaceOps> tile_interface_;
  bool submission_throttled_ = false;
  bool mpi_ = false;
  int rank_ = 0;
  int ranks_ = 1;
  int cuda_workers_of_all_ranks_ = 0;
  int cpu_workers_of_all_ranks_ = 0;
  std::int64_t next_tag_ = 0;
  std::vector<unsigned> next_worker_order_;  // by worker id, from 1
  std::string trace_file_;
  int disk_node_ = -1;
  mutable std::mutex bus_traffic_mutex_;
  mutable BusTraffic bus_traffic_;  // StarPU's counters reset as they are read: the totals live here
  std::map<std::string, std::pair<std::unique_ptr<std::string>, std::unique_ptr<starpu_perfmodel>>> models_;
};

}  // namespace trapeze
