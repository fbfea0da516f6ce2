// NumPy's numpy.fft over cuFFT: argument rules, dtype rules, padding/truncation, normalisation and plan grouping.
#include "cuarray/fft.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/fft/cufft.hpp"

namespace cuarray::fft {

// Note [fft execution]: a transform over several distinct axes is one pass per group of axes that cuFFT can
// take in one plan (up to three axes adjacent in memory, Note [fft layouts]), in any order since the 1-D
// transforms along different axes commute; padding and truncation along all axes are applied up front for
// the same reason, in one copy that also converts the dtype. The first pass reads the caller's array (no copy
// when its dtype and lengths already fit and cuFFT can express its strides) into the result; later passes
// run in place on the result. Normalisation is one multiply at the end by the product of the per-axis factors
// NumPy applies pass by pass. Repeated axes (NumPy transforms once per occurrence, lengths changing between
// passes) take NumPy's own sequence of 1-D transforms. c2r follows NumPy exactly rather than cuFFT's
// multi-dimensional C2R: the other axes are inverse c2c passes first, then a 1-D C2R whose input has the
// imaginary parts of its zero and Nyquist terms cleared, which NumPy (pocketfft) ignores but cuFFT need not.

namespace {

using detail::fft::plan_layout;
using detail::fft::precision;
using detail::fft::transform_kind;

dtype complex_of(dtype t) {
  return (t == dtype::float16 || t == dtype::float32 || t == dtype::complex64) ? dtype::complex64 : dtype::complex128;
}

dtype real_of(dtype complex_t) { return complex_t == dtype::complex64 ? dtype::float32 : dtype::float64; }

/// NumPy's result_type(a.real.dtype, 1.0): the dtype of irfft/hfft's real result.
dtype real_result_of(dtype t) {
  switch (t) {
    case dtype::float16: return dtype::float16;
    case dtype::float32:
    case dtype::complex64: return dtype::float32;
    default: return dtype::float64;
  }
}

precision precision_of(dtype complex_t) {
  return complex_t == dtype::complex64 ? precision::single : precision::double_;
}

void check_length(std::int64_t n) {
  if (n < 1) throw value_error("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
}

norm_mode swapped(norm_mode n) {
  return n == norm_mode::backward ? norm_mode::forward : n == norm_mode::forward ? norm_mode::backward : n;
}

/// NumPy's per-pass factors multiplied over the axes: 1, 1/sqrt(N) or 1/N depending on norm and direction.
double scale_of(norm_mode norm, bool forward, double total) {
  if (norm == norm_mode::ortho) return 1.0 / std::sqrt(total);
  bool scaled = forward ? norm == norm_mode::forward : norm == norm_mode::backward;
  return scaled ? 1.0 / total : 1.0;
}

void apply_scale(const array& x, double factor) {
  if (factor == 1.0 || x.size() == 0) return;
  ufunc_options o;
  o.out = {x};
  multiply(x, factor, o);
}

std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

void check_out(const array& out, const shape_t& shape, dtype result, const char* func) {
  if (!out.defined()) return;
  if (out.shape() != shape) throw value_error("output array has wrong shape.");
  if (!can_cast(result, out.type(), casting::same_kind)) {
    throw type_error(std::string("Cannot cast ufunc '") + func + "' output from " + dtype_repr(result) + " to " +
                     dtype_repr(out.type()) + " with casting rule 'same_kind'");
  }
}

/// The caller's out= written from `result` (or `result` itself when there is none).
array finish(const array& result, const array& out) {
  if (!out.defined()) return result;
  if (out.storage() == result.storage() && out.offset() == result.offset() && out.strides() == result.strides())
    return out;
  array o = out;
  o.assign(result);
  return o;
}

bool same_memory(const array& a, const array& b) {
  return a.storage() == b.storage() && a.offset() == b.offset() && a.strides() == b.strides();
}

/// out= taken as the destination of the transforms when it has the result's dtype and plain layout.
bool out_is_usable(const array& out, dtype t, const array& input) {
  return out.defined() && out.type() == t && out.is_c_contiguous() && out.size() > 0 &&
         !detail::may_overlap(out, input);
}

array new_like(dtype t, const shape_t& shape, const strides_t& like, int device) {
  return detail::new_array(t, shape, strides_like(shape, like, itemsize(t)), device);
}

array with_desc(const array& a, dtype t, const shape_t& shape, const strides_t& strides, std::int64_t offset) {
  return array(a.storage(), descriptor{t, shape, strides, offset});
}

/// `a` cut or zero-padded to `lens` along `axes` and converted to `t`: a view of `a` when nothing changes and
/// no copy is forced, else a new array laid out as `a` (order K) that the caller may overwrite (`owned`).
array prepare(const array& a, const std::vector<int>& axes, const std::vector<std::int64_t>& lens, dtype t,
              bool force_copy, bool& owned) {
  shape_t cut = a.shape(), full = a.shape();
  bool pad = false;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    cut[axes[k]] = std::min(cut[axes[k]], lens[k]);
    full[axes[k]] = lens[k];
    pad |= lens[k] > a.shape()[axes[k]];
  }
  array v = with_desc(a, a.type(), cut, a.strides(), a.offset());
  owned = false;
  if (!pad && a.type() == t && !force_copy) return v;
  array z = new_like(t, full, a.strides(), a.device());
  owned = true;
  if (z.size() == 0) return z;
  if (pad) {
    z.fill(scalar::from_int(0).cast(t));
    with_desc(z, t, cut, z.strides(), z.offset()).assign(v);
  } else {
    z.assign(v);
  }
  return z;
}

/// A new array whose axes are laid out contiguously in the order `perm` (outermost first).
array new_in_order(dtype t, const shape_t& shape, const std::vector<int>& perm, int device) {
  strides_t strides(shape.size());
  std::int64_t s = static_cast<std::int64_t>(itemsize(t));
  for (int i = static_cast<int>(perm.size()) - 1; i >= 0; --i) {
    strides[perm[i]] = s;
    s *= std::max<std::int64_t>(shape[perm[i]], 1);
  }
  return detail::new_array(t, shape, strides, device);
}

/// One plan's transform over `group` from `src` to `dst` (the same array for an in-place c2c); through plain
/// copies when cuFFT cannot take the layouts (Note [fft layouts]).
void run(const array& src, const array& dst, const std::vector<int>& group, transform_kind kind, bool forward) {
  dtype ct = kind == transform_kind::c2r ? src.type() : dst.type();
  precision prec = precision_of(ct);
  // Note [user fft plans]: a current plan of lower rank than the group takes its axes one by one (the halved
  // axis of r2c first), as CuPy's 1-D path does with a Plan1d.
  const auto& user = detail::fft::current_plan();
  if (user && user->layout.rank < static_cast<int>(group.size()) && kind != transform_kind::c2r) {
    run(src, dst, {group.back()}, kind, forward);
    for (std::size_t i = 0; i + 1 < group.size(); ++i) run(dst, dst, {group[i]}, transform_kind::c2c, forward);
    return;
  }
  auto layout = detail::fft::make_plan_layout(src.shape(), src.strides(), src.itemsize(), dst.shape(), dst.strides(),
                                              dst.itemsize(), group, kind);
  // Note [fft alignment]: every execution's pointers, real ones included, must be aligned to the complex type;
  // a view starting at an odd real element, or a host loop stepping by an odd number of them (a C2R writing
  // an odd-length axis that is not the innermost), goes through the plain copies below.
  std::size_t align = itemsize(ct);
  bool aligned = reinterpret_cast<std::uintptr_t>(src.data()) % align == 0 &&
                 reinterpret_cast<std::uintptr_t>(dst.data()) % align == 0 &&
                 (!layout || detail::fft::loop_keeps_alignment(*layout, src.itemsize(), dst.itemsize(), align));
  // A current plan whose layout differs from the arrays' takes a plain copy of them, which it may match.
  bool fits_user = !user || (layout && detail::fft::plan_matches(*user, *layout, kind, prec));
  if (layout && aligned && fits_user) {
    detail::fft::execute(dst.device(), *layout, kind, prec, src.data(), dst.data(), forward);
    return;
  }
  // The other axes outermost in the destination's order, then the plan's axes: one batch dimension.
  std::vector<int> perm;
  for (int d = 0; d < dst.ndim(); ++d) {
    if (std::find(group.begin(), group.end(), d) == group.end()) perm.push_back(d);
  }
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int a, int b) { return std::llabs(dst.strides()[a]) > std::llabs(dst.strides()[b]); });
  perm.insert(perm.end(), group.begin(), group.end());
  array tsrc = new_in_order(src.type(), src.shape(), perm, src.device());
  tsrc.assign(src);
  bool in_place = same_memory(src, dst);
  array tdst = in_place ? tsrc : new_in_order(dst.type(), dst.shape(), perm, dst.device());
  auto plain = detail::fft::make_plan_layout(tsrc.shape(), tsrc.strides(), tsrc.itemsize(), tdst.shape(),
                                             tdst.strides(), tdst.itemsize(), group, kind);
  if (!plain) throw cuda_error(-1, "cuFFT: no plan layout for a contiguous transform (internal error)");
  detail::fft::execute(dst.device(), *plain, kind, prec, tsrc.data(), tdst.data(), forward);
  array d = dst;
  d.assign(tdst);
}

