#include "trapeze/bus_traffic.hpp"

#include <starpu.h>

namespace trapeze {

BusTraffic& BusTraffic::operator+=(const BusTraffic& other) {
  host_to_gpu += other.host_to_gpu;
  gpu_to_host += other.gpu_to_host;
  gpu_to_gpu += other.gpu_to_gpu;
  to_disk += other.to_disk;
  from_disk += other.from_disk;
  return *this;
}

BusTraffic take_bus_traffic() {
  BusTraffic traffic;
  const int buses = starpu_bus_get_count();
  for (int bus = 0; bus < buses; ++bus) {
    starpu_profiling_bus_info info{};
    // StarPU counts every transfer whether or not profiling is on, and
    // resets a bus's counters as it reads them.
    if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
    const auto bytes = static_cast<std::uint64_t>(info.transferred_bytes);
    const starpu_node_kind from = starpu_node_get_kind(static_cast<unsigned>(starpu_bus_get_src(bus)));
    const starpu_node_kind to = starpu_node_get_kind(static_cast<unsigned>(starpu_bus_get_dst(bus)));
    if (to == STARPU_DISK_RAM) traffic.to_disk += bytes;
    else if (from == STARPU_DISK_RAM) traffic.from_disk += bytes;
    else if (from == STARPU_CPU_RAM && to == STARPU_CUDA_RAM) traffic.host_to_gpu += bytes;
    else if (from == STARPU_CUDA_RAM && to == STARPU_CPU_RAM) traffic.gpu_to_host += bytes;
    else if (from == STARPU_CUDA_RAM && to == STARPU_CUDA_RAM) traffic.gpu_to_gpu += bytes;
  }
  return traffic;
}

}  // namespace trapeze
