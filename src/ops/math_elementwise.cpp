// NumPy's elementwise non-ufunc functions: ufunc compositions where NumPy composes, fused kernels elsewhere.
#include "cuarray/elementwise_funcs.hpp"

#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/ufunc.hpp"

namespace cuarray {

namespace {

// Device helpers of the kernels below. Where NumPy computes a function as a chain of ufuncs, each step here
// is rounded to the dtype as NumPy's ufunc step is (float16: computed in float32, rounded to half), so
// that results agree with NumPy's bit for bit wherever the underlying math functions do.
const char* const k_preamble = R"CUDA(
// round: x * f, rint, / f for decimals >= 0 (f = 10^decimals); x / f, rint, * f for decimals < 0.
template <class T> CA_FN T ca_ewf_round_up(T x, T f) {
  T y = rint(x * f);
  return y / f;
}
template <class T> CA_FN T ca_ewf_round_down(T x, T f) {
  T y = rint(x / f);
  return y * f;
}
CA_FN ca_half ca_ewf_round_up(ca_half x, ca_half f) {
  float y = rintf((float)ca_half((float)x * (float)f));
  return ca_half(y / (float)f);
}
CA_FN ca_half ca_ewf_round_down(ca_half x, ca_half f) {
  float y = rintf((float)ca_half((float)x / (float)f));
  return ca_half(y * (float)f);
}
template <class T> CA_FN ca_complex<T> ca_ewf_round_up(ca_complex<T> z, T f) {
  return ca_complex<T>(ca_ewf_round_up(z.re, f), ca_ewf_round_up(z.im, f));
}
template <class T> CA_FN ca_complex<T> ca_ewf_round_down(ca_complex<T> z, T f) {
  return ca_complex<T>(ca_ewf_round_down(z.re, f), ca_ewf_round_down(z.im, f));
}

// nan_to_num: the replacement values come already cast to the (real part's) dtype.
template <class T> CA_FN T ca_ewf_nan_to_num(T x, T nan_v, T pinf, T ninf) {
  if (isnan(x)) return nan_v;
  if (isinf(x)) return x > 0 ? pinf : ninf;
  return x;
}
CA_FN ca_half ca_ewf_nan_to_num(ca_half x, ca_half nan_v, ca_half pinf, ca_half ninf) {
  float v = (float)x;
  if (isnan(v)) return nan_v;
  if (isinf(v)) return v > 0 ? pinf : ninf;
  return x;
}
template <class T> CA_FN ca_complex<T> ca_ewf_nan_to_num(ca_complex<T> z, T nan_v, T pinf, T ninf) {
  return ca_complex<T>(ca_ewf_nan_to_num(z.re, nan_v, pinf, ninf), ca_ewf_nan_to_num(z.im, nan_v, pinf, ninf));
}

// sinc as NumPy's: y = pi * x in the dtype, y = eps where y == 0 (the dtype's machine epsilon; 1e-20 for
// complex), then sin(y) / y.
CA_FN double ca_ewf_sinc(double x) {
  double y = 3.141592653589793 * x;
  if (y == 0.0) y = 2.220446049250313e-16;
  return sin(y) / y;
}
CA_FN float ca_ewf_sinc(float x) {
  float y = 3.14159265358979323846f * x;
  if (y == 0.0f) y = 1.1920928955078125e-07f;
  return sinf(y) / y;
}
CA_FN ca_half ca_ewf_sinc(ca_half x) {
  float y = (float)ca_half(3.140625f * (float)x);  // pi as a float16 is 3.140625
  if (y == 0.0f) y = 0.0009765625f;
  float s = (float)ca_half(sinf(y));
  return ca_half(s / y);
}
template <class T> CA_FN ca_complex<T> ca_ewf_sinc(ca_complex<T> x) {
  ca_complex<T> y = ca_complex<T>(T(3.141592653589793)) * x;
  if (y.re == T(0) && y.im == T(0)) y = ca_complex<T>(T(1e-20));
  return ca_c_sin(y) / y;
}

// Double-double steps (error-free transformations; the FMAs are explicit, so contraction cannot spoil them).
CA_FN void ca_ewf_two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  double v = s - a;
  e = (a - (s - v)) + (b - v);
}
CA_FN void ca_ewf_fast_two_sum(double a, double b, double& s, double& e) {  // |a| >= |b|
  s = a + b;
  e = b - (s - a);
}

// Modified Bessel function I0 in double: the power series up to 20, summed in double-double (within half
// an ulp), the asymptotic expansion above (within about an ulp beyond exp's own error).
CA_FN double ca_ewf_i0(double x) {
  x = fabs(x);
  if (x != x) return x;
  if (x <= 20.0) {
    // sum_k t_k, t_k = t_{k-1} * q / k^2 with q = x^2 / 4 exact as a double-double; all terms positive.
    double qh = x * x;
    double ql = fma(x, x, -qh) * 0.25;
    qh *= 0.25;
    double th = 1.0, tl = 0.0, sh = 1.0, sl = 0.0;
    for (int k = 1; k < 100; ++k) {
      double p = th * qh;
      double pe = fma(th, qh, -p) + (th * ql + tl * qh);
      ca_ewf_fast_two_sum(p, pe, p, pe);
      double d = (double)(k * k);
      double h = p / d;
      double l = (fma(-h, d, p) + pe) / d;
      ca_ewf_fast_two_sum(h, l, th, tl);
      double s, e;
      ca_ewf_two_sum(sh, th, s, e);
      ca_ewf_fast_two_sum(s, e + (sl + tl), sh, sl);
      if (th <= sh * 1e-18) break;
    }
    return sh + sl;
  }
  // e^x / sqrt(2 pi x) * sum_k ((2k-1)!!)^2 / (k! (8x)^k): the terms shrink until k ~ 2x, far below double
  // precision for x > 20. The factor after e^x is a double-double. Like NumPy's, the result overflows
  // where exp does (x > 709.78), and x = inf gives inf * 0 = nan.
  double r = 1.0 / (8.0 * x);
  double t = 1.0, sh = 1.0, sl = 0.0;
  for (int k = 1; k < 100; ++k) {
    double m = (double)(2 * k - 1);
    t *= m * m * r / (double)k;
    double s, e;
    ca_ewf_two_sum(sh, t, s, e);
    ca_ewf_fast_two_sum(s, e + sl, sh, sl);
    if (t <= sh * 1e-18) break;
  }
  const double two_pi = 6.283185307179586, two_pi_lo = 2.4492935982947064e-16;
  double yh = two_pi * x;
  double yl = fma(two_pi, x, -yh) + two_pi_lo * x;
  double sq = sqrt(yh);
  double sql = (fma(-sq, sq, yh) + yl) / (2.0 * sq);
  double fh = sh / sq;
  double fl = (fma(-fh, sq, sh) + sl - fh * sql) / sq;
  double ex = exp(x);
  if (ex > 1.7976931348623157e308) return ex * fh;
  return fma(ex, fh, ex * fl);
}
)CUDA";

