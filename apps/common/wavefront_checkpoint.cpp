#include "wavefront_checkpoint.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "trapeze/error.hpp"

namespace apps {

namespace {

constexpr char magic[] = "TRAPEZE WAVEFRONT CHECKPOINT 1\n";
constexpr char end_mark[] = "END\n";

template <typename T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

class Reader {
 public:
  Reader(const std::string& bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  template <typename T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof value), sizeof value);
    return value;
  }
  const char* take(std::size_t size) {
    if (size > bytes_.size() - at_) throw trapeze::InvalidArgument(what_ + " is truncated");
    const char* p = bytes_.data() + at_;
    at_ += size;
    return p;
  }
  std::size_t left() const { return bytes_.size() - at_; }

 private:
  const std::string& bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

}  // namespace

std::uint64_t fingerprint_bytes(const void* data, std::size_t size, std::uint64_t seed) {
  std::uint64_t h = seed;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

void write_wavefront_checkpoint(const std::string& path, const WavefrontCheckpointFile& f) {
  std::string out(magic);
  put(out, static_cast<std::uint64_t>(f.app.size()));
  out += f.app;
  put(out, f.rows);
  put(out, f.columns);
  put(out, f.fingerprint);
  put(out, f.first_row);
  put(out, f.cell_bytes);
  put(out, f.result_bytes);
  out.append(reinterpret_cast<const char*>(f.top_row.data()), f.top_row.size());
  out.append(reinterpret_cast<const char*>(f.folded.data()), f.folded.size());
  out += end_mark;
  const std::string temporary = path + ".part";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file || !file.write(out.data(), static_cast<std::streamsize>(out.size())) || !file.flush()) {
      throw trapeze::Error("cannot write checkpoint '" + trapeze::quoted(temporary) + "': " + std::strerror(errno));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw trapeze::Error("cannot replace checkpoint '" + trapeze::quoted(path) + "': " + std::strerror(error));
  }
}

WavefrontCheckpointFile read_wavefront_checkpoint(const std::string& path) {
  const std::string what = "checkpoint '" + trapeze::quoted(path) + "'";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw trapeze::InvalidArgument("cannot read " + what + ": " + std::strerror(errno));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.compare(0, sizeof magic - 1, magic) != 0) {
    throw trapeze::InvalidArgument(what + " is not a Trapeze wavefront checkpoint");
  }
  Reader r(bytes, what);
  r.take(sizeof magic - 1);
  WavefrontCheckpointFile f;
  const auto name_size = r.get<std::uint64_t>();
  if (name_size > 64) throw trapeze::InvalidArgument(what + " is damaged (app name of " + std::to_string(name_size) + " bytes)");
  f.app.assign(r.take(name_size), name_size);
  f.rows = r.get<trapeze::Index>();
  f.columns = r.get<trapeze::Index>();
  f.fingerprint = r.get<std::uint64_t>();
  f.first_row = r.get<trapeze::Index>();
  f.cell_bytes = r.get<std::uint64_t>();
  f.result_bytes = r.get<std::uint64_t>();
  if (f.rows < 0 || f.columns < 0 || f.first_row < 0 || f.first_row > f.rows || f.cell_bytes == 0 ||
      f.cell_bytes > 4096 || f.result_bytes > 4096) {
    throw trapeze::InvalidArgument(what + " is damaged (impossible sizes)");
  }
  const std::uint64_t top_bytes = static_cast<std::uint64_t>(f.columns + 1) * f.cell_bytes;
  if (top_bytes + f.result_bytes + sizeof end_mark - 1 != r.left()) throw trapeze::InvalidArgument(what + " is truncated");
  const char* top = r.take(top_bytes);
  f.top_row.assign(top, top + top_bytes);
  const char* folded = r.take(f.result_bytes);
  f.folded.assign(folded, folded + f.result_bytes);
  if (std::memcmp(r.take(sizeof end_mark - 1), end_mark, sizeof end_mark - 1) != 0) {
    throw trapeze::InvalidArgument(what + " is damaged (no end mark)");
  }
  return f;
}

}  // namespace apps
