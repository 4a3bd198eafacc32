#pragma once
// RAII owner of a StarPU data handle.
#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "trapeze/error.hpp"

namespace trapeze {

// Unregisters on destruction. `keep_data` brings the latest value back to the
// home buffer (tiles); otherwise the value is dropped (strips, scratch).
class DataHandle {
 public:
  DataHandle() = default;
  DataHandle(starpu_data_handle_t handle, bool keep_data) : handle_(handle), keep_data_(keep_data) {}
  ~DataHandle() { reset(); }
  DataHandle(DataHandle&& other) noexcept
      : handle_(std::exchange(other.handle_, nullptr)), keep_data_(other.keep_data_) {}
  DataHandle& operator=(DataHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
      keep_data_ = other.keep_data_;
    }
    return *this;
  }
  DataHandle(const DataHandle&) = delete;
  DataHandle& operator=(const DataHandle&) = delete;

  starpu_data_handle_t get() const { return handle_; }

  // Gives the handle to StarPU, which unregisters it once the tasks
  // submitted on it are done (its memory goes back then, its value is
  // dropped); this object no longer holds it.
  void unregister_when_done() {
    if (!handle_) return;
    starpu_data_unregister_submit(handle_);
    handle_ = nullptr;
  }

  // A vector handle of `count` elements of `element_size` bytes; `home` null
  // lets StarPU allocate it where it is first written.
  static DataHandle vector(void* home, std::size_t count, std::size_t element_size, bool keep_data) {
    // StarPU 1.4's vector interface counts elements in 32 bits.
    if (count > UINT32_MAX) {
      throw Error("a tile or strip of " + std::to_string(count) + " elements exceeds StarPU's vector limit of " +
                  std::to_string(UINT32_MAX) + "; use smaller tiles");
    }
    starpu_data_handle_t h = nullptr;
    starpu_vector_data_register(&h, home ? STARPU_MAIN_RAM : -1, reinterpret_cast<uintptr_t>(home),
                                static_cast<uint32_t>(count), element_size);
    return DataHandle(h, keep_data);
  }

 private:
  void reset() {
    if (!handle_) return;
    if (keep_data_) starpu_data_unregister(handle_);
    else starpu_data_unregister_no_coherency(handle_);
    handle_ = nullptr;
  }
  starpu_data_handle_t handle_ = nullptr;
  bool keep_data_ = false;
};

}  // namespace trapeze