ew::kernel_spec make_spec(const char* name, const char* body) {
  ew::kernel_spec s;
  s.name = name;
  s.body = body;
  s.preamble = k_preamble;
  s.id = ew::intern(s);
  return s;
}

const ew::kernel_spec& round_up_spec() {
  static const ew::kernel_spec s = make_spec("around", "out0 = ca_ewf_round_up(in0, in1);");
  return s;
}
const ew::kernel_spec& round_down_spec() {
  static const ew::kernel_spec s = make_spec("around", "out0 = ca_ewf_round_down(in0, in1);");
  return s;
}
const ew::kernel_spec& nan_to_num_spec() {
  static const ew::kernel_spec s = make_spec("nan_to_num", "out0 = ca_ewf_nan_to_num(in0, in1, in2, in3);");
  return s;
}
const ew::kernel_spec& sinc_spec() {
  static const ew::kernel_spec s = make_spec("sinc", "out0 = ca_ewf_sinc(in0);");
  return s;
}
const ew::kernel_spec& i0_spec() {
  static const ew::kernel_spec s = make_spec("i0", "out0 = ca_ewf_i0(in0);");
  return s;
}
const ew::kernel_spec& where_spec() {
  static const ew::kernel_spec s = make_spec("where", "out0 = in0 ? in1 : in2;");
  return s;
}
const ew::kernel_spec& copy_spec() {
  static const ew::kernel_spec s = make_spec("copyto", "out0 = in0;");
  return s;
}

