#pragma once
// Bytes StarPU moved between memory nodes, from its bus counters: what an
// out-of-core run streamed over PCIe and wrote to its disk node, and what a
// multi-GPU run moved between GPUs.
#include <cstdint>

namespace trapeze {

struct BusTraffic {
  std::uint64_t host_to_gpu = 0;   // main RAM -> a GPU
  std::uint64_t gpu_to_host = 0;   // a GPU -> main RAM
  std::uint64_t gpu_to_gpu = 0;    // between GPUs (peer copies)
  std::uint64_t to_disk = 0;       // written to a disk node
  std::uint64_t from_disk = 0;     // read back from a disk node
  std::uint64_t pcie() const { return host_to_gpu + gpu_to_host; }
  BusTraffic& operator+=(const BusTraffic& other);
};

// What every bus carried since the last call (StarPU's counters are read and
// reset together). One owner calls it: the Runtime (Runtime::bus_traffic()).
BusTraffic take_bus_traffic();

}  // namespace trapeze
