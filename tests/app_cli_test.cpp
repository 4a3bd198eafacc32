// The apps as a user meets them: --verify passes at odd sizes, and bad input
// gives one clear error line naming the value, a non-zero exit, and no output
// file (not even a partial one).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class AppCli : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("trapeze-cli-" + std::string(info->name()) + "-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `environment`: assignments put before the command, e.g. "STARPU_NCPU=-3".
  Result run(const std::string& app, const std::string& arguments, const std::string& environment = "") {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string command = environment + " " + std::string(TRAPEZE_APPS_DIR) + "/" + app + " " + arguments + " >" + out.string() +
                                " 2>" + err.string() + " </dev/null";
    const int status = std::system(command.c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  static std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

  // One line on stderr that names `value`, a non-zero exit, no output file.
  void expect_clean_error(const Result& r, const std::string& value, const fs::path& output) {
    EXPECT_NE(r.exit_code, 0);
    EXPECT_LT(r.exit_code, 128) << "crashed: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(value), std::string::npos) << "error does not name '" << value << "': " << r.err;
    EXPECT_FALSE(fs::exists(output)) << "output file left behind";
    EXPECT_FALSE(fs::exists(output.string() + ".tmp")) << "temporary file left behind";
  }

  // HotSpot given these temperature and power files (for a 2x2 grid) fails cleanly naming `value`.
  void expect_hotspot_input_error(const std::string& temperatures, const std::string& powers,
                                  const std::string& value) {
    const fs::path out = dir_ / "o.txt", temp = dir_ / "temp.txt", power = dir_ / "power.txt";
    write(temp, temperatures);
    write(power, powers);
    expect_clean_error(run("hotspot", "--size 2x2 --temp " + temp.string() + " --power " + power.string() +
                                          " --output " + out.string()),
                       value, out);
  }

  fs::path dir_;
};

TEST_F(AppCli, EveryAppVerifiesAtOddSizes) {
  for (const std::string command :
       {"jacobi2d --size 1001x777 --steps 7 --tile 128x100 --verify", "life --size 1001x777 --steps 7 --verify",
        "hotspot --size 1001x777 --steps 7 --tile 300x200 --verify",
        "jacobi3d --size 61x47x33 --steps 5 --tile 16x16x8 --verify --height 2",
        "pathfinder --size 100001 --steps 50 --verify --height 3",
        "himeno --size 37x29x23 --steps 5 --tile 16x16x8 --verify --height 2",
        "cip --size 301x203 --steps 7 --tile 64x64 --verify --height 3"}) {
    const Result r = run(command.substr(0, command.find(' ')), command.substr(command.find(' ') + 1) + " --json");
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << command << ": " << r.out;
    for (const char* key : {"\"app\"", "\"size\"", "\"steps\"", "\"tile\"", "\"height\"", "\"seconds\"", "\"gcups\"",
                            "\"workers\""}) {
      EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
    }
  }
}

// --skew runs the apps in skewed slabs (trapeze/skewed_run.hpp): verified
// and with the same checksum as tiles, for a 3-D and a 2-D app; a value it
// cannot use is one line naming it.
TEST_F(AppCli, SkewedSlabsVerifyAndRefuseWhatTheyCannotRun) {
  auto checksum_of = [](const Result& r) {
    const std::string key = "\"checksum\":\"";
    const auto at = r.out.find(key);
    return at == std::string::npos ? std::string("none") : r.out.substr(at + key.size(), 16);
  };
  for (const std::string command : {"himeno --size 37x29x23 --steps 9 --skew 3:4", "cip --size 101x63 --steps 7 --skew 5:3",
                                    "jacobi3d --size 21x19x17 --steps 6 --skew 2:6 --boundary constant:0.5"}) {
    const std::string app = command.substr(0, command.find(' ')), arguments = command.substr(command.find(' ') + 1);
    const Result skewed = run(app, arguments + " --verify --checksum --json");
    const auto skew = arguments.find(" --skew "), skew_end = arguments.find(' ', skew + 8);
    const Result tiled = run(app, arguments.substr(0, skew) +
                                      (skew_end == std::string::npos ? "" : arguments.substr(skew_end)) +
                                      " --height 2 --checksum --json");  // a height given: no profiling
    ASSERT_EQ(skewed.exit_code, 0) << command << ": " << skewed.err;
    ASSERT_EQ(tiled.exit_code, 0) << command << ": " << tiled.err;
    EXPECT_NE(skewed.out.find("\"verified\":true"), std::string::npos) << skewed.out;
    EXPECT_NE(skewed.out.find("\"skewed\":true"), std::string::npos) << skewed.out;
    EXPECT_NE(checksum_of(skewed), "none") << skewed.out;
    EXPECT_EQ(checksum_of(skewed), checksum_of(tiled)) << command;
  }
  const fs::path out = dir_ / "o.h5";
  expect_clean_error(run("himeno", "--size XS --steps 4 --skew 4x8 --output " + out.string()), "4x8", out);
  expect_clean_error(run("jacobi2d", "--size 64 --steps 4 --skew 4:2 --boundary periodic --output " + out.string()),
                     "periodic", out);
  expect_clean_error(run("jacobi2d", "--size 64 --steps 4 --skew auto --devices cpu --output " + out.string()),
                     "auto", out);
  expect_clean_error(run("pathfinder", "--size 1000 --steps 4 --skew 4:2 --output " + out.string()), "4:2", out);
}

// Issue 13: all stages submitted up front made memory grow with the step
// count (10^5 steps of this run took 6.9 GB); through the task window it is
// flat, and the result is still the reference's bit for bit.
TEST_F(AppCli, PeakMemoryDoesNotGrowWithTheStepCount) {
#ifdef TRAPEZE_SANITIZED
  GTEST_SKIP() << "a sanitizer's own memory (quarantine, shadow) grows with the allocations made";
#endif
  auto peak_of = [&](const std::string& steps) {
    const Result r = run("jacobi2d", "--size 64 --tile 16x16 --height 1 --verify --json --steps " + steps);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
    const std::string key = "\"peak_memory_bytes\":";
    const auto at = r.out.find(key);
    EXPECT_NE(at, std::string::npos) << r.out;
    return at == std::string::npos ? 0.0 : std::stod(r.out.substr(at + key.size()));
  };
  const double short_run = peak_of("2000"), long_run = peak_of("20000");
  ASSERT_GT(short_run, 0);
  EXPECT_LT(long_run / short_run, 1.10) << short_run << " bytes after 2000 steps, " << long_run << " after 20000";
}

// --no-grid: the host never holds the domain twice (tiles generate their
// cells, the final ones go into a checksum); its checksum is an ordinary
// run's, and --verify compares it with the reference computed band by band.
TEST_F(AppCli, NoGridRunHasTheOrdinaryRunsChecksumAndVerifies) {
  auto checksum_of = [](const Result& r) {
    const std::string key = "\"checksum\":\"";
    const auto at = r.out.find(key);
    return at == std::string::npos ? std::string("none") : r.out.substr(at + key.size(), 16);
  };
  for (const std::string app_and_size : {"jacobi2d --size 301x203 --tile 64x50 --steps 9 --height 3",
                                         "jacobi2d --size 301x203 --steps 9 --boundary periodic",
                                         "jacobi3d --size 29x31x37 --tile 16x16x8 --steps 5 --height 2 --boundary constant:0.5"}) {
    const std::string app = app_and_size.substr(0, app_and_size.find(' '));
    const std::string arguments = app_and_size.substr(app_and_size.find(' ') + 1) + " --seed 7 --json";
    const Result ordinary = run(app, arguments + " --checksum --verify");
    const Result generated = run(app, arguments + " --no-grid --verify");
    ASSERT_EQ(ordinary.exit_code, 0) << ordinary.err;
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    EXPECT_NE(ordinary.out.find("\"verified\":true"), std::string::npos) << ordinary.out;
    EXPECT_NE(generated.out.find("\"verified\":true"), std::string::npos) << generated.out;
    EXPECT_NE(generated.out.find("\"generated_grid\":true"), std::string::npos) << generated.out;
    EXPECT_NE(checksum_of(ordinary), "none") << ordinary.out;
    EXPECT_EQ(checksum_of(ordinary), checksum_of(generated)) << app_and_size;
    // Another seed is another field.
    const Result other = run(app, app_and_size.substr(app_and_size.find(' ') + 1) + " --seed 8 --json --no-grid");
    EXPECT_NE(checksum_of(other), checksum_of(generated)) << other.out;
  }
}

// --warmup-steps: the first steps move the field into the tiles, the rest are
// timed apart (stepping_seconds); the result is the plain run's bit for bit,
// whatever the warm-up's end does to the stages (13 is no multiple of h).
TEST_F(AppCli, WarmupStepsTimeTheRestAndKeepTheResult) {
  auto field_of = [](const Result& r, const std::string& name) {
    const std::string key = "\"" + name + "\":";
    const auto at = r.out.find(key);
    return at == std::string::npos ? std::string("none") : r.out.substr(at + key.size(), r.out.find_first_of(",}", at) - at - key.size());
  };
  for (const std::string app_and_size : {"jacobi2d --size 301x203 --tile 64x50 --steps 30 --height 3",
                                         "jacobi3d --size 29x31x37 --tile 16x16x8 --steps 20 --height 2"}) {
    const std::string app = app_and_size.substr(0, app_and_size.find(' '));
    const std::string arguments = app_and_size.substr(app_and_size.find(' ') + 1) + " --seed 5 --json --checksum";
    const Result plain = run(app, arguments);
    const Result warmed = run(app, arguments + " --warmup-steps 13 --verify");
    const Result generated = run(app, arguments + " --warmup-steps 13 --no-grid");
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    ASSERT_EQ(warmed.exit_code, 0) << warmed.err;
    ASSERT_EQ(generated.exit_code, 0) << generated.err;
    EXPECT_EQ(field_of(warmed, "verified"), "true") << warmed.out;
    EXPECT_NE(field_of(plain, "checksum"), "none") << plain.out;
    EXPECT_EQ(field_of(plain, "checksum"), field_of(warmed, "checksum")) << app_and_size;
    EXPECT_EQ(field_of(plain, "checksum"), field_of(generated, "checksum")) << app_and_size;
    EXPECT_EQ(field_of(plain, "stepping_seconds"), "null") << plain.out;
    const double stepping = std::stod(field_of(warmed, "stepping_seconds")), seconds = std::stod(field_of(warmed, "seconds"));
    EXPECT_GT(stepping, 0) << warmed.out;
    EXPECT_LE(stepping, seconds) << warmed.out;
  }
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--size 64 --steps 10 --warmup-steps 10"), "--warmup-steps 10", out);
  expect_clean_error(run("jacobi2d", "--size 64 --steps 10 --warmup-steps -1"), "--warmup-steps", out);
}

TEST_F(AppCli, NoGridRefusesWhatNeedsTheWholeDomain) {
  const fs::path out = dir_ / "o.txt", png = dir_ / "o.png";
  expect_clean_error(run("jacobi2d", "--size 64 --no-grid --output " + out.string()), "--output", out);
  expect_clean_error(run("jacobi2d", "--size 64 --no-grid --png " + png.string()), "--png", png);
  expect_clean_error(run("jacobi3d", "--size 16 --no-grid --sweep-height 1:2"), "--sweep-height", out);
  expect_clean_error(run("hotspot", "--size 64 --no-grid"), "--no-grid", out);
}

TEST_F(AppCli, WritesOutputAndPicture) {
  const fs::path out = dir_ / "field.txt", png = dir_ / "field.png";
  const Result r = run("hotspot", "--size 64x48 --steps 3 --output " + out.string() + " --png " + png.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(out);
  std::string line;
  long lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 64 * 48);
  std::ifstream picture(png, std::ios::binary);
  char magic[4] = {};
  picture.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
}

// life --bits (32 cells a word) writes the same board as byte cells, on
// every boundary it takes, reports its size and rate in cells, verifies; a
// width it cannot pack and a clamp boundary are clean errors.
TEST_F(AppCli, LifeBitsWritesTheByteCellsBoard) {
  for (const std::string boundary : {"constant:0", "constant:1", "periodic"}) {
    const fs::path bytes = dir_ / "bytes.txt", bits = dir_ / "bits.txt";
    const std::string common = "--size 320x77 --steps 9 --tile 4x20 --density 0.4 --boundary " + boundary;
    const Result a = run("life", common + " --output " + bytes.string());
    const Result b = run("life", common + " --bits --height 3 --verify --json --output " + bits.string());
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_NE(b.out.find("\"verified\":true"), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("\"size\":\"320x77\""), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("\"cells_per_value\":32"), std::string::npos) << b.out;
    const std::string written = slurp(bits);
    EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), 320 * 77);
    EXPECT_EQ(written, slurp(bytes)) << boundary;
  }
}