std::vector<int> others(const std::vector<int>& axes, int skip) {
  std::vector<int> v;
  for (int a : axes) {
    if (a != skip) v.push_back(a);
  }
  return v;
}

/// In-place c2c passes over `axes` of `x`.
void c2c_in_place(const array& x, const std::vector<int>& axes, bool forward) {
  if (x.size() == 0) return;
  for (const std::vector<int>& g : detail::fft::group_axes(axes, x.shape(), x.strides())) {
    run(x, x, g, transform_kind::c2c, forward);
  }
}

double product(const std::vector<std::int64_t>& lens) {
  double p = 1;
  for (std::int64_t n : lens) p *= static_cast<double>(n);
  return p;
}

// ---- the three kinds over distinct axes with validated lengths ---------------------------------------------

array c2c_nd(const array& a, const std::vector<int>& axes, const std::vector<std::int64_t>& lens, bool forward,
             norm_mode norm, const array& out, const char* func) {
  dtype ct = complex_of(a.type());
  shape_t rshape = a.shape();
  for (std::size_t k = 0; k < axes.size(); ++k) rshape[axes[k]] = lens[k];
  check_out(out, rshape, ct, func);
  bool owned = false;
  array x = prepare(a, axes, lens, ct, false, owned);
  array dest = out_is_usable(out, ct, a) ? out : owned ? x : new_like(ct, rshape, x.strides(), x.device());
  if (dest.size() == 0) return finish(dest, out);
  array src = x;
  for (const std::vector<int>& g : detail::fft::group_axes(axes, dest.shape(), dest.strides())) {
    run(src, dest, g, transform_kind::c2c, forward);
    src = dest;
  }
  if (!same_memory(src, dest)) dest.assign(src);  // every axis had length 1
  apply_scale(dest, scale_of(norm, forward, product(lens)));
  return finish(dest, out);
}