// NumPy's clip ufunc (numpy._core.umath.clip): its loops, with NaN propagation (a NaN value, then a NaN
// bound, wins). Ties between equal values (0.0 and -0.0) go as in NumPy's loops: the value is kept,
// clip(-0.0, 0.0, 1.0) is -0.0, except in NumPy's float32/float64 loop for array bounds (strides not all
// zero), which takes the bound.
std::string clip_body(dtype t, bool scalar_bounds) {
  if (t != float32 && t != float64) scalar_bounds = true;
  std::string x = "in0", lo = "in1", hi = "in2", pre, nan_test = "isnan";
  if (t == float16) {
    pre = "float x = in0, lo = in1, hi = in2; ";
    x = "x", lo = "lo", hi = "hi";
  }
  auto lt = [&](const std::string& a, const std::string& b) {
    return is_complex(t) ? "ca_clt(" + a + ", " + b + ")" : "(" + a + " < " + b + ")";
  };
  std::string pick = scalar_bounds ? "auto t = " + lt(x, lo) + " ? " + lo + " : " + x + "; out0 = " + lt(hi, "t") +
                                         " ? " + hi + " : t;"
                                   : "auto t = " + lt(lo, x) + " ? " + x + " : " + lo + "; out0 = " + lt("t", hi) +
                                         " ? t : " + hi + ";";
  if (!is_inexact(t)) return pick;
  if (is_complex(t)) nan_test = "ca_anynan";
  return pre + "if (" + nan_test + "(" + x + ")) out0 = " + x + "; else if (" + nan_test + "(" + lo +
         ")) out0 = " + lo + "; else if (" + nan_test + "(" + hi + ")) out0 = " + hi + "; else { " + pick + " }";
}

const ufunc_def& clip_def(bool scalar_bounds) {
  static const ufunc_def* defs[2] = {nullptr, nullptr};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int k = 0; k < 2; ++k) {
      auto* d = new ufunc_def();
      d->name = "clip";
      d->nin = 3;
      d->nout = 1;
      for (dtype t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float32, float64,
                      complex64, complex128}) {
        ufunc_loop l;
        char c = type_char(t);
        l.types = std::string(3, c) + "->" + c;
        l.body = clip_body(t, k == 1);
        l.in = {t, t, t};
        l.out = {t};
        d->loops.push_back(std::move(l));
      }
      defs[k] = d;
    }
  });
  return *defs[scalar_bounds ? 1 : 0];
}

const ufunc_def& named_ufunc(const char* name) {
  const ufunc_def* u = find_ufunc(name);
  if (!u) throw std::logic_error(std::string("cuarray: missing ufunc ") + name);
  return *u;
}

ufunc_arg arg_of(const array& a) { return ufunc_arg(a, scalar{}, false); }
ufunc_arg weak_int(std::int64_t v) { return ufunc_arg(array(), scalar::from_int(v), true); }
ufunc_arg weak_float(double v) { return ufunc_arg(array(), scalar::from_double(v), true); }
// An operand's dtype: an array's, a strong scalar's, or a weak scalar's Python default.
dtype type_of(const ufunc_arg& a) { return a.is_scalar() ? a.value.type : a.arr.type(); }