// life --words (byte cells four to a word) writes the same board as byte
// cells one at a time, on every boundary it takes, reports its size in
// cells, verifies; what it cannot take is a clean error.
TEST_F(AppCli, LifeWordsWritesTheByteCellsBoard) {
  for (const std::string boundary : {"constant:0", "constant:1", "periodic"}) {
    const fs::path bytes = dir_ / "bytes.txt", words = dir_ / "words.txt";
    const std::string common = "--size 124x77 --steps 9 --density 0.4 --boundary " + boundary;
    const Result a = run("life", common + " --output " + bytes.string());
    const Result b = run("life", common + " --words --tile 7x20 --height 3 --verify --json --output " + words.string());
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_NE(b.out.find("\"verified\":true"), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("\"size\":\"124x77\""), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("\"cells_per_value\":4"), std::string::npos) << b.out;
    EXPECT_EQ(slurp(words), slurp(bytes)) << boundary;
  }
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("life", "--words --size 102x64 --output " + out.string()), "102", out);
  expect_clean_error(run("life", "--words --size 64x64 --boundary clamp --output " + out.string()), "clamp", out);
  expect_clean_error(run("life", "--words --size 64x64 --output " + (dir_ / "o.h5").string()), "o.h5", dir_ / "o.h5");
  expect_clean_error(run("life", "--words --bits --size 64x64 --output " + out.string()), "--bits", out);
}

