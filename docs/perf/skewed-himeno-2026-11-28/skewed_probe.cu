// Session 34 probe (not part of the build): can Himeno stream through a GPU
// capped to a quarter of its domain at >= 0.9 of in core if the tiles are
// skewed along z (parallelogram slabs: no ghost zone, no redundant compute)
// instead of trapezoids with a ghost zone of H in every dimension?
//
// Himeno L (512x256x256 cells, 2 updated fields double-buffered, 12 read-only
// fields), 128 steps. Slabs of L planes (full x-y planes) stream through a
// ring of R device slots. Task j of a pass of k steps updates, at its step t,
// the planes [jL - t + 1, (j+1)L - t]: each plane once per step, reading the
// step before from the other buffer (buffers by absolute time parity), so
// the seam below a slab is finished by the next slab's task and nothing is
// computed twice. A slab is uploaded once per pass (one buffer of p and ss,
// and the 12 read-only fields) and its final p and ss downloaded once.
// In core: the same kernel over all planes, after one upload, before one
// download. Both produce the same p bit for bit (same kernel, same order).
//
//   nvcc -O3 -arch=sm_90 -fmad=false -o skewed_probe skewed_probe.cu
//   ./skewed_probe CAP_MIB STEPS ROUNDS "L:k L:k ..."    (prints a table last)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int NX = 512, NY = 256, NZ = 256;
constexpr long PLANE = long(NX) * NY;
// Arrays of a slot: p0 p1 ss0 ss1 then the 12 read-only fields
// (a0 a1 a2 a3 b0 b1 b2 c0 c1 c2 wrk1 bnd).
constexpr int ARRAYS = 16, CONSTS = 12;
constexpr int MAXP = 300;

struct Planes {
  float* base[MAXP];  // plane lo-1 .. hi+1 (entry 0 is lo-1); a plane's arrays are `stride` floats apart
  long stride;
  int lo;             // first updated plane
};

__global__ void himeno_step(Planes t, int in, int out, float omega) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int zi = blockIdx.z + 1;  // entry of this plane
  const int z = t.lo + blockIdx.z;
  if (x >= NX || y >= NY) return;
  const long c = long(y) * NX + x;
  const long s = t.stride;
  float* here = t.base[zi];
  const float* pin = here + in * s;          // p, time t-1
  float* pout = here + out * s;              // p, time t
  float* ssout = here + (2 + out) * s;
  const float p0 = pin[c];
  if (x == 0 || y == 0 || z == 0 || x == NX - 1 || y == NY - 1 || z == NZ - 1) {
    pout[c] = p0;  // bnd = 0 keeps the outer layer: p + omega * 0
    ssout[c] = 0.0f;
    return;
  }
  const float* dn = t.base[zi - 1] + in * s;  // z - 1
  const float* up = t.base[zi + 1] + in * s;  // z + 1
  const float* k = here + 4 * s;
#define K(i) k[(i) * s + c]
  auto at = [&](int dx, int dy, int dz) {
    const float* plane = dz < 0 ? dn : dz > 0 ? up : pin;
    return plane[c + long(dy) * NX + dx];
  };
  const float s0 = K(0) * at(0, 0, 1) + K(1) * at(0, 1, 0) + K(2) * at(1, 0, 0) +
                   K(4) * (at(0, 1, 1) - at(0, -1, 1) - at(0, 1, -1) + at(0, -1, -1)) +
                   K(5) * (at(1, 1, 0) - at(1, -1, 0) - at(-1, 1, 0) + at(-1, -1, 0)) +
                   K(6) * (at(1, 0, 1) - at(1, 0, -1) - at(-1, 0, 1) + at(-1, 0, -1)) + K(7) * at(0, 0, -1) +
                   K(8) * at(0, -1, 0) + K(9) * at(-1, 0, 0) + K(10);
  const float ss = (s0 * K(3) - p0) * K(11);
#undef K
  pout[c] = p0 + omega * ss;
  ssout[c] = ss;
}

struct Host {
  std::vector<float*> arrays;  // p, ss, then the 12 read-only fields; NZ * PLANE each, pinned
};

static void fill(Host& h, const std::vector<float>& p_init) {
  std::memcpy(h.arrays[0], p_init.data(), sizeof(float) * NZ * PLANE);
  std::memset(h.arrays[1], 0, sizeof(float) * NZ * PLANE);
}

static Host make_host(std::vector<float>& p_init) {
  Host h;
  for (int a = 0; a < 2 + CONSTS; ++a) {
    float* q;
    CHECK(cudaMallocHost(&q, sizeof(float) * NZ * PLANE));
    h.arrays.push_back(q);
  }
  p_init.resize(NZ * PLANE);
  for (int z = 0; z < NZ; ++z)
    for (long c = 0; c < PLANE; ++c) p_init[z * PLANE + c] = float(z * z) / float((NZ - 1) * (NZ - 1));
  for (int f = 0; f < CONSTS; ++f) {
    float v = f == 3 ? float(1.0 / 6.0) : (f >= 4 && f <= 6) ? 0.0f : f == 10 ? 0.0f : 1.0f;
    std::fill(h.arrays[2 + f], h.arrays[2 + f] + NZ * PLANE, v);
  }
  float* bnd = h.arrays[2 + 11];
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        const bool edge = z == 0 || y == 0 || x == 0 || z == NZ - 1 || y == NY - 1 || x == NX - 1;
        bnd[z * PLANE + long(y) * NX + x] = edge ? 0.0f : 1.0f;
      }
  fill(h, p_init);
  return h;
}

