// Trapeze's scheduling policies: chosen by STARPU_SCHED (or the Runtime's
// option) exactly like StarPU's own, listed by STARPU_SCHED=help, and doing
// what they promise on StarPU's CPU workers. Results under them are checked
// against the reference in equality_test (every app, both policies).
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <random>
#include <string>

#include "random_grids.hpp"
#include "stencils/jacobi2d.hpp"
#include "trapeze/error.hpp"
#include "trapeze/reference.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_run.hpp"
#include "trapeze/wavefront_reference.hpp"
#include "trapeze/wavefront_run.hpp"

namespace {

// Sets an environment variable for one test and puts the old value back.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedVariable() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(SchedulerPolicies, StarpuSchedSelectsTrapezePoliciesWithoutAWarning) {
  for (const char* name : {"trapeze-owner", "trapeze-wavefront"}) {
    ScopedVariable sched("STARPU_SCHED", name);
    testing::internal::CaptureStderr();
    {
      trapeze::Runtime runtime({"", 2});
      EXPECT_EQ(runtime.scheduler(), name);
    }
    const std::string printed = testing::internal::GetCapturedStderr();
    EXPECT_EQ(printed.find("not found"), std::string::npos) << printed;
    // Hidden from StarPU during its start only.
    ASSERT_NE(std::getenv("STARPU_SCHED"), nullptr);
    EXPECT_EQ(std::string(std::getenv("STARPU_SCHED")), name);
  }
}

TEST(SchedulerPolicies, TheRuntimeOptionSelectsThemAndStarpusOwnNamesStillWork) {
  for (const char* name : {"trapeze-owner", "trapeze-wavefront", "lws", "dmda", "eager"}) {
    trapeze::Runtime runtime({name, 2});
    EXPECT_EQ(runtime.scheduler(), name);
  }
}

TEST(SchedulerPolicies, TheRuntimeOptionWinsOverTheVariable) {
  for (const char* variable : {"trapeze-owner", "eager"}) {
    ScopedVariable sched("STARPU_SCHED", variable);
    for (const char* name : {"dmda", "trapeze-wavefront"}) {
      trapeze::Runtime runtime({name, 2});
      EXPECT_EQ(runtime.scheduler(), name) << "STARPU_SCHED=" << variable;
    }
  }
}

TEST(SchedulerPolicies, AnUnknownNameIsRefusedWithEveryKnownOne) {
  ScopedVariable sched("STARPU_SCHED", "trapeze-ownr");
  try {
    trapeze::Runtime runtime({"", 2});
    FAIL() << "an unknown scheduler was accepted";
  } catch (const trapeze::InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown scheduler 'trapeze-ownr' (STARPU_SCHED)"), std::string::npos) << what;
    for (const char* known : {"trapeze-owner", "trapeze-wavefront", "lws", "dmda"}) {
      EXPECT_NE(what.find(known), std::string::npos) << known << " missing from: " << what;
    }
  }
}

TEST(SchedulerPolicies, HelpListsTrapezesPoliciesBesideStarpus) {
  ScopedVariable sched("STARPU_SCHED", "help");
  testing::internal::CaptureStderr();
  {
    trapeze::Runtime runtime({"", 2});
    EXPECT_EQ(runtime.scheduler(), "lws");  // StarPU's default, as for StarPU's own help
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  for (const char* listed : {"trapeze-owner", "trapeze-wavefront", "lws", "dmda", "eager"}) {
    EXPECT_NE(printed.find(listed), std::string::npos) << listed << " missing from: " << printed;
  }
}

// 16 bands of a jacobi2d grid, two workers: owner 0 holds bands 0-7, owner 1
// bands 8-15; bands 7 and 8 border each other. Under trapeze-owner no other
// band's stage ever runs away from its owner, and the result is the reference's.
TEST(SchedulerPolicies, OwnerRunsEveryInteriorTileOnItsOwner) {
  trapeze::Runtime runtime({"trapeze-owner", 2});
  using Stencil = apps::Jacobi2D<float>;
  trapeze::Grid<float> grid({256, 512, 1}, 2, 1, 0, 1, trapeze::Boundary::clamp());
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  const trapeze::Index steps = 60;
  {
    trapeze::StencilRun<Stencil> run(runtime, Stencil{}, grid, trapeze::Plan{{256, 32, 1}, 1});
    ASSERT_EQ(run.tiling().count(), 16);
    const int first_owner = run.placement(0).worker;
    for (int t = 0; t < 16; ++t) {
      EXPECT_EQ(run.placement(t).worker == first_owner, t < 8) << "tile " << t;
      EXPECT_EQ(run.placement(t).border, t == 7 || t == 8) << "tile " << t;
    }
    run.submit(steps);
    run.wait();
    for (int t = 0; t < 16; ++t) {
      EXPECT_EQ(run.stages_completed(t), steps);
      if (!run.placement(t).border) {
        EXPECT_EQ(run.stages_away_from_owner(t), 0) << "tile " << t;
      }
    }
  }
  trapeze::reference::advance(Stencil{}, expected, steps);
  EXPECT_EQ(grid.updated(0), expected.updated(0));
}

struct LongestCommonSubsequence {
  using value_type = int;
  using row_input_type = char;
  using column_input_type = char;
  static constexpr std::array dependencies{trapeze::from_up, trapeze::from_left, trapeze::from_up_left};
  TRAPEZE_HOST_DEVICE int boundary(trapeze::Index, trapeze::Index) const { return 0; }
  TRAPEZE_HOST_DEVICE int operator()(const trapeze::WavefrontNeighbours<int>& at, char a, char b,
                                     trapeze::NoInput) const {
    return a == b ? at.up_left + 1 : (at.up > at.left ? at.up : at.left);
  }
};

TEST(SchedulerPolicies, WavefrontPolicyRunsTheFrontToTheReferencesResult) {
  trapeze::Runtime runtime({"trapeze-wavefront", 2});
  std::mt19937 random(tests::fresh_seed());
  std::string query(700, ' '), target(913, ' ');
  for (char& c : query) c = static_cast<char>('a' + random() % 4);
  for (char& c : target) c = static_cast<char>('a' + random() % 4);
  const trapeze::WavefrontData<LongestCommonSubsequence> data{700, 913, query, target, {}, {}};
  int expected = 0;
  trapeze::reference::wavefront(LongestCommonSubsequence{}, data, &expected);
  for (trapeze::Index tile : {1, 7, 64}) {
    trapeze::WavefrontRun run(runtime, LongestCommonSubsequence{}, data, {tile, tile + 3});
    run.submit();
    run.wait();
    EXPECT_EQ(run.last_cell(), expected) << "tiles of " << tile;
  }
}

}  // namespace
