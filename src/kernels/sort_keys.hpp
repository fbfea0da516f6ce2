// Order-preserving maps from element bits to unsigned radix-sort keys (host and device, bits only).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CUARRAY_SORT_HD __host__ __device__ __forceinline__
#else
#define CUARRAY_SORT_HD inline
#endif

namespace cuarray::detail::sort_keys {

// Note [sort keys]: every dtype sorts as an unsigned integer of its own width, so that CUB is instantiated
// for four key types only. bool becomes 0/1, unsigned integers are their bits, signed integers flip the
// sign bit, floats flip the sign bit of positives and every bit of negatives (IEEE order as unsigned order).
// Two flavours for floats:
// - `arg` (argsort, lexsort, searchsorted, unique's permutation): -0.0 and +0.0 get the same key and every
//   NaN the largest key, so equal values keep their input order (the sort is stable) and NaNs go last.
// - `sort` (values only): NaNs lose their sign bit (so that they sort after +inf) and nothing else changes,
//   so the map is invertible and the sorted output is a permutation of the input bits (-0.0 stays -0.0,
//   placed just before the +0.0s, as a stable sort would place it among equal zeros only by chance).
// Complex numbers sort in NumPy's order: R+Rj < R+nanj < nan+Rj < nan+nanj (R not NaN), lexicographic on
// the non-NaN parts within a class. Keys: a 2-bit class (real NaN, imag NaN), a real-part key (0 when the
// real part is NaN) and an imaginary-part key (0 when NaN); stable passes imag, real, class give the order.

// Sign and +inf bits of float16, float32 and float64 held in an unsigned integer of their width.
template <int Bytes> struct float_bits_of;
template <> struct float_bits_of<2> { static constexpr std::uint16_t sign = 0x8000u, inf = 0x7C00u; };
template <> struct float_bits_of<4> { static constexpr std::uint32_t sign = 0x80000000u, inf = 0x7F800000u; };
template <> struct float_bits_of<8> {
  static constexpr std::uint64_t sign = 0x8000000000000000ull, inf = 0x7FF0000000000000ull;
};
template <class U> struct float_bits {
  static constexpr U sign = static_cast<U>(float_bits_of<sizeof(U)>::sign);
  static constexpr U inf = static_cast<U>(float_bits_of<sizeof(U)>::inf);
};

template <class U> CUARRAY_SORT_HD bool float_is_nan(U x) {
  return static_cast<U>(x & static_cast<U>(~float_bits<U>::sign)) > float_bits<U>::inf;
}

template <class U> CUARRAY_SORT_HD U float_twiddle(U x) {
  constexpr U s = float_bits<U>::sign;
  return (x & s) ? static_cast<U>(~x) : static_cast<U>(x | s);
}

template <class U> CUARRAY_SORT_HD U float_untwiddle(U k) {
  constexpr U s = float_bits<U>::sign;
  return (k & s) ? static_cast<U>(k ^ s) : static_cast<U>(~k);
}

/// Key for argsort: -0.0 == +0.0, every NaN the maximum key.
template <class U> CUARRAY_SORT_HD U float_arg_key(U x) {
  if (float_is_nan(x)) return static_cast<U>(~U(0));
  if (static_cast<U>(x & static_cast<U>(~float_bits<U>::sign)) == 0) x = 0;
  return float_twiddle(x);
}

/// Key for value sorts: invertible apart from the sign of NaNs.
template <class U> CUARRAY_SORT_HD U float_sort_key(U x) {
  if (float_is_nan(x)) x = static_cast<U>(x & static_cast<U>(~float_bits<U>::sign));
  return float_twiddle(x);
}

/// Key of a complex part inside its class: 0 for NaN (the class orders NaN parts), else the arg key.
template <class U> CUARRAY_SORT_HD U complex_part_key(U x) { return float_is_nan(x) ? U(0) : float_arg_key(x); }

template <class U> CUARRAY_SORT_HD std::uint8_t complex_class(U re, U im) {
  return static_cast<std::uint8_t>((float_is_nan(re) ? 2 : 0) | (float_is_nan(im) ? 1 : 0));
}

template <class U> CUARRAY_SORT_HD U signed_key(U x) { return static_cast<U>(x ^ (U(1) << (8 * sizeof(U) - 1))); }

/// NumPy's complex order on (re, im) bits: true when a < b.
template <class U> CUARRAY_SORT_HD bool complex_less(U are, U aim, U bre, U bim) {
  std::uint8_t ca = complex_class(are, aim), cb = complex_class(bre, bim);
  if (ca != cb) return ca < cb;
  U ar = complex_part_key(are), br = complex_part_key(bre);
  if (ar != br) return ar < br;
  return complex_part_key(aim) < complex_part_key(bim);
}

}  // namespace cuarray::detail::sort_keys