TEST_F(AppCli, LifeBitsRejectsWhatItCannotPack) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("life", "--bits --size 100x64 --output " + out.string()), "100", out);
  expect_clean_error(run("life", "--bits --size 64x64 --boundary clamp --output " + out.string()), "clamp", out);
  expect_clean_error(run("life", "--bits --size 64x64 --output " + (dir_ / "o.h5").string()), "o.h5", dir_ / "o.h5");
}

TEST_F(AppCli, RejectsZeroSize) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--size 0x10 --output " + out.string()), "0x10", out);
}

TEST_F(AppCli, RejectsNegativeSize) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi3d", "--size 10x-4x10 --output " + out.string()), "10x-4x10", out);
}

TEST_F(AppCli, RejectsZeroTile) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("life", "--tile 0x16 --output " + out.string()), "0x16", out);
}

TEST_F(AppCli, RejectsNegativeSteps) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("hotspot", "--size 32 --steps -5 --output " + out.string()), "-5", out);
}

TEST_F(AppCli, RejectsZeroHeight) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--height 0 --output " + out.string()), "'0'", out);
}

TEST_F(AppCli, RejectsZeroKernelHeight) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("hotspot", "--size 32 --kernel-height 0 --output " + out.string()), "kernel height", out);
}

TEST_F(AppCli, RejectsUnknownDevices) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("life", "--size 32 --devices fpga --output " + out.string()), "'fpga'", out);
}

