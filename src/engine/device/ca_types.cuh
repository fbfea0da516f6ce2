// Scalar types of run-time compiled kernels: float16, complex, NumPy's casts, element loads and stores.
//
// Compiled by NVRTC with nothing else included (no standard headers), and also by a host C++ compiler for
// host-side tests of the arithmetic: CA_FN marks every function for both.
#pragma once

#if defined(__CUDACC__)
#define CA_FN __host__ __device__ __forceinline__
#else
#include <math.h>
#include <string.h>
#define CA_FN inline
#endif

// ---------------------------------------------------------------------------------------------------------
// float16: stored as its bits; arithmetic converts to float (NumPy computes float16 loops in float32 and
// rounds once per operation).

CA_FN float ca_h2f(unsigned short h) {
#if defined(__CUDA_ARCH__)
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
#else
  _Float16 v;
  memcpy(&v, &h, 2);
  return (float)v;
#endif
}

CA_FN unsigned short ca_f2h(float f) {
#if defined(__CUDA_ARCH__)
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
#else
  _Float16 v = (_Float16)f;
  unsigned short h;
  memcpy(&h, &v, 2);
  return h;
#endif
}

// Rounded once from double, as NumPy's double -> half cast does (going through float could round twice).
CA_FN unsigned short ca_d2h(double d) {
#if defined(__CUDA_ARCH__)
  unsigned short h;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
  return h;
#else
  _Float16 v = (_Float16)d;
  unsigned short h;
  memcpy(&h, &v, 2);
  return h;
#endif
}

struct ca_half {
  unsigned short x;
  ca_half() = default;
  CA_FN ca_half(float f) : x(ca_f2h(f)) {}
  CA_FN ca_half(double d) : x(ca_d2h(d)) {}
  CA_FN ca_half(bool v) : x(v ? 0x3c00 : 0) {}
  CA_FN ca_half(signed char v) : x(ca_f2h((float)v)) {}
  CA_FN ca_half(short v) : x(ca_f2h((float)v)) {}
  CA_FN ca_half(int v) : x(ca_d2h((double)v)) {}
  CA_FN ca_half(long v) : x(ca_d2h((double)v)) {}
  CA_FN ca_half(long long v) : x(ca_d2h((double)v)) {}
  CA_FN ca_half(unsigned char v) : x(ca_f2h((float)v)) {}
  CA_FN ca_half(unsigned short v) : x(ca_f2h((float)v)) {}
  CA_FN ca_half(unsigned int v) : x(ca_d2h((double)v)) {}
  CA_FN ca_half(unsigned long v) : x(ca_d2h((double)v)) {}
  CA_FN ca_half(unsigned long long v) : x(ca_d2h((double)v)) {}
  CA_FN operator float() const { return ca_h2f(x); }
  static CA_FN ca_half from_bits(unsigned short b) {
    ca_half h;
    h.x = b;
    return h;
  }
  CA_FN ca_half& operator+=(float o) { return *this = ca_half(float(*this) + o); }
  CA_FN ca_half& operator-=(float o) { return *this = ca_half(float(*this) - o); }
  CA_FN ca_half& operator*=(float o) { return *this = ca_half(float(*this) * o); }
  CA_FN ca_half& operator/=(float o) { return *this = ca_half(float(*this) / o); }
};

// ---------------------------------------------------------------------------------------------------------
// Complex numbers (complex64 = ca_complex<float>, complex128 = ca_complex<double>), laid out as NumPy's.

