// Smith-Waterman score of the same random pairs through Trapeze (a wavefront
// of tile tasks on StarPU's CPU workers) and through parasail's vectorised
// score-only routines (striped and scan, 16-bit, the ISA parasail's dispatcher
// picks; its diagonal routine returned saturated scores, -32762, on these
// pairs, so it is left out; a 16-bit score saturates past 32767 where ours,
// 32-bit, does not). parasail aligns one pair on one core; "parasail x2"
// aligns the pair twice at once on two threads, its throughput on 2 cores.
// Rounds interleave the variants; the table (medians, spread) comes last and
// goes to a JSON file as well.
//
//   smith_waterman_vs_parasail [--size 20000] [--rounds 5] [--tile 1024] [--json FILE]
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <parasail.h>
#include <parasail/matrices/blosum62.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <thread>
#include <vector>

#include "trapeze/runtime.hpp"
#include "trapeze/wavefront_run.hpp"
#include "wavefronts/alignment_scoring.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using Aligner = parasail_result_t* (*)(const char*, int, const char*, int, int, int, const parasail_matrix_t*);

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Smith-Waterman through Trapeze against parasail on the same pairs"};
  long length = 20000, tile = 1024;
  int rounds = 5;
  int threads = 2;
  std::string json_path = "smith_waterman_vs_parasail.json";
  cli.add_option("--size", length, "length of both sequences of each pair")->capture_default_str();
  cli.add_option("--tile", tile, "Trapeze tile (N x N)")->capture_default_str();
  cli.add_option("--rounds", rounds, "interleaved rounds")->capture_default_str();
  cli.add_option("--threads", threads, "parasail's throughput on this many cores: the pair once per thread")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  cli.add_option("--json", json_path, "where the table goes as JSON")->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  trapeze::Runtime runtime;
  const std::vector<std::pair<std::string, Aligner>> routines{
      {"parasail striped 16", &parasail_sw_striped_16},
      // 8-bit lanes, again in 16 bits when a score reaches 8 bits' limit.
      {"parasail striped sat", &parasail_sw_striped_sat},
      {"parasail scan 16", &parasail_sw_scan_16}};
  nlohmann::json table = nlohmann::json::array();
  fmt::print(stderr, "{} CPU workers, {}x{} pairs, tile {}, {} rounds\n", runtime.cpu_worker_count(), length, length,
             tile, rounds);
  for (const apps::Alphabet alphabet : {apps::Alphabet::dna, apps::Alphabet::protein}) {
    const bool dna = alphabet == apps::Alphabet::dna;
    const int open = dna ? 5 : 10, extend = dna ? 2 : 1;
    const std::string query = apps::random_residues(length, alphabet, 1), target = apps::random_residues(length, alphabet, 2);
    const auto q = apps::encode(query, alphabet), t = apps::encode(target, alphabet);
    const auto w = apps::make_smith_waterman(alphabet, 2, -3, open, extend);
    parasail_matrix_t* dna_matrix = dna ? parasail_matrix_create("ACGT", 2, -3) : nullptr;
    const parasail_matrix_t* matrix = dna ? dna_matrix : &parasail_blosum62;
    std::map<std::string, std::vector<double>> seconds;
    std::map<std::string, int> scores;
    const auto time = [&](const std::string& name, const std::function<int()>& body) {
      const auto start = Clock::now();
      scores[name] = body();
      seconds[name].push_back(std::chrono::duration<double>(Clock::now() - start).count());
    };
    const auto align = [&](Aligner routine) {
      parasail_result_t* r = routine(query.data(), static_cast<int>(query.size()), target.data(),
                                     static_cast<int>(target.size()), open, extend, matrix);
      const int score = parasail_result_get_score(r);
      parasail_result_free(r);
      return score;
    };
    for (int round = 0; round < rounds; ++round) {
      fmt::print(stderr, "\r{}: round {} of {}   ", dna ? "dna" : "protein", round + 1, rounds);
      time("trapeze", [&] {
        trapeze::WavefrontRun run(runtime, w, {length, length, q, t, {}, {}}, {tile, tile});
        run.submit();
        run.wait();
        return run.result();
      });
      for (const auto& [name, routine] : routines) time(name, [&, routine = routine] { return align(routine); });
      // Parasail's throughput on `threads` cores: the pair once per thread.
      for (const auto& [name, routine] : {routines[0], routines[1]}) {
        time(name + " x" + std::to_string(threads), [&, routine = routine] {
          std::vector<int> others(static_cast<std::size_t>(threads - 1), 0);
          std::vector<std::thread> more;
          for (int k = 0; k + 1 < threads; ++k) more.emplace_back([&, k] { others[static_cast<std::size_t>(k)] = align(routine); });
          const int score = align(routine);
          for (std::thread& m : more) m.join();
          for (int other : others) {
            if (other != score) return -1;
          }
          return score;
        });
      }
    }
    fmt::print(stderr, "\n");
    if (dna_matrix) parasail_matrix_free(dna_matrix);
    const double cells = static_cast<double>(length) * static_cast<double>(length);
    for (const auto& [name, times] : seconds) {
      const double pairs = name.ends_with(" x" + std::to_string(threads)) ? threads : 1.0;
      table.push_back({{"alphabet", dna ? "dna" : "protein"},
                       {"variant", name},
                       {"score", scores[name]},
                       {"median_seconds", median(times)},
                       {"min_seconds", *std::min_element(times.begin(), times.end())},
                       {"max_seconds", *std::max_element(times.begin(), times.end())},
                       {"gcups", pairs * cells / median(times) / 1e9}});
    }
  }
  std::ofstream(json_path) << table.dump(1) << "\n";
  fmt::print("{:<8} {:<24} {:>7} {:>10} {:>21} {:>8}\n", "alphabet", "variant", "score", "median s", "range s", "GCUPS");
  for (const auto& row : table) {
    fmt::print("{:<8} {:<24} {:>7} {:>10.4f} {:>10.4f}-{:<10.4f} {:>8.3f}\n", row["alphabet"].get<std::string>(),
               row["variant"].get<std::string>(), row["score"].get<int>(), row["median_seconds"].get<double>(),
               row["min_seconds"].get<double>(), row["max_seconds"].get<double>(), row["gcups"].get<double>());
  }
}
