#include "fasta.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "trapeze/error.hpp"

namespace apps {

FastaRecord read_fasta(const std::string& path) {
  std::ifstream in(path);
  const std::string file = "FASTA file '" + trapeze::quoted(path) + "'";
  if (!in) throw trapeze::InvalidArgument("cannot read " + file + ": " + std::strerror(errno));
  FastaRecord record;
  std::string line;
  long number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!header) {
      if (line.find_first_not_of(" \t") == std::string::npos) continue;
      if (line[0] != '>') {
        throw trapeze::InvalidArgument(file + " line " + std::to_string(number) +
                                       ": expected a '>' header line, got '" + trapeze::quoted(line.substr(0, 40)) + "'");
      }
      record.name = line.substr(1);
      header = true;
      continue;
    }
    if (!line.empty() && line[0] == '>') break;  // the next record: one pair is aligned
    for (const char c : line) {
      if (c == ' ' || c == '\t') continue;
      if (!std::isalpha(static_cast<unsigned char>(c)) && c != '*' && c != '-') {
        throw trapeze::InvalidArgument(file + " line " + std::to_string(number) + ": '" +
                                       trapeze::quoted(std::string(1, c)) + "' is not a residue");
      }
      record.residues.push_back(c);
    }
  }
  if (in.bad()) throw trapeze::InvalidArgument("cannot read " + file + ": " + std::strerror(errno));
  if (!header) throw trapeze::InvalidArgument(file + " holds no record (no '>' header line)");
  return record;
}

}  // namespace apps