[[noreturn]] void refuse_complex(const array& a, const char* func) {
  throw type_error(std::string("ufunc '") + func + "' not supported for the input types (" +
                   std::string(name(a.type())) + "): the input must be real");
}

array r2c_nd(const array& a, const std::vector<int>& axes, const std::vector<std::int64_t>& lens, norm_mode norm,
             const array& out, const char* func, bool conjugate_result) {
  if (is_complex(a.type())) refuse_complex(a, func);
  dtype ct = complex_of(a.type()), rt = real_of(ct);
  int h = axes.back();
  std::int64_t n = lens.back();
  shape_t rshape = a.shape();
  for (std::size_t k = 0; k < axes.size(); ++k) rshape[axes[k]] = lens[k];
  rshape[h] = n / 2 + 1;
  check_out(out, rshape, ct, func);
  bool owned = false;
  array x = prepare(a, axes, lens, rt, false, owned);
  array dest = out_is_usable(out, ct, a) ? out : new_like(ct, rshape, x.strides(), x.device());
  if (dest.size() == 0) return finish(dest, out);
  if (n == 1) {
    dest.assign(x);  // a length-1 transform is the value itself
    c2c_in_place(dest, others(axes, h), true);
  } else {
    auto groups = detail::fft::group_axes(axes, dest.shape(), dest.strides(), h);
    run(x, dest, groups[0], transform_kind::r2c, true);
    for (std::size_t i = 1; i < groups.size(); ++i) run(dest, dest, groups[i], transform_kind::c2c, true);
  }
  apply_scale(dest, scale_of(norm, true, product(lens)));
  if (conjugate_result) {
    ufunc_options o;
    o.out = {dest};
    conjugate(dest, o);
  }
  return finish(dest, out);
}

