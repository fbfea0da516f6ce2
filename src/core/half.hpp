// IEEE half-precision conversions on the host (round to nearest even), bit-exact with NumPy's.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace cuarray::detail {

inline float half_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t man = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: renormalise
      int e = -1;
      do {
        ++e;
        man <<= 1;
      } while ((man & 0x400u) == 0);
      bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// double -> half with a single rounding (NumPy rounds double directly, not through float).
inline std::uint16_t double_to_half(double d) {
  std::uint64_t x;
  std::memcpy(&x, &d, 8);
  std::uint16_t sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
  std::uint64_t exp = (x >> 52) & 0x7ffu;
  std::uint64_t man = x & 0xfffffffffffffull;
  if (exp == 0x7ff) {  // inf or nan
    if (man == 0) return sign | 0x7c00u;
    std::uint16_t m = static_cast<std::uint16_t>(man >> 42);
    return sign | 0x7c00u | (m ? m : 0x200u);
  }
  int e = static_cast<int>(exp) - 1023 + 15;
  if (e >= 0x1f) return sign | 0x7c00u;  // overflow to inf
  if (e <= 0) {
    if (e < -10) return sign;    // underflows to zero (rounding cannot reach the smallest subnormal)
    man |= 0x10000000000000ull;  // implicit bit
    int shift = 42 + 1 - e;      // bits to drop
    std::uint64_t half_man = man >> shift;
    std::uint64_t rem = man & ((1ull << shift) - 1);
    std::uint64_t halfway = 1ull << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_man & 1))) ++half_man;
    return static_cast<std::uint16_t>(sign | half_man);
  }
  std::uint64_t half_man = man >> 42;
  std::uint64_t rem = man & ((1ull << 42) - 1);
  std::uint64_t halfway = 1ull << 41;
  std::uint32_t out = (static_cast<std::uint32_t>(e) << 10) | static_cast<std::uint32_t>(half_man);
  if (rem > halfway || (rem == halfway && (half_man & 1))) ++out;  // may carry into the exponent: correct
  return static_cast<std::uint16_t>(sign | out);
}

}  // namespace cuarray::detail
