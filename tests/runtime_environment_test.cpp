// The StarPU variables the Runtime gives defaults of its own: StarPU's
// clean-buffer rule is off unless the user sets it (runtime.cpp), the
// default lives only inside starpu_init (the process's environment is as
// it was), and a user's value is left alone. TRAPEZE_NODE_EXCHANGE names how
// halo pieces cross ranks of one node (trapeze/node_exchange.hpp). Worker
// counts that leave a task nowhere to run are named in the error line.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

#include "trapeze/error.hpp"
#include "trapeze/node_exchange.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/task_refused.hpp"
#include "trapeze/task_window.hpp"
#include "trapeze/windowed_task.hpp"

namespace {

TEST(RuntimeEnvironment, CleanBufferDefaultsDoNotLeakIntoTheProcess) {
  unsetenv("STARPU_MINIMUM_CLEAN_BUFFERS");
  unsetenv("STARPU_TARGET_CLEAN_BUFFERS");
  {
    trapeze::Runtime runtime({"eager", 1, 0});
    EXPECT_EQ(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS"), nullptr);
    EXPECT_EQ(std::getenv("STARPU_TARGET_CLEAN_BUFFERS"), nullptr);
  }
  EXPECT_EQ(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS"), nullptr);
}

TEST(RuntimeEnvironment, AUsersCleanBufferValuesAreKept) {
  setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "7", 1);
  {
    trapeze::Runtime runtime({"eager", 1, 0});
    ASSERT_NE(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS"), nullptr);
    EXPECT_EQ(std::string(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS")), "7");
  }
  EXPECT_EQ(std::string(std::getenv("STARPU_MINIMUM_CLEAN_BUFFERS")), "7");
  unsetenv("STARPU_MINIMUM_CLEAN_BUFFERS");
}

TEST(RuntimeEnvironment, NodeExchangeModeIsReadFromTheEnvironment) {
  trapeze::Runtime runtime({"eager", 1, 0});  // no CUDA worker
  using trapeze::NodeExchangeMode;
  unsetenv("TRAPEZE_NODE_EXCHANGE");
  // Automatic: GPU mailboxes only for a rank with one GPU and its tiles on it.
  EXPECT_EQ(trapeze::node_exchange_asked(false), NodeExchangeMode::mpi);
  EXPECT_EQ(trapeze::node_exchange_asked(true), NodeExchangeMode::mpi);
  for (auto [value, mode] : {std::pair{"auto", NodeExchangeMode::mpi}, std::pair{"mpi", NodeExchangeMode::mpi},
                             std::pair{"host", NodeExchangeMode::host}, std::pair{"device", NodeExchangeMode::device}}) {
    setenv("TRAPEZE_NODE_EXCHANGE", value, 1);
    EXPECT_EQ(trapeze::node_exchange_asked(false), mode) << value;
    EXPECT_EQ(std::string(trapeze::to_string(mode)), value == std::string("auto") ? "mpi" : value);
  }
  setenv("TRAPEZE_NODE_EXCHANGE", "shared", 1);
  try {
    trapeze::node_exchange_asked(false);
    ADD_FAILURE() << "an unknown mode must be refused";
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'shared'"), std::string::npos) << e.what();
  }
  unsetenv("TRAPEZE_NODE_EXCHANGE");
}

// TRAPEZE_CUDA_POOL (read inside StarPU's CUDA driver): 0 and 1 start, any
// other value is refused in one line naming it, before StarPU starts.
TEST(RuntimeEnvironment, CudaPoolVariableTakesZeroOrOne) {
  for (const char* value : {"0", "1"}) {
    setenv("TRAPEZE_CUDA_POOL", value, 1);
    EXPECT_NO_THROW(trapeze::Runtime({"eager", 1, 0})) << value;
  }
  setenv("TRAPEZE_CUDA_POOL", "off", 1);
  try {
    trapeze::Runtime runtime({"eager", 1, 0});
    ADD_FAILURE() << "TRAPEZE_CUDA_POOL=off was accepted";
  } catch (const trapeze::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("TRAPEZE_CUDA_POOL must be 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'off'"), std::string::npos) << e.what();
  }
  unsetenv("TRAPEZE_CUDA_POOL");
}

// A task whose codelet runs only where no worker was started (here: CUDA
// with STARPU_NCUDA=0, as a GPU run's host-side tasks with STARPU_NCPU=0) is
// refused in one line naming the task, the workers it needs and those there
// are; other refusals stay StarPU errors with their code.
void never_runs(void*[], void*) {}

TEST(RuntimeEnvironment, ATaskNoWorkerCanRunIsNamed) {
  trapeze::Runtime runtime({"eager", 1, 0});  // one CPU worker, no CUDA worker
  starpu_codelet gpu_only;
  starpu_codelet_init(&gpu_only);
  gpu_only.cuda_funcs[0] = never_runs;
  gpu_only.nbuffers = 0;
  gpu_only.name = "gpu_only_probe";
  trapeze::TaskWindow window(4, [] { return false; }, [] { return false; });
  const trapeze::DistributedTask task{&gpu_only, nullptr, 0, nullptr, 0, nullptr, nullptr, "gpu_only_probe", nullptr};
  try {
    trapeze::insert_windowed(window, task, -1);
    ADD_FAILURE() << "a CUDA-only task was accepted with no CUDA worker";
  } catch (const trapeze::InvalidArgument& e) {
    const std::string line = e.what();
    EXPECT_NE(line.find("'gpu_only_probe'"), std::string::npos) << line;
    EXPECT_NE(line.find("run on CUDA workers (started: 1 CPU, 0 CUDA)"), std::string::npos) << line;
    EXPECT_NE(line.find("needs a GPU"), std::string::npos) << line;
  }
  window.wait_until_done();

  starpu_codelet cpu_only;
  starpu_codelet_init(&cpu_only);
  cpu_only.cpu_funcs[0] = never_runs;
  cpu_only.name = "scatter";
  try {
    trapeze::throw_task_refused("starpu_task_insert", -EINVAL, cpu_only);
  } catch (const trapeze::InvalidArgument& e) {
    ADD_FAILURE() << "only -ENODEV is the user's worker counts: " << e.what();
  } catch (const trapeze::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("starpu_task_insert failed with code " + std::to_string(-EINVAL)),
              std::string::npos)
        << e.what();
  }
  // A GPU run's host-side task with STARPU_NCPU=0 (a count this machine cannot start: no GPU).
  const std::string line = trapeze::no_worker_message(cpu_only, 0, 1);
  EXPECT_NE(line.find("'scatter' tasks, which run on CPU workers (started: 0 CPU, 1 CUDA)"), std::string::npos) << line;
  EXPECT_NE(line.find("give STARPU_NCPU 1 or more"), std::string::npos) << line;
}

}  // namespace