array c2r_nd(const array& a, const std::vector<int>& axes, const std::vector<std::int64_t>& lens, norm_mode norm,
             const array& out, const char* func, bool conjugate_input) {
  // NumPy's irfftn runs the complex passes first and its last 1-D irfft on their complex64 result, so float16
  // input keeps float16 only when one axis is transformed.
  dtype ct = complex_of(a.type()), rt = real_of(ct);
  dtype result_t = real_result_of(axes.size() > 1 && a.type() == dtype::float16 ? dtype::float32 : a.type());
  int h = axes.back();
  std::int64_t n = lens.back();
  shape_t rshape = a.shape();
  for (std::size_t k = 0; k < axes.size(); ++k) rshape[axes[k]] = lens[k];
  check_out(out, rshape, result_t, func);
  std::vector<std::int64_t> in_lens = lens;
  in_lens.back() = n / 2 + 1;
  bool owned = false;
  // C2R overwrites its input, and the input is changed below: always a copy.
  array x = prepare(a, axes, in_lens, ct, true, owned);
  array dest = out_is_usable(out, rt, a) && result_t == rt ? out : new_like(rt, rshape, x.strides(), x.device());
  if (dest.size() == 0) return finish(result_t == rt ? dest : dest.astype(result_t), out);
  if (conjugate_input) {
    ufunc_options o;
    o.out = {x};
    conjugate(x, o);
  }
  c2c_in_place(x, others(axes, h), false);
  std::size_t half = itemsize(rt);
  if (n == 1) {
    dest.assign(with_desc(x, rt, x.shape(), x.strides(), x.offset()));  // the real part
  } else {
    // NumPy reads only the real parts of the zero and (even n) Nyquist terms.
    shape_t one = x.shape();
    one[h] = 1;
    scalar zero = scalar::from_int(0).cast(rt);
    with_desc(x, rt, one, x.strides(), x.offset() + static_cast<std::int64_t>(half)).fill(zero);
    if (n % 2 == 0) {
      std::int64_t at = x.offset() + (n / 2) * x.strides()[h] + static_cast<std::int64_t>(half);
      with_desc(x, rt, one, x.strides(), at).fill(zero);
    }
    run(x, dest, {h}, transform_kind::c2r, false);
  }
  apply_scale(dest, scale_of(norm, false, product(lens)));
  return finish(result_t == rt ? dest : dest.astype(result_t), out);
}

// ---- argument rules --------------------------------------------------------------------------------------------

enum class family { c2c, r2c, c2r };

/// NumPy's _cook_nd_args: the axes (normalised) and lengths (-1 resolved; default_length kept).
void cook(const array& a, const sizes& s, const axes_list& axes, bool invreal, std::vector<int>& ax,
          std::vector<std::int64_t>& sv) {
  ax.clear();
  if (axes) {
    for (int x : *axes) ax.push_back(normalize_axis(x, a.ndim()));
  }
  if (!s) {
    if (axes) {
      for (int x : ax) sv.push_back(a.shape()[x]);
    } else {
      sv.assign(a.shape().begin(), a.shape().end());
    }
  } else {
    sv = *s;
  }
  if (!axes) {
    for (int k = -static_cast<int>(sv.size()); k < 0; ++k) ax.push_back(normalize_axis(k, a.ndim()));
  }
  if (sv.size() != ax.size()) throw value_error("Shape and axes have different lengths.");
  if (invreal && !s && !sv.empty()) sv.back() = (a.shape()[ax.back()] - 1) * 2;
  for (std::size_t k = 0; k < sv.size(); ++k) {
    if (sv[k] == -1) sv[k] = a.shape()[ax[k]];
  }
}

