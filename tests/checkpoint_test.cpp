// Checkpoint and restart as a killed job meets them: a run killed with
// SIGKILL at a random moment and restarted from its last checkpoint ends bit
// for bit where an uninterrupted run does; truncated and foreign checkpoints
// are refused with one line.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/hdf5_fields.hpp"

namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

std::vector<std::string> split(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Starts `app arguments` with stdout and stderr in `log`; returns its pid.
pid_t start(const std::string& app, const std::string& arguments, const fs::path& log) {
  const std::string path = std::string(TRAPEZE_APPS_DIR) + "/" + app;
  std::vector<std::string> words = split(arguments);
  const pid_t pid = fork();
  if (pid == 0) {
    std::FILE* out = std::fopen(log.c_str(), "w");
    if (out) dup2(fileno(out), 1), dup2(fileno(out), 2);
    std::vector<char*> argv{const_cast<char*>(path.c_str())};
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

int finish(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct AppCase {
  std::string app;
  std::string arguments;  // size, steps, tiles: a run of a few seconds on two cores
  trapeze::Index steps;   // the --steps in arguments
  int dims;
  std::vector<std::string> fields;
  apps::FieldType type;
  std::size_t element_size;
};

const std::vector<AppCase> cases = {
    {"jacobi2d", "--size 192x160 --steps 25000 --height 3 --tile 192x40", 25000, 2, {"u"}, apps::FieldType::f32, 4},
    // Time-varying read-only planes: the restart must read the walls of its own steps.
    {"pathfinder", "--size 4000 --steps 40000 --height 5 --tile 1000", 40000, 1, {"cost"}, apps::FieldType::i32, 4},
};

class Checkpoint : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("trapeze-ckpt-" + std::string(info->name()) + "-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<char> field_bytes(const AppCase& c, const fs::path& file) {
    const trapeze::Extent extent = apps::read_field_extent_hdf5(file.string(), c.fields[0], c.dims);
    std::vector<char> bytes(static_cast<std::size_t>(extent[0] * extent[1] * extent[2]) * c.element_size);
    apps::read_fields_hdf5(file.string(), extent, c.dims, {{c.fields[0], c.type, bytes.data(), 1}});
    return bytes;
  }

  // The step a checkpoint holds (-1 while it cannot be read).
  trapeze::Index checkpoint_step(const AppCase& c, const fs::path& file) {
    try {
      const trapeze::Extent extent = apps::read_field_extent_hdf5(file.string(), c.fields[0], c.dims);
      std::vector<char> bytes(static_cast<std::size_t>(extent[0] * extent[1] * extent[2]) * c.element_size);
      return apps::read_fields_hdf5(file.string(), extent, c.dims, {{c.fields[0], c.type, bytes.data(), 1}}).step;
    } catch (const std::exception&) {
      return -1;
    }
  }

  fs::path dir_;
};

TEST_F(Checkpoint, KilledAtRandomMomentsAndRestartedEqualsAnUninterruptedRun) {
  // The kill is placed by the run's own progress, not by the clock (a busy
  // CI machine makes run times vary several-fold): after a random checkpoint
  // k of the run's first half has appeared, plus a random few milliseconds,
  // so it can land inside a stage, a snapshot or a checkpoint's write.
  constexpr trapeze::Index every = 700;
  std::mt19937 pick(static_cast<unsigned>(std::random_device{}()));
  for (const AppCase& c : cases) {
    SCOPED_TRACE(c.app);
    const fs::path whole = dir_ / "whole.h5";
    ASSERT_EQ(finish(start(c.app, c.arguments + " --output " + whole.string(), dir_ / "whole.log")), 0)
        << slurp(dir_ / "whole.log");
    const std::vector<char> expected = field_bytes(c, whole);
    int kills = 0;
    for (int attempt = 0; attempt < 5 && kills < 2; ++attempt) {
      const fs::path checkpoint = dir_ / "state.h5", restarted = dir_ / "restarted.h5";
      fs::remove(checkpoint);
      const pid_t pid = start(c.app, c.arguments + " --checkpoint " + checkpoint.string() + " --checkpoint-every " +
                                         std::to_string(every),
                              dir_ / "killed.log");
      const trapeze::Index k = std::uniform_int_distribution<trapeze::Index>(1, c.steps / every / 2)(pick);
      const auto deadline = clock_type::now() + std::chrono::seconds(300);
      bool exited = false;
      while (clock_type::now() < deadline) {
        if (waitpid(pid, nullptr, WNOHANG) == pid) {
          exited = true;
          break;
        }
        if (fs::exists(checkpoint) && checkpoint_step(c, checkpoint) >= k * every) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      if (exited) continue;  // ended (or failed) before the kill: try another moment
      std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 30)(pick)));
      kill(pid, SIGKILL);
      if (finish(pid) != 128 + SIGKILL) continue;
      ++kills;
      const int restart = finish(start(c.app, c.arguments + " --restart " + checkpoint.string() + " --output " +
                                                  restarted.string() + " --json",
                                       dir_ / "restart.log"));
      ASSERT_EQ(restart, 0) << slurp(dir_ / "restart.log");
      const std::string report = slurp(dir_ / "restart.log");
      EXPECT_EQ(report.find("\"first_step\":0,"), std::string::npos) << "restarted from step 0: " << report;
      EXPECT_TRUE(field_bytes(c, restarted) == expected) << "restart after a kill (checkpoint " << k
                                                         << " seen) differs from the uninterrupted run";
    }
    EXPECT_GE(kills, 2) << "the runs ended before they could be killed; make them longer";
  }
}

TEST_F(Checkpoint, RefusesTruncatedAndForeignCheckpointsInOneLine) {
  const fs::path checkpoint = dir_ / "state.h5", out = dir_ / "out.h5";
  ASSERT_EQ(finish(start("jacobi2d", "--size 64x48 --steps 20 --checkpoint " + checkpoint.string() +
                                         " --checkpoint-every 10",
                         dir_ / "a.log")),
            0)
      << slurp(dir_ / "a.log");
  const fs::path truncated = dir_ / "truncated.h5";
  fs::copy_file(checkpoint, truncated);
  fs::resize_file(truncated, fs::file_size(checkpoint) - 700);
  const fs::path life = dir_ / "life.h5";
  ASSERT_EQ(finish(start("life", "--size 64x48 --steps 2 --output " + life.string(), dir_ / "b.log")), 0);
  struct Bad {
    std::string app, arguments, names;
  };
  for (const Bad& bad : {Bad{"jacobi2d", "--steps 40 --restart " + truncated.string(), "truncated"},
                         Bad{"jacobi2d", "--steps 40 --restart " + life.string(), "no dataset 'u'"},
                         Bad{"life", "--steps 1 --restart " + life.string(), "beyond --steps 1"},
                         Bad{"jacobi2d", "--steps 40 --restart " + checkpoint.string() + " --boundary periodic",
                             "periodic"},
                         Bad{"jacobi2d", "--steps 40 --restart " + checkpoint.string() + " --input " + checkpoint.string(),
                             "exclude each other"}}) {
    SCOPED_TRACE(bad.app + " " + bad.arguments);
    const int code = finish(start(bad.app, bad.arguments + " --output " + out.string(), dir_ / "bad.log"));
    const std::string err = slurp(dir_ / "bad.log");
    EXPECT_NE(code, 0);
    EXPECT_LT(code, 128) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find(bad.names), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST_F(Checkpoint, CheckpointsLandOnTheirStepsWithTheStateOfThatStep) {
  const fs::path checkpoint = dir_ / "state.h5", at_30 = dir_ / "at30.h5";
  ASSERT_EQ(finish(start("hotspot", "--size 50x40 --steps 37 --height 4 --checkpoint " + checkpoint.string() +
                                        " --checkpoint-every 15",
                         dir_ / "a.log")),
            0);
  ASSERT_EQ(finish(start("hotspot", "--size 50x40 --steps 30 --height 4 --output " + at_30.string(), dir_ / "b.log")),
            0);
  std::vector<float> saved(50 * 40), reference(50 * 40);
  const auto attributes =
      apps::read_fields_hdf5(checkpoint.string(), {50, 40, 1}, 2, {{"temperature", apps::FieldType::f32, saved.data(), 1}});
  apps::read_fields_hdf5(at_30.string(), {50, 40, 1}, 2, {{"temperature", apps::FieldType::f32, reference.data(), 1}});
  EXPECT_EQ(attributes.step, 30);  // the last multiple of 15 before 37
  EXPECT_EQ(std::memcmp(saved.data(), reference.data(), saved.size() * sizeof(float)), 0);
}

}  // namespace