// Without a GPU (CI), asking for one is a clear error, not a silent CPU run.
TEST_F(AppCli, GpuDevicesWithoutACudaWorkerIsAnError) {
  const fs::path out = dir_ / "o.txt";
  // "no CUDA worker" where the program has CUDA codelets, "no CUDA codelets"
  // in a build without nvcc: both name the option.
  expect_clean_error(run("jacobi2d", "--size 32 --devices gpu --output " + out.string()), "devices gpu", out);
}

TEST_F(AppCli, RejectsPeriodicGhostWiderThanDomain) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--size 5x40 --height 7 --boundary periodic --output " + out.string()),
                     "ghost zone width 7", out);
}

TEST_F(AppCli, RejectsUnknownBoundary) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--boundary sticky --output " + out.string()), "sticky", out);
}

TEST_F(AppCli, RejectsMissingInputFile) {
  const fs::path out = dir_ / "o.txt";
  const fs::path missing = dir_ / "no-such-temp.txt";
  write(dir_ / "power.txt", "1\n");
  expect_clean_error(run("hotspot", "--size 4x4 --temp " + missing.string() + " --power " +
                                        (dir_ / "power.txt").string() + " --output " + out.string()),
                     missing.string(), out);
}

// Issue 13's defects, each found by trying inputs as a new user would; every
// test here failed before its fix (a crash, an assertion, a wrong exit code,
// a run that finished before failing, or a value silently accepted).
TEST_F(AppCli, BadOptionValuesExitWithTheBadCommandLineCode) {
  for (const std::string command : {"jacobi2d --mode sideways", "jacobi2d --size 0x10", "life --tile 0x16",
                                    "jacobi2d --devices fpga", "jacobi2d --boundary sticky", "jacobi2d --height x",
                                    "jacobi2d --type half", "hotspot --size 32 --steps -5"}) {
    const Result r = run(command.substr(0, command.find(' ')), command.substr(command.find(' ') + 1));
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
  }
}

