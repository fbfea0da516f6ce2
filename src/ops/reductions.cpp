// NumPy's reductions on the reduction engine: dtypes, identities, keepdims, out=, initial=, where=.
#include "cuarray/reduction.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/shape.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/reduction.hpp"
#include "src/ops/reductions_internal.hpp"

namespace cuarray {

// NumPy's add.reduce / multiply.reduce accumulator: small integers widen to the platform integer.
dtype sum_result_type(dtype t) {
  switch (t) {
    case dtype::bool_:
    case dtype::int8:
    case dtype::int16:
    case dtype::int32: return dtype::int64;
    case dtype::uint8:
    case dtype::uint16:
    case dtype::uint32: return dtype::uint64;
    default: return t;
  }
}

dtype reduction_loop_type(std::string_view op, dtype in, const std::optional<dtype>& dtype_, const array& out) {
  if (dtype_) return *dtype_;
  if (out.defined()) return promote_types(out.type(), in);
  bool sum_or_prod = op == "sum" || op == "prod" || op == "nansum" || op == "nanprod";
  return sum_or_prod ? sum_result_type(in) : in;
}

namespace {

array uf(std::string_view name, const array& a) { return call_ufunc(name, std::vector<array>{a})[0]; }
array uf(std::string_view name, const array& a, const array& b) {
  return call_ufunc(name, std::vector<array>{a, b})[0];
}

std::string cname(dtype t) { return t == dtype::float16 ? "float" : ew::type_name(t); }
dtype compute_of(dtype t) { return t == dtype::float16 ? dtype::float32 : t; }
dtype real_of(dtype t) {
  if (t == dtype::complex64) return dtype::float32;
  if (t == dtype::complex128) return dtype::float64;
  return t;
}

std::string inf_literal(dtype c, bool negative) {
  std::string v = c == dtype::float64 ? "__longlong_as_double(0x7ff0000000000000LL)" : "__int_as_float(0x7f800000)";
  return negative ? "(-" + v + ")" : v;
}

// The smallest (or largest) value of a computation type: the identity of max (or min).
std::string extreme(dtype c, bool highest) {
  switch (c) {
    case dtype::bool_: return highest ? "true" : "false";
    case dtype::int8: return highest ? "(signed char)127" : "(signed char)(-128)";
    case dtype::int16: return highest ? "(short)32767" : "(short)(-32768)";
    case dtype::int32: return highest ? "2147483647" : "(-2147483647 - 1)";
    case dtype::int64: return highest ? "9223372036854775807LL" : "(-9223372036854775807LL - 1)";
    case dtype::uint8: return highest ? "(unsigned char)255" : "(unsigned char)0";
    case dtype::uint16: return highest ? "(unsigned short)65535" : "(unsigned short)0";
    case dtype::uint32: return highest ? "4294967295u" : "0u";
    case dtype::uint64: return highest ? "18446744073709551615ull" : "0ull";
    case dtype::float16:
    case dtype::float32:
    case dtype::float64: return inf_literal(c, !highest);
    case dtype::complex64:
    case dtype::complex128: {
      dtype r = real_of(c);
      std::string x = inf_literal(r, !highest);
      return "acc_t(" + x + ", " + x + ")";
    }
  }
  return "0";
}

std::string nan_literal(dtype c) {
  if (c == dtype::float64) return "__longlong_as_double(0x7ff8000000000000LL)";
  if (c == dtype::float32 || c == dtype::float16) return "__int_as_float(0x7fc00000)";
  if (c == dtype::complex128)
    return "acc_t(__longlong_as_double(0x7ff8000000000000LL), __longlong_as_double(0x7ff8000000000000LL))";
  if (c == dtype::complex64) return "acc_t(__int_as_float(0x7fc00000), __int_as_float(0x7fc00000))";
  return extreme(c, false);
}

red::spec simple_spec(const std::string& name, dtype in, dtype acc, dtype out, const std::string& combine,
                      const std::string& identity) {
  red::spec s;
  s.name = name;
  s.acc = cname(acc);
  s.in_compute = cname(in);
  s.out_compute = cname(out);
  s.map = "m = ca_cast<acc_t>(x);";
  s.combine = combine;
  s.identity = identity;
  s.acc_bytes = itemsize(compute_of(acc));
  return s;
}

shape_t reduced_shape(const shape_t& in, const std::vector<int>& axes) {
  shape_t s;
  for (int i = 0; i < static_cast<int>(in.size()); ++i) {
    if (!std::binary_search(axes.begin(), axes.end(), i)) s.push_back(in[static_cast<std::size_t>(i)]);
  }
  return s;
}

std::int64_t reduced_count(const array& a, const std::vector<int>& axes) {
  std::int64_t n = 1;
  for (int ax : axes) n *= a.shape()[static_cast<std::size_t>(ax)];
  return n;
}

// keepdims, then out= (NumPy's shape check, an 'unsafe' cast into it; nothing to do where the kernel wrote
// into out itself: Note [reduction into out]).
array finish(array r, const array& a, const std::vector<int>& axes, bool keepdims, const array& out, const char* name) {
  if (keepdims) r = r.reshape(keepdims_shape(a.shape(), axes));
  if (!out.defined()) return r;
  if (out.shape() != r.shape()) {
    throw value_error(std::string("output parameter for reduction operation ") + name + " has the wrong shape " +
                      shape_to_string(out.shape()) + ", expected " + shape_to_string(r.shape()));
  }
  if (r.storage() && r.storage() == out.storage() && r.data() == out.data()) return out;
  array o = out;
  o.assign(r);
  return out;
}

// Note [reduction into out]: where out= is exactly the result (its dtype, the reduced shape with or without
// keepdims as asked, C-contiguous, on the current device, sharing no memory with the input or the mask) and
// no initial= follows, the kernel writes into it (red::call::out, which the engine takes only where all that
// holds): no temporary and no copy launch after it. sum(out=) of 8192² float32 took 69.1 µs on an H200 against
// 67.1 for sum() (tools/diag/norm23.py): the copy of the result and the gap before it. mean (whose kernel
// divides by the count) and the one-pass var and std offer out= the same way. Anything else (a cast, another
// layout, overlap, the two-pass routes of where= and the nan forms) keeps the copy in finish().
// The out= to offer the engine: out itself, seen without the kept length-1 axes of keepdims.
array direct_out(const array& a, const std::vector<int>& axes, const reduce_options& o) {
  const array& out = o.out;
  if (!out.defined() || o.initial || !out.is_c_contiguous()) return array();
  if (!o.keepdims) return out;
  if (out.shape() != keepdims_shape(a.shape(), axes)) return array();  // finish() raises NumPy's error
  return out.reshape(reduced_shape(a.shape(), axes));
}

array mask_of(const array& a, const array& where) {
  if (!where.defined()) return array();
  array w = where.type() == dtype::bool_ ? where : where.astype(dtype::bool_);
  return w.broadcast_to(a.shape());
}

array run(const red::spec& s, const array& a, const std::vector<int>& axes, dtype out_type, const array& mask,
          const array& per_output = array(), double p0 = 0, const array& into = array()) {
  red::call c;
  c.out = into;
  c.in = a;
  c.axes = axes;
  c.out_type = out_type;
  c.mask = mask;
  c.per_output = per_output;
  c.p0 = p0;
  return red::run(s, c);
}

array apply_initial(const char* ufunc, const array& r, const reduce_options& o, dtype t) {
  if (!o.initial) return r;
  array init = full(shape_t{}, o.initial->cast(t), t);
  return uf(ufunc, init, r).astype(t, order::K, false);
}

void require_nonempty(const array& a, const std::vector<int>& axes, const reduce_options& o, const char* name) {
  if (o.initial || reduced_count(a, axes) != 0 || shape_size(reduced_shape(a.shape(), axes)) == 0) return;
  if (o.where.defined()) return;  // NumPy also needs initial= then; an all-false mask is checked the same way below
  throw value_error(std::string("zero-size array to reduction operation ") + name + " which has no identity");
}

// The built-in reductions whose specs are made once per (input, output) dtype pair and interned: a warm a.sum()
// or a.max() builds no string and hashes no text (Note [reduction key] in src/engine/reduction.cpp).
enum class kind : int {
  sum,
  prod,
  nansum,
  nanprod,
  max,
  min,
  nanmax,
  nanmin,
  any,
  all,
  mean,
  mean_total,
  nanmean,
  count,
  count_nan,
  count_nonzero,
  all_finite,
  num
};

std::atomic<const red::spec*> interned_specs[static_cast<int>(kind::num)][num_dtypes][num_dtypes];

// The spec of `k` from `in` to `out`: make(in, out) the first time, interned, kept for the process.
template <class Make> const red::spec& interned(kind k, dtype in, dtype out, Make make) {
  auto& slot = interned_specs[static_cast<int>(k)][static_cast<int>(in)][static_cast<int>(out)];
  if (const red::spec* p = slot.load(std::memory_order_acquire)) return *p;
  auto made = std::make_unique<red::spec>(make(in, out));
  made->id = red::intern(*made);
  const red::spec* expected = nullptr;
  if (slot.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) return *made.release();
  return *expected;  // another thread made the same spec first
}

// Whether a reduction call takes NumPy's defaults but dtype= (every axis, no out=, keepdims, initial= or where=):
// then a short input is one launch through red::run_full, with no axis list or call built.
bool plain(const reduce_options& o) {
  return !o.axis && !o.keepdims && !o.out.defined() && !o.initial && !o.where.defined();
}

const red::spec& sum_spec(bool product, bool skip_nan, dtype in, dtype out) {
  kind k = product ? (skip_nan ? kind::nanprod : kind::prod) : (skip_nan ? kind::nansum : kind::sum);
  return interned(k, in, out, [&](dtype i, dtype o) {
    dtype acc = compute_of(o);
    red::spec r = simple_spec(product ? (skip_nan ? "nanprod" : "prod") : (skip_nan ? "nansum" : "sum"), i, acc, o,
                              product ? "r = a * b;" : "r = a + b;",
                              product ? "ca_cast<acc_t>(1)" : "ca_cast<acc_t>(0)");
    if (acc == dtype::bool_) r.combine = product ? "r = a && b;" : "r = a || b;";
    if (skip_nan) {
      r.map = std::string("m = ca_anynan(x) ? ca_cast<acc_t>(") + (product ? "1" : "0") + ") : ca_cast<acc_t>(x);";
    }
    return r;
  });
}

array sum_like(const array& a, const reduce_options& o, bool product, bool skip_nan) {
  dtype out = reduction_loop_type(product ? "prod" : "sum", a.type(), o.dtype_, o.out);
  const red::spec& s = sum_spec(product, skip_nan, a.type(), out);
  if (array r; plain(o) && red::run_full(s, a, out, r)) return r;
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  array r = run(s, a, axes, out, mask_of(a, o.where), array(), 0, direct_out(a, axes, o));
  r = apply_initial(product ? "multiply" : "add", r, o, out);
  return finish(r, a, axes, o.keepdims, o.out, product ? "multiply" : "add");
}

const red::spec& extreme_spec(bool maximum, bool skip_nan, dtype in, dtype out) {
  kind k = maximum ? (skip_nan ? kind::nanmax : kind::max) : (skip_nan ? kind::nanmin : kind::min);
  return interned(k, in, out, [&](dtype i, dtype o) {
    dtype acc = compute_of(o);
    red::spec r = simple_spec(skip_nan ? (maximum ? "nanmax" : "nanmin") : (maximum ? "max" : "min"), i, acc, o,
                              std::string("r = ca_uf_") + (maximum ? "maximum" : "minimum") + "(a, b);",
                              extreme(acc, !maximum));
    if (skip_nan && (is_floating(acc) || is_complex(acc))) {
      // NaN is the identity: fmax/fmin pass over it, and an all-NaN slice stays NaN.
      r.combine = std::string("r = ca_anynan(a) ? b : (ca_anynan(b) ? a : ca_uf_") + (maximum ? "maximum" : "minimum") +
                  "(a, b));";
      r.identity = nan_literal(acc);
    }
    return r;
  });
}

const red::spec& logical_spec(bool any_, dtype in) {
  return interned(any_ ? kind::any : kind::all, in, dtype::bool_, [&](dtype i, dtype) {
    red::spec r = simple_spec(any_ ? "any" : "all", i, dtype::bool_, dtype::bool_, any_ ? "r = a || b;" : "r = a && b;",
                              any_ ? "false" : "true");
    r.map = "m = ca_truth(x);";
    return r;
  });
}

array extreme_like(const array& a, const reduce_options& o, bool maximum, bool skip_nan) {
  dtype out = reduction_loop_type(maximum ? "max" : "min", a.type(), o.dtype_, o.out);
  const red::spec& s = extreme_spec(maximum, skip_nan, a.type(), out);
  // An empty input falls through: run_full takes none, and require_nonempty raises NumPy's error.
  if (array r; plain(o) && red::run_full(s, a, out, r)) return r;
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  const char* uname = maximum ? (skip_nan ? "fmax" : "maximum") : (skip_nan ? "fmin" : "minimum");
  require_nonempty(a, axes, o, maximum ? "maximum" : "minimum");
  if (o.where.defined() && !o.initial) {
    throw value_error(std::string("reduction operation '") + (maximum ? "maximum" : "minimum") +
                      "' does not have an identity, so to use a where mask one has to specify 'initial'");
  }
  array r = run(s, a, axes, out, mask_of(a, o.where), array(), 0, direct_out(a, axes, o));
  r = apply_initial(uname, r, o, out);
  return finish(r, a, axes, o.keepdims, o.out, maximum ? "maximum" : "minimum");
}

array logical_like(const array& a, const reduce_options& o, bool any_) {
  const red::spec& s = logical_spec(any_, a.type());
  if (array r; plain(o) && red::run_full(s, a, dtype::bool_, r)) return r;
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  array r = run(s, a, axes, dtype::bool_, mask_of(a, o.where), array(), 0, direct_out(a, axes, o));
  return finish(r, a, axes, o.keepdims, o.out, any_ ? "logical_or" : "logical_and");
}

// NumPy's mean accumulator: float64 for bool and integers, float32 for float16, else the input's type.
dtype mean_acc(dtype t, const std::optional<dtype>& d) {
  if (d) return compute_of(*d);
  if (t == dtype::bool_ || is_integer(t)) return dtype::float64;
  return compute_of(t);
}
dtype mean_out(dtype t, const std::optional<dtype>& d) {
  if (d) return *d;
  if (t == dtype::bool_ || is_integer(t)) return dtype::float64;
  return t;
}

// Elements taking part per output: the reduced count, or the mask's true elements (or non-NaN ones).
array counts(const array& a, const std::vector<int>& axes, const array& mask, bool skip_nan) {
  const red::spec& s = interned(skip_nan ? kind::count_nan : kind::count, a.type(), dtype::int64, [&](dtype i, dtype) {
    red::spec r = simple_spec("count", i, dtype::int64, dtype::int64, "r = a + b;", "0LL");
    r.map = skip_nan ? "m = ca_anynan(x) ? 0LL : 1LL;" : "m = 1LL;";
    return r;
  });
  return run(s, a, axes, dtype::int64, mask);
}

// sum(a) / count with NumPy's dtypes; `skip_nan` for nanmean; the count comes from the mask when one is given.
array mean_impl(const array& a, const reduce_options& o, bool skip_nan, array* mean_acc_out = nullptr) {
  dtype acc = mean_acc(a.type(), o.dtype_);
  dtype out = mean_out(a.type(), o.dtype_);
  // Note [mean into out]: NumPy's _mean sums into out= (the sum cast there) and then divides in place,
  // true_divide(out, count, out=out): where out='s type is not the mean's own (mean(int16 data, dtype=int16,
  // out=float64)), the division runs on the cast sum in out's type and the count's (float64 for an integer
  // out), not in the accumulator. nanmean's _divide_by_count does the same.
  const bool divide_in_out = o.out.defined() && o.out.type() != out && !mean_acc_out;
  // The sum divided by the count in the kernel's post step (plain mean), or the sum alone (a mask or nanmean
  // counts the elements apart). A complex sum into a real out= is NumPy's sum into out (the real part) and
  // a real division there, so an infinite imaginary part leaves the real part alone.
  const bool real_out = is_complex(acc) && o.out.defined() && !is_complex(o.out.type());
  const bool divide_in_kernel = !skip_nan && !o.where.defined() && !real_out && !divide_in_out;
  kind k = skip_nan ? kind::nanmean : (divide_in_kernel ? kind::mean : kind::mean_total);
  const red::spec& s = interned(k, a.type(), acc, [&](dtype i, dtype c) {
    red::spec r = simple_spec(skip_nan ? "nanmean" : "mean", i, c, c, "r = a + b;", "ca_cast<acc_t>(0)");
    if (skip_nan) r.map = "m = ca_anynan(x) ? ca_cast<acc_t>(0) : ca_cast<acc_t>(x);";
    // A complex sum is divided as NumPy's true_divide does it, by the count as a complex number: an infinite
    // part makes the other part NaN ((x - inf j) / (3 + 0j) is (nan - inf j)), as NumPy's mean gives. An
    // integer or bool sum (dtype= of one) is divided in float64 and cast back, as true_divide and NumPy's
    // cast give it: an empty slice is NaN cast (0 for unsigned types), not an integer division by zero.
    if (divide_in_kernel) {
      r.post = is_complex(c)   ? "y = ca_uf_divide(a, ca_cast<acc_t>(_n));"
               : is_inexact(c) ? "y = a / (acc_t)_n;"
                               : "y = ca_cast<acc_t>((double)a / (double)_n);";
    }
    return r;
  });
  if (array m; divide_in_kernel && !mean_acc_out && plain(o) && red::run_full(s, a, acc, m)) {
    return m.astype(out, order::K, false);
  }
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  array mask = mask_of(a, o.where);
  array m;
  if (divide_in_kernel) {
    m = run(s, a, axes, acc, mask, array(), 0, mean_acc_out ? array() : direct_out(a, axes, o));
  } else {
    array total = run(s, a, axes, acc, mask);
    if (real_out) total = real(total);
    array n = counts(a, axes, mask, skip_nan);
    if (divide_in_out) {  // Note [mean into out]
      return finish(uf("divide", total.astype(o.out.type(), order::K, false), n), a, axes, o.keepdims, o.out, "add");
    }
    m = uf("divide", total, n.astype(real_of(acc))).astype(acc, order::K, false);
  }
  if (mean_acc_out) *mean_acc_out = m;
  return finish(m.astype(out, order::K, false), a, axes, o.keepdims, o.out, "add");
}

// The type of NumPy's sqrt loop for an input of type t (bool and 8-bit integers: float16, 16-bit: float32).
dtype sqrt_type(dtype t) {
  switch (t) {
    case dtype::bool_:
    case dtype::int8:
    case dtype::uint8: return dtype::float16;
    case dtype::int16:
    case dtype::uint16: return dtype::float32;
    default: return is_inexact(t) ? t : dtype::float64;
  }
}

// NumPy's std takes the root in place (sqrt(ret, out=ret)) whenever its result is an array (out= given, or
// not 0-d): an integer or bool result is then the ufunc's same_kind output-cast error.
void check_std_target(const array& r, const array& out) {
  bool in_place = out.defined() || r.ndim() > 0;
  dtype t = out.defined() ? out.type() : r.type();
  if (in_place && !is_inexact(t)) {
    throw type_error(std::string("Cannot cast ufunc 'sqrt' output from dtype('") + std::string(name(sqrt_type(t))) +
                     "') to dtype('" + std::string(name(t)) + "') with casting rule 'same_kind'");
  }
}

// Note [integer var dtype]: var/std with an integer or bool dtype= follow NumPy's _var step by step in that
// dtype: the mean is truncated to it, the squared deviations are summed in it, the division by the count is
// cast back to it (or to out='s dtype, which the sum writes into), and std takes the root in place when the
// result is an array (so that is an error), else as a scalar of the dtype.
array var_exact_dtype(const array& a, const reduce_options& o, double ddof, bool root) {
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  dtype d = *o.dtype_;
  array mask = mask_of(a, o.where);
  shape_t kd = keepdims_shape(a.shape(), axes);
  std::int64_t n_all = reduced_count(a, axes);
  array n = mask.defined() ? counts(a, axes, mask, false).reshape(kd) : array();
  auto over_count = [&](const array& x, const array& cnt) {
    if (!cnt.defined()) return call_ufunc("divide", {ufunc_arg(x), ufunc_arg(n_all)}, {})[0];
    return uf("divide", x, cnt);
  };
  reduce_options so;
  so.axis = o.axis;
  so.dtype_ = d;
  so.keepdims = true;
  so.where = o.where;
  array mean = over_count(sum(a, so), n).astype(d, order::K, false);
  array x = uf("subtract", a, mean);
  if (is_complex(x.type())) {
    x = uf("multiply", x, uf("conjugate", x)).astype(real_of(x.type()), order::K, false);
  } else {
    x = uf("multiply", x, x);
  }
  reduce_options ro = so;
  ro.keepdims = o.keepdims;
  ro.out = o.out;
  array ret = sum(x, ro);
  array r;
  if (n.defined()) {
    array cnt = o.keepdims ? n : n.reshape(ret.shape());
    array dd = full(shape_t{}, scalar::from_double(ddof), dtype::float64);
    r = uf("divide", ret, uf("maximum", uf("subtract", cnt, dd), zeros(shape_t{}, dtype::float64)));
  } else {
    double c = std::max(static_cast<double>(n_all) - ddof, 0.0);
    r = call_ufunc("divide", {ufunc_arg(ret), ufunc_arg(c)}, {})[0];
  }
  r = r.astype(ret.type(), order::K, false);
  if (root) {
    check_std_target(r, o.out);
    r = uf("sqrt", r).astype(r.type(), order::K, false);
  }
  if (!o.out.defined()) return r;
  array w = o.out;
  w.assign(r);
  return o.out;
}

// Note [one-pass var]: var without where= or NaN skipping reads the input once. Each partial is (n, mean, M2),
// M2 the sum of squared deviations from its own mean, merged as n = na + nb, delta = mb - ma,
// mean = ma + delta * nb / n, M2 = M2a + M2b + delta^2 * na * nb / n (Chan, Golub, LeVeque). Deviations are
// taken from running means, so a large common offset (1e4 + randn in float32) does not cancel as sum(x^2) would.
// Count 0 is the identity and is passed through untouched, so an empty side changes nothing (not even through
// inf * 0). Complex input keeps a complex mean and sums |x - mean|^2, which is var(real) + var(imag). The
// accumulator is mean_acc's type, as the two-pass route's (float32 for float16/float32, float64 for integers).
// A thread adds its own elements by Welford's step, the merge with nb = 1 (Note [element fold] in
// src/engine/reduction.cpp): n += 1, d = x - mean, mean += d / n, M2 += d * (x - mean). In float32 the division
// is the hardware reciprocal; with the merge's IEEE division for every element, var was compute-bound on the
// H200 (0.79 of its copy bandwidth).
}  // namespace

// 1/n for Welford's step: the hardware's approximate reciprocal (1 ulp) in float32, exact division in float64.
// Its error (one part in 2**23) moves the running mean by that fraction of the step d / n, and M2's increment
// by the same fraction of itself; at n = 1, where d is the element itself, the step takes f = 1 exactly.
constexpr const char* kCountReciprocal =
    "CA_FN float ca_count_rcp(float n) {\n"
    "#if defined(__CUDA_ARCH__)\n"
    "  float r; asm(\"rcp.approx.ftz.f32 %0, %1;\" : \"=f\"(r) : \"f\"(n)); return r;\n"
    "#else\n"
    "  return 1.0f / n;\n"
    "#endif\n"
    "}\n"
    "CA_FN double ca_count_rcp(double n) { return 1.0 / n; }\n";

red::spec detail::var_onepass_spec(dtype acc, dtype out, bool root) {
  dtype racc = real_of(acc);
  std::string R = cname(racc);
  bool cx = is_complex(acc);
  red::spec s;
  s.name = root ? "std_onepass" : "var_onepass";
  // The count is kept in the real type: no integer conversion per element (exact to 2**24 in float32, and
  // beyond that it only weights the merge term; the post step divides by the exact _n).
  s.preamble = "struct ca_welford { " + R + " n; " + R + (cx ? " mr; " + R + " mi; " : " mr; ") + R + " m2; };\n" +
               kCountReciprocal;
  s.acc = "ca_welford";
  s.in_compute = cname(acc);
  s.out_compute = cname(out);
  // M2 starts as x - x: 0, or NaN for inf/NaN, so that any non-finite element gives NaN as NumPy's
  // x - mean does (the merge alone would give inf for [inf, 1] and 0 for a single inf or NaN).
  s.map = cx ? "m.n = 1; m.mr = x.re; m.mi = x.im; m.m2 = (x.re - x.re) + (x.im - x.im);"
             : "m.n = 1; m.mr = x; m.m2 = x - x;";
  std::string merge = "const " + R + " n = a.n + b.n; const " + R + " f = b.n / n; const " + R +
                      " dr = b.mr - a.mr; r.n = n; r.mr = a.mr + dr * f; ";
  if (cx) {
    merge += "const " + R +
             " di = b.mi - a.mi; r.mi = a.mi + di * f; r.m2 = a.m2 + b.m2 + (dr * dr + di * di) * f * a.n;";
  } else {
    merge += "r.m2 = a.m2 + b.m2 + dr * dr * f * a.n;";
  }
  s.combine = "if (b.n == 0) { r = a; } else if (a.n == 0) { r = b; } else { " + merge + " }";
  // Welford's step for one element (Note [one-pass var]): the merge with nb = 1, without its branches, its
  // struct, or, in float32, its division.
  std::string step = "a.n += (" + R + ")1; const " + R + " f = a.n == (" + R + ")1 ? (" + R +
                     ")1 : ca_count_rcp(a.n); ";
  if (cx) {
    step += "const " + R + " dr = x.re - a.mr, di = x.im - a.mi; a.mr += dr * f; a.mi += di * f; " +
            "a.m2 += dr * (x.re - a.mr) + di * (x.im - a.mi);";
  } else {
    step += "const " + R + " d = x - a.mr; a.mr += d * f; a.m2 += d * (x - a.mr);";
  }
  s.fold = step;
  std::string zero = "(" + R + ")0";
  s.identity = "ca_welford{" + zero + ", " + zero + ", " + zero + (cx ? ", " + zero : std::string()) + "}";
  s.post = std::string("{ double n = (double)_n - p0; ") + R + " q = a.m2 / (" + R +
           ")(n > 0 ? n : 0); y = ca_cast<out_t>(" + (root ? "sqrt(q)" : "q") + "); }";
  std::size_t rs = itemsize(racc);
  s.acc_bytes = (cx ? 4 : 3) * rs;
  return s;
}

// Note [one-pass norm]: the 2-norm and the Frobenius norm are one reduction of |x|^2 with the root taken in the
// post step: no squared temporary and no second kernel. Squares of float16 are summed in float32 (NumPy's
// dot does the same), integers and bool are read directly and summed in float64 (norm's astype(float)).
dtype detail::sumsq_root_type(dtype in) { return is_inexact(in) ? real_of(in) : dtype::float64; }

red::spec detail::sumsq_root_spec(dtype in) {
  dtype rt = sumsq_root_type(in);
  dtype acc = compute_of(rt);
  red::spec s;
  s.name = "norm2";
  s.acc = cname(acc);
  s.in_compute = is_inexact(in) ? cname(compute_of(in)) : cname(acc);
  s.out_compute = cname(rt);
  s.map = is_complex(in) ? "m = x.re * x.re + x.im * x.im;" : "m = x * x;";
  s.combine = "r = a + b;";
  s.identity = "ca_cast<acc_t>(0)";
  s.post = "y = ca_cast<out_t>(sqrt(a));";
  s.acc_bytes = itemsize(acc);
  return s;
}

namespace {

// Mean of squared deviations with where= or NaN skipping (Note: two passes, as NumPy; the mean is read per
// output by the second).
array var_impl(const array& a, const reduce_options& o, double ddof, bool skip_nan, bool root) {
  if (o.dtype_ && !is_inexact(*o.dtype_)) return var_exact_dtype(a, o, ddof, root);  // Note [integer var dtype]
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  dtype acc = mean_acc(a.type(), o.dtype_);
  dtype racc = real_of(acc);
  // A complex dtype= gives a complex result (with a zero imaginary part), as NumPy's sum in that dtype does.
  dtype out = o.dtype_ ? *o.dtype_ : real_of(mean_out(a.type(), o.dtype_));
  array mask = mask_of(a, o.where);
  // One read: (count, mean, M2) partials merged by Chan et al.'s formula (Note [one-pass var]).
  if (!skip_nan && !mask.defined() && is_complex(acc) == is_complex(a.type())) {
    array r = run(detail::var_onepass_spec(acc, out, root), a, axes, out, mask, array(), ddof, direct_out(a, axes, o));
    array res = finish(r, a, axes, o.keepdims, o.out, "add");
    if (root) check_std_target(res, o.out);
    return res;
  }
  reduce_options mo;
  mo.axis = o.axis;
  mo.dtype_ = acc;
  mo.where = o.where;
  array mu;
  (void)mean_impl(a, mo, skip_nan, &mu);
  red::spec s = simple_spec(std::string(skip_nan ? "nan" : "") + (root ? "std" : "var"), a.type(), racc, out,
                            "r = a + b;", "ca_cast<acc_t>(0)");
  s.in_compute = cname(acc);
  std::string sq = is_complex(acc) ? "m = d.re * d.re + d.im * d.im;" : "m = d * d;";
  std::string d = "const " + cname(acc) + " d = x - ca_cast<" + cname(acc) + ">(mu);";
  s.map = skip_nan ? "if (ca_anynan(x)) { m = 0; } else { " + d + " " + sq + " }" : "{ " + d + " " + sq + " }";
  array r;
  if (!skip_nan && !mask.defined()) {
    s.post = std::string("{ double n = (double)_n - p0; acc_t q = a / (acc_t)(n > 0 ? n : 0); y = ca_cast<out_t>(") +
             (root ? "sqrt(q)" : "q") + "); }";
    r = run(s, a, axes, out, mask, mu, ddof);
  } else {
    array total = run(s, a, axes, racc, mask, mu, ddof);
    array n = counts(a, axes, mask, skip_nan).astype(racc);
    array dd = full(shape_t{}, scalar::from_double(ddof), racc);
    array dof = uf("subtract", n, dd);
    array denom = uf("maximum", dof, zeros(shape_t{}, racc));
    if (skip_nan && is_inexact(a.type())) {
      // NumPy's nanvar gives NaN for a slice of ddof or fewer non-NaN elements, where var divides by 0 (inf).
      // (Integer input goes through NumPy's var there, so it keeps var's result.)
      denom = where(uf("greater", dof, zeros(shape_t{}, racc)), denom,
                    full(shape_t{}, scalar::from_double(std::numeric_limits<double>::quiet_NaN()), racc));
    }
    r = uf("divide", total, denom);
    if (root) r = uf("sqrt", r);
    r = r.astype(out, order::K, false);
  }
  array res = finish(r, a, axes, o.keepdims, o.out, "add");
  if (root) check_std_target(res, o.out);
  return res;
}

// argmax / argmin: (value, index) pairs, the first extreme wins, NaN counts as the extreme (Note [reduction
// kernels]: `_j` is the C-order index in the reduced axes, which NumPy's flattened index is).
array arg_impl(const array& a, std::optional<int> axis, bool keepdims, const array& out, bool maximum, bool skip_nan) {
  const char* fname = maximum ? (skip_nan ? "nanargmax" : "argmax") : (skip_nan ? "nanargmin" : "argmin");
  array src = a;
  std::vector<int> axes;
  if (axis && a.ndim() == 0) {
    // NumPy takes a 0-d array as 1-d here: axis 0 or -1 reduces over nothing, as no axis does.
    normalize_axis(*axis, 1);
    axis.reset();
  }
  if (axis) {
    axes.push_back(normalize_axis(*axis, a.ndim()));
  } else {
    for (int i = 0; i < a.ndim(); ++i) axes.push_back(i);
  }
  if (reduced_count(a, axes) == 0 && (a.ndim() == 0 ? false : true)) {
    throw value_error(std::string("attempt to get ") + (maximum ? "argmax" : "argmin") + " of an empty sequence");
  }
  dtype v = compute_of(a.type());
  red::spec s;
  s.name = fname;
  s.preamble = "struct ca_arg { " + cname(v) + " v; long long i; };";
  s.acc = "ca_arg";
  s.in_compute = cname(v);
  s.out_compute = "long long";
  std::string better = maximum ? "ca_rlt(a.v, b.v)" : "ca_rlt(b.v, a.v)";
  std::string worse = maximum ? "ca_rlt(b.v, a.v)" : "ca_rlt(a.v, b.v)";
  if (skip_nan) {
    s.combine = "bool tb = b.i != 9223372036854775807LL && (a.i == 9223372036854775807LL || " + better + " || (!" +
                worse + " && b.i < a.i)); r = tb ? b : a;";
    s.map = "if (ca_anynan(x)) { m.v = x; m.i = 9223372036854775807LL; } else { m.v = x; m.i = _j; }";
  } else {
    s.combine = "bool na = ca_anynan(a.v), nb = ca_anynan(b.v); bool tb = na ? (nb && b.i < a.i) : (nb || " + better +
                " || (!" + worse + " && b.i < a.i)); r = tb ? b : a;";
    s.map = "m.v = x; m.i = _j;";
  }
  s.identity = "ca_arg{" + extreme(v, !maximum) + ", 9223372036854775807LL}";
  if (is_complex(v))
    s.identity = "ca_arg{" + std::string(extreme(v, !maximum)).replace(0, 5, cname(v)) + ", 9223372036854775807LL}";
  s.post = "y = a.i;";
  s.acc_bytes = (itemsize(v) + 7) / 8 * 8 + 8;
  array r = run(s, src, axes, dtype::int64, array());
  if (skip_nan && r.size() > 0) {
    array bad = uf("equal", r,
                   full(shape_t{}, scalar::from_int(std::numeric_limits<std::int64_t>::max()), dtype::int64));
    array flag = any(bad);
    if (flag.host_value<bool>()) throw value_error("All-NaN slice encountered");
  }
  if (keepdims) {
    if (axis) r = r.reshape(keepdims_shape(a.shape(), axes));
    else r = r.reshape(shape_t(static_cast<std::size_t>(a.ndim()), 1));
  }
  if (!out.defined()) return r;
  if (out.shape() != r.shape()) throw value_error("output array does not match result of " + std::string(fname));
  // NumPy writes through a copy of `out` in int64 (WRITEBACKIFCOPY), which needs out's dtype to cast safely to it.
  if (!can_cast_safely(out.type(), dtype::int64)) {
    throw type_error(std::string("Cannot cast array data from dtype('") + std::string(name(out.type())) +
                     "') to dtype('int64') according to the rule 'safe'");
  }
  array o = out;
  o.assign(r);
  return out;
}

}  // namespace

reduction_definition builtin_reduction(std::string_view op, dtype in, std::optional<dtype> dtype_) {
  // The same specs the reductions below run, so that fuse cannot drift from a.sum() or a.max().
  auto from = [](const red::spec& s, dtype result, dtype acc) {
    return reduction_definition{result, acc, s.map, s.combine, s.identity};
  };
  bool product = op == "prod" || op == "nanprod";
  if (product || op == "sum" || op == "nansum") {
    dtype out = dtype_ ? *dtype_ : sum_result_type(in);
    return from(sum_spec(product, op[0] == 'n', in, out), out, compute_of(out));
  }
  bool maximum = op == "max" || op == "nanmax";
  if (maximum || op == "min" || op == "nanmin") {
    dtype out = dtype_ ? *dtype_ : in;
    return from(extreme_spec(maximum, op[0] == 'n', in, out), out, compute_of(out));
  }
  if (op == "any" || op == "all") return from(logical_spec(op == "any", in), dtype::bool_, dtype::bool_);
  throw value_error("no built-in reduction named '" + std::string(op) + "'");
}

array sum(const array& a, const reduce_options& o) { return sum_like(a, o, false, false); }
array prod(const array& a, const reduce_options& o) { return sum_like(a, o, true, false); }
array nansum(const array& a, const reduce_options& o) { return sum_like(a, o, false, true); }
array nanprod(const array& a, const reduce_options& o) { return sum_like(a, o, true, true); }
array amax(const array& a, const reduce_options& o) { return extreme_like(a, o, true, false); }
array amin(const array& a, const reduce_options& o) { return extreme_like(a, o, false, false); }
array nanmax(const array& a, const reduce_options& o) { return extreme_like(a, o, true, true); }
array nanmin(const array& a, const reduce_options& o) { return extreme_like(a, o, false, true); }
array any(const array& a, const reduce_options& o) { return logical_like(a, o, true); }
array all(const array& a, const reduce_options& o) { return logical_like(a, o, false); }
array mean(const array& a, const reduce_options& o) { return mean_impl(a, o, false); }
array nanmean(const array& a, const reduce_options& o) { return mean_impl(a, o, true); }
array var(const array& a, const reduce_options& o, double ddof) { return var_impl(a, o, ddof, false, false); }
array std(const array& a, const reduce_options& o, double ddof) { return var_impl(a, o, ddof, false, true); }
array nanvar(const array& a, const reduce_options& o, double ddof) { return var_impl(a, o, ddof, true, false); }
array nanstd(const array& a, const reduce_options& o, double ddof) { return var_impl(a, o, ddof, true, true); }

array argmax(const array& a, std::optional<int> axis, bool keepdims, const array& out) {
  return arg_impl(a, axis, keepdims, out, true, false);
}
array argmin(const array& a, std::optional<int> axis, bool keepdims, const array& out) {
  return arg_impl(a, axis, keepdims, out, false, false);
}
array nanargmax(const array& a, std::optional<int> axis, bool keepdims, const array& out) {
  return arg_impl(a, axis, keepdims, out, true, true);
}
array nanargmin(const array& a, std::optional<int> axis, bool keepdims, const array& out) {
  return arg_impl(a, axis, keepdims, out, false, true);
}

array count_nonzero(const array& a, const axis_list& axis, bool keepdims) {
  std::vector<int> axes = reduction_axes(axis, a.ndim());
  const red::spec& s = interned(kind::count_nonzero, a.type(), dtype::int64, [](dtype i, dtype) {
    red::spec r = simple_spec("count_nonzero", i, dtype::int64, dtype::int64, "r = a + b;", "0LL");
    r.map = "m = ca_truth(x) ? 1LL : 0LL;";
    return r;
  });
  array r = run(s, a, axes, dtype::int64, array());
  return finish(r, a, axes, keepdims, array(), "add");
}

array detail::all_finite(const array& a) {
  const red::spec& s = interned(kind::all_finite, a.type(), dtype::bool_, [](dtype i, dtype) {
    red::spec r = simple_spec("all_finite", i, dtype::bool_, dtype::bool_, "r = a && b;", "true");
    r.map = "m = ca_uf_isfinite(x);";
    return r;
  });
  if (array r; red::run_full(s, a, dtype::bool_, r)) return r;
  std::vector<int> axes(static_cast<std::size_t>(a.ndim()));
  for (int i = 0; i < a.ndim(); ++i) axes[static_cast<std::size_t>(i)] = i;
  return run(s, a, axes, dtype::bool_, array());
}

array ptp(const array& a, const axis_list& axis, bool keepdims, const array& out) {
  reduce_options o;
  o.axis = axis;
  o.keepdims = keepdims;
  if (!out.defined()) return uf("subtract", amax(a, o), amin(a, o));
  // As NumPy: subtract(maximum.reduce(a, out=out), minimum.reduce(a), out=out), so the shape check is the
  // maximum's and the subtraction (out's dtype against the minimum's) casts into out by 'same_kind'.
  reduce_options mo = o;
  mo.out = out;
  array mx = amax(a, mo);
  array mn = amin(a, o);
  ufunc_options uo;
  uo.out = {out};
  call_ufunc("subtract", {ufunc_arg(mx), ufunc_arg(mn)}, uo);
  return out;
}

}  // namespace cuarray
