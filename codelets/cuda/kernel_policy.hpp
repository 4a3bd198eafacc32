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

// Shared memory one block may have on Hopper (H100, H200: 227 KiB with the
// opt-in attribute). The profiling run offers no kernel height above it; the
// codelet also caps k by what the device it runs on reports.
inline constexpr long long shared_memory_per_block = 227 * 1024;

// A policy is a type (kernels take it as a template parameter) with these members.
template <int OutX, int OutY, int OutZ, int ThreadsX, int ThreadsY, int ThreadsZ>
struct KernelPolicy {
  static constexpr int out_x = OutX, out_y = OutY, out_z = OutZ;  // cells committed per block
  static constexpr int threads_x = ThreadsX, threads_y = ThreadsY, threads_z = ThreadsZ;
  static constexpr int threads = ThreadsX * ThreadsY * ThreadsZ;
};

template <int Dims, int ElementBytes>
struct PolicyFor;

template <int ElementBytes>
struct PolicyFor<1, ElementBytes> {
  using type = KernelPolicy<2048, 1, 1, 256, 1, 1>;
};
template <int ElementBytes>
struct PolicyFor<2, ElementBytes> {
  using type = KernelPolicy<64, (ElementBytes <= 4 ? 64 : 32), 1, 64, 4, 1>;
};
template <int ElementBytes>
struct PolicyFor<3, ElementBytes> {
  using type = KernelPolicy<32, 8, 8, 32, 4, 2>;
};

// Shared memory a block of policy P needs for k steps: its output box plus a
// ghost zone of r*k per side, every field, twice for k >= 2 (steps alternate
// between two copies; a single step reads one and writes device memory).
template <typename T, typename P>
constexpr long long smem_bytes(const int radius[3], int k, int fields) {
  const long long box = static_cast<long long>(P::out_x + 2 * radius[0] * k) * (P::out_y + 2 * radius[1] * k) *
                        (P::out_z + 2 * radius[2] * k);
  return box * fields * static_cast<long long>(sizeof(T)) * (k >= 2 ? 2 : 1);
}

}  // namespace trapeze::cuda
