// Elements as opaque bytes: copies, gathers and selects that only move elements need one kernel per width.
#pragma once

#include <cstddef>

namespace cuarray::detail {

/// A 16-byte element (complex128), moved whole.
struct alignas(16) bytes16 {
  unsigned long long a, b;
};

/// Calls f with a value of the unsigned type (or bytes16) as wide as `itemsize` (1, 2, 4, 8 or 16 bytes).
template <class F> void dispatch_bytes(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(static_cast<unsigned char>(0));
    case 2: return f(static_cast<unsigned short>(0));
    case 4: return f(0U);
    case 8: return f(0ULL);
    default: return f(bytes16{});
  }
}

}  // namespace cuarray::detail
