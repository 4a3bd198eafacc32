// What a chain of dependent StarPU tasks costs on one GPU beside a plain CUDA
// loop, with no Trapeze code in the tasks: the floor under Trapeze's h = 1.
//
// Each step adds 1 to every element of one float vector (n elements, 8 bytes
// moved per element). The plain loop launches the kernel and synchronises
// the device after each step (issue 9's baseline (a)); the chain submits one
// StarPU task a step, each RW on the vector's handle, launching the same
// kernel on the task's stream (STARPU_CUDA_ASYNC), so every task waits for
// the one before. The other columns add, one at a time, what a Trapeze stage
// task carries: a read-only vector, a scratch buffer, a history-based
// performance model, packed arguments with a callback and a name. The
// difference between a chain's and the plain loop's seconds per step is what
// StarPU's turnaround (completion seen, dependants released, next task
// fetched and launched) adds to a step. Prints a table last.
#include <cuda_runtime.h>
#include <starpu.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "codelets/cuda/cuda_check.cuh"
#include "gpu_timing.cuh"
#include "trapeze/data_handle.hpp"
#include "trapeze/error.hpp"
#include "trapeze/runtime.hpp"

namespace {

__global__ void add_one(float* values, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) values[i] += 1.0f;
}

void launch_add_one(float* values, long long n, cudaStream_t stream) {
  const long long blocks = (n + 255) / 256;
  add_one<<<static_cast<unsigned>(blocks > 0 ? blocks : 1), 256, 0, stream>>>(values, n);
  TRAPEZE_CUDA_CHECK_LAUNCH("add_one");
}

// Seconds per step of the plain loop: launch, device synchronisation, `steps` times.
double plain_seconds_per_step(long long n, int steps) {
  bench::DeviceBuffer<float> values(static_cast<std::size_t>(n));
  TRAPEZE_CUDA_CHECK(cudaMemset(values.data, 0, static_cast<std::size_t>(n) * sizeof(float)));
  std::vector<double> times;
  for (int repeat = 0; repeat < 4; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < steps; ++s) {
      launch_add_one(values.data, n, nullptr);
      TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (repeat > 0) times.push_back(seconds / steps);  // the first warms up
  }
  return bench::median(times);
}

void add_one_task(void* buffers[], void*) {
  auto* values = reinterpret_cast<float*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  const auto n = static_cast<long long>(STARPU_VECTOR_GET_NX(buffers[0]));
  launch_add_one(values, n, starpu_cuda_get_local_stream());
}

// What a chained task carries beside its RW vector, as a Trapeze stage task does.
struct TaskShape {
  const char* name;
  bool read_only = false;   // a read-only vector (a stage's constant fields)
  bool scratch = false;     // a STARPU_SCRATCH buffer (a CPU stage's chunk buffer)
  bool model = false;       // a history-based performance model with a footprint function
  bool extras = false;      // packed arguments, a completion callback, a name, a priority
};

uint32_t fixed_footprint(starpu_task*) { return 1; }
void count_done(void* counter) { ++*static_cast<long long*>(counter); }