template <class T> struct ca_complex {
  T re, im;
  ca_complex() = default;
  CA_FN ca_complex(T r, T i = T(0)) : re(r), im(i) {}
  template <class U> CA_FN explicit ca_complex(const ca_complex<U>& o) : re(T(o.re)), im(T(o.im)) {}
  CA_FN T real() const { return re; }
  CA_FN T imag() const { return im; }
  CA_FN void real(T r) { re = r; }
  CA_FN void imag(T i) { im = i; }

  friend CA_FN ca_complex operator+(ca_complex a) { return a; }
  friend CA_FN ca_complex operator-(ca_complex a) { return ca_complex(-a.re, -a.im); }
  friend CA_FN ca_complex operator+(ca_complex a, ca_complex b) { return ca_complex(a.re + b.re, a.im + b.im); }
  friend CA_FN ca_complex operator-(ca_complex a, ca_complex b) { return ca_complex(a.re - b.re, a.im - b.im); }
  friend CA_FN ca_complex operator*(ca_complex a, ca_complex b) {
    return ca_complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  // Smith's algorithm, as NumPy's complex division loop (a zero divisor gives inf or nan parts).
  friend CA_FN ca_complex operator/(ca_complex a, ca_complex b) {
    T abr = b.re < 0 ? -b.re : b.re, abi = b.im < 0 ? -b.im : b.im;
    if (abr >= abi) {
      if (abr == 0 && abi == 0) return ca_complex(a.re / abr, a.im / abr);
      T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
      return ca_complex((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return ca_complex((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
  }
  friend CA_FN ca_complex operator+(ca_complex a, T b) { return ca_complex(a.re + b, a.im); }
  friend CA_FN ca_complex operator+(T a, ca_complex b) { return ca_complex(a + b.re, b.im); }
  friend CA_FN ca_complex operator-(ca_complex a, T b) { return ca_complex(a.re - b, a.im); }
  friend CA_FN ca_complex operator-(T a, ca_complex b) { return ca_complex(a - b.re, -b.im); }
  friend CA_FN ca_complex operator*(ca_complex a, T b) { return ca_complex(a.re * b, a.im * b); }
  friend CA_FN ca_complex operator*(T a, ca_complex b) { return ca_complex(a * b.re, a * b.im); }
  friend CA_FN ca_complex operator/(ca_complex a, T b) { return ca_complex(a.re / b, a.im / b); }
  friend CA_FN ca_complex operator/(T a, ca_complex b) { return ca_complex(a, T(0)) / b; }
  friend CA_FN bool operator==(ca_complex a, ca_complex b) { return a.re == b.re && a.im == b.im; }
  friend CA_FN bool operator!=(ca_complex a, ca_complex b) { return a.re != b.re || a.im != b.im; }
  friend CA_FN bool operator==(ca_complex a, T b) { return a.re == b && a.im == 0; }
  friend CA_FN bool operator!=(ca_complex a, T b) { return a.re != b || a.im != 0; }
  CA_FN ca_complex& operator+=(ca_complex o) { return *this = *this + o; }
  CA_FN ca_complex& operator-=(ca_complex o) { return *this = *this - o; }
  CA_FN ca_complex& operator*=(ca_complex o) { return *this = *this * o; }
  CA_FN ca_complex& operator/=(ca_complex o) { return *this = *this / o; }
};

typedef ca_complex<float> ca_complex64;
typedef ca_complex<double> ca_complex128;

template <class T> CA_FN T real(ca_complex<T> z) { return z.re; }
template <class T> CA_FN T imag(ca_complex<T> z) { return z.im; }
template <class T> CA_FN ca_complex<T> conj(ca_complex<T> z) { return ca_complex<T>(z.re, -z.im); }
template <class T> CA_FN T norm(ca_complex<T> z) { return z.re * z.re + z.im * z.im; }

// ---------------------------------------------------------------------------------------------------------
// Type traits of the fourteen element types (no <type_traits> under NVRTC).

enum { ca_kind_bool = 0, ca_kind_int = 1, ca_kind_uint = 2, ca_kind_float = 3, ca_kind_complex = 4, ca_kind_other = 5 };

template <class T> struct ca_traits { static constexpr int kind = ca_kind_other; };
template <> struct ca_traits<bool> { static constexpr int kind = ca_kind_bool; };
template <> struct ca_traits<signed char> { static constexpr int kind = ca_kind_int; };
template <> struct ca_traits<short> { static constexpr int kind = ca_kind_int; };
template <> struct ca_traits<int> { static constexpr int kind = ca_kind_int; };
template <> struct ca_traits<long> { static constexpr int kind = ca_kind_int; };
template <> struct ca_traits<long long> { static constexpr int kind = ca_kind_int; };
template <> struct ca_traits<unsigned char> { static constexpr int kind = ca_kind_uint; };
template <> struct ca_traits<unsigned short> { static constexpr int kind = ca_kind_uint; };
template <> struct ca_traits<unsigned int> { static constexpr int kind = ca_kind_uint; };
template <> struct ca_traits<unsigned long> { static constexpr int kind = ca_kind_uint; };
template <> struct ca_traits<unsigned long long> { static constexpr int kind = ca_kind_uint; };
template <> struct ca_traits<ca_half> { static constexpr int kind = ca_kind_float; };
template <> struct ca_traits<float> { static constexpr int kind = ca_kind_float; };
template <> struct ca_traits<double> { static constexpr int kind = ca_kind_float; };
template <class T> struct ca_traits<ca_complex<T>> { static constexpr int kind = ca_kind_complex; };

template <class T> constexpr bool ca_is_int = ca_traits<T>::kind == ca_kind_int || ca_traits<T>::kind == ca_kind_uint;
template <class T> constexpr bool ca_is_signed = ca_traits<T>::kind == ca_kind_int;
template <class T> constexpr bool ca_is_float = ca_traits<T>::kind == ca_kind_float;
template <class T> constexpr bool ca_is_complex = ca_traits<T>::kind == ca_kind_complex;

template <class A, class B> struct ca_same { static constexpr bool value = false; };
template <class A> struct ca_same<A, A> { static constexpr bool value = true; };

// ---------------------------------------------------------------------------------------------------------
// Casts with NumPy's results (as NumPy gives them on x86-64): float to integer goes through a 32-bit or
// 64-bit conversion whose out-of-range and NaN result is the minimum value, then wraps to the narrower type
// (Note [float to int casts] in src/kernels/basic_kernels.cu: astype and host scalar casts give the same).

CA_FN int ca_f2i32(double v) { return (v > -2147483649.0 && v < 2147483648.0) ? (int)v : (int)(-2147483647 - 1); }
CA_FN long long ca_f2i64(double v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (long long)v
                                                                    : (long long)(-9223372036854775807LL - 1);
}
CA_FN unsigned long long ca_f2u64(double v) {
  if (!(v >= 9223372036854775808.0)) return (unsigned long long)ca_f2i64(v);
  if (v < 18446744073709551616.0) return (unsigned long long)v;
  return 0;
}

template <class To> CA_FN To ca_float_to_int(double v) {
  if constexpr (ca_same<To, unsigned long long>::value || ca_same<To, unsigned long>::value) {
    return (To)ca_f2u64(v);
  } else if constexpr (sizeof(To) == 8 || ca_same<To, unsigned int>::value) {
    return (To)ca_f2i64(v);
  } else {
    return (To)ca_f2i32(v);
  }
}

template <class To, class From> CA_FN To ca_cast(const From& v) {
  constexpr int kt = ca_traits<To>::kind, kf = ca_traits<From>::kind;
  if constexpr (ca_same<To, From>::value) {
    return v;
  } else if constexpr (kt == ca_kind_bool) {
    if constexpr (kf == ca_kind_complex) return v.re != 0 || v.im != 0;
    else if constexpr (ca_same<From, ca_half>::value) return (float)v != 0.0f;
    else return v != 0;
  } else if constexpr (kt == ca_kind_int || kt == ca_kind_uint) {
    if constexpr (kf == ca_kind_complex) return ca_float_to_int<To>((double)v.re);
    else if constexpr (ca_same<From, ca_half>::value) return ca_float_to_int<To>((double)(float)v);
    else if constexpr (kf == ca_kind_float) return ca_float_to_int<To>((double)v);
    else return (To)v;
  } else if constexpr (kt == ca_kind_float) {
    if constexpr (kf == ca_kind_complex) return ca_cast<To>(v.re);
    else if constexpr (ca_same<From, ca_half>::value) return (To)(float)v;
    else if constexpr (ca_same<To, ca_half>::value) return ca_half(v);
    else return (To)v;
  } else if constexpr (kt == ca_kind_complex) {
    typedef decltype(To().re) E;
    if constexpr (kf == ca_kind_complex) return To(E(v.re), E(v.im));
    else return To(ca_cast<E>(v), E(0));
  } else {
    return (To)v;
  }
}

// Element access; bool is one byte holding 0 or 1.
template <class T> CA_FN T ca_load(const void* p) { return *reinterpret_cast<const T*>(p); }
template <> CA_FN bool ca_load<bool>(const void* p) { return *reinterpret_cast<const unsigned char*>(p) != 0; }
template <class T> CA_FN void ca_store(void* p, const T& v) { *reinterpret_cast<T*>(p) = v; }
template <> CA_FN void ca_store<bool>(void* p, const bool& v) { *reinterpret_cast<unsigned char*>(p) = v ? 1 : 0; }
