#pragma once
// One field of a grid on the host: a contiguous array of cells, like a
// std::vector of fixed size, on memory whose pages a run can give back while
// the tiles hold the values (so the host keeps about one copy of the domain).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>

#include "trapeze/host_buffer.hpp"

namespace trapeze {

template <typename T>
class FieldBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "grid cells are trivially copyable values");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = std::size_t;

  FieldBuffer() = default;
  // `count` cells, all T{}.
  explicit FieldBuffer(std::size_t count) : buffer_(count, /*pin=*/false) {
    if (count > 0) std::fill_n(buffer_.data(), count, T{});
  }
  FieldBuffer(const FieldBuffer& other) : buffer_(other.size(), false) {
    if (other.size() > 0) std::memcpy(buffer_.data(), other.data(), other.size() * sizeof(T));
  }
  FieldBuffer& operator=(const FieldBuffer& other) {
    if (this != &other) *this = FieldBuffer(other);
    return *this;
  }
  FieldBuffer(FieldBuffer&&) noexcept = default;
  FieldBuffer& operator=(FieldBuffer&&) noexcept = default;
  // Copies `values` in; their count must equal size().
  FieldBuffer& assign(std::span<const T> values) {
    std::copy(values.begin(), values.end(), begin());
    return *this;
  }

  T* data() { return buffer_.data(); }
  const T* data() const { return buffer_.data(); }
  std::size_t size() const { return buffer_.size(); }
  bool empty() const { return size() == 0; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  operator std::span<T>() { return {data(), size()}; }
  operator std::span<const T>() const { return {data(), size()}; }

  // Lets the pages wholly inside [first, first + count) go (their cells then
  // read as zeros); see release_host_pages.
  std::size_t release(std::size_t first, std::size_t count) const { return buffer_.release(first, count); }

  friend bool operator==(const FieldBuffer& a, const FieldBuffer& b) {
    return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
  }

 private:
  HostBuffer<T> buffer_;
};

}  // namespace trapeze
