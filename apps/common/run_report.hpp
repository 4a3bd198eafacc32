#pragma once
// What every app driver (stencil_app.hpp, wavefront_app.hpp) shares around a
// run: the options that shape its report (--verify, --json, --progress,
// --trace, --window), the progress line, the runtime's part of the JSON line,
// and the hint that points at a recorded trace.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <memory>
#include <string>

#include "trapeze/geometry.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/task_window.hpp"

namespace apps {

struct RunReportOptions {
  trapeze::Index window = 0;  // most tasks in StarPU at once; 0: automatic
  std::string trace;          // directory of an FxT task trace (scripts/timeline.py draws it)
  bool verify = false;
  bool json = false;
  bool progress = false;
};

// --window (whose help names what the app's automatic window holds), --trace,
// --verify, --json, --progress.
void add_run_report_options(CLI::App& cli, RunReportOptions& options, const std::string& automatic_window);

// "\r<name>: 42.0% of N tasks" on stderr about once a second, when
// --progress is given or stderr is a terminal (and no --json line is due);
// with the runtime, also the bytes StarPU moved so far over PCIe and to a
// disk node (what an out-of-core run streams).
class ProgressLine {
 public:
  ProgressLine(std::string name, const RunReportOptions& options);
  // Under MPI only rank 0 shows it.
  ProgressLine(std::string name, const RunReportOptions& options, const trapeze::Runtime& runtime);
  trapeze::ProgressCallback callback() const;
  // Ends the line after a run long enough to have shown it.
  void finish(double seconds) const;

 private:
  std::string name_;
  bool shown_;
  const trapeze::Runtime* runtime_ = nullptr;
  // Whether the callback printed a line (shared with it), so finish() ends it.
  std::shared_ptr<std::atomic<bool>> printed_ = std::make_shared<std::atomic<bool>>(false);
};

// The runtime's fields of the --json line: workers, cuda_workers, scheduler,
// peak_memory_bytes, trace_file, and the bytes StarPU moved: pcie_bytes (host
// <-> GPUs), gpu_to_gpu_bytes, disk_bytes (written to a disk node) and
// disk_read_bytes.
nlohmann::json runtime_report(const trapeze::Runtime& runtime);

// Where the trace went and how to draw it (stderr, not with --json).
void print_trace_hint(const char* name, const trapeze::Runtime& runtime, const RunReportOptions& options);

}  // namespace apps
