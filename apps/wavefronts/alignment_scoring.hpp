#pragma once
// Scoring for smith-waterman: residues to indices, and the substitution
// matrices (DNA match/mismatch, BLOSUM62 as parasail ships it).
#include <cstdint>
#include <string>
#include <vector>

#include "smith_waterman.hpp"

namespace apps {

enum class Alphabet { dna, protein };

Alphabet parse_alphabet(const std::string& text);

// A, C, G, T (either case) are 0-3, anything else N (4), which scores a
// mismatch against every residue, itself included; proteins use BLOSUM62's
// order, unknown letters '*'.
std::vector<std::uint8_t> encode(const std::string& residues, Alphabet alphabet);

// The wavefront with its substitution scores and gap costs (both positive
// penalties, as parasail takes them).
SmithWaterman make_smith_waterman(Alphabet alphabet, int match, int mismatch, int gap_open, int gap_extend);

// Residues of `alphabet` drawn uniformly from a seeded generator (ACGT, or the
// 20 standard amino acids).
std::string random_residues(std::size_t length, Alphabet alphabet, std::uint64_t seed);

}  // namespace apps
