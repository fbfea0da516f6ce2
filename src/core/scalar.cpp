// Host-side scalars: construction from C++ values and NumPy's 'unsafe' casts between the dtypes.
#include <cmath>
#include <cstring>

#include "cuarray/array.hpp"
#include "src/core/half.hpp"

namespace cuarray {

namespace {

template <class T> scalar make(dtype t, T v) {
  scalar s;
  s.type = t;
  static_assert(sizeof(T) <= 16);
  std::memcpy(s.bytes, &v, sizeof(T));
  return s;
}

template <class T> T read(const scalar& s) {
  T v;
  std::memcpy(&v, s.bytes, sizeof(T));
  return v;
}

// Real part, imaginary part, and (for integers) the exact integer value of a scalar.
struct parts {
  double re = 0, im = 0;
  bool is_int = false, is_unsigned = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
};

parts decompose(const scalar& s) {
  parts p;
  switch (s.type) {
    case dtype::bool_:
      p.is_int = true;
      p.i = read<unsigned char>(s) ? 1 : 0;
      p.re = static_cast<double>(p.i);
      break;
    case dtype::int8:
      p.is_int = true;
      p.i = read<std::int8_t>(s);
      p.re = static_cast<double>(p.i);
      break;
    case dtype::int16:
      p.is_int = true;
      p.i = read<std::int16_t>(s);
      p.re = static_cast<double>(p.i);
      break;
    case dtype::int32:
      p.is_int = true;
      p.i = read<std::int32_t>(s);
      p.re = static_cast<double>(p.i);
      break;
    case dtype::int64:
      p.is_int = true;
      p.i = read<std::int64_t>(s);
      p.re = static_cast<double>(p.i);
      break;
    case dtype::uint8:
      p.is_int = p.is_unsigned = true;
      p.u = read<std::uint8_t>(s);
      break;
    case dtype::uint16:
      p.is_int = p.is_unsigned = true;
      p.u = read<std::uint16_t>(s);
      break;
    case dtype::uint32:
      p.is_int = p.is_unsigned = true;
      p.u = read<std::uint32_t>(s);
      break;
    case dtype::uint64:
      p.is_int = p.is_unsigned = true;
      p.u = read<std::uint64_t>(s);
      break;
    case dtype::float16: p.re = detail::half_to_float(read<std::uint16_t>(s)); break;
    case dtype::float32: p.re = read<float>(s); break;
    case dtype::float64: p.re = read<double>(s); break;
    case dtype::complex64:
      p.re = read<float>(s);
      {
        float im;
        std::memcpy(&im, s.bytes + 4, 4);
        p.im = im;
      }
      break;
    case dtype::complex128:
      p.re = read<double>(s);
      {
        double im;
        std::memcpy(&im, s.bytes + 8, 8);
        p.im = im;
      }
      break;
  }
  if (p.is_unsigned) {
    p.i = static_cast<std::int64_t>(p.u);
    p.re = static_cast<double>(p.u);
  } else if (p.is_int) {
    p.u = static_cast<std::uint64_t>(p.i);
  }
  return p;
}

// Float to integer as NumPy's casts give it on x86-64, NaN and out-of-range values included (Note [float to
// int casts] in src/kernels/basic_kernels.cu): a 32-bit conversion for the types narrower than 32 bits and
// int32, a 64-bit one for int64 and uint32, the 2**63 split for uint64; the caller keeps the low bits.
std::int64_t float_to_i64(double v) {
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return static_cast<std::int64_t>(v);
  return INT64_MIN;  // NaN too
}

std::uint64_t float_to_bits(double v, dtype to) {
  switch (to) {
    case dtype::int64:
    case dtype::uint32: return static_cast<std::uint64_t>(float_to_i64(v));
    case dtype::uint64:
      if (!(v >= 9223372036854775808.0)) return static_cast<std::uint64_t>(float_to_i64(v));
      return v < 18446744073709551616.0 ? static_cast<std::uint64_t>(v) : 0;
    default: {
      std::int32_t i = (v > -2147483649.0 && v < 2147483648.0) ? static_cast<std::int32_t>(v) : INT32_MIN;
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(i));
    }
  }
}

}  // namespace

scalar scalar::from_bool(bool v) { return make<unsigned char>(dtype::bool_, v ? 1 : 0); }
scalar scalar::from_int(std::int64_t v, dtype t) { return make<std::int64_t>(dtype::int64, v).cast(t); }
scalar scalar::from_uint(std::uint64_t v, dtype t) { return make<std::uint64_t>(dtype::uint64, v).cast(t); }
scalar scalar::from_double(double v, dtype t) { return make<double>(dtype::float64, v).cast(t); }
scalar scalar::from_complex(std::complex<double> v, dtype t) {
  double pair[2] = {v.real(), v.imag()};
  scalar s;
  s.type = dtype::complex128;
  std::memcpy(s.bytes, pair, 16);
  return s.cast(t);
}

scalar scalar::cast(dtype to) const {
  if (to == type) return *this;
  parts p = decompose(*this);
  std::uint64_t bits = 0;
  if (is_integer(to)) {
    bits = p.is_int ? p.u : float_to_bits(p.re, to);
  }
  switch (to) {
    case dtype::bool_: return make<unsigned char>(to, (p.is_int ? p.u != 0 : (p.re != 0 || p.im != 0)) ? 1 : 0);
    case dtype::int8: return make<std::int8_t>(to, static_cast<std::int8_t>(bits));
    case dtype::int16: return make<std::int16_t>(to, static_cast<std::int16_t>(bits));
    case dtype::int32: return make<std::int32_t>(to, static_cast<std::int32_t>(bits));
    case dtype::int64: return make<std::int64_t>(to, static_cast<std::int64_t>(bits));
    case dtype::uint8: return make<std::uint8_t>(to, static_cast<std::uint8_t>(bits));
    case dtype::uint16: return make<std::uint16_t>(to, static_cast<std::uint16_t>(bits));
    case dtype::uint32: return make<std::uint32_t>(to, static_cast<std::uint32_t>(bits));
    case dtype::uint64: return make<std::uint64_t>(to, bits);
    case dtype::float16: return make<std::uint16_t>(to, detail::double_to_half(p.re));
    case dtype::float32: return make<float>(to, static_cast<float>(p.re));
    case dtype::float64: return make<double>(to, p.re);
    case dtype::complex64: {
      float pair[2] = {static_cast<float>(p.re), static_cast<float>(p.im)};
      scalar s;
      s.type = to;
      std::memcpy(s.bytes, pair, 8);
      return s;
    }
    case dtype::complex128: {
      double pair[2] = {p.re, p.im};
      scalar s;
      s.type = to;
      std::memcpy(s.bytes, pair, 16);
      return s;
    }
  }
  return *this;
}

double scalar::to_double() const { return decompose(*this).re; }
std::int64_t scalar::to_int64() const {
  parts p = decompose(*this);
  return p.is_int ? p.i : float_to_i64(p.re);
}
std::complex<double> scalar::to_complex() const {
  parts p = decompose(*this);
  return {p.re, p.im};
}

}  // namespace cuarray
