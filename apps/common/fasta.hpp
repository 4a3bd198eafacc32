#pragma once
// Reads the first record of a FASTA file: a '>' header line, then the
// sequence over any number of lines (blank lines, spaces and '\r' ignored).
// A file without a header, an empty file, a residue that is not a letter (or
// '*', '-') and a second record are reported with one line naming the file
// and the line; the second record is read as the end of the first, since
// the apps align one pair.
#include <string>

namespace apps {

struct FastaRecord {
  std::string name;      // the header line without '>'
  std::string residues;  // letters as written (case kept)
};

// Throws trapeze::InvalidArgument naming the file and what is wrong.
FastaRecord read_fasta(const std::string& path);

}  // namespace apps
