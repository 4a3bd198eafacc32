#include "mpi_session.hpp"

#include <starpu_mpi.h>

#include <climits>
#include <initializer_list>
#include <cstdlib>
#include <string>

#include "trapeze/distributed_data.hpp"
#include "trapeze/error.hpp"
#include "trapeze/tile_buffers.hpp"
#include "trapeze/tile_interface.hpp"

namespace trapeze::mpi {

namespace {

int environment_number(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? std::atoi(value) : -1;
}

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void initialise_once() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) return;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    throw Error("MPI_Init_thread failed");
  }
  std::atexit(finalize_at_exit);
  if (provided < MPI_THREAD_MULTIPLE) {
    throw Error("the MPI library gives thread level " + std::to_string(provided) +
                ", StarPU-MPI beside the program's own calls needs MPI_THREAD_MULTIPLE");
  }
}

// A tile in host memory is one contiguous buffer: StarPU-MPI sends and
// receives it in place with this datatype, instead of packing it into a
// fresh allocation on each side (two copies and, for a new allocation, a page
// fault per 4 KiB). On a GPU (CUDA-aware MPI) a tile has two buffers: it is
// packed, which sends the current one.
int tile_datatype(starpu_data_handle_t handle, unsigned node, MPI_Datatype* datatype) {
  if (starpu_node_get_kind(node) != STARPU_CPU_RAM) return -1;
  const auto* tile = static_cast<const TileBuffers*>(starpu_data_get_interface_on_node(handle, node));
  if (tile->buffer_cells > INT_MAX) return -1;
  MPI_Datatype element;
  MPI_Type_contiguous(tile->element_size, MPI_BYTE, &element);
  MPI_Type_contiguous(static_cast<int>(tile->buffer_cells), element, datatype);
  MPI_Type_free(&element);
  MPI_Type_commit(datatype);
  return 0;
}

void free_tile_datatype(MPI_Datatype* datatype) { MPI_Type_free(datatype); }

}  // namespace

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

void start_starpu(starpu_conf& conf) {
  initialise_once();
  const int rc = starpu_mpi_init_conf(nullptr, nullptr, 0, MPI_COMM_WORLD, &conf);
  if (rc == -ENODEV) throw Error("StarPU found no worker to run tasks on (STARPU_NCPU=0 and no GPU?)");
  if (rc != 0) throw RuntimeError("starpu_mpi_init_conf", rc);
  starpu_mpi_interface_datatype_node_register(static_cast<starpu_data_interface_id>(tile_interface_id()),
                                              &tile_datatype, &free_tile_datatype);
}

void stop_starpu() {
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);
  starpu_mpi_barrier(MPI_COMM_WORLD);
  starpu_mpi_shutdown();
}

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

static int first_set_number(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const int n = environment_number(name); n >= 0) return n;
  }
  return -1;
}

int local_rank() { return first_set_number({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMIX_LOCAL_RANK"}); }
int local_ranks() { return first_set_number({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMIX_LOCAL_SIZE"}); }

void broadcast(void* bytes, std::size_t size) {
  MPI_Bcast(bytes, static_cast<int>(size), MPI_BYTE, 0, MPI_COMM_WORLD);
}

int sum(int value) {
  int total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

std::uint64_t sum(std::uint64_t value) {
  std::uint64_t total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

}  // namespace trapeze::mpi

namespace trapeze {

void register_distributed(starpu_data_handle_t handle, std::int64_t tag, int owner) {
  starpu_mpi_data_register(handle, static_cast<starpu_mpi_tag_t>(tag), owner == on_every_rank ? STARPU_MPI_PER_NODE : owner);
}

void migrate_distributed(starpu_data_handle_t handle, int rank) {
  if (starpu_mpi_data_get_rank(handle) == rank) return;
  starpu_mpi_data_migrate(MPI_COMM_WORLD, handle, rank);
}

void fetch_to_rank(starpu_data_handle_t handle, int rank) {
  const int rc = starpu_mpi_get_data_on_node(MPI_COMM_WORLD, handle, rank);
  if (rc != 0) throw RuntimeError("starpu_mpi_get_data_on_node", rc);
}

int insert_distributed(const DistributedTask& task) {
  if (task.execute_on == owner_of_written_data) {
    return starpu_mpi_task_insert(MPI_COMM_WORLD, task.codelet, STARPU_PRIORITY, task.priority, STARPU_VALUE,
                                  task.args, task.args_size,
                                  STARPU_DATA_MODE_ARRAY, task.data, task.data_count, STARPU_CALLBACK_WITH_ARG_NFREE,
                                  task.callback, task.callback_arg, STARPU_NAME, task.name, STARPU_TASK_SCHED_DATA,
                                  task.sched_data, 0);
  }
  return starpu_mpi_task_insert(MPI_COMM_WORLD, task.codelet, STARPU_EXECUTE_ON_NODE, task.execute_on,
                                STARPU_PRIORITY, task.priority, STARPU_VALUE,
                                task.args, task.args_size, STARPU_DATA_MODE_ARRAY, task.data, task.data_count,
                                STARPU_CALLBACK_WITH_ARG_NFREE, task.callback, task.callback_arg, STARPU_NAME, task.name,
                                STARPU_TASK_SCHED_DATA, task.sched_data, 0);
}

}  // namespace trapeze