/// The 1-D default length of an entry given as default_length.
std::int64_t resolve(std::int64_t len, const array& a, int axis, bool halved_c2r) {
  if (len != default_length) return len;
  return halved_c2r ? (a.shape()[axis] - 1) * 2 : a.shape()[axis];
}

bool has_repeats(std::vector<int> axes) {
  std::sort(axes.begin(), axes.end());
  return std::adjacent_find(axes.begin(), axes.end()) != axes.end();
}

array one_d(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out, family f,
            bool inverse, const char* func) {
  // NumPy reads a.shape[axis] (an IndexError) before it checks n when n is None, and checks n first otherwise.
  int ax;
  std::int64_t len;
  if (n) {
    len = *n;
    check_length(len);
    ax = normalize_axis(axis, a.ndim());
  } else {
    ax = normalize_axis(axis, a.ndim());
    len = f == family::c2r ? (a.shape()[ax] - 1) * 2 : a.shape()[ax];
    check_length(len);
  }
  switch (f) {
    case family::c2c: return c2c_nd(a, {ax}, {len}, !inverse, norm, out, func);
    case family::r2c: return r2c_nd(a, {ax}, {len}, inverse ? swapped(norm) : norm, out, func, inverse);
    default: return c2r_nd(a, {ax}, {len}, inverse ? swapped(norm) : norm, out, func, inverse);
  }
}

array n_d(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out, family f,
          bool inverse, const char* func) {
  std::vector<int> ax;
  std::vector<std::int64_t> sv;
  if (f == family::r2c && is_complex(a.type()) && !(axes && axes->empty())) {
    // NumPy's rfftn: _cook_nd_args, then the 1-D rfft over the last axis, whose ufunc refuses complex input
    // once that axis and its length pass; the other axes are never looked at.
    std::vector<std::int64_t> given = s ? *s : std::vector<std::int64_t>{};
    if (!s) {
      if (axes) {
        for (int k : *axes) given.push_back(a.shape()[normalize_axis(k, a.ndim())]);
      } else {
        given.assign(a.shape().begin(), a.shape().end());
      }
    }
    if (axes) {
      ax = *axes;
    } else {
      for (int k = -static_cast<int>(given.size()); k < 0; ++k) ax.push_back(k);
    }
    if (given.size() != ax.size()) throw value_error("Shape and axes have different lengths.");
    if (!ax.empty()) {
      std::int64_t len = given.back();
      if (len == -1 || len == default_length) {
        len = a.shape()[normalize_axis(ax.back(), a.ndim())];
        check_length(len);
      } else {
        check_length(len);
        normalize_axis(ax.back(), a.ndim());
      }
      refuse_complex(a, func);
    }
    ax.clear();
  }
  cook(a, s, axes, f == family::c2r, ax, sv);
  if (ax.empty()) {
    if (f != family::c2c) throw index_error("list index out of range");
    return a;  // NumPy returns its input untouched
  }
  std::size_t last = ax.size() - 1;
  if (has_repeats(ax)) {
    // NumPy's own sequence of 1-D transforms (the lengths may change between passes over one axis).
    auto opt = [](std::int64_t v) { return v == default_length ? std::optional<std::int64_t>() : v; };
    array r = a;
    if (f == family::c2c) {
      for (std::size_t i = ax.size(); i-- > 0;) {
        r = one_d(r, opt(sv[i]), ax[i], norm, array(), family::c2c, inverse, func);
      }
    } else if (f == family::r2c) {
      r = one_d(r, opt(sv[last]), ax[last], norm, array(), family::r2c, false, func);
      for (std::size_t i = last; i-- > 0;) r = one_d(r, opt(sv[i]), ax[i], norm, array(), family::c2c, false, func);
    } else {
      for (std::size_t i = 0; i < last; ++i) r = one_d(r, opt(sv[i]), ax[i], norm, array(), family::c2c, true, func);
      r = one_d(r, opt(sv[last]), ax[last], norm, array(), family::c2r, false, func);
    }
    check_out(out, r.shape(), r.type(), func);
    return finish(r, out);
  }
  // NumPy validates the lengths pass by pass, the last axis first.
  for (std::size_t i = ax.size(); i-- > 0;) {
    sv[i] = resolve(sv[i], a, ax[i], f == family::c2r && i == last);
    check_length(sv[i]);
  }
  switch (f) {
    case family::c2c: return c2c_nd(a, ax, sv, !inverse, norm, out, func);
    case family::r2c: return r2c_nd(a, ax, sv, norm, out, func, false);
    default: return c2r_nd(a, ax, sv, norm, out, func, false);
  }
}

