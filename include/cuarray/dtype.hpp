// Element types: the fourteen NumPy dtypes cuarray supports, their sizes, kinds and names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cuarray {

/// Element type identifier. The order is NumPy's type-number order within each kind.
enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
  complex64,
  complex128,
};

inline constexpr int num_dtypes = 14;

inline constexpr dtype bool_ = dtype::bool_;
inline constexpr dtype int8 = dtype::int8;
inline constexpr dtype int16 = dtype::int16;
inline constexpr dtype int32 = dtype::int32;
inline constexpr dtype int64 = dtype::int64;
inline constexpr dtype uint8 = dtype::uint8;
inline constexpr dtype uint16 = dtype::uint16;
inline constexpr dtype uint32 = dtype::uint32;
inline constexpr dtype uint64 = dtype::uint64;
inline constexpr dtype float16 = dtype::float16;
inline constexpr dtype float32 = dtype::float32;
inline constexpr dtype float64 = dtype::float64;
inline constexpr dtype complex64 = dtype::complex64;
inline constexpr dtype complex128 = dtype::complex128;

/// Bytes per element.
constexpr std::size_t itemsize(dtype t) {
  constexpr std::uint8_t sizes[num_dtypes] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};
  return sizes[static_cast<int>(t)];
}

/// NumPy's kind character: 'b', 'i', 'u', 'f' or 'c'.
constexpr char kind(dtype t) {
  constexpr char kinds[num_dtypes] = {'b', 'i', 'i', 'i', 'i', 'u', 'u', 'u', 'u', 'f', 'f', 'f', 'c', 'c'};
  return kinds[static_cast<int>(t)];
}

/// NumPy's dtype name ("float32").
constexpr std::string_view name(dtype t) {
  constexpr std::string_view names[num_dtypes] = {"bool",    "int8",    "int16",     "int32",     "int64",
                                                  "uint8",   "uint16",  "uint32",    "uint64",    "float16",
                                                  "float32", "float64", "complex64", "complex128"};
  return names[static_cast<int>(t)];
}

/// NumPy's one-character type code ('f' for float32); the key of numpy.sctypeDict.
constexpr char type_char(dtype t) {
  constexpr char chars[num_dtypes] = {'?', 'b', 'h', 'i', 'l', 'B', 'H', 'I', 'L', 'e', 'f', 'd', 'F', 'D'};
  return chars[static_cast<int>(t)];
}

constexpr bool is_bool(dtype t) { return t == dtype::bool_; }
constexpr bool is_integer(dtype t) { return kind(t) == 'i' || kind(t) == 'u'; }
constexpr bool is_signed_integer(dtype t) { return kind(t) == 'i'; }
constexpr bool is_unsigned_integer(dtype t) { return kind(t) == 'u'; }
constexpr bool is_floating(dtype t) { return kind(t) == 'f'; }
constexpr bool is_complex(dtype t) { return kind(t) == 'c'; }
constexpr bool is_inexact(dtype t) { return is_floating(t) || is_complex(t); }

/// Parse a dtype name ("float32", "f4", "f", "bool", "?"); returns false if unknown.
bool parse_dtype(std::string_view text, dtype& out);

/// Whether NumPy's can_cast(from, to, casting='safe') holds.
bool can_cast_safely(dtype from, dtype to);

/// NumPy's promote_types(a, b) over the supported dtypes.
dtype promote_types(dtype a, dtype b);

}  // namespace cuarray