std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

dtype real_type(dtype t) {
  if (t == complex64) return float32;
  if (t == complex128) return float64;
  return t;
}

bool is_weak_int(const ufunc_arg& a) {
  return a.is_scalar() && a.weak && (kind(a.value.type) == 'i' || kind(a.value.type) == 'u');
}

// Integer dtype limits: min as int64, max as uint64 (so that uint64's fits).
std::int64_t int_min(dtype t) {
  switch (t) {
    case int8: return -128;
    case int16: return -32768;
    case int32: return std::numeric_limits<std::int32_t>::min();
    case int64: return std::numeric_limits<std::int64_t>::min();
    default: return 0;
  }
}
std::uint64_t int_max(dtype t) {
  switch (t) {
    case int8: return 127;
    case int16: return 32767;
    case int32: return 2147483647u;
    case int64: return static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    case uint8: return 255;
    case uint16: return 65535;
    case uint32: return 4294967295u;
    default: return std::numeric_limits<std::uint64_t>::max();
  }
}

// A weak (Python) int's value against an integer dtype's range; uint64-typed values are above int64's.
bool weak_le_min(const scalar& v, dtype t) {
  if (v.type == uint64) return false;
  return v.to_int64() <= int_min(t);
}
bool weak_ge_max(const scalar& v, dtype t) {
  if (v.type == uint64) return static_cast<std::uint64_t>(v.to_int64()) >= int_max(t);
  std::int64_t i = v.to_int64();
  return i >= 0 && static_cast<std::uint64_t>(i) >= int_max(t);
}
bool weak_fits(const scalar& v, dtype t) {
  if (v.type == uint64) return t == uint64;
  std::int64_t i = v.to_int64();
  return i >= int_min(t) && (i < 0 || static_cast<std::uint64_t>(i) <= int_max(t));
}

std::string int_text(const scalar& v) {
  return v.type == uint64 ? std::to_string(static_cast<std::uint64_t>(v.to_int64())) : std::to_string(v.to_int64());
}

// A weak Python int operand converted to `t` as NumPy 2 converts one (ufuncs, copyto, where): OverflowError when
// it lies outside an integer t's range, or when it is beyond 64 bits (a big_int) and t is not inexact.
void check_weak_int(const ufunc_arg& o, dtype t) {
  if (!o.is_scalar() || !o.weak) return;
  if (o.big_int) {
    if (!is_inexact(t)) throw overflow_error("Python int too large to convert to C long");
    return;
  }
  const char k = kind(o.value.type);
  if ((k == 'i' || k == 'u') && is_integer(t) && !weak_fits(o.value, t)) {
    throw overflow_error("Python integer " + int_text(o.value) + " out of bounds for " + std::string(name(t)));
  }
}

// NEP 50: the dtype a weak Python scalar takes next to the strong dtype `strong` (if any).
dtype weak_type(const scalar& v, std::optional<dtype> strong) {
  char k = kind(v.type);
  if (k == 'i' || k == 'u') return strong && kind(*strong) != 'b' ? *strong : int64;
  if (k == 'f') return strong && is_inexact(*strong) ? *strong : float64;
  if (k == 'c') {
    if (strong && is_complex(*strong)) return *strong;
    if (strong && (*strong == float16 || *strong == float32)) return complex64;
    return complex128;
  }
  return v.type;
}

dtype result_type(const std::vector<const ufunc_arg*>& ops) { return nep50_result_type(ops); }

}  // namespace

dtype nep50_result_type(const std::vector<const ufunc_arg*>& ops) {
  std::optional<dtype> strong;
  for (const auto* o : ops) {
    if (o->weak) continue;
    strong = strong ? promote_types(*strong, type_of(*o)) : type_of(*o);
  }
  std::optional<dtype> r = strong;
  for (const auto* o : ops) {
    if (!o->weak) continue;
    dtype w = weak_type(o->value, strong);
    r = r ? promote_types(*r, w) : w;
  }
  return r.value_or(float64);
}

