#include "alignment_scoring.hpp"

#include <parasail/matrices/blosum62.h>

#include <random>

#include "trapeze/error.hpp"

namespace apps {

namespace {
constexpr int dna_unknown = 4;
constexpr const char* amino_acids = "ARNDCQEGHILKMFPSTWYV";
}  // namespace

Alphabet parse_alphabet(const std::string& text) {
  if (text == "dna") return Alphabet::dna;
  if (text == "protein") return Alphabet::protein;
  throw trapeze::InvalidArgument("alphabet must be dna or protein, got '" + text + "'");
}

std::vector<std::uint8_t> encode(const std::string& residues, Alphabet alphabet) {
  std::vector<std::uint8_t> codes(residues.size());
  for (std::size_t k = 0; k < residues.size(); ++k) {
    const auto c = static_cast<unsigned char>(residues[k]);
    if (alphabet == Alphabet::protein) {
      codes[k] = static_cast<std::uint8_t>(parasail_blosum_map[c]);
      continue;
    }
    switch (c) {
      case 'A': case 'a': codes[k] = 0; break;
      case 'C': case 'c': codes[k] = 1; break;
      case 'G': case 'g': codes[k] = 2; break;
      case 'T': case 't': codes[k] = 3; break;
      default: codes[k] = dna_unknown;
    }
  }
  return codes;
}

SmithWaterman make_smith_waterman(Alphabet alphabet, int match, int mismatch, int gap_open, int gap_extend) {
  if (gap_open < 0 || gap_extend < 0) {
    throw trapeze::InvalidArgument("gap costs are penalties >= 0, got open " + std::to_string(gap_open) +
                                   " and extend " + std::to_string(gap_extend));
  }
  SmithWaterman w{};
  w.gap_open = gap_open;
  w.gap_extend = gap_extend;
  constexpr int n = SmithWaterman::max_alphabet;
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (alphabet == Alphabet::protein) {
        w.scores[a * n + b] = parasail_blosum62.matrix[a * parasail_blosum62.size + b];
      } else {
        w.scores[a * n + b] = (a == b && a != dna_unknown) ? match : mismatch;
      }
    }
  }
  return w;
}

std::string random_residues(std::size_t length, Alphabet alphabet, std::uint64_t seed) {
  const std::string letters = alphabet == Alphabet::dna ? "ACGT" : amino_acids;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> pick(0, letters.size() - 1);
  std::string residues(length, ' ');
  for (char& c : residues) c = letters[pick(random)];
  return residues;
}

}  // namespace apps
