#pragma once
// The top of every app: any error becomes one line on stderr and a non-zero exit.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <exception>

#include "trapeze/error.hpp"

namespace apps {

inline constexpr int exit_bad_input = 2;
inline constexpr int exit_failure = 1;
inline constexpr int exit_verify_failed = 3;

template <typename Body>
int app_main(const char* name, CLI::App& cli, int argc, char** argv, Body body) {
  try {
    try {
      cli.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return cli.exit(e);
    } catch (const CLI::ParseError& e) {
      fmt::print(stderr, "{}: error: {}\n", name, e.what());
      return exit_bad_input;
    }
    return body();
  } catch (const trapeze::InvalidArgument& e) {
    fmt::print(stderr, "{}: error: {}\n", name, e.what());
    return exit_bad_input;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}: error: out of memory (try a smaller --size)\n", name);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: error: {}\n", name, e.what());
  }
  return exit_failure;
}

}  // namespace apps
