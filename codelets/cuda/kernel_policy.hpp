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

// A policy is a type (kernels take it as a template parameter) with these
// members. Rows: cells one above the other that a thread updates together in
// a step, all evaluated before any is stored, so a value one row reads as its
// upper neighbour the next reads as its centre from a register, not from
// shared memory again.
template <int OutX, int OutY, int OutZ, int ThreadsX, int ThreadsY, int ThreadsZ, int Rows = 1, int MinBlocks = 1>
struct KernelPolicy {
  static constexpr int out_x = OutX, out_y = OutY, out_z = OutZ;  // cells committed per block
  static constexpr int threads_x = ThreadsX, threads_y = ThreadsY, threads_z = ThreadsZ;
  static constexpr int threads = ThreadsX * ThreadsY * ThreadsZ;
  static constexpr int rows = Rows;
  static constexpr int min_blocks = MinBlocks;
};

template <int Dims, int ElementBytes>
struct PolicyFor;

template <int ElementBytes>
struct PolicyFor<1, ElementBytes> {
  using type = KernelPolicy<2048, 1, 1, 256, 1, 1>;
};
template <int ElementBytes>
struct PolicyFor<2, ElementBytes> {
  // 16x16 threads: a box row of 64 + 2k cells (k = 8: 80) is a whole number
  // of 16-wide passes, where 64-wide rows left a second pass three-quarters
  // idle; at most 64 registers, so the four blocks shared memory allows can all run.
  using type = KernelPolicy<64, (ElementBytes <= 4 ? 64 : 32), 1, 16, 16, 1, 1, (ElementBytes <= 4 ? 4 : 3)>;
};
template <int ElementBytes>
struct PolicyFor<3, ElementBytes> {
  using type = KernelPolicy<32, 8, 8, 32, 4, 2>;
};

// The single-step kernel's policy: threads per block per dimension, and how
// many cells each thread updates along the slowest dimension (one after the
// other in 2-D and 3-D, so a cell's neighbours above and below are loads the
// thread has just made; strided by the block's width in 1-D, so a warp's
// loads stay contiguous). Several cells per thread put several cells' loads in
// flight at once: a one-cell thread waits on each load in turn.
// MinBlocks: blocks per multiprocessor the compiler must leave registers for
// (__launch_bounds__), as many as it takes to keep enough loads in flight.
template <int ThreadsX, int ThreadsY, int ThreadsZ, int Cells, int MinBlocks = 1>
struct StreamPolicy {
  static constexpr int threads_x = ThreadsX, threads_y = ThreadsY, threads_z = ThreadsZ;
  static constexpr int threads = ThreadsX * ThreadsY * ThreadsZ;
  static constexpr int cells = Cells;
  static constexpr int min_blocks = MinBlocks;
};

template <int Dims, int ElementBytes>
struct StreamPolicyFor;

template <int ElementBytes>
struct StreamPolicyFor<1, ElementBytes> {
  using type = StreamPolicy<256, 1, 1, 4>;
};
template <int ElementBytes>
struct StreamPolicyFor<2, ElementBytes> {
  // Two cells per thread at full occupancy (32 registers) kept the most loads in flight.
  using type = StreamPolicy<(ElementBytes >= 4 ? 64 : 128), 2, 1, (ElementBytes >= 4 ? 2 : 4), (ElementBytes >= 4 ? 16 : 8)>;
};
template <int ElementBytes>
struct StreamPolicyFor<3, ElementBytes> {
  using type = StreamPolicy<32, 8, 1, 8>;
};

// The 3-D single-step kernel's policy (plane_stream_kernel.cuh): a block of
// threads_x by threads_y threads walks `planes` planes of a tile threads_x by
// threads_y * rows cells across (each thread `rows` cells one above the other:
// more loads in flight per barrier).
template <int ThreadsX, int ThreadsY, int Rows, int Planes, int MinBlocks = 1, int Prefetch = 1>
struct PlaneStreamPolicy {
  static constexpr int threads_x = ThreadsX, threads_y = ThreadsY, threads_z = 1;
  static constexpr int threads = ThreadsX * ThreadsY;
  static constexpr int rows = Rows;
  static constexpr int planes = Planes;
  static constexpr int min_blocks = MinBlocks;
  static constexpr int prefetch = Prefetch;  // planes whose loads are in flight during a plane's arithmetic
};