namespace {

// A new array of `shape` laid out like `proto` (order 'K') when shapes agree, else C-contiguous.
array new_like(dtype t, const shape_t& shape, const array* proto, int device) {
  if (proto && proto->shape() == shape) {
    return detail::new_array(t, shape, strides_like(shape, proto->strides(), itemsize(t)), device);
  }
  return detail::new_array(t, shape, order::C, device);
}

// NumPy's layout for results it allocates with PyArray_ISFORTRAN: F when F- but not C-contiguous.
order fortran_or_c(const array& a) { return a.is_f_contiguous() && !a.is_c_contiguous() ? order::F : order::C; }

// 10^n as NumPy's round builds it (exact up to 1e22, then repeated multiplication by 10).
double power_of_ten(int n) {
  double f = 1.0;
  for (int i = 0; i < n && !std::isinf(f); ++i) f *= 10.0;
  return f;
}

// The mask argument of copyto: bool only (NumPy casts it with the 'safe' rule), broadcast to `shape`.
array where_mask(const array& where, const shape_t& shape) {
  if (where.type() != bool_) {
    throw type_error("Cannot cast array data from " + dtype_repr(where.type()) +
                     " to dtype('bool') according to the rule 'safe'");
  }
  if (where.shape() == shape) return where;
  shape_t b;
  try {
    b = broadcast_shapes(where.shape(), shape);
  } catch (const value_error&) {
    b = shape_t{-1};
  }
  if (b != shape) {
    throw value_error("could not broadcast where mask from shape " + shape_to_string(where.shape()) + " into shape " +
                      shape_to_string(shape));
  }
  return where.broadcast_to(shape);
}

}  // namespace

array clip(const array& a, const std::optional<ufunc_arg>& lo_in, const std::optional<ufunc_arg>& hi_in,
           const array& out) {
  std::optional<ufunc_arg> lo = lo_in, hi = hi_in;
  // NumPy drops a Python int bound that the integer dtype cannot exceed, instead of failing to convert it.
  if (is_integer(a.type())) {
    if (lo && is_weak_int(*lo) && weak_le_min(lo->value, a.type())) lo.reset();
    if (hi && is_weak_int(*hi) && weak_ge_max(hi->value, a.type())) hi.reset();
  }
  ufunc_options opts;
  if (out.defined()) opts.out.push_back(out);
  std::vector<ufunc_arg> args{arg_of(a)};
  const ufunc_def* u;
  if (!lo && !hi) {
    // NumPy's positive has no bool loop and does not cast bool up to one.
    if (a.type() == bool_) {
      throw type_error("ufunc 'positive' did not contain a loop with signature matching types "
                       "<class 'numpy.dtypes.BoolDType'> -> None");
    }
    u = &named_ufunc("positive");
  } else if (!lo) {
    u = &named_ufunc("minimum");
    args.push_back(*hi);
  } else if (!hi) {
    u = &named_ufunc("maximum");
    args.push_back(*lo);
  } else {
    // NumPy's scalar-bounds loop serves bounds whose strides are all zero: scalars and size-1 arrays.
    auto scalar_like = [](const ufunc_arg& b) { return b.is_scalar() || b.arr.size() == 1; };
    u = &clip_def(scalar_like(*lo) && scalar_like(*hi));
    args.push_back(*lo);
    args.push_back(*hi);
  }
  return call_ufunc(*u, args, opts)[0];
}

array real(const array& a) {
  if (!is_complex(a.type())) return a;
  descriptor d = a.desc();
  d.type = real_type(a.type());
  return array(a.storage(), std::move(d));
}

