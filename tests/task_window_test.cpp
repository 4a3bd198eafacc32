// Stages enter StarPU through a bounded window: a run keeps at most the
// window's tasks (plus one stage) in flight, the waiting thread tops the
// window up, and the result is exactly the sequential reference's. Tasks
// given worker orders run in them.
#include <gtest/gtest.h>

#include <starpu.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "reference_check.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/pathfinder.hpp"
#include "trapeze/error.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/task_window.hpp"

namespace {

using Jacobi = apps::Jacobi2D<float>;

trapeze::Plan plan_with_window(const trapeze::Extent& tile, int height, trapeze::Index window) {
  trapeze::Plan plan{tile, height};
  plan.max_tasks_in_flight = window;
  return plan;
}

void expect_equal(const trapeze::Grid<float>& got, const trapeze::Grid<float>& want) {
  const auto& a = got.updated(0);
  const auto& b = want.updated(0);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "first difference at linear index " << i;
}

TEST(TaskWindow, SmallWindowMatchesReferenceAcrossSubmitsAndDrains) {
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{61, 47, 1}, {16, 16, 1}, trapeze::Boundary::clamp()};
  auto grid = tests::make_grid<Jacobi>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  const trapeze::Index window = 20;
  trapeze::StencilRun run(runtime, Jacobi{}, grid, plan_with_window(c.tile, 2, window));
  const int tiles = run.tiling().count();
  ASSERT_EQ(tiles, 12);
  run.submit(7);
  run.submit(50);
  run.drain();
  run.submit(33);
  run.wait();
  EXPECT_EQ(run.steps_submitted(), 90);
  EXPECT_EQ(run.window_capacity(), window);
  // A top-up submits whole stages, so it may pass the window by one stage;
  // the copies in and out (one task per band) come on top.
  EXPECT_LE(run.peak_tasks_in_flight(), window + 2 * tiles);
  EXPECT_GT(run.tasks_submitted(), 4 * window);
  trapeze::reference::advance(Jacobi{}, expected, 90);
  expect_equal(grid, expected);
}

TEST(TaskWindow, WithoutAWaiterTheRunHoldsAtTheWindowThenWaitFinishesIt) {
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{40, 40, 1}, {10, 10, 1}, trapeze::Boundary::periodic()};
  auto grid = tests::make_grid<Jacobi>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  const trapeze::Index window = 32, steps = 400;  // 6400 stage tasks through a window of 32
  trapeze::StencilRun run(runtime, Jacobi{}, grid, plan_with_window(c.tile, 1, window));
  const int tiles = run.tiling().count();
  run.submit(steps);
  // Nobody waits: what submit() put in StarPU runs, and nothing more.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (run.tasks_completed() < run.tasks_submitted() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(run.tasks_completed(), run.tasks_submitted());
  EXPECT_LE(run.tasks_submitted(), window + tiles);
  EXPECT_LT(run.stages_completed(0), steps);
  run.wait();
  for (int t = 0; t < tiles; ++t) EXPECT_EQ(run.stages_completed(t), steps);
  // The window, a stage that tops it up, and one gather task per band of tiles.
  EXPECT_LE(run.peak_tasks_in_flight(), window + 2 * tiles);
  trapeze::reference::advance(Jacobi{}, expected, steps);
  expect_equal(grid, expected);
}

TEST(TaskWindow, DestroyingARunWithPendingStagesFinishesThem) {
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{33, 29, 1}, {8, 8, 1}, trapeze::Boundary::constant(0.5)};
  auto grid = tests::make_grid<Jacobi>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  {
    trapeze::StencilRun run(runtime, Jacobi{}, grid, plan_with_window(c.tile, 3, 25));
    run.submit(200);
  }
  trapeze::reference::advance(Jacobi{}, expected, 200);
  expect_equal(grid, expected);
}

TEST(TaskWindow, ConstantPlanesFollowTheWindowedStages) {
  // PathFinder reads one wall row per step: stages submitted late by the
  // feeder must still read their own rows.
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{301, 1, 1}, {37, 1, 1}, trapeze::Boundary::clamp()};
  c.steps = 120;
  c.constant_planes = c.steps;
  auto grid = tests::make_grid<apps::Pathfinder>(c);
  tests::randomise(grid, tests::fresh_seed());
  auto expected = grid;
  {
    trapeze::StencilRun run(runtime, apps::Pathfinder{}, grid, plan_with_window(c.tile, 4, 9));
    run.submit(c.steps);
    run.wait();
    EXPECT_GT(run.tasks_submitted(), 10 * 9);
  }
  trapeze::reference::advance(apps::Pathfinder{}, expected, c.steps);
  ASSERT_EQ(grid.updated(0), expected.updated(0));
}

TEST(TaskWindow, RejectsNegativeWindow) {
  trapeze::Runtime runtime({"lws", 2});
  tests::Case c{{16, 16, 1}, {8, 8, 1}, trapeze::Boundary::clamp()};
  auto grid = tests::make_grid<Jacobi>(c);
  try {
    trapeze::StencilRun run(runtime, Jacobi{}, grid, plan_with_window(c.tile, 1, -5));
    FAIL() << "a negative window was accepted";
  } catch (const trapeze::Error& e) {
    EXPECT_NE(std::string(e.what()).find("-5"), std::string::npos) << e.what();
  }
}

// A task that holds its worker until the test opens the gate (a stand-in for
// a task StarPU cannot start or finish), or for a fixed time.
struct Gate {
  std::atomic<bool> open{false};
  int hold_ms = -1;  // >= 0: finish after this long, gate or not
};