array shift(const array& x, const axes_list& axes, bool inverse) {
  std::vector<int> ax;
  if (axes) {
    for (int a : *axes) ax.push_back(normalize_axis(a, x.ndim()));
  } else {
    for (int d = 0; d < x.ndim(); ++d) ax.push_back(d);
  }
  if (ax.empty()) return x.copy();
  std::vector<std::int64_t> shifts;
  for (int a : ax) shifts.push_back(inverse ? -(x.shape()[a] / 2) : x.shape()[a] / 2);
  return roll(x, shifts, ax);
}

}  // namespace

norm_mode parse_norm(std::string_view text) {
  if (text == "backward") return norm_mode::backward;
  if (text == "ortho") return norm_mode::ortho;
  if (text == "forward") return norm_mode::forward;
  throw value_error("Invalid norm value " + std::string(text) + "; should be \"backward\",\"ortho\" or \"forward\".");
}

array fft(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out) {
  return one_d(a, n, axis, norm, out, family::c2c, false, "fft");
}
array ifft(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out) {
  return one_d(a, n, axis, norm, out, family::c2c, true, "ifft");
}
array rfft(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out) {
  return one_d(a, n, axis, norm, out, family::r2c, false, "rfft");
}
array irfft(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out) {
  return one_d(a, n, axis, norm, out, family::c2r, false, "irfft");
}
array hfft(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out) {
  return one_d(a, n, axis, norm, out, family::c2r, true, "hfft");
}
array ihfft(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, const array& out) {
  return one_d(a, n, axis, norm, out, family::r2c, true, "ihfft");
}

array fftn(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::c2c, false, "fftn");
}
array ifftn(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::c2c, true, "ifftn");
}
array rfftn(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::r2c, false, "rfftn");
}
array irfftn(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::c2r, false, "irfftn");
}
array fft2(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::c2c, false, "fft2");
}
array ifft2(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::c2c, true, "ifft2");
}
array rfft2(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::r2c, false, "rfft2");
}
array irfft2(const array& a, const sizes& s, const axes_list& axes, norm_mode norm, const array& out) {
  return n_d(a, s, axes, norm, out, family::c2r, false, "irfft2");
}

// NumPy's formulas: val = 1 / (n * d) is IEEE's (inf where n * d is 0, as with NumPy scalars; the Python
// binding raises ZeroDivisionError where NumPy's Python arithmetic does), fftfreq's result is empty(n) filled
// (negative n fails there), rfftfreq's arange(0, n // 2 + 1) (empty for negative n).
array fftfreq(std::int64_t n, double d) {
  if (n < 0) throw value_error("negative dimensions are not allowed");
  if (n == 0) return empty(shape_t{0}, dtype::float64);
  double val = 1.0 / (static_cast<double>(n) * d);
  std::int64_t pos = (n - 1) / 2 + 1;
  array r = concatenate({arange(std::int64_t{0}, pos, std::int64_t{1}, dtype::int64),
                         arange(-(n / 2), std::int64_t{0}, std::int64_t{1}, dtype::int64)});
  return multiply(r, val);
}

array rfftfreq(std::int64_t n, double d) {
  std::int64_t count = (n >= 0 ? n / 2 : -((-n + 1) / 2)) + 1;  // Python's n // 2 + 1
  if (count <= 0) return empty(shape_t{0}, dtype::float64);
  double val = 1.0 / (static_cast<double>(n) * d);
  return multiply(arange(std::int64_t{0}, count, std::int64_t{1}, dtype::int64), val);
}

array fftshift(const array& x, const axes_list& axes) { return shift(x, axes, false); }
array ifftshift(const array& x, const axes_list& axes) { return shift(x, axes, true); }

}  // namespace cuarray::fft