array imag(const array& a) {
  if (!is_complex(a.type())) {
    array z = detail::new_array(a.type(), a.shape(), strides_like(a.shape(), a.strides(), a.itemsize()), a.device());
    z.fill(scalar::from_int(0, a.type()));
    return z;
  }
  descriptor d = a.desc();
  d.type = real_type(a.type());
  d.offset += static_cast<std::int64_t>(itemsize(d.type));
  return array(a.storage(), std::move(d));
}

array angle(const array& z, bool deg) {
  std::vector<ufunc_arg> args;
  if (is_complex(z.type())) args = {arg_of(imag(z)), arg_of(real(z))};
  else args = {weak_int(0), arg_of(z)};
  array r = call_ufunc(named_ufunc("arctan2"), args)[0];
  if (deg) {
    ufunc_options opts;
    opts.out.push_back(r);
    call_ufunc(named_ufunc("multiply"), {arg_of(r), weak_float(180.0 / 3.141592653589793)}, opts);
  }
  return r;
}

array iscomplex(const array& x) {
  if (is_complex(x.type())) return call_ufunc(named_ufunc("not_equal"), {arg_of(imag(x)), weak_int(0)})[0];
  array r = detail::new_array(bool_, x.shape(), order::C, x.device());
  r.fill(scalar::from_bool(false));
  return r;
}

array isreal(const array& x) {
  if (is_complex(x.type())) return call_ufunc(named_ufunc("equal"), {arg_of(imag(x)), weak_int(0)})[0];
  array r = detail::new_array(bool_, x.shape(), order::C, x.device());
  r.fill(scalar::from_bool(true));
  return r;
}

bool iscomplexobj(const array& x) { return is_complex(x.type()); }
bool isrealobj(const array& x) { return !is_complex(x.type()); }

array nan_to_num(const array& x, bool copy, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  if (!is_inexact(x.type())) return copy ? x.copy(order::K) : x;
  dtype rt = real_type(x.type());
  double big = rt == float16 ? 65504.0
                             : (rt == float32 ? static_cast<double>(std::numeric_limits<float>::max())
                                              : std::numeric_limits<double>::max());
  array out = copy ? new_like(x.type(), x.shape(), &x, x.device()) : x;
  std::vector<ew::operand> ins{ew::operand::of(x, x.type()), ew::operand::of_scalar(scalar::from_double(nan), rt),
                               ew::operand::of_scalar(scalar::from_double(posinf.value_or(big)), rt),
                               ew::operand::of_scalar(scalar::from_double(neginf.value_or(-big)), rt)};
  ew::run(nan_to_num_spec(), ins, {ew::operand::of(out, x.type())}, x.shape());
  return out;
}

