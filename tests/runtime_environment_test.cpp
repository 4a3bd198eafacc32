// The StarPU variables the Runtime gives defaults of its own: StarPU's
// clean-buffer rule is off unless the user sets it (runtime.cpp), the
// default lives only inside starpu_init (the process's environment is as
// it was), and a user's value is left alone.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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

}  // namespace