// Seconds per step of `steps` chained tasks of `shape`.
double chain_seconds_per_step(long long n, int steps, const TaskShape& shape, starpu_perfmodel& model) {
  std::vector<float> host(static_cast<std::size_t>(n), 0.0f), constants(1024, 0.0f);
  trapeze::DataHandle values = trapeze::DataHandle::vector(host.data(), host.size(), sizeof(float), true);
  trapeze::DataHandle read_only = trapeze::DataHandle::vector(constants.data(), constants.size(), sizeof(float), true);
  trapeze::DataHandle scratch = trapeze::DataHandle::vector(nullptr, 4096, sizeof(float), false);
  starpu_codelet codelet;
  starpu_codelet_init(&codelet);
  codelet.cuda_funcs[0] = add_one_task;
  codelet.cuda_flags[0] = STARPU_CUDA_ASYNC;
  codelet.where = STARPU_CUDA;
  codelet.nbuffers = STARPU_VARIABLE_NBUFFERS;
  codelet.name = "add_one";
  if (shape.model) codelet.model = &model;
  long long done = 0;
  struct Args {
    long long a, b, c, d, e, f, g;
  } args{};
  auto submit = [&](int count) {
    for (int s = 0; s < count; ++s) {
      std::vector<starpu_data_descr> data{{values.get(), STARPU_RW}};
      if (shape.read_only) data.push_back({read_only.get(), STARPU_R});
      if (shape.scratch) data.push_back({scratch.get(), STARPU_SCRATCH});
      const int rc = shape.extras
                         ? starpu_task_insert(&codelet, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY,
                                              data.data(), static_cast<int>(data.size()), STARPU_CALLBACK_WITH_ARG_NFREE,
                                              count_done, &done, STARPU_NAME, "tile", STARPU_PRIORITY, 0, 0)
                         : starpu_task_insert(&codelet, STARPU_DATA_MODE_ARRAY, data.data(), static_cast<int>(data.size()), 0);
      if (rc != 0) throw trapeze::Error("starpu_task_insert failed: " + std::to_string(rc));
    }
    starpu_task_wait_for_all();
  };
  submit(16);  // the vectors move to the GPU, the kernel's module loads, the model calibrates
  std::vector<double> times;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    submit(steps);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / steps);
  }
  return bench::median(times);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"StarPU's turnaround between dependent tasks on one GPU, against a plain CUDA loop"};
  std::vector<long long> sizes{1, 1 << 20, 4 << 20, 16 << 20, 64 << 20};
  int steps = 256;
  cli.add_option("--sizes", sizes, "elements of the vector (float), one row each")->delimiter(',')->check(CLI::Range(1LL, 1LL << 31));
  cli.add_option("--steps", steps, "steps timed a repeat")->capture_default_str()->check(CLI::Range(8, 100000));
  CLI11_PARSE(cli, argc, argv);
  try {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) throw trapeze::Error("no CUDA device: this benchmark needs a GPU");
    // The plain loops first, on a device no StarPU worker polls (gpu_stencils.cpp says why).
    std::vector<double> plain;
    for (long long n : sizes) plain.push_back(plain_seconds_per_step(n, steps));
    trapeze::Runtime runtime;
    if (runtime.cuda_worker_count() == 0) throw trapeze::Error("no CUDA worker: this benchmark needs a GPU");
    const std::vector<TaskShape> shapes{{"RW only"},
                                        {"+R", true},
                                        {"+R+scratch", true, true},
                                        {"+R+model", true, false, true},
                                        {"+R+extras", true, false, false, true},
                                        {"stage-like", true, true, true, true}};
    starpu_perfmodel model{};
    model.type = STARPU_HISTORY_BASED;
    model.symbol = "trapeze_turnaround_probe";
    model.footprint = fixed_footprint;
    // seconds[size][shape]: medians of 3 rounds, the shapes alternating within each.
    std::vector<std::vector<double>> seconds(sizes.size(), std::vector<double>(shapes.size()));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::vector<std::vector<double>> rounds(shapes.size());
      for (int round = 0; round < 3; ++round) {
        for (std::size_t v = 0; v < shapes.size(); ++v) rounds[v].push_back(chain_seconds_per_step(sizes[i], steps, shapes[v], model));
      }
      for (std::size_t v = 0; v < shapes.size(); ++v) seconds[i][v] = bench::median(rounds[v]);
    }
    std::printf("microseconds a step: the plain loop, then chains of tasks of each shape (medians of 3 rounds)\n");
    std::printf("%10s %9s | %9s", "elements", "MB a step", "plain");
    for (const TaskShape& shape : shapes) std::printf(" %11s", shape.name);
    std::printf(" | %9s %9s\n", "RW-plain", "plain/RW");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::printf("%10lld %9.1f | %9.2f", sizes[i], sizes[i] * 8.0 / 1e6, plain[i] * 1e6);
      for (double s : seconds[i]) std::printf(" %11.2f", s * 1e6);
      std::printf(" | %9.2f %9.3f\n", (seconds[i][0] - plain[i]) * 1e6, plain[i] / seconds[i][0]);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_task_turnaround: %s\n", e.what());
    return 1;
  }
}
