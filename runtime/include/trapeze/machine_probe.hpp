#pragma once
// What the height model needs to know about the machine itself.
#include <string>
#include <vector>

namespace trapeze {

// Copy bandwidth (read + write bytes per second, all threads together) as a
// function of the bytes the threads touch: high while that fits the caches,
// down to memory bandwidth beyond. Measured rather than read from sysconf,
// which in a virtual machine can report the host's caches.
struct BandwidthCurve {
  struct Point {
    double working_set_bytes;
    double bytes_per_second;
  };
  std::vector<Point> points;  // ascending working set

  // Log-linear between points, flat beyond the ends.
  double at(double working_set_bytes) const;
};

BandwidthCurve measure_bandwidth_curve(int threads);

// Identifies the machine for cached measurements: CPU model, core count, caches.
std::string machine_fingerprint();

}  // namespace trapeze
