#pragma once
// The global-barrier baseline the seeds compare against: the single-step
// kernel over the whole domain in one device buffer, a device synchronisation
// after every step, no runtime. And the device's copy bandwidth. Defined in
// gpu_plain_loop.cu for the five apps' stencils.
#include "trapeze/grid.hpp"

namespace bench {

// Whether the CUDA runtime sees a device.
bool cuda_device_present();

// Bytes read plus bytes written per second by a large device-to-device copy.
double device_copy_bandwidth();

// Seconds for `steps` steps of `stencil` from `grid` (median of `repetitions`),
// the data already on the device.
template <typename S>
double plain_loop_seconds(const S& stencil, const trapeze::Grid<typename S::value_type>& grid, long steps,
                          int repetitions);

}  // namespace bench
