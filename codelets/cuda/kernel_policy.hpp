#pragma once
// The tuning policy of the CUDA stencil kernels, in one place (as CUB keeps its
// per-architecture policies): how many cells one thread block commits per
// dimension and how its threads are shaped. Chosen by dimension count and
// element size; no kernel hard-codes a size.
//
// Why these: a block loads its output box plus a ghost zone of r*k per side
// into shared memory, so a wide box wastes less on the ghost zone (64x64 with
// k = 8 loads 1.56x its cells, 32x32 loads 2.25x), while the shared memory it
// takes ((64 + 2k)^2 floats, twice for k >= 2) still leaves room for several
// blocks per multiprocessor. Threads walk the box in 2-D loops with constant
// strides: no division per cell (a division per cell index cost a quarter of
// a kernel's speed on the H100).
namespace trapeze::cuda {

struct KernelPolicy {
  int out_x, out_y, out_z;           // cells committed per block
  int threads_x, threads_y, threads_z;
  constexpr int threads() const { return threads_x * threads_y * threads_z; }
};

template <int Dims, int ElementBytes>
struct PolicyFor;

template <int ElementBytes>
struct PolicyFor<1, ElementBytes> {
  static constexpr KernelPolicy value{2048, 1, 1, 256, 1, 1};
};
template <int ElementBytes>
struct PolicyFor<2, ElementBytes> {
  static constexpr KernelPolicy value{64, ElementBytes <= 4 ? 64 : 32, 1, 64, 4, 1};
};
template <int ElementBytes>
struct PolicyFor<3, ElementBytes> {
  static constexpr KernelPolicy value{32, 8, 8, 32, 4, 2};
};

}  // namespace trapeze::cuda