// CLI11 turned a number past 64 bits into 2^63 - 1 without a word: a
// 10^20-step run started (and ran for ever).
TEST_F(AppCli, RejectsNumbersPast64Bits) {
  const fs::path out = dir_ / "o.txt";
  for (const std::string option : {"--steps", "--window"}) {
    const Result r = run("jacobi2d", "--size 32 " + option + " 99999999999999999999 --output " + out.string());
    expect_clean_error(r, "99999999999999999999", out);
    EXPECT_EQ(r.exit_code, 2);
  }
  const Result r = run("jacobi2d", "--size 32 --steps 1e3 --output " + out.string());
  expect_clean_error(r, "1e3", out);
}

TEST_F(AppCli, RejectsHeightTooLargeForMemoryNamingIt) {
  const fs::path out = dir_ / "o.txt";
  const Result r = run("jacobi2d", "--height 99999 --steps 100000 --output " + out.string());
  expect_clean_error(r, "height 99999", out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("out of memory"), std::string::npos) << r.err;
}

TEST_F(AppCli, HeightAboveTheStepCountRunsAtTheStepCount) {
  const Result r = run("jacobi2d", "--size 100 --height 99999 --steps 5 --verify --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"height\":5,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << r.out;
}

TEST_F(AppCli, RejectsSizesWhoseCellCountOverflows) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--size 4611686018427387905x4 --steps 1 --output " + out.string()),
                     "4611686018427387905x4", out);
  expect_clean_error(run("hotspot", "--size 4294967296 --steps 1 --output " + out.string()),
                     "4294967296x4294967296", out);
}

TEST_F(AppCli, RejectsSizesBeyondThisMachinesMemoryNamingThem) {
  const fs::path out = dir_ / "o.txt";
  const Result r = run("jacobi2d", "--size 2097152 --steps 1 --output " + out.string());
  expect_clean_error(r, "2097152x2097152", out);
  EXPECT_NE(r.err.find("memory"), std::string::npos) << r.err;
}