struct Result {
  double seconds;
  double gb_up, gb_down;
};

// Streams STEPS steps through R slots of L planes each (R * L >= NZ and one
// pass of k = STEPS is in core).
static Result run(Host& h, float* dev, int L, int k, int R, int steps) {
  const int n = (NZ + L - 1) / L;
  const long stride = long(L) * PLANE;  // floats between a slot's arrays
  const long slot_floats = ARRAYS * stride;
  const int c = (k + L - 1) / L;
  cudaStream_t up, comp, down;
  CHECK(cudaStreamCreate(&up));
  CHECK(cudaStreamCreate(&comp));
  CHECK(cudaStreamCreate(&down));
  const int passes = (steps + k - 1) / k;
  const long visits = long(passes) * n;
  std::vector<cudaEvent_t> uploaded(visits), freed(visits, nullptr), computed(visits);
  auto event = [] {
    cudaEvent_t e;
    CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
  };
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  double up_bytes = 0, down_bytes = 0;
  long next_upload = 0;  // visits are uploaded in order
  const bool in_core = n == 1 || R >= n && passes == 1;
  auto slot_of = [&](long v) { return dev + (v % R) * slot_floats; };
  auto upload = [&](long v) {
    const int pass = int(v / n), j = int(v % n), time = pass * k;
    const int planes = std::min(L, NZ - j * L);
    if (v >= R) CHECK(cudaStreamWaitEvent(up, freed[v - R]));
    float* slot = slot_of(v);
    const size_t bytes = sizeof(float) * planes * PLANE;
    CHECK(cudaMemcpyAsync(slot + (time % 2) * stride, h.arrays[0] + long(j) * L * PLANE, bytes, cudaMemcpyHostToDevice, up));
    CHECK(cudaMemcpyAsync(slot + (2 + time % 2) * stride, h.arrays[1] + long(j) * L * PLANE, bytes, cudaMemcpyHostToDevice, up));
    up_bytes += 2.0 * bytes;
    if (!(in_core && pass > 0)) {
      for (int f = 0; f < CONSTS; ++f) {
        CHECK(cudaMemcpyAsync(slot + (4 + f) * stride, h.arrays[2 + f] + long(j) * L * PLANE, bytes,
                              cudaMemcpyHostToDevice, up));
      }
      up_bytes += CONSTS * double(bytes);
    }
    uploaded[v] = event();
    CHECK(cudaEventRecord(uploaded[v], up));
  };
  auto download = [&](long v, int time) {
    const int j = int(v % n);
    const int planes = std::min(L, NZ - j * L);
    CHECK(cudaStreamWaitEvent(down, computed[v / n * n + std::min<long>(n - 1, j + c)]));
    const size_t bytes = sizeof(float) * planes * PLANE;
    float* slot = slot_of(v);
    CHECK(cudaMemcpyAsync(h.arrays[0] + long(j) * L * PLANE, slot + (time % 2) * stride, bytes, cudaMemcpyDeviceToHost, down));
    CHECK(cudaMemcpyAsync(h.arrays[1] + long(j) * L * PLANE, slot + (2 + time % 2) * stride, bytes, cudaMemcpyDeviceToHost, down));
    down_bytes += 2.0 * bytes;
    freed[v] = event();
    CHECK(cudaEventRecord(freed[v], down));
  };
  CHECK(cudaEventRecord(t0, up));
  CHECK(cudaStreamWaitEvent(comp, t0));
  CHECK(cudaStreamWaitEvent(down, t0));
  for (long v = 0; v < visits; ++v) {
    const int pass = int(v / n), j = int(v % n);
    const int first = pass * k, pass_steps = std::min(k, steps - first);
    // Uploads one task ahead: this task needs slab j+1, the next one j+2.
    const long need = std::min(visits - 1, j + 2 < n ? v + 2 : (j + 1 < n ? v + 1 : v + 2));
    while (next_upload <= need) upload(next_upload++);
    const long needed_now = j + 1 < n ? v + 1 : v;
    CHECK(cudaStreamWaitEvent(comp, uploaded[needed_now]));
    for (int t = 1; t <= pass_steps; ++t) {
      const int lo = std::max(0, j * L - t + 1);
      const int hi = j == n - 1 ? NZ - 1 : std::min(NZ - 1, (j + 1) * L - t);
      if (hi < lo) continue;
      Planes tab;
      tab.stride = stride;
      tab.lo = lo;
      for (int z = lo - 1; z <= hi + 1; ++z) {
        const int zz = std::clamp(z, 0, NZ - 1);
        tab.base[z - lo + 1] = slot_of(long(pass) * n + zz / L) + long(zz % L) * PLANE;
      }
      const int time = first + t;
      himeno_step<<<dim3(NX / 32, NY / 8, hi - lo + 1), dim3(32, 8), 0, comp>>>(tab, (time - 1) % 2, time % 2, 0.8f);
      CHECK(cudaGetLastError());
    }
    computed[v] = event();
    CHECK(cudaEventRecord(computed[v], comp));
    // Slab j - c is final after this task; the last task finishes the rest.
    const int end_time = first + pass_steps;
    if (j - c >= 0) download(v - c, end_time);
    if (j == n - 1)
      for (int jj = std::max(0, j - c + 1); jj <= j; ++jj) download(long(pass) * n + jj, end_time);
  }
  CHECK(cudaEventRecord(t1, down));
  CHECK(cudaEventSynchronize(t1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, t0, t1));
  for (auto e : uploaded) CHECK(cudaEventDestroy(e));
  for (auto e : computed) CHECK(cudaEventDestroy(e));
  for (auto e : freed)
    if (e) CHECK(cudaEventDestroy(e));
  CHECK(cudaEventDestroy(t0));
  CHECK(cudaEventDestroy(t1));
  CHECK(cudaStreamDestroy(up));
  CHECK(cudaStreamDestroy(comp));
  CHECK(cudaStreamDestroy(down));
  return {ms / 1e3, up_bytes / 1e9, down_bytes / 1e9};
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: skewed_probe CAP_MIB STEPS ROUNDS \"L:k ...\"\n");
    return 2;
  }
  const double cap = std::atof(argv[1]) * 1048576.0;
  const int steps = std::atoi(argv[2]), rounds = std::atoi(argv[3]);
  struct Variant {
    int L, k, R;
  };
  std::vector<Variant> variants{{NZ, steps, 1}};  // in core: one slot of every plane, one pass
  for (char* tok = std::strtok(argv[4], " "); tok; tok = std::strtok(nullptr, " ")) {
    int L, k;
    if (std::sscanf(tok, "%d:%d", &L, &k) != 2 || L < 1 || k < 1) {
      std::fprintf(stderr, "not L:k: '%s'\n", tok);
      return 2;
    }
    const int R = (k + L - 1) / L + 3;
    const double bytes = double(R) * ARRAYS * L * PLANE * sizeof(float);
    // R < number of slabs: a slab's next upload then waits (through its
    // slot's last occupant, in the download stream's order) for its download.
    if (bytes > cap || L + k + 2 > MAXP || R >= (NZ + L - 1) / L) {
      std::fprintf(stderr, "L %d k %d: %d slots take %.0f MiB, over the cap\n", L, k, R, bytes / 1048576);
      continue;
    }
    variants.push_back({L, k, R});
  }
  std::vector<float> p_init;
  Host h = make_host(p_init);
  float* dev;
  CHECK(cudaMalloc(&dev, sizeof(float) * ARRAYS * NZ * PLANE));
  std::vector<float> reference(NZ * PLANE);
  std::vector<std::vector<double>> seconds(variants.size());
  std::vector<Result> last(variants.size());
  std::vector<bool> same(variants.size(), true);
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < variants.size(); ++i) {
      fill(h, p_init);
      const Variant& v = variants[i];
      last[i] = run(h, dev, v.L, v.k, v.R, steps);
      seconds[i].push_back(last[i].seconds);
      if (i == 0) std::memcpy(reference.data(), h.arrays[0], sizeof(float) * NZ * PLANE);
      else if (std::memcmp(reference.data(), h.arrays[0], sizeof(float) * NZ * PLANE) != 0) same[i] = false;
    }
  }
  double gosa = 0;
  for (long c = 0; c < NZ * PLANE; ++c) gosa += double(h.arrays[1][c]) * h.arrays[1][c];
  std::printf("Himeno L %dx%dx%d, %d steps, cap %.0f MiB, %d rounds; last gosa %.6e\n", NX, NY, NZ, steps,
              cap / 1048576, rounds, gosa);
  std::printf("%-12s %4s %4s %3s %9s %15s %7s %7s %7s %s\n", "run", "L", "k", "R", "median s", "spread", "GB up",
              "GB down", "vs in", "p equal");
  std::vector<double> med(variants.size());
  for (size_t i = 0; i < variants.size(); ++i) {
    auto s = seconds[i];
    std::sort(s.begin(), s.end());
    med[i] = s[s.size() / 2];
    std::printf("%-12s %4d %4d %3d %9.4f %7.4f-%7.4f %7.2f %7.2f %7.3f %s\n", i == 0 ? "in core" : "skewed",
                variants[i].L, variants[i].k, variants[i].R, med[i], s.front(), s.back(), last[i].gb_up,
                last[i].gb_down, med[0] / med[i], i == 0 ? "ref" : same[i] ? "yes" : "NO");
  }
  return 0;
}
