#pragma once
// Keeps a bounded number of a run's tasks inside StarPU at once, so that a
// run's memory does not grow with its step count.
//
// Every task StarPU holds costs a few kilobytes (the task, its data
// descriptors, the implicit dependency lists of its handles): submitting all
// stages of 10^5 steps of a 4x4-tile run up front took 6.9 GB. A run hands its
// work to the window one unit (a stage of every tile) at a time: submit()
// fills the window up to `capacity` tasks, and the thread that waits for the
// run (wait(), drain()) tops it up whenever the tasks in flight fall to half
// the capacity. There is no barrier between windows: the top-up arrives while
// the older half still runs, so peer dependencies keep tiles of different
// stages running side by side. Work beyond the first window is submitted
// only while someone waits, so a program that submits and does something
// else before waiting sees its run pause at the window's end.
//
// Top-ups pause StarPU's workers while they submit, as the first fill does:
// with tiny tasks (16x16 tiles, h = 1) a window topped up beside running CPU
// workers took 1.75x the time of submitting everything up front, one topped
// up while they were paused 1.2x (StarPU's handle locks and wake-ups; the
// tasks in flight are not lost, only held for the milliseconds of a top-up).
// Why not a feeder thread that tops up on its own: with one, runs corrupted
// StarPU's heap (hwloc freed memory twice at the next starpu_shutdown, seen
// with AddressSanitizer after repeated runs in one process), paused or not;
// all submission from the waiting thread is clean.
//
// The unit's submit function runs under the window's submission lock; the
// run's own graph edits (scatter, gather) take the same lock.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>

#include "trapeze/geometry.hpp"

namespace trapeze {

// Called about once a second while a run's wait() blocks: tasks done, and
// tasks the whole run will have.
using ProgressCallback = std::function<void(Index done, Index total)>;

// starpu_pause() for a scope. StarPU counts pauses, so nested ones are fine,
// but the count is not atomic: pause only under the submission lock.
class PausedWorkers {
 public:
  explicit PausedWorkers(bool pause);
  ~PausedWorkers();
  PausedWorkers(const PausedWorkers&) = delete;
  PausedWorkers& operator=(const PausedWorkers&) = delete;

 private:
  bool paused_;
};

class TaskWindow {
 public:
  // submit_unit: submits the next unit of pending work and returns whether
  // more is pending; pending: whether any unit is pending. Both are called
  // only under the submission lock.
  TaskWindow(Index capacity, std::function<bool()> submit_unit, std::function<bool()> pending);
  TaskWindow(const TaskWindow&) = delete;
  TaskWindow& operator=(const TaskWindow&) = delete;

  std::unique_lock<std::mutex> lock_submission() { return std::unique_lock(submission_mutex_); }

  // Submits pending units until the window is full. Later top-ups (in
  // wait_until_submitted) pause StarPU's workers when `pause_workers` says
  // so. `submission` is the caller's hold of the submission lock.
  void fill(const std::unique_lock<std::mutex>& submission, bool pause_workers);

  // Counts one task: before it is inserted, and from its completion callback.
  void task_submitted();
  void task_done();
  // Undoes task_submitted() for a task whose insertion failed.
  void task_not_submitted() { submitted_.fetch_sub(1); }

  // Blocks until no unit is pending (all submitted), topping the window up
  // as tasks complete, and calls `tick` about once a second.
  void wait_until_submitted(const std::function<void()>& tick = {});
  // Blocks until no unit is pending and every submitted task has completed.
  void wait_until_done(const std::function<void()>& tick = {});
  // Forgets the pending units (error paths: let what is in StarPU finish).
  void drop_pending();

  // From now on the waiting thread calls `on_stall(idle seconds)` when tasks
  // are in flight and none has completed for `seconds` (0: never). For runs
  // that can wedge StarPU: out of core at a small GPU memory cap its memory
  // manager can wait for room forever (docs/PERF.md, "small caps"), and a
  // wait that never returns is worse than an error. Set before waiting.
  void guard_stalls(double seconds, std::function<void(double)> on_stall);

  Index capacity() const { return capacity_; }
  Index submitted() const { return submitted_.load(); }
  Index completed() const { return completed_.load(); }
  Index in_flight() const { return submitted_.load() - completed_.load(); }
  // The most tasks ever in flight at once (at most capacity plus one unit).
  Index peak_in_flight() const { return peak_in_flight_.load(); }

 private:
  const Index capacity_;
  std::function<bool()> submit_unit_;
  std::function<bool()> pending_;
  std::mutex submission_mutex_;  // the task graph: units, scatter, gather
  bool pause_workers_ = false;   // under submission_mutex_
  bool work_pending_ = false;    // under submission_mutex_: units remain after the last fill
  std::mutex count_mutex_;       // the waiter's sleep on the counters
  std::condition_variable count_changed_;
  std::atomic<Index> submitted_{0};
  std::atomic<Index> completed_{0};
  std::atomic<Index> peak_in_flight_{0};
  double stall_seconds_ = 0;
  std::function<void(double)> on_stall_;
};

}  // namespace trapeze
