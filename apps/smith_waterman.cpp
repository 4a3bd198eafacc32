// smith-waterman: the best local alignment score of two sequences (FASTA
// files, or random ones of given lengths), affine gaps as parasail scores
// them, run as a Trapeze wavefront that keeps only tile boundaries.
#include <charconv>

#include "common/fasta.hpp"
#include "common/wavefront_app.hpp"
#include "wavefronts/alignment_scoring.hpp"

namespace {

// "QxT" or "N" (both): sequence lengths, zero allowed.
std::pair<trapeze::Index, trapeze::Index> parse_lengths(const std::string& text) {
  const auto parse = [&](std::string_view piece) {
    trapeze::Index value = -1;
    const auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
    if (ec != std::errc() || end != piece.data() + piece.size() || value < 0) {
      throw trapeze::InvalidArgument("size must be QUERYxTARGET lengths (whole numbers >= 0), got '" +
                                     trapeze::quoted(text) + "'");
    }
    return value;
  };
  const std::size_t x = text.find('x');
  if (x == std::string::npos) return {parse(text), parse(text)};
  return {parse(std::string_view(text).substr(0, x)), parse(std::string_view(text).substr(x + 1))};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Smith-Waterman local alignment score (affine gaps), run as a Trapeze wavefront"};
  apps::WavefrontOptions options;
  apps::add_wavefront_options(cli, options);
  std::string query_file, target_file, alphabet_name = "dna", size = "2000x2000";
  int match = 2, mismatch = -3;
  std::optional<int> gap_open, gap_extend;
  std::uint64_t seed = 1;
  cli.add_option("--query", query_file, "query sequence (FASTA; the first record): the rows");
  cli.add_option("--target", target_file, "target sequence (FASTA; the first record): the columns");
  cli.add_option("--alphabet", alphabet_name, "dna (match/mismatch scores) or protein (BLOSUM62)")->capture_default_str();
  cli.add_option("--match", match, "DNA: score of a match")->capture_default_str();
  cli.add_option("--mismatch", mismatch, "DNA: score of a mismatch")->capture_default_str();
  cli.add_option("--gap-open", gap_open, "cost of a gap's first residue (default: 5 for dna, 10 for protein)");
  cli.add_option("--gap-extend", gap_extend, "cost of each further residue (default: 2 for dna, 1 for protein)");
  cli.add_option("-n,--size", size, "without files: lengths of a random pair, QUERYxTARGET or N")
      ->capture_default_str();
  cli.add_option("--seed", seed, "seed of the random pair")->capture_default_str();
  return apps::app_main("smith-waterman", cli, argc, argv, [&] {
    const apps::Alphabet alphabet = apps::parse_alphabet(alphabet_name);
    if (query_file.empty() != target_file.empty()) {
      throw trapeze::InvalidArgument("give both --query and --target, or neither (a random pair of --size)");
    }
    std::string query, target;
    if (!query_file.empty()) {
      if (cli.count("--size") > 0) throw trapeze::InvalidArgument("--size is for random pairs; the files set the lengths");
      query = apps::read_fasta(query_file).residues;
      target = apps::read_fasta(target_file).residues;
    } else {
      const auto [rows, columns] = parse_lengths(size);
      query = apps::random_residues(static_cast<std::size_t>(rows), alphabet, seed);
      target = apps::random_residues(static_cast<std::size_t>(columns), alphabet, seed + 1);
    }
    const bool dna = alphabet == apps::Alphabet::dna;
    const int open = gap_open.value_or(dna ? 5 : 10), extend = gap_extend.value_or(dna ? 2 : 1);
    const apps::SmithWaterman w = apps::make_smith_waterman(alphabet, match, mismatch, open, extend);
    const std::vector<std::uint8_t> q = apps::encode(query, alphabet), t = apps::encode(target, alphabet);
    const trapeze::WavefrontData<apps::SmithWaterman> data{static_cast<trapeze::Index>(q.size()),
                                                          static_cast<trapeze::Index>(t.size()), q, t, {}, {}};
    return apps::run_wavefront_app<apps::SmithWaterman>(
        "smith-waterman", options, w, data, [&](const auto& outcome, nlohmann::json& report) {
          report["score"] = outcome.result;
          const apps::AlignmentCell& last = outcome.last_cell;  // (h, e, f) of the last cell, for bit-exact comparisons
          report["last_cell"] = {last.h, last.e, last.f};
          report["alphabet"] = alphabet_name;
          report["gap_open"] = open;
          report["gap_extend"] = extend;
          if (dna) report["match"] = match, report["mismatch"] = mismatch;
          return fmt::format("score {}", outcome.result);
        });
  });
}
