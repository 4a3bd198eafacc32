#pragma once
// How the MPI ranks that share a node share its GPUs. StarPU started in each
// of them would open every GPU of the node, so two ranks would each run
// stages on both GPUs and fight over them; a rank per GPU is what users
// launch on multi-GPU nodes.
#include <vector>

namespace trapeze {

// The GPUs (CUDA device numbers among those the process sees) that local rank
// `local_rank` of `local_ranks` takes on a node with `gpus`; empty: no
// restriction (one rank on the node, no GPU, or an unknown rank).
// - as many GPUs as ranks or more: equal consecutive shares, gpus / ranks
//   each (a remainder stays idle: the ranks own equal boxes of the domain,
//   so a rank with one GPU more would only wait for the others);
// - fewer GPUs than ranks: rank r shares GPU r % gpus with the others.
std::vector<int> gpus_of_local_rank(int local_rank, int local_ranks, int gpus);

// The cores one of a node's ranks takes: an equal share each; in it one core
// for StarPU-MPI's progress thread (it polls without pause), one for the
// driver thread of each of the rank's `gpus`, the rest CPU workers. Every
// worker thread, CPU or GPU driver, is bound inside the share.
struct CoreShare {
  int cpu_workers = 1;
  std::vector<unsigned> worker_cores;  // the share less the progress thread's core; empty: bind nothing
  int progress_core = -1;              // -1: not bound
};
// With a core per rank or fewer: one CPU worker, nothing bound (bound, each
// rank's progress thread would share a core with some worker and take half of it).
CoreShare cores_of_local_rank(int local_rank, int local_ranks, int cores, int gpus);

}  // namespace trapeze
