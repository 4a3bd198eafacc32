// The StarPU variables the Runtime gives defaults of its own: StarPU's
// clean-buffer rule is off unless the user sets it (runtime.cpp), the
// default lives only inside starpu_init (the process's environment is as
// it was), and a user's value is left alone. TRAPEZE_NODE_EXCHANGE names how
// halo pieces cross ranks of one node (trapeze/node_exchange.hpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "trapeze/error.hpp"
#include "trapeze/node_exchange.hpp"
#include "trapeze/runtime.hpp"

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

}  // namespace