array around(const array& a, int decimals, const array& out) {
  if (out.defined() && out.size() != a.size()) throw value_error("invalid output shape");
  dtype t = a.type();
  bool up = decimals >= 0;
  int digits = up ? decimals : -decimals;
  if (is_complex(t)) {
    // NumPy rounds the real and imaginary parts as real arrays, then stores them into the output's parts.
    if (out.defined() && !is_complex(out.type())) throw type_error("array does not have imaginary part to set");
    dtype rt = real_type(t);
    array r = detail::new_array(t, a.shape(), strides_like(a.shape(), a.strides(), a.itemsize()), a.device());
    ew::run(up ? round_up_spec() : round_down_spec(),
            {ew::operand::of(a, t), ew::operand::of_scalar(scalar::from_double(power_of_ten(digits)), rt)},
            {ew::operand::of(r, t)}, a.shape());
    if (!out.defined()) return r;
    array o = out;  // a handle: assignment writes the shared bytes
    o.assign(r);
    return o;
  }
  if (up && is_integer(t)) {
    if (!out.defined()) return a.copy(order::K);
    if (!can_cast(t, out.type(), casting::same_kind)) {
      throw type_error("Cannot cast array data from " + dtype_repr(t) + " to " + dtype_repr(out.type()) +
                       " according to the rule 'same_kind'");
    }
    array o = out;
    o.assign(a);
    return o;
  }
  if (decimals == 0) {
    ufunc_options opts;
    if (out.defined()) opts.out.push_back(out);
    return call_ufunc(named_ufunc("rint"), {arg_of(a)}, opts)[0];
  }
  scalar f = scalar::from_double(power_of_ten(digits));
  if (!out.defined() && (is_floating(t) || is_integer(t))) {
    // One kernel for NumPy's three steps; integers (negative decimals) go through float64 and back.
    dtype ct = is_integer(t) ? float64 : t;
    array r = detail::new_array(t, a.shape(), fortran_or_c(a), a.device());
    ew::run(up ? round_up_spec() : round_down_spec(), {ew::operand::of(a, ct), ew::operand::of_scalar(f, ct)},
            {ew::operand::of(r, ct)}, a.shape());
    return r;
  }
  // NumPy's steps as ufunc calls, for out= and for bool input (whose bool temporary makes NumPy raise).
  array o = out.defined() ? out : detail::new_array(t, a.shape(), fortran_or_c(a), a.device());
  ufunc_options opts;
  opts.out.push_back(o);
  ufunc_arg fa{array(), f, true};
  call_ufunc(named_ufunc(up ? "multiply" : "divide"), {arg_of(a), fa}, opts);
  call_ufunc(named_ufunc("rint"), {arg_of(o)}, opts);
  call_ufunc(named_ufunc(up ? "divide" : "multiply"), {arg_of(o), fa}, opts);
  return o;
}

array round(const array& a, int decimals, const array& out) { return around(a, decimals, out); }

array fix(const array& x, const array& out) {
  ufunc_options opts;
  if (out.defined()) opts.out.push_back(out);
  return call_ufunc(named_ufunc("trunc"), {arg_of(x)}, opts)[0];
}

array sinc(const array& x) {
  dtype ct = is_inexact(x.type()) ? x.type() : float64;
  array r = new_like(ct, x.shape(), &x, x.device());
  ew::run(sinc_spec(), {ew::operand::of(x, ct)}, {ew::operand::of(r, ct)}, x.shape());
  return r;
}

array i0(const array& x) {
  if (is_complex(x.type())) throw type_error("i0 not supported for complex values");
  dtype ot = is_floating(x.type()) ? x.type() : float64;
  array r = new_like(ot, x.shape(), &x, x.device());
  ew::run(i0_spec(), {ew::operand::of(x, float64)}, {ew::operand::of(r, float64)}, x.shape());
  return r;
}

// Note [where's Python ints]: NumPy 2.5's where converts a Python int to the result dtype as its ufuncs do
// (numpy#30803): one out of the dtype's range is OverflowError (NumPy 2.0 to 2.4 wrapped it), and one beyond 64
// bits (a big_int operand, carried as float64) takes part as a Python int and needs an inexact result.
array where(const ufunc_arg& condition, const ufunc_arg& x, const ufunc_arg& y) {
  auto typed = [](const ufunc_arg& o) {
    ufunc_arg t = o;
    if (o.big_int) t.value = scalar::from_int(0);  // promotes as a Python int
    return t;
  };
  const ufunc_arg xt = typed(x), yt = typed(y);
  dtype rt = result_type({&xt, &yt});
  check_weak_int(x, rt);
  check_weak_int(y, rt);
  shape_t shape;
  const array* proto = nullptr;
  int device = -1;
  for (const ufunc_arg* o : {&condition, &x, &y}) {
    if (o->is_scalar()) continue;
    shape = broadcast_shapes(shape, o->arr.shape());
    if (device < 0) device = o->arr.device();
  }
  for (const ufunc_arg* o : {&condition, &x, &y}) {
    if (!o->is_scalar() && o->arr.shape() == shape) {
      proto = &o->arr;
      break;
    }
  }
  if (device < 0) device = current_device();
  array out = new_like(rt, shape, proto, device);
  auto op_of = [&](const ufunc_arg& o, dtype t) {
    return o.is_scalar() ? ew::operand::of_scalar(o.value, t) : ew::operand::of(o.arr, t);
  };
  ew::run(where_spec(), {op_of(condition, bool_), op_of(x, rt), op_of(y, rt)}, {ew::operand::of(out, rt)}, shape);
  return out;
}

