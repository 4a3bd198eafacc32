// During a run the tiles are the only home of the values: the host holds
// about one copy of the domain. jacobi2d on 16384x16384 floats (1 GiB of
// cells) must peak at most 1.3 GiB above a run of the same program on a tiny
// grid (the process's own start: StarPU, its CUDA libraries, the runtime).
// The grid's pages go back as tiles fill and come back as tiles drain; before
// tiles were the home of the data the same run peaked at 2.9 GiB above it
// (3.35 GB in all, against 1.29 GB now).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace {

// Peak resident set of one run of an app, in bytes (the child's own, from
// wait4); -1 when it failed. `copy_threads` > 0 fixes TRAPEZE_COPY_THREADS.
long long peak_rss_of(const std::string& app, const std::vector<std::string>& arguments, int copy_threads = 0) {
  const pid_t child = fork();
  if (child == 0) {
    if (copy_threads > 0) setenv("TRAPEZE_COPY_THREADS", std::to_string(copy_threads).c_str(), 1);
    std::vector<char*> argv;
    const std::string path = std::string(TRAPEZE_APPS_DIR) + "/" + app;
    argv.push_back(const_cast<char*>(path.c_str()));
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    freopen("/dev/null", "w", stdout);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) != child) return -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return static_cast<long long>(usage.ru_maxrss) * 1024;
}

TEST(HostMemory, Jacobi2DRunPeaksWithinOnePointThreeGiBOfItsStart) {
  const long long start = peak_rss_of("jacobi2d", {"--size", "16", "--steps", "1", "--height", "1"});
  const long long big = peak_rss_of("jacobi2d", {"--size", "16384", "--steps", "2", "--height", "1"});
  ASSERT_GT(start, 0) << "the tiny run failed";
  ASSERT_GT(big, 0) << "the 16384x16384 run failed";
  const double gib = 1024.0 * 1024.0 * 1024.0;
  RecordProperty("peak_above_start_gib", std::to_string((big - start) / gib));
  EXPECT_LE(static_cast<double>(big - start), 1.3 * gib)
      << "peak " << big / gib << " GiB, start " << start / gib << " GiB, domain 1 GiB";
}

// The same grid copied by three threads a band (one band of one tile, so
// each thread gives back its part of the grid, and of the tile, as it goes;
// pages shared between parts go at the end): the memory bound still holds,
// and the result is the reference's.
TEST(HostMemory, BandCopiesOnSeveralThreadsKeepTheBoundAndTheResult) {
  const long long start = peak_rss_of("jacobi2d", {"--size", "16", "--steps", "1", "--height", "1"});
  const std::vector<std::string> one_band{"--size", "8192x16384", "--tile", "8192x16384", "--steps", "3", "--height", "1"};
  const long long big = peak_rss_of("jacobi2d", one_band, 3);
  ASSERT_GT(start, 0) << "the tiny run failed";
  ASSERT_GT(big, 0) << "the run with three copy threads a band failed";
  const double gib = 1024.0 * 1024.0 * 1024.0;
  EXPECT_LE(static_cast<double>(big - start), 1.3 * 0.5 * gib)
      << "peak " << big / gib << " GiB, start " << start / gib << " GiB, domain 0.5 GiB";
  std::vector<std::string> verified = one_band;
  verified.push_back("--verify");
  EXPECT_GT(peak_rss_of("jacobi2d", verified, 3), 0) << "three copy threads a band: not the reference's result";
}

}  // namespace