void held_task(void*[], void* arg) {
  auto* gate = static_cast<Gate*>(arg);
  const auto start = std::chrono::steady_clock::now();
  while (!gate->open.load()) {
    if (gate->hold_ms >= 0 && std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(gate->hold_ms)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void count_done(void* window) { static_cast<trapeze::TaskWindow*>(window)->task_done(); }

// A window whose units are `tasks` held tasks, one a unit.
struct HeldTasks {
  starpu_codelet codelet{};
  Gate gate;
  int left;
  trapeze::TaskWindow window;
  explicit HeldTasks(int tasks)
      : left(tasks), window(2, [this] { return submit_one(); }, [this] { return left > 0; }) {
    starpu_codelet_init(&codelet);
    codelet.cpu_funcs[0] = &held_task;
    codelet.nbuffers = 0;
  }
  bool submit_one() {
    window.task_submitted();
    starpu_task* task = starpu_task_create();
    task->cl = &codelet;
    task->cl_arg = &gate;
    task->callback_func = &count_done;
    task->callback_arg = &window;
    if (starpu_task_submit(task) != 0) ADD_FAILURE() << "submit failed";
    return --left > 0;
  }
};

TEST(TaskWindow, StallGuardCallsItsHandlerWhenNoTaskCompletes) {
  trapeze::Runtime runtime({"lws", 2});
  HeldTasks run(1);
  std::atomic<int> stalls{0};
  double idle = 0;
  run.window.guard_stalls(1.0, [&](double seconds) {
    idle = seconds;
    ++stalls;
    run.gate.open = true;  // the handler ends the stall (the runtime's ends the process)
  });
  {
    auto submission = run.window.lock_submission();
    run.window.fill(submission, false);
  }
  const auto start = std::chrono::steady_clock::now();
  run.window.wait_until_done();
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(stalls.load(), 1);
  EXPECT_GE(idle, 1.0);
  EXPECT_LT(waited, 10.0);
  EXPECT_EQ(run.window.completed(), 1);
}

TEST(TaskWindow, StallGuardStaysQuietWhileTasksKeepCompleting) {
  trapeze::Runtime runtime({"lws", 2});
  // Six tasks of 0.4 s, two at a time: 1.2 s in all, never 1 s without a completion.
  HeldTasks run(6);
  run.gate.hold_ms = 400;
  std::atomic<int> stalls{0};
  run.window.guard_stalls(1.0, [&](double) {
    ++stalls;
    run.gate.open = true;
  });
  {
    auto submission = run.window.lock_submission();
    run.window.fill(submission, false);
  }
  run.window.wait_until_done();
  EXPECT_EQ(stalls.load(), 0);
  EXPECT_EQ(run.window.completed(), 6);
}

TEST(OutOfCore, StallSecondsComeFromTheEnvironmentAndBadValuesAreNamed) {
  unsetenv("TRAPEZE_STALL_SECONDS");
  EXPECT_EQ(trapeze::stall_seconds_from_environment(), 60.0);
  setenv("TRAPEZE_STALL_SECONDS", "2.5", 1);
  EXPECT_EQ(trapeze::stall_seconds_from_environment(), 2.5);
  setenv("TRAPEZE_STALL_SECONDS", "0", 1);
  EXPECT_EQ(trapeze::stall_seconds_from_environment(), 0.0);
  for (const char* bad : {"-1", "soon", "5s", "nan"}) {
    setenv("TRAPEZE_STALL_SECONDS", bad, 1);
    try {
      trapeze::stall_seconds_from_environment();
      ADD_FAILURE() << bad << " was accepted";
    } catch (const trapeze::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
  unsetenv("TRAPEZE_STALL_SECONDS");
}

// Tasks given worker orders (Runtime::take_worker_order) run in those orders
// on their worker whatever order they were submitted in, and the numbers go
// on from one batch to the next (StarPU counts from 1 for the session, and
// waits forever for a number skipped): the skewed slabs' GPU tasks rely on
// it (trapeze/skewed_run.hpp).
struct OrderedRecord {
  std::mutex* mutex;
  std::vector<int>* ran;
  int id;
};

void record_run(void*[], void* arg) {
  const auto* record = static_cast<const OrderedRecord*>(arg);
  const std::lock_guard lock(*record->mutex);
  record->ran->push_back(record->id);
}

TEST(WorkerOrder, TasksRunInTheirOrdersAcrossBatches) {
  trapeze::Runtime runtime({"lws", 2});
  starpu_codelet codelet;
  starpu_codelet_init(&codelet);
  codelet.where = STARPU_CPU;
  codelet.cpu_funcs[0] = &record_run;
  codelet.nbuffers = 0;
  std::mutex mutex;
  std::vector<int> ran;
  std::vector<OrderedRecord> records;
  for (int id = 0; id < 6; ++id) records.push_back({&mutex, &ran, id});
  const auto submit = [&](unsigned order, int id) {
    starpu_task* task = starpu_task_create();
    task->cl = &codelet;
    task->cl_arg = &records[static_cast<std::size_t>(id)];
    task->execute_on_a_specific_worker = 1;
    task->workerid = 0;
    task->workerorder = order;
    ASSERT_EQ(starpu_task_submit(task), 0);
  };
  for (int batch = 0; batch < 3; ++batch) {
    const unsigned first = runtime.take_worker_order(0);
    if (batch == 1) {
      // A number given back is handed out again.
      runtime.give_back_worker_order(0);
      EXPECT_EQ(runtime.take_worker_order(0), first);
    }
    const unsigned second = runtime.take_worker_order(0);
    EXPECT_EQ(second, first + 1);
    submit(second, 2 * batch + 1);
    submit(first, 2 * batch);
    starpu_task_wait_for_all();
  }
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_THROW(runtime.take_worker_order(runtime.worker_count()), trapeze::InvalidArgument);
}

}  // namespace
