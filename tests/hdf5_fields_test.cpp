// Fields as HDF5 files, as a user meets them: every app writes --output X.h5
// (h5dump reads it), reads it back with --input bit for bit, continues a run
// from it exactly as an uninterrupted run, and refuses truncated, garbage,
// NaN-holding, mis-sized and foreign files with one line.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/hdf5_fields.hpp"

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out, err;
};

class Hdf5Fields : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("trapeze-h5-" + std::string(info->name()) + "-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Result run(const std::string& command_line) {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string command = std::string(TRAPEZE_APPS_DIR) + "/" + command_line + " >" + out.string() + " 2>" +
                                err.string() + " </dev/null";
    const int status = std::system(command.c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }
  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // The raw bytes of dataset `name` of an app's file, read through h5dump's
  // binary output (an independent reader).
  std::string dataset_bytes(const fs::path& file, const std::string& name) {
    const fs::path bytes = dir_ / ("bytes-" + name);
    const std::string command = "h5dump -d /" + name + " -b LE -o " + bytes.string() + " " + file.string() +
                                " >/dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return slurp(bytes);
  }

  void expect_one_line_error(const Result& r, const std::string& names, const fs::path& output) {
    EXPECT_NE(r.exit_code, 0);
    EXPECT_LT(r.exit_code, 128) << "crashed: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << "error does not name '" << names << "': " << r.err;
    EXPECT_FALSE(fs::exists(output)) << "output file left behind";
  }

  fs::path dir_;
};

struct AppCase {
  std::string app, size, options;
  std::vector<std::string> fields;
};

const std::vector<AppCase> app_cases = {
    {"jacobi2d", "61x47", "", {"u"}},
    {"jacobi2d", "61x47", "--type double --boundary periodic", {"u"}},
    {"jacobi3d", "19x17x13", "--mode full", {"u"}},
    {"hotspot", "61x47", "", {"temperature", "power"}},
    {"life", "61x47", "--boundary constant:1", {"cells"}},
};

TEST_F(Hdf5Fields, H5dumpReadsAnOutputWithItsAttributes) {
  const fs::path file = dir_ / "t.h5";
  ASSERT_EQ(run("hotspot --size 61x47 --steps 4 --height 2 --output " + file.string()).exit_code, 0);
  const std::string header = [&] {
    const fs::path dump = dir_ / "dump.txt";
    EXPECT_EQ(std::system(("h5dump -A " + file.string() + " >" + dump.string()).c_str()), 0);
    return slurp(dump);
  }();
  for (const char* expected : {"DATASET \"temperature\"", "DATASET \"power\"", "( 47, 61 )", "ATTRIBUTE \"step\"",
                               "ATTRIBUTE \"stencil\"", "\"hotspot\"", "ATTRIBUTE \"boundary\"", "\"clamp\"",
                               "ATTRIBUTE \"extent\""}) {
    EXPECT_NE(header.find(expected), std::string::npos) << expected << " not in:\n" << header;
  }
}

TEST_F(Hdf5Fields, EveryAppReadsBackWhatItWroteBitForBit) {
  for (const AppCase& c : app_cases) {
    SCOPED_TRACE(c.app + " " + c.options);
    const fs::path first = dir_ / "first.h5", again = dir_ / "again.h5";
    ASSERT_EQ(run(c.app + " --size " + c.size + " --steps 3 --height 2 " + c.options + " --output " + first.string())
                  .exit_code,
              0);
    // Zero steps: what was read is what is written.
    const Result r = run(c.app + " --input " + first.string() + " --steps 0 " + c.options + " --output " +
                         again.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const std::string& field : c.fields) {
      const std::string a = dataset_bytes(first, field), b = dataset_bytes(again, field);
      EXPECT_FALSE(a.empty());
      EXPECT_TRUE(a == b) << field << " changed in a write-read-write round trip";
    }
  }
}

TEST_F(Hdf5Fields, ARunContinuedFromItsOutputEqualsAnUninterruptedRun) {
  for (const AppCase& c : app_cases) {
    SCOPED_TRACE(c.app + " " + c.options);
    const fs::path half = dir_ / "half.h5", continued = dir_ / "continued.h5", whole = dir_ / "whole.h5";
    const std::string base = c.app + " --size " + c.size + " " + c.options;
    ASSERT_EQ(run(base + " --steps 5 --output " + half.string()).exit_code, 0);
    ASSERT_EQ(run(c.app + " " + c.options + " --input " + half.string() + " --steps 6 --output " + continued.string())
                  .exit_code,
              0);
    ASSERT_EQ(run(base + " --steps 11 --output " + whole.string()).exit_code, 0);
    for (const std::string& field : c.fields) {
      EXPECT_TRUE(dataset_bytes(continued, field) == dataset_bytes(whole, field)) << field;
    }
  }
}

TEST_F(Hdf5Fields, StepAttributeCountsFromTheInputsStep) {
  const fs::path a = dir_ / "a.h5", b = dir_ / "b.h5";
  ASSERT_EQ(run("jacobi2d --size 30x20 --steps 7 --output " + a.string()).exit_code, 0);
  ASSERT_EQ(run("jacobi2d --input " + a.string() + " --steps 5 --output " + b.string()).exit_code, 0);
  std::vector<float> values(30 * 20);
  const auto attributes =
      apps::read_fields_hdf5(b.string(), {30, 20, 1}, 2, {{"u", apps::FieldType::f32, values.data(), 1}});
  EXPECT_EQ(attributes.step, 12);
  EXPECT_EQ(attributes.stencil, "jacobi2d");
  EXPECT_EQ(attributes.boundary, "clamp");
}

TEST_F(Hdf5Fields, RejectsTruncatedGarbageNanMissizedAndForeignFiles) {
  const fs::path good = dir_ / "good.h5", out = dir_ / "out.h5";
  ASSERT_EQ(run("jacobi2d --size 64x48 --steps 2 --output " + good.string()).exit_code, 0);

  const fs::path truncated = dir_ / "truncated.h5";
  fs::copy_file(good, truncated);
  fs::resize_file(truncated, fs::file_size(good) / 2);
  expect_one_line_error(run("jacobi2d --input " + truncated.string() + " --output " + out.string()), "truncated", out);

  const fs::path garbage = dir_ / "garbage.h5";
  {
    std::ofstream f(garbage, std::ios::binary);
    std::mt19937 bytes(7);
    for (int i = 0; i < 4096; ++i) f.put(static_cast<char>(bytes()));
  }
  const Result g = run("jacobi2d --input " + garbage.string() + " --output " + out.string());
  expect_one_line_error(g, "not an HDF5 file", out);

  const fs::path with_nan = dir_ / "nan.h5";
  std::vector<float> values(64 * 48, 1.0f);
  values[100] = std::nanf("");
  apps::write_fields_hdf5(with_nan.string(), {64, 48, 1}, 2, {{"u", apps::FieldType::f32, values.data(), 1}},
                          {0, "jacobi2d", "clamp"});
  expect_one_line_error(run("jacobi2d --input " + with_nan.string() + " --output " + out.string()), "non-finite",
                        out);

  expect_one_line_error(run("jacobi2d --input " + good.string() + " --size 64x40 --output " + out.string()), "64x40",
                        out);
  expect_one_line_error(run("jacobi2d --input " + good.string() + " --type double --output " + out.string()),
                        "64-bit float", out);
  expect_one_line_error(run("life --input " + good.string() + " --output " + out.string()), "no dataset 'cells'", out);
  expect_one_line_error(run("jacobi2d --input " + (dir_ / "missing.h5").string() + " --output " + out.string()),
                        "no such file", out);
}

}  // namespace
