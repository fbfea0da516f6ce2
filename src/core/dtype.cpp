// dtype names and NumPy's promotion table over the supported dtypes.
#include "cuarray/dtype.hpp"

#include <algorithm>

namespace cuarray {

bool parse_dtype(std::string_view text, dtype& out) {
  struct entry {
    std::string_view name;
    dtype t;
  };
  static constexpr entry table[] = {
      {"bool", dtype::bool_},      {"?", dtype::bool_},         {"b1", dtype::bool_},
      {"int8", dtype::int8},       {"i1", dtype::int8},         {"b", dtype::int8},
      {"int16", dtype::int16},     {"i2", dtype::int16},        {"h", dtype::int16},
      {"int32", dtype::int32},     {"i4", dtype::int32},        {"i", dtype::int32},
      {"int64", dtype::int64},     {"i8", dtype::int64},        {"l", dtype::int64},
      {"q", dtype::int64},         {"int", dtype::int64},       {"uint8", dtype::uint8},
      {"u1", dtype::uint8},        {"B", dtype::uint8},         {"uint16", dtype::uint16},
      {"u2", dtype::uint16},       {"H", dtype::uint16},        {"uint32", dtype::uint32},
      {"u4", dtype::uint32},       {"I", dtype::uint32},        {"uint64", dtype::uint64},
      {"u8", dtype::uint64},       {"L", dtype::uint64},        {"Q", dtype::uint64},
      {"uint", dtype::uint64},     {"float16", dtype::float16}, {"f2", dtype::float16},
      {"e", dtype::float16},       {"half", dtype::float16},    {"float32", dtype::float32},
      {"f4", dtype::float32},      {"f", dtype::float32},       {"single", dtype::float32},
      {"float64", dtype::float64}, {"f8", dtype::float64},      {"d", dtype::float64},
      {"double", dtype::float64},  {"float", dtype::float64},   {"complex64", dtype::complex64},
      {"c8", dtype::complex64},    {"F", dtype::complex64},     {"complex128", dtype::complex128},
      {"c16", dtype::complex128},  {"D", dtype::complex128},    {"complex", dtype::complex128},
  };
  for (const auto& e : table) {
    if (e.name == text) {
      out = e.t;
      return true;
    }
  }
  return false;
}

namespace {

int bits(dtype t) { return static_cast<int>(itemsize(t)) * 8; }

dtype float_of_bits(int b) { return b <= 16 ? dtype::float16 : b <= 32 ? dtype::float32 : dtype::float64; }
dtype complex_of_bits(int b) { return b <= 32 ? dtype::complex64 : dtype::complex128; }
dtype signed_of_bits(int b) {
  return b <= 8 ? dtype::int8 : b <= 16 ? dtype::int16 : b <= 32 ? dtype::int32 : dtype::int64;
}

// Bits of the smallest float that holds every value of an integer type exactly enough for NumPy:
// 8-bit integers go to float16, 16-bit to float32, wider to float64.
int float_bits_for(dtype t) { return bits(t) == 8 ? 16 : bits(t) == 16 ? 32 : 64; }

}  // namespace

dtype promote_types(dtype a, dtype b) {
  if (a == b) return a;
  if (is_bool(a)) return b;
  if (is_bool(b)) return a;
  char ka = kind(a), kb = kind(b);
  if (is_integer(a) && is_integer(b)) {
    if (ka == kb) return bits(a) >= bits(b) ? a : b;
    dtype s = ka == 'i' ? a : b, u = ka == 'u' ? a : b;
    if (bits(s) > bits(u)) return s;
    if (bits(u) >= 64) return dtype::float64;
    return signed_of_bits(2 * bits(u));
  }
  if (is_integer(a) || is_integer(b)) {
    dtype i = is_integer(a) ? a : b, f = is_integer(a) ? b : a;
    if (is_floating(f)) return float_of_bits(std::max(bits(f), float_bits_for(i)));
    return complex_of_bits(std::max(bits(f) / 2, float_bits_for(i)));
  }
  // Both inexact.
  if (is_floating(a) && is_floating(b)) return bits(a) >= bits(b) ? a : b;
  if (is_complex(a) && is_complex(b)) return bits(a) >= bits(b) ? a : b;
  dtype f = is_floating(a) ? a : b, c = is_floating(a) ? b : a;
  return complex_of_bits(std::max(bits(f), bits(c) / 2));
}

bool can_cast_safely(dtype from, dtype to) { return promote_types(from, to) == to; }

}  // namespace cuarray