void copyto(const array& dst_in, const ufunc_arg& src, casting rule, const array& where) {
  array dst = dst_in;
  const char* const rule_names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  std::string rule_s = rule_names[static_cast<int>(rule)];
  if (src.is_scalar()) {
    const scalar& v = src.value;
    dtype from = src.weak ? weak_type(v, dst.type()) : v.type;
    check_weak_int(src, dst.type());
    if (!can_cast(from, dst.type(), rule)) {
      throw type_error("Cannot cast scalar from " + dtype_repr(from) + " to " + dtype_repr(dst.type()) +
                       " according to the rule '" + rule_s + "'");
    }
    if (!where.defined()) {
      dst.fill(v.cast(dst.type()));
      return;
    }
    array mask = where_mask(where, dst.shape());
    if (detail::may_overlap(mask, dst)) mask = mask.copy(order::K);
    ew::run(copy_spec(), {ew::operand::of_scalar(v, dst.type())}, {ew::operand::of(dst, dst.type())}, dst.shape(),
            mask);
    return;
  }
  array s = src.arr;
  if (!can_cast(s.type(), dst.type(), rule)) {
    throw type_error("Cannot cast array data from " + dtype_repr(s.type()) + " to " + dtype_repr(dst.type()) +
                     " according to the rule '" + rule_s + "'");
  }
  if (!where.defined()) {
    dst.assign(s);
    return;
  }
  array mask = where_mask(where, dst.shape());
  // The source broadcasts to the destination after dropping leading unit dimensions, as in assignment.
  if (s.ndim() > dst.ndim()) {
    int extra = s.ndim() - dst.ndim();
    for (int i = 0; i < extra; ++i) {
      if (s.shape()[i] != 1) {
        throw value_error("could not broadcast input array from shape " + shape_to_string(s.shape()) + " into shape " +
                          shape_to_string(dst.shape()));
      }
    }
    descriptor d{s.type(), shape_t(s.shape().begin() + extra, s.shape().end()),
                 strides_t(s.strides().begin() + extra, s.strides().end()), s.offset()};
    s = array(s.storage(), std::move(d));
  }
  if (s.shape() != dst.shape()) s = s.broadcast_to(dst.shape());
  if (dst.size() == 0) return;
  bool same = s.data() == dst.data() && s.strides() == dst.strides() && s.type() == dst.type();
  if (same) return;
  if (detail::may_overlap(s, dst)) s = s.copy(order::K);
  if (detail::may_overlap(mask, dst)) mask = mask.copy(order::K);
  ew::run(copy_spec(), {ew::operand::of(s, dst.type())}, {ew::operand::of(dst, dst.type())}, dst.shape(), mask);
}

namespace detail {

std::vector<elementwise_funcs_kernel> elementwise_funcs_kernels() {
  std::vector<elementwise_funcs_kernel> k;
  for (const ew::kernel_spec* s : {&round_up_spec(), &round_down_spec(), &nan_to_num_spec(), &sinc_spec(), &i0_spec(),
                                   &where_spec(), &copy_spec()}) {
    k.push_back(
        elementwise_funcs_kernel{std::string(s->name), std::string(), std::string(s->body), std::string(s->preamble)});
  }
  for (bool scalar_bounds : {true, false}) {
    for (const auto& l : clip_def(scalar_bounds).loops) {
      const char* name = scalar_bounds ? "clip" : "clip_array_bounds";
      k.push_back(elementwise_funcs_kernel{name, l.types, l.body, std::string()});
    }
  }
  return k;
}

}  // namespace detail

}  // namespace cuarray