TEST_F(AppCli, RejectsNegativeWorkerCountVariable) {
  const fs::path out = dir_ / "o.txt";
  const Result r = run("jacobi2d", "--size 32 --steps 1 --output " + out.string(), "STARPU_NCPU=-3");
  expect_clean_error(r, "STARPU_NCPU", out);
  EXPECT_NE(r.err.find("-3"), std::string::npos) << r.err;
}

TEST_F(AppCli, RejectsNonFiniteBoundaryConstant) {
  const fs::path out = dir_ / "o.txt";
  for (const std::string value : {"nan", "inf", "-inf"}) {
    const Result r = run("jacobi2d", "--size 32 --steps 2 --verify --boundary constant:" + value + " --output " +
                                         out.string());
    expect_clean_error(r, "'" + value + "'", out);
  }
}

TEST_F(AppCli, RejectsNonFiniteValuesInInputFiles) {
  expect_hotspot_input_error("1\n2\nnan\n4\n", "1\n2\n3\n4\n", "line 3");
  expect_hotspot_input_error("1\n2\n3\n4\n", "1\ninf\n3\n4\n", "line 2");
}

TEST_F(AppCli, RejectsADirectoryAsOutputBeforeComputing) {
  // A hundred million steps would run for hours: only a check made before
  // the run ends this test in time.
  const Result r = run("jacobi2d", "--size 256 --steps 100000000 --output " + dir_.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("directory"), std::string::npos) << r.err;
}

TEST_F(AppCli, GarbageInAnInputFileIsNotEchoedRaw) {
  const fs::path out = dir_ / "o.txt";
  std::string garbage = "1\n2\n";
  for (int c = 0; c < 256; ++c) garbage.push_back(static_cast<char>(c == '\n' ? 1 : c));
  garbage += "\n4\n";
  const fs::path temp = dir_ / "temp.txt", power = dir_ / "power.txt";
  write(temp, garbage);
  write(power, "1\n2\n3\n4\n");
  const Result r = run("hotspot", "--size 2x2 --temp " + temp.string() + " --power " + power.string() +
                                      " --output " + out.string());
  expect_clean_error(r, "line 3", out);
  for (char c : r.err) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(c == '\n' || (byte >= 0x20 && byte < 0x7f)) << "raw byte " << int(byte) << " in: " << r.err;
  }
}

TEST_F(AppCli, RejectsMalformedInputFile) {
  expect_hotspot_input_error("1\n2\nthree\n4\n", "1\n2\n3\n4\n", "line 3");
}

TEST_F(AppCli, RejectsTruncatedInputFile) {
  expect_hotspot_input_error("1\n2\n3\n4\n", "1\n2\n3\n", "has 3 values, expected 4");
}

TEST_F(AppCli, RejectsSizeThatDoesNotMatchInputFile) {
  expect_hotspot_input_error("1\n2\n3\n4\n5\n6\n", "1\n2\n3\n4\n5\n6\n", "more than the 4 values");
}