template <int ElementBytes>
struct PlaneStreamPolicyFor {
  using type = PlaneStreamPolicy<64, 4, (ElementBytes <= 4 ? 4 : 2), 64, 1, 2>;
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

// The 3-D single step for star stencils where rows are not a multiple of 4
// cells apart (plane_register_kernel.cuh): rows of
// 256 cells, 8 rows a thread, two blocks per multiprocessor, the next plane in
// flight. On the H100 (jacobi3d 512^3) 0.783x the copy roofline against the
// plane-stream kernel's 0.701x; narrower rows and more planes in flight were
// slower (docs/PERF.md).
template <int ElementBytes>
struct PlaneRegisterPolicyFor {
  using type = PlaneStreamPolicy<256, 1, 8, 64, 2, 1>;
};

// The 16-byte 3-D single step's policy (vector_plane_kernel.cuh): warps
// across x (30 groups of 4 cells each), threads across y, rows of y a thread,
// planes of z a thread updates, blocks per multiprocessor, whether a
// thread loads its whole window at once (all its planes and the planes and
// rows around them) or walks its planes with one plane in flight. The
// launch's order (bands of rows of blocks) is chosen at launch from the
// region and the L2 (plane_bands.hpp).
template <int WarpsX, int ThreadsY, int Rows, int Planes, int MinBlocks = 1, bool Window = false>
struct VectorPlanePolicy {
  static constexpr int warps_x = WarpsX, threads_x = 32 * WarpsX, threads_y = ThreadsY;
  static constexpr int threads = threads_x * ThreadsY;
  static constexpr int rows = Rows, planes = Planes, min_blocks = MinBlocks;
  static constexpr bool window = Window;
};

// 4 rows of threads a block, each thread 3 rows of 4 planes loaded at once.
// On the H200 (jacobi3d 512^3, docs/PERF.md, 2026-11-29): 0.922-0.926 of the
// copy roofline on rows 528 cells apart (512-wide GPU tiles' since then,
// gpu_tile_ghost). On rows 516 apart: 0.844,
// 0.815-0.829 for windows of 4x2, 4x3, 4x4 and 2x4 rows x planes,
// 0.678 for 2x8, and 0.787 for the walk of one plane with 2 rows (the
// default before, 0.875 on the H100 on 2026-11-27, where windows were not
// measured); 0.57-0.82 for blocks walking 4-16 planes (vector_plane_kernel.cuh
// says why).
struct VectorPlaneDefaultPolicy {
  using type = VectorPlanePolicy<1, 4, 3, 4, 1, true>;
};

// The 3-D trapezoid kernel's policy (plane_trapezoid_kernel.cuh): a block's
// box across x and y (its output tile plus a ghost ring of r*k per side) and
// its threads, one pass across x (threads_x == box_x), and the planes of z a
// block walks.
template <int BoxX, int BoxY, int ThreadsX, int ThreadsY, int Planes, int MinBlocks = 1>
struct PlaneTrapezoidPolicy {
  static constexpr int box_x = BoxX, box_y = BoxY;
  static constexpr int threads_x = ThreadsX, threads_y = ThreadsY, threads_z = 1;
  static constexpr int threads = ThreadsX * ThreadsY;
  static constexpr int planes = Planes;
  static constexpr int min_blocks = MinBlocks;
};

template <int ElementBytes>
struct PlaneTrapezoidPolicyFor {
  using type = PlaneTrapezoidPolicy<64, 16, 64, 4, 64>;
};

// The register trapezoid's policy (plane_register_trapezoid_kernel.cuh): a box
// of threads_x by threads_y * rows cells across (the output tile plus r*k per
// side; in 2-D one row, threads_y = rows = 1) walking `planes` planes (2-D:
// rows) of the last dimension. Each k it takes is a kernel of its own (its
// register queues are sized by k): 2 to 6 in 3-D; in 2-D 2 to 8, 12 and 16,
// other heights going to the box trapezoid.
template <int Dims, int ElementBytes>
struct RegisterTrapezoidPolicyFor {
  using type = PlaneStreamPolicy<64, 8, 4, 64, 1, 2>;  // 3-D: box 64x32, k = 3: 1.175x the roofline (H100)
};
template <int ElementBytes>
struct RegisterTrapezoidPolicyFor<2, ElementBytes> {
  using type = PlaneStreamPolicy<256, 1, 1, 256, 2, 2>;
};
// The 16-byte 3-D trapezoid's policy (vector_trapezoid_kernel.cuh): a warp of
// 4-cell groups across x (a box 128 cells wide), threads_y threads of `rows`
// rows each across y, `planes` planes of z a block walks, blocks per
// multiprocessor, input planes loaded ahead, and how many iterations of the
// walk the compiler unrolls. It takes k from 2 to vector_trapezoid_max_k (its
// register queues grow with k; past it the scalar register trapezoid runs).
template <int ThreadsY, int Rows, int Planes, int MinBlocks = 1, int Ahead = 1, int Unroll = 1>
struct VectorTrapezoidPolicy {
  static constexpr int threads_x = 32, threads_y = ThreadsY, threads = 32 * ThreadsY;
  static constexpr int rows = Rows, planes = Planes, min_blocks = MinBlocks, ahead = Ahead, unroll = Unroll;
};
// 16 threads of 2 rows (a box 128 x 32) walking 64 planes: on the H100
// (jacobi3d 512^3, k = 3, gpu_kernel_probe 2026-11-27) 1.60x the roofline,
// against 1.37x for 8 threads of 4 rows, 1.24x for 32 of 1, 1.53x with 2
// input planes loaded ahead, 1.13x with the walk unrolled by 2 (spills),
// 1.61x for 32 planes a block and 1.44x for 128. Sizing the planes so the
// blocks fill the last wave (5 of 103 planes instead of 8 of 64) measured
// 1.33x against 1.41x in an earlier version of the kernel.
struct VectorTrapezoidDefaultPolicy {
  using type = VectorTrapezoidPolicy<16, 2, 64, 1>;
};
inline constexpr int vector_trapezoid_max_k = 4;

// The 16-byte 2-D trapezoid's policy (row_vector_trapezoid_kernel.cuh): warps
// a block (each walks a box 128 cells wide on its own), rows of y a warp walks,
// blocks per multiprocessor, input rows loaded ahead. It takes k from 2 to
// row_vector_trapezoid_max_k (its register queue holds 3 groups a step); the
// scalar register trapezoid takes the heights above.
//
// On the H200 (jacobi2d 16384^2 on the tiles' rows, gpu_kernel_probe,
// 2026-11-29) w8 p256 b2 a2 at k = 8: 3.37-3.38x the single-step roofline
// (the scalar register trapezoid 1.47x at k = 8, 1.64x at its best k, 16);
// w4 b4 3.49-3.51x, w2 b8 3.50x, w4 b4 a1 3.52x, w8 p512 3.12x, w8 b1 2.51x.
// w4 b4 stays out of the default although faster alone: through the runtime
// its build's height model chose H 12 k 6 and ran at 2.90x against w8's
// 3.30-3.33x (H 8 k 8), 3 alternating runs (docs/PERF.md); not understood.
// k = 12 and 16 here spill or need 239 registers (1.52-1.62x, 2.95x).
// HotSpot (its power map loaded a group a step) under the default: 2.05x at
// k = 6, 1.98x at k = 8 (ptxas spills 60 and 200 bytes a thread at 128
// registers); at one block a multiprocessor it spills nothing and ran slower,
// 1.56x and 1.69x, and through the runtime 1.66x against the default's 1.98x
// (H200, 2026-11-29, docs/PERF.md).
template <int Warps, int Planes, int MinBlocks = 1, int Ahead = 1>
struct RowVectorTrapezoidPolicy {
  static constexpr int threads_x = 32, warps = Warps, threads = 32 * Warps;
  static constexpr int planes = Planes, min_blocks = MinBlocks, ahead = Ahead;
};
struct RowVectorTrapezoidDefaultPolicy {
  using type = RowVectorTrapezoidPolicy<8, 256, 2, 2>;
};
inline constexpr int row_vector_trapezoid_max_k = 8;

constexpr bool register_trapezoid_takes(int dims, int k) {
  return dims == 3 ? k >= 2 && k <= 6 : dims == 2 && k >= 2 && (k <= 8 || k == 12 || k == 16);
}
inline constexpr int register_trapezoid_max_k = 16;

// Shared memory of one block of a launch of k >= 2 steps, whichever kernel
// takes it (in 3-D the register trapezoid for star stencils and the plane
// trapezoid for box stencils; the box trapezoid otherwise), or -1 where that
// kernel cannot take k steps (its box leaves no output tile).
template <typename T, int Dims>
constexpr long long launch_shared_bytes(const int radius[3], int k, int fields, bool star = false) {
  if (star && Dims >= 2 && register_trapezoid_takes(Dims, k)) {
    using P = typename RegisterTrapezoidPolicyFor<Dims, static_cast<int>(sizeof(T))>::type;
    const int ry = Dims == 3 ? radius[1] : 0, rz = radius[Dims - 1];
    const int box_x = P::threads_x, box_y = P::threads_y * P::rows;
    if (box_x - 2 * radius[0] * k <= 0 || box_y - 2 * ry * k <= 0) return -1;
    return static_cast<long long>(k) * (rz + 1) * fields * ((box_x + 2 * radius[0]) * (box_y + 2 * ry) + 1) *
           static_cast<long long>(sizeof(T));
  }
  if constexpr (Dims == 3) {
    // Star stencils take no other kernel for k >= 2 in 3-D.
    if (star) return -1;
    using P = typename PlaneTrapezoidPolicyFor<static_cast<int>(sizeof(T))>::type;
    if (P::box_x - 2 * radius[0] * k <= 0 || P::box_y - 2 * radius[1] * k <= 0) return -1;
    return static_cast<long long>(k) * fields * 2 * (2 * radius[2] + 1) * P::box_x * P::box_y *
           static_cast<long long>(sizeof(T));
  } else {
    return smem_bytes<T, typename PolicyFor<Dims, static_cast<int>(sizeof(T))>::type>(radius, k, fields);
  }
}

}  // namespace trapeze::cuda
