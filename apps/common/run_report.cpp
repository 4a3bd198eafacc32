#include "run_report.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <utility>

#include "app_options.hpp"
#include "peak_memory.hpp"

namespace apps {

void add_run_report_options(CLI::App& cli, RunReportOptions& o, const std::string& automatic_window) {
  cli.add_option("--window", o.window, "most tasks held in StarPU at once (memory vs look-ahead); 0: automatic, " +
                                           automatic_window)
      ->capture_default_str()
      ->check(whole_number(0));
  cli.add_option("--trace", o.trace,
                 "record a task timeline (StarPU FxT trace) into this directory; scripts/timeline.py draws it");
  cli.add_flag("--verify", o.verify, "compare with the sequential reference; fail on any difference");
  cli.add_flag("--json", o.json, "print one final JSON line instead of the summary");
  cli.add_flag("--progress", o.progress, "report progress on stderr every second");
}

ProgressLine::ProgressLine(std::string name, const RunReportOptions& options)
    : name_(std::move(name)), shown_(options.progress || (!options.json && isatty(STDERR_FILENO))) {}

ProgressLine::ProgressLine(std::string name, const RunReportOptions& options, const trapeze::Runtime& runtime)
    : ProgressLine(std::move(name), options) {
  shown_ = shown_ && runtime.rank() == 0;
  runtime_ = &runtime;
}

trapeze::ProgressCallback ProgressLine::callback() const {
  if (!shown_) return {};
  return [name = name_, runtime = runtime_, printed = printed_](trapeze::Index done, trapeze::Index total) {
    printed->store(true);
    // What an out-of-core run streams: bytes over PCIe and to the disk node so far.
    std::string moved;
    if (runtime) {
      const trapeze::BusTraffic traffic = runtime->bus_traffic();
      if (traffic.pcie() > 0) moved += fmt::format(", {:.2f} GB over PCIe", static_cast<double>(traffic.pcie()) / 1e9);
      if (traffic.to_disk > 0) moved += fmt::format(", {:.2f} GB to disk", static_cast<double>(traffic.to_disk) / 1e9);
    }
    fmt::print(stderr, "\r{}: {:5.1f}% of {} tasks{}   ", name,
               total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0, total, moved);
  };
}

void ProgressLine::finish(double seconds) const {
  if (shown_ && (seconds >= 1.0 || printed_->load())) fmt::print(stderr, "\n");
}

nlohmann::json runtime_report(const trapeze::Runtime& runtime) {
  const trapeze::BusTraffic traffic = runtime.bus_traffic();
  return {{"workers", runtime.worker_count()},
          {"pcie_bytes", traffic.pcie()},
          {"gpu_to_gpu_bytes", traffic.gpu_to_gpu},
          {"disk_bytes", traffic.to_disk},
          {"disk_read_bytes", traffic.from_disk},
          {"cuda_workers", runtime.cuda_worker_count()},
          {"scheduler", runtime.scheduler()},
          {"peak_memory_bytes", peak_resident_bytes()},
          {"trace_file", runtime.trace_file().empty() ? nlohmann::json(nullptr) : nlohmann::json(runtime.trace_file())}};
}

void print_trace_hint(const char* name, const trapeze::Runtime& runtime, const RunReportOptions& options) {
  if (runtime.trace_file().empty() || options.json) return;
  fmt::print(stderr, "{}: task trace {} (complete at exit); draw it with scripts/timeline.py {}\n", name,
             runtime.trace_file(), options.trace);
}

}  // namespace apps
