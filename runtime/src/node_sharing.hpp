#pragma once
// What this process takes of its node before StarPU starts: its share of the
// cores and of the GPUs when several MPI ranks run on one node, and how many
// GPUs it will use (which decides the default scheduling policy).
#include <starpu.h>

#include "trapeze/runtime.hpp"

namespace trapeze::node_sharing {

// NVIDIA GPUs this process will open (device files /dev/nvidia0, 1, ...,
// bounded by CUDA_VISIBLE_DEVICES, STARPU_NCUDA and the cuda_devices option),
// known before StarPU starts.
int visible_nvidia_gpus(const RuntimeOptions& options);

// Several ranks on one node: unless the user placed the workers (STARPU_NCPU,
// STARPU_WORKERS_CPUID, the cpus option), each local rank takes its share of
// the cores, one for StarPU-MPI's progress thread where the share allows and
// one for the driver thread of each of its `gpus`, the rest CPU workers.
void share_cores_between_local_ranks(starpu_conf& conf, const RuntimeOptions& options, int gpus);

// Several ranks on one node with GPUs: unless the user chose them
// (STARPU_NCUDA, STARPU_WORKERS_CUDAID, the cuda_devices option), each local
// rank opens only its own of the node's `gpus` (visible_nvidia_gpus;
// trapeze/local_devices.hpp). Returns the GPUs this rank will use.
int share_gpus_between_local_ranks(starpu_conf& conf, const RuntimeOptions& options, int gpus);

}  // namespace trapeze::node_sharing
