// NumPy's elementwise non-ufunc functions: clip, real/imag, angle, rounding, nan_to_num, sinc, i0, where, copyto.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

// Operands that may be arrays or scalars are `ufunc_arg`s (cuarray/ufunc.hpp): C++ numbers are weak like Python
// scalars under NEP 50, `scalar`s and bools keep their dtype.

/// NumPy's clip: minimum(maximum(a, lo), hi) with NaN propagation; either bound may be absent (both: a copy).
/// A weak int bound beyond the integer dtype's range is dropped, as NumPy does. Writes into `out` if given.
array clip(const array& a, const std::optional<ufunc_arg>& lo, const std::optional<ufunc_arg>& hi,
           const array& out = array());

/// Real part: a view of a complex array (float dtype, same strides), `a` itself otherwise.
array real(const array& a);
/// Imaginary part: a view of a complex array (offset by half an element), a new zero array otherwise.
array imag(const array& a);

/// Angle of complex values (arctan2(imag, real)), in degrees if `deg`; real input has angle 0 or pi.
array angle(const array& z, bool deg = false);
/// Elementwise: the imaginary part is nonzero (false everywhere for real dtypes).
array iscomplex(const array& x);
/// Elementwise: the imaginary part is zero (true everywhere for real dtypes).
array isreal(const array& x);
/// Whether the dtype is complex.
bool iscomplexobj(const array& x);
/// Whether the dtype is not complex.
bool isrealobj(const array& x);

/// NaN -> `nan`, +inf -> `posinf` (default: the dtype's max), -inf -> `neginf` (default: its min); complex
/// parts separately; integer and bool input unchanged. In place (returning `x`) when `copy` is false.
array nan_to_num(const array& x, bool copy = true, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt);

/// NumPy's round: half to even at `decimals` digits (negative: tens, hundreds...), in steps rounded to the
/// dtype as NumPy's; integers with negative decimals round through float64; writes into `out` if given.
array around(const array& a, int decimals = 0, const array& out = array());
/// Same as around (NumPy 2's preferred name).
array round(const array& a, int decimals = 0, const array& out = array());
/// Round toward zero, keeping the dtype (NumPy 2's fix is trunc).
array fix(const array& x, const array& out = array());
/// Normalised sinc, sin(pi x) / (pi x) with sinc(0) = 1; integer input gives float64.
array sinc(const array& x);
/// Modified Bessel function of the first kind, order 0 (float16/float32 keep their dtype, others float64;
/// complex input is a type_error).
array i0(const array& x);

/// Elements of `x` where `condition` is true, else of `y`; result dtype as NumPy's (NEP 50 weak scalars).
array where(const ufunc_arg& condition, const ufunc_arg& x, const ufunc_arg& y);

/// Copy `src` into `dst` (broadcasting), checking NumPy's `casting` rule; only where the bool mask `where`
/// (broadcast) is true, when given.
void copyto(const array& dst, const ufunc_arg& src, casting rule = casting::same_kind, const array& where = array());

namespace detail {
/// A run-time compiled kernel behind these functions: ufunc-style loop types ("fff->f", or "" for generic
/// bodies), the body and the preamble. For tests, which compile every variant with NVRTC.
struct elementwise_funcs_kernel {
  std::string name, types, body, preamble;
};
std::vector<elementwise_funcs_kernel> elementwise_funcs_kernels();
}  // namespace detail

}  // namespace cuarray