// The default demo's size is above the size where Rodinia's own time step
// diverges (tests/hotspot_physics_test.cpp): the field the user sees is finite
// and stays between the coolest start value and a few degrees above the hottest.
TEST_F(AppCli, HotspotDemoSizeFieldStaysFinite) {
  const fs::path start = dir_ / "start.txt", out = dir_ / "field.txt";
  // The field's range is under test, not the height: a fixed one keeps the
  // model's profile and its measurement out of the run (minutes under the sanitizers).
  const Result r = run("hotspot", "--size 2048x2048 --steps 60 --height 4 --save-temp " + start.string() + " --output " +
                                      out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto range_of = [](const fs::path& p, bool indexed) {
    std::ifstream in(p);
    double low = 1e30, high = -1e30, index = 0, value = 0;
    long count = 0;
    while ((indexed ? static_cast<bool>(in >> index >> value) : static_cast<bool>(in >> value))) {
      EXPECT_TRUE(std::isfinite(value)) << p << " value " << count;
      low = std::min(low, value);
      high = std::max(high, value);
      ++count;
    }
    EXPECT_EQ(count, 2048L * 2048L) << p;
    return std::pair{low, high};
  };
  const auto [start_low, start_high] = range_of(start, false);
  const auto [low, high] = range_of(out, true);
  EXPECT_GE(low, start_low);
  EXPECT_LE(high, start_high + 5.0);
}

TEST_F(AppCli, RejectsUnwritableOutputBeforeComputing) {
  const fs::path out = dir_ / "no-such-dir" / "o.txt";
  const Result r = run("jacobi2d", "--size 64 --steps 2 --output " + out.string());
  expect_clean_error(r, out.string(), out);
}

TEST_F(AppCli, RejectsUnknownOption) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("pathfinder", "--frobnicate 3 --output " + out.string()), "--frobnicate", out);
}

TEST_F(AppCli, HelpExitsZero) {
  const Result r = run("jacobi2d", "--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--height"), std::string::npos);
}

}  // namespace

namespace {

TEST_F(AppCli, RejectsUnknownScheduler) {
  const fs::path out = dir_ / "o.txt";
  setenv("STARPU_SCHED", "no-such-policy", 1);
  const Result r = run("jacobi2d", "--size 64 --output " + out.string());
  unsetenv("STARPU_SCHED");
  expect_clean_error(r, "no-such-policy", out);
}

}  // namespace

namespace {

TEST_F(AppCli, EveryAppVerifiesWithAutoHeight) {
  for (const std::string command :
       {"jacobi2d --size 301x177 --steps 9", "life --size 301x177 --steps 9", "hotspot --size 301x177 --steps 9",
        "jacobi3d --size 41x27x23 --steps 5", "pathfinder --size 30001 --steps 20", "himeno --size XS --steps 4",
        "cip --size 301x177 --steps 9"}) {
    const Result r = run(command.substr(0, command.find(' ')),
                         command.substr(command.find(' ') + 1) + " --height auto --verify --json");
    EXPECT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("\"verified\":true"), std::string::npos) << command << ": " << r.out;
    EXPECT_NE(r.out.find("\"height_auto\":true"), std::string::npos) << command << ": " << r.out;
  }
}

TEST_F(AppCli, HeightVariableOverridesAutoAndOptionOverridesVariable) {
  setenv("TRAPEZE_HEIGHT", "3", 1);
  const Result from_variable = run("jacobi2d", "--size 64 --steps 4 --json");
  const Result from_option = run("jacobi2d", "--size 64 --steps 4 --height 2 --json");
  unsetenv("TRAPEZE_HEIGHT");
  EXPECT_NE(from_variable.out.find("\"height\":3"), std::string::npos) << from_variable.out;
  EXPECT_NE(from_option.out.find("\"height\":2"), std::string::npos) << from_option.out;
}

TEST_F(AppCli, SweepWritesCsvWithMeasuredAndPredicted) {
  const fs::path csv = dir_ / "sweep.csv";
  const Result r = run("jacobi2d", "--size 256 --steps 8 --sweep-height 1:3 --sweep-csv " + csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header, "height,measured_seconds_per_step,predicted_seconds_per_step,chosen,best");
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_EQ(line.rfind(std::to_string(rows) + ",", 0), 0u) << line;
    const double measured = std::stod(line.substr(line.find(',') + 1));
    EXPECT_GT(measured, 0);
  }
  EXPECT_EQ(rows, 3);
}

TEST_F(AppCli, RejectsBadSweepRange) {
  const fs::path out = dir_ / "o.txt";
  expect_clean_error(run("jacobi2d", "--sweep-height 5:2 --output " + out.string()), "5:2", out);
}

}  // namespace
