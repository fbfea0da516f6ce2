// Universal functions: one C++ function per NumPy ufunc and alias, with NumPy's out=, where=, dtype=, casting=.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

/// NumPy's casting rules.
enum class casting { no, equiv, safe, same_kind, unsafe };

/// "no", "equiv", "safe", "same_kind" or "unsafe"; value_error otherwise.
casting parse_casting(std::string_view s);
/// The rule's NumPy name, as parse_casting reads it.
const char* casting_name(casting rule);

/// NumPy's can_cast(from, to, casting=rule).
bool can_cast(dtype from, dtype to, casting rule);

/// A ufunc operand: an array, a typed `scalar` (strong, like a NumPy scalar), or a C++ number (weak, like a
/// Python scalar under NEP 50: `add(int8_array, 1)` stays int8, `add(int8_array, 1.5)` is float64).
struct ufunc_arg {
  array arr;
  scalar value;
  bool weak = false;
  /// A weak Python int beyond int64 and uint64: `value` holds it as float64 (+-inf past float64's range). It
  /// takes part as a Python int does and must meet a floating-point loop (or be compared with an integer
  /// array), else overflow_error, as NumPy 2 converts it to the loop's type.
  bool big_int = false;

  ufunc_arg() = default;
  ufunc_arg(array a) : arr(std::move(a)) {}
  ufunc_arg(const scalar& v) : value(v) {}
  ufunc_arg(array a, const scalar& v, bool is_weak, bool is_big_int = false)
      : arr(std::move(a)), value(v), weak(is_weak), big_int(is_big_int) {}
  // Templates, so that a pointer never converts to bool and int is not ambiguous between int64 and double.
  template <class T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0> ufunc_arg(T v) : value(scalar::from_bool(v)) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  ufunc_arg(T v) : value(int_value(v)), weak(true) {}
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  ufunc_arg(T v) : value(scalar::from_double(static_cast<double>(v))), weak(true) {}
  template <class T>
  ufunc_arg(std::complex<T> v)
      : value(scalar::from_complex({static_cast<double>(v.real()), static_cast<double>(v.imag())})), weak(true) {}

  bool is_scalar() const { return !arr.defined(); }

private:
  template <class T> static scalar int_value(T v) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) {
      if (v > static_cast<T>(std::numeric_limits<std::int64_t>::max()))
        return scalar::from_uint(static_cast<std::uint64_t>(v));
    }
    return scalar::from_int(static_cast<std::int64_t>(v));
  }
};

/// NumPy's ufunc keywords. With designated initialisers: `add(a, b, {.out = {c}, .where = mask})`.
struct ufunc_options {
  std::vector<array> out;             ///< per output; undefined entries are allocated
  std::optional<dtype> dtype_;        ///< NumPy's dtype= (the output type of the chosen loop)
  casting rule = casting::same_kind;  ///< NumPy's casting=
  array where;                        ///< bool mask (broadcast), or undefined
  order out_order = order::K;         ///< NumPy's order= for allocated outputs
};

/// Call a ufunc by NumPy name (aliases included); value_error for an unknown name.
std::vector<array> call_ufunc(std::string_view name, const std::vector<ufunc_arg>& args, const ufunc_options& options);

/// Call a ufunc by name on arrays, with default options.
std::vector<array> call_ufunc(std::string_view name, const std::vector<array>& args);

// One function per ufunc and alias of NumPy, declared from the generated list (tools/gen_ufunc_table.py),
// e.g. `array add(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& = {})`, `array sin(x)`,
// `std::pair<array, array> divmod(x1, x2)`, `modf(x)`, `frexp(x)`. Semantics are NumPy's: broadcasting,
// NEP 50 promotion, the first matching loop, type_error when none fits.
#define CUARRAY_UFUNC_DECL_1_1(name) array name(const ufunc_arg& x, const ufunc_options& options = {});
#define CUARRAY_UFUNC_DECL_2_1(name)                                                                                   \
  array name(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& options = {});
#define CUARRAY_UFUNC_DECL_1_2(name)                                                                                   \
  std::pair<array, array> name(const ufunc_arg& x, const ufunc_options& options = {});
#define CUARRAY_UFUNC_DECL_2_2(name)                                                                                   \
  std::pair<array, array> name(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& options = {});
#define CUARRAY_UFUNC_DECL(name, nin, nout) CUARRAY_UFUNC_DECL_##nin##_##nout(name)
#define CUARRAY_UFUNC_ALIAS_DECL(alias, name, nin, nout) CUARRAY_UFUNC_DECL_##nin##_##nout(alias)
#include "cuarray/ufunc_list.inc"
#undef CUARRAY_UFUNC_DECL
#undef CUARRAY_UFUNC_ALIAS_DECL
#undef CUARRAY_UFUNC_DECL_1_1
#undef CUARRAY_UFUNC_DECL_2_1
#undef CUARRAY_UFUNC_DECL_1_2
#undef CUARRAY_UFUNC_DECL_2_2

}  // namespace cuarray
