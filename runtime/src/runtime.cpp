#include "trapeze/runtime.hpp"

#include <starpu.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <cstdlib>
#include <string_view>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "fxt_trace.hpp"
#include "mpi_session.hpp"
#include "node_sharing.hpp"
#include "scheduler_policies/policies.hpp"
#include "trapeze/error.hpp"
#include "trapeze/tile_interface.hpp"

namespace trapeze {

namespace {

// StarPU falls back to its default policy on an unknown name with only a
// warning; a user who asked for a policy should learn that it does not exist.
// "help" lists the policies (StarPU prints its own, the Runtime Trapeze's).
void check_scheduler_name(const std::string& name, const char* origin) {
  if (name.empty() || name == "help" || policies::find(name)) return;
  std::string known;
  for (starpu_sched_policy* p : policies::all()) known += std::string(known.empty() ? "" : ", ") + p->policy_name;
  for (starpu_sched_policy** p = starpu_sched_get_predefined_policies(); *p; ++p) {
    if (name == (*p)->policy_name) return;
    known += std::string(", ") + (*p)->policy_name;
  }
  throw InvalidArgument(std::string("unknown scheduler '") + quoted(name) + "' (" + origin + "); known: " + known);
}

void print_trapeze_policies() {
  std::fprintf(stderr, "\nTrapeze's own policies (STARPU_SCHED or RuntimeOptions::scheduler):\n");
  for (starpu_sched_policy* p : policies::all()) std::fprintf(stderr, "%-30s\t-> %s\n", p->policy_name, p->policy_description);
}

// A variable StarPU reads inside starpu_init, given another value (or none)
// while StarPU starts and put back as it was afterwards (nothing else runs
// then).
class VariableDuringStart {
 public:
  VariableDuringStart(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~VariableDuringStart() {
    if (saved_) setenv(name_, saved_->c_str(), 1);
    else unsetenv(name_);
  }
  VariableDuringStart(const VariableDuringStart&) = delete;
  VariableDuringStart& operator=(const VariableDuringStart&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

// StarPU reads STARPU_SCHED inside starpu_init, where it overrides even a
// name the program gave, and for a name it does not know it warns and looks
// no further than its own list. While a Trapeze policy is handed over as
// starpu_conf::sched_policy, or the program named a policy itself, the
// variable is hidden from starpu_init and put back afterwards.
//
// StarPU keeps a share of each GPU's memory chunks clean: whenever fewer
// than 5% of them (STARPU_MINIMUM_CLEAN_BUFFERS, counted in chunks, not
// bytes) hold a copy also valid in main memory, it writes dirty ones back
// until 10% do (memalloc.c, starpu_memchunk_tidy). A run's tiles are written
// on the GPU at every stage, so past a few tiles a GPU that rule wrote whole
// tiles back over PCIe again and again: jacobi3d 1792^3 in 16 tiles on one
// H100 stepped 9.3x slower than in 2 and moved 614 GB over PCIe against 49
// (docs/PERF.md, 2026-11-26). Tiles live on the GPU until the run collects
// them, so the rule is off unless the user sets it; with a disk node it stays
// (main memory is then what StarPU evicts from).
constexpr const char* clean_buffer_variables[] = {"STARPU_MINIMUM_CLEAN_BUFFERS", "STARPU_TARGET_CLEAN_BUFFERS"};

// StarPU's disk backend asserts (and aborts) on a directory it cannot write.
void check_disk_directory(const std::string& directory) {
  struct stat status{};
  if (stat(directory.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
    throw InvalidArgument("disk directory '" + quoted(directory) + "' does not exist or is not a directory");
  }
  if (access(directory.c_str(), W_OK | X_OK) != 0) {
    throw InvalidArgument("disk directory '" + quoted(directory) + "' is not writable");
  }
}

// StarPU asserts (and aborts) on a negative or malformed worker count.
void check_worker_count_variables() {
  for (const char* name : {"STARPU_NCPU", "STARPU_NCPUS", "STARPU_NCUDA", "STARPU_NOPENCL"}) {
    const char* value = std::getenv(name);
    if (!value || !*value) continue;
    const std::string_view text(value);
    int count = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (ec != std::errc() || end != text.data() + text.size() || count < 0) {
      throw InvalidArgument(std::string(name) + " must be a whole number >= 0, got '" + quoted(text) + "'");
    }
  }
}

// TRAPEZE_CUDA_POOL is read inside StarPU's CUDA driver (scripts/starpu/
// cuda_memory_pool.c), which can only tell "0" from anything else: the
// Runtime refuses other values before StarPU starts.
void check_cuda_pool_variable() {
  const char* value = std::getenv("TRAPEZE_CUDA_POOL");
  if (!value || !*value) return;
  const std::string_view text(value);
  if (text != "0" && text != "1") {
    throw InvalidArgument("TRAPEZE_CUDA_POOL must be 1 (GPU buffers from the stream-ordered pool) or 0 "
                          "(cudaMalloc/cudaFree), got '" + quoted(text) + "'");
  }
}

// StarPU's default policy, lws, ran GPU stage tasks badly: 64 tiles of one
// jacobi2d run on an H100 took 1.04 s under lws, 0.108 s under eager and
// 0.131 s under trapeze-owner (docs/PERF.md, 2026-11-24); with two tiles per
// GPU the three were within 7%. With one GPU and no policy named, Trapeze
// starts StarPU with eager. With several, eager lets any idle GPU take any
// ready tile, so whole tiles cross between GPUs (870 GB for a 2 GB halo on
// two H200s); trapeze-owner keeps each tile on its partition's GPU and ran
// 1.09x (jacobi2d) and 1.70x (jacobi3d) faster there (PERF.md, 2026-11-24).
const char* default_scheduler(int gpus) { return gpus > 1 ? "trapeze-owner" : "eager"; }

}  // namespace

Runtime::Runtime(const RuntimeOptions& options) {
  check_worker_count_variables();
  check_cuda_pool_variable();
  if (!options.disk_directory.empty()) check_disk_directory(options.disk_directory);
  if (options.disk_bytes > 0 && options.disk_bytes < STARPU_DISK_SIZE_MIN) {
    throw InvalidArgument("disk size must be at least " + std::to_string(STARPU_DISK_SIZE_MIN >> 20) + " MiB, got " +
                          std::to_string(options.disk_bytes) + " bytes");
  }
  check_scheduler_name(options.scheduler, "scheduler option");
  const char* scheduler_variable = std::getenv("STARPU_SCHED");
  if (scheduler_variable && options.scheduler.empty()) check_scheduler_name(scheduler_variable, "STARPU_SCHED");
  std::string requested =
      !options.scheduler.empty() ? options.scheduler : (scheduler_variable ? scheduler_variable : "");
  starpu_conf conf;
  starpu_conf_init(&conf);
  mpi_ = options.mpi == MpiMode::on || (options.mpi == MpiMode::automatic && mpi::launched_by_mpi());
  int gpus = node_sharing::visible_nvidia_gpus(options);
  if (mpi_) {
    gpus = node_sharing::share_gpus_between_local_ranks(conf, options, gpus);
    node_sharing::share_cores_between_local_ranks(conf, options, gpus);
  }
  const bool default_for_gpus = requested.empty() && gpus > 0;
  if (default_for_gpus) requested = default_scheduler(gpus);
  if (requested == "help") print_trapeze_policies();
  starpu_sched_policy* own_policy = policies::find(requested);
  if (!options.trace_directory.empty()) trace_file_ = enable_fxt_trace(options.trace_directory);
  // Explicit options win over STARPU_* variables; unset ones leave them in charge.
  if (own_policy) {
    conf.sched_policy = own_policy;
    conf.sched_policy_name = nullptr;
  } else if (!options.scheduler.empty()) {
    conf.sched_policy_name = options.scheduler.c_str();
  } else if (default_for_gpus) {
    conf.sched_policy_name = requested.c_str();
  }
  if (options.cpus >= 0) conf.ncpus = options.cpus;
  if (options.cuda_devices >= 0) conf.ncuda = options.cuda_devices;
  conf.precedence_over_environment_variables =
      !options.scheduler.empty() || default_for_gpus || options.cpus >= 0 || options.cuda_devices >= 0;
  std::deque<VariableDuringStart> during_start;
  if (own_policy || !options.scheduler.empty()) during_start.emplace_back("STARPU_SCHED", nullptr);
  if (options.disk_directory.empty()) {
    for (const char* name : clean_buffer_variables) {
      if (!std::getenv(name)) during_start.emplace_back(name, "0");  // the user's own value stands
    }
  }
  if (mpi_) {
    mpi::start_starpu(conf);
    rank_ = mpi::rank();
    ranks_ = mpi::size();
  } else {
    const int rc = starpu_init(&conf);
    if (rc == -ENODEV) throw Error("StarPU found no worker to run tasks on (STARPU_NCPU=0 and no GPU?)");
    if (rc != 0) throw RuntimeError("starpu_init", rc);
  }
  during_start.clear();
  cuda_workers_of_all_ranks_ = mpi_ ? mpi::sum(cuda_worker_count()) : cuda_worker_count();
  cpu_workers_of_all_ranks_ = mpi_ ? mpi::sum(cpu_worker_count()) : cpu_worker_count();
  tile_interface_ = std::make_unique<TileInterfaceOps>();
  if (!options.disk_directory.empty()) {
    const auto size = options.disk_bytes > 0 ? static_cast<starpu_ssize_t>(options.disk_bytes) : starpu_ssize_t{-1};
    disk_node_ = starpu_disk_register(&starpu_disk_unistd_ops, const_cast<char*>(options.disk_directory.c_str()), size);
    if (disk_node_ < 0) {
      const int rc = disk_node_;
      starpu_task_wait_for_all();
      if (mpi_) mpi::stop_starpu(); else starpu_shutdown();
      throw RuntimeError("starpu_disk_register in '" + quoted(options.disk_directory) + "'", rc);
    }
  }
  take_bus_traffic();  // from here on, this Runtime's transfers only
  submission_throttled_ = starpu_getenv_number("STARPU_LIMIT_MAX_SUBMITTED_TASKS") >= 0;
}

Runtime::~Runtime() {
  starpu_task_wait_for_all();
  if (mpi_) {
    mpi::stop_starpu();
  } else {
    starpu_shutdown();
  }
}

std::uint64_t Runtime::sum_over_ranks(std::uint64_t value) const { return mpi_ ? mpi::sum(value) : value; }

void Runtime::broadcast(void* bytes, std::size_t size) const {
  if (mpi_) mpi::broadcast(bytes, size);
}

int Runtime::worker_count() const { return static_cast<int>(starpu_worker_get_count()); }
int Runtime::cpu_worker_count() const { return static_cast<int>(starpu_cpu_worker_get_count()); }

std::vector<int> Runtime::cpu_worker_cores() const {
  std::vector<int> cores;
#ifdef STARPU_HAVE_HWLOC
  // The operating system's numbers (what sched_setaffinity takes), from the
  // workers' hwloc cpusets: StarPU's bind ids are hwloc's logical numbers,
  // which differ from them where hardware threads are interleaved.
  const unsigned workers = starpu_worker_get_count();
  for (unsigned w = 0; w < workers; ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) != STARPU_CPU_WORKER) continue;
    hwloc_cpuset_t set = starpu_worker_get_hwloc_cpuset(static_cast<int>(w));
    if (!set) continue;
    unsigned core = 0;
    hwloc_bitmap_foreach_begin(core, set) {
      if (std::find(cores.begin(), cores.end(), static_cast<int>(core)) == cores.end()) cores.push_back(static_cast<int>(core));
    }
    hwloc_bitmap_foreach_end();
    hwloc_bitmap_free(set);
  }
#endif
  return cores;
}
int Runtime::cuda_worker_count() const { return static_cast<int>(starpu_cuda_worker_get_count()); }

unsigned Runtime::take_worker_order(int worker) {
  if (worker < 0 || worker >= worker_count()) {
    throw InvalidArgument("no StarPU worker " + std::to_string(worker) + " (" + std::to_string(worker_count()) +
                          " workers)");
  }
  if (next_worker_order_.empty()) next_worker_order_.assign(static_cast<std::size_t>(worker_count()), 1);
  return next_worker_order_[static_cast<std::size_t>(worker)]++;
}

void Runtime::give_back_worker_order(int worker) {
  if (worker >= 0 && static_cast<std::size_t>(worker) < next_worker_order_.size() &&
      next_worker_order_[static_cast<std::size_t>(worker)] > 1) {
    --next_worker_order_[static_cast<std::size_t>(worker)];
  }
}

BusTraffic Runtime::bus_traffic() const {
  std::lock_guard lock(bus_traffic_mutex_);
  bus_traffic_ += take_bus_traffic();
  return bus_traffic_;
}

std::string Runtime::scheduler() const {
  starpu_sched_policy* policy = starpu_sched_get_sched_policy();
  return policy && policy->policy_name ? policy->policy_name : "unknown";
}

void Runtime::wait_for_all() const { starpu_task_wait_for_all(); }

starpu_perfmodel& Runtime::history_model(const std::string& symbol, uint32_t (*footprint)(starpu_task*)) {
  auto& entry = models_[symbol];
  if (!entry.second) {
    entry.first = std::make_unique<std::string>(symbol);
    entry.second = std::make_unique<starpu_perfmodel>();  // zeroed; StarPU loads it on first use
    entry.second->type = STARPU_HISTORY_BASED;
    entry.second->symbol = entry.first->c_str();
    entry.second->footprint = footprint;
  }
  return *entry.second;
}

}  // namespace trapeze
