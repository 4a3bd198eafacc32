#pragma once
// The process's MPI, for a Runtime that runs under an MPI launcher (mpirun):
// MPI is initialised once per process, at the first such Runtime, with full
// thread support (StarPU-MPI's progress thread and the program's own
// broadcasts call MPI at the same time), and finalised at exit: MPI allows
// one MPI_Init per process, while a process may start StarPU many times.
#include <starpu.h>

#include <cstddef>
#include <cstdint>

namespace trapeze::mpi {

// Whether an MPI launcher started this process (Open MPI, MPICH/Hydra, PMIx).
bool launched_by_mpi();

// Initialises MPI if it is not yet (throws when the library lacks
// MPI_THREAD_MULTIPLE); then starts StarPU with StarPU-MPI on MPI_COMM_WORLD.
void start_starpu(starpu_conf& conf);
void stop_starpu();

int rank();
int size();
// Ranks of this node before this one (Open MPI's and MPICH's local rank), or -1.
int local_rank();
// Ranks on this node (the launcher's local size), or -1.
int local_ranks();
// Bytes from rank 0 to every rank.
void broadcast(void* bytes, std::size_t size);
// The sum of every rank's `value`, on every rank.
int sum(int value);
std::uint64_t sum(std::uint64_t value);  // modulo 2^64

}  // namespace trapeze::mpi
