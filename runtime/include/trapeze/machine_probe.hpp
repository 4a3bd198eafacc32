#pragma once
// What the height model needs to know about the machine itself.
#include <string>
#include <vector>

namespace trapeze {

// Streaming bandwidth (read + write bytes per second, all threads together,
// ordinary stores, so the write-allocate reads a sweep pays are in it) as a
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

// Identifies the program measured: a profile of an older build of a kernel
// must not choose heights for a newer one.
std::string build_identity();

}  // namespace trapeze
