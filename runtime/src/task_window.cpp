#include "trapeze/task_window.hpp"

#include <starpu.h>

#include <chrono>
#include <utility>

namespace trapeze {

PausedWorkers::PausedWorkers(bool pause) : paused_(pause) {
  if (paused_) starpu_pause();
}

PausedWorkers::~PausedWorkers() {
  if (paused_) starpu_resume();
}

TaskWindow::TaskWindow(Index capacity, std::function<bool()> submit_unit, std::function<bool()> pending)
    : capacity_(capacity < 2 ? 2 : capacity), submit_unit_(std::move(submit_unit)), pending_(std::move(pending)) {}

void TaskWindow::fill(const std::unique_lock<std::mutex>& submission, bool pause_workers) {
  (void)submission;  // proof that the caller holds the submission lock
  pause_workers_ = pause_workers;
  bool more = pending_();
  while (more && in_flight() < capacity_) more = submit_unit_();
  work_pending_ = more;
}

void TaskWindow::task_submitted() {
  const Index now = submitted_.fetch_add(1) + 1 - completed_.load();
  Index peak = peak_in_flight_.load();
  while (now > peak && !peak_in_flight_.compare_exchange_weak(peak, now)) {
  }
}

void TaskWindow::task_done() {
  std::lock_guard count(count_mutex_);
  const Index left = submitted_.load() - (completed_.fetch_add(1) + 1);
  // Waking the waiter for every task would steal a worker's core every few
  // microseconds: only at the two crossings it waits for.
  if (left == capacity_ / 2 || left == 0) count_changed_.notify_all();
}

namespace {

// Watches a window's completions from the waiting thread's once-a-second
// wake-ups: the time since the completed count last moved.
class StallWatch {
 public:
  using clock = std::chrono::steady_clock;
  StallWatch(const TaskWindow& window, double seconds, const std::function<void(double)>& on_stall)
      : window_(window), seconds_(seconds), on_stall_(on_stall), seen_(window.completed()), since_(clock::now()) {}

  void check() {
    if (seconds_ <= 0 || !on_stall_) return;
    const auto now = clock::now();
    const Index done = window_.completed();
    if (done != seen_ || window_.in_flight() == 0) {
      seen_ = done;
      since_ = now;
      return;
    }
    const double idle = std::chrono::duration<double>(now - since_).count();
    if (idle >= seconds_) {
      since_ = now;  // a handler that returns is asked again only after another stall
      on_stall_(idle);
    }
  }

 private:
  const TaskWindow& window_;
  double seconds_;
  const std::function<void(double)>& on_stall_;
  Index seen_;
  clock::time_point since_;
};

}  // namespace

void TaskWindow::guard_stalls(double seconds, std::function<void(double)> on_stall) {
  stall_seconds_ = seconds;
  on_stall_ = std::move(on_stall);
}

void TaskWindow::wait_until_submitted(const std::function<void()>& tick) {
  using clock = std::chrono::steady_clock;
  auto next_tick = clock::now() + std::chrono::seconds(1);
  StallWatch stalls(*this, stall_seconds_, on_stall_);
  for (;;) {
    {
      auto submission = lock_submission();
      if (!work_pending_) return;
      if (in_flight() <= capacity_ / 2) {
        const PausedWorkers paused(pause_workers_);
        fill(submission, pause_workers_);
        continue;
      }
    }
    {
      std::unique_lock count(count_mutex_);
      count_changed_.wait_until(count, next_tick, [this] { return in_flight() <= capacity_ / 2; });
    }
    if (clock::now() >= next_tick) {
      if (tick) tick();
      stalls.check();
      next_tick = clock::now() + std::chrono::seconds(1);
    }
  }
}

void TaskWindow::wait_until_done(const std::function<void()>& tick) {
  wait_until_submitted(tick);
  StallWatch stalls(*this, stall_seconds_, on_stall_);
  std::unique_lock count(count_mutex_);
  while (completed_.load() < submitted_.load()) {
    count_changed_.wait_for(count, std::chrono::seconds(1));
    count.unlock();
    if (tick) tick();
    stalls.check();
    count.lock();
  }
}

void TaskWindow::drop_pending() {
  auto submission = lock_submission();
  work_pending_ = false;
}

}  // namespace trapeze
