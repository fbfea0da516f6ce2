// ufunc.reduce, .accumulate, .reduceat and .at for binary ufuncs, on the reduction engine and generated loops.
#include "src/engine/ufunc_methods.hpp"

#include <algorithm>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/scan.hpp"
#include "cuarray/shape.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/reduction.hpp"

namespace cuarray {

namespace {

std::string cname(dtype t) { return t == dtype::float16 ? "float" : ew::type_name(t); }
dtype compute_of(dtype t) { return t == dtype::float16 ? dtype::float32 : t; }

void require_binary(const ufunc_def& u, const char* method) {
  if (u.nin != 2 || u.nout != 1) {
    throw value_error(std::string(method) + " only supported for binary functions");
  }
}

// The loop a reduction of dtype `t` runs: NumPy gives add/multiply of small integers the platform integer.
const ufunc_loop& reduce_loop(const ufunc_def& u, dtype t, const std::optional<dtype>& dt) {
  ufunc_options o;
  dtype want = t;
  if (dt) {
    want = *dt;
    o.dtype_ = *dt;
  } else if ((u.name == "add" || u.name == "multiply") && (is_bool(t) || (is_integer(t) && itemsize(t) < 8))) {
    want = is_unsigned_integer(t) ? dtype::uint64 : dtype::int64;
    o.dtype_ = want;
  }
  o.rule = casting::unsafe;
  scalar z = scalar::from_int(0).cast(want);  // a strong scalar: its dtype takes part as an array's would
  std::vector<ufunc_arg> args{ufunc_arg{array(), z, false}, ufunc_arg{array(), z, false}};
  return resolve_loop(u, args, o);
}

}  // namespace

std::optional<dtype> ufunc_method_loop_dtype(const ufunc_def& u, dtype in, const std::optional<dtype>& dt,
                                             const array& out) {
  if (dt || !out.defined()) return dt;
  const dtype p = promote_types(out.type(), in);
  try {
    const ufunc_loop& l = reduce_loop(u, in, p);
    if (l.in[0] == p && l.in[1] == p && l.out[0] == p) return p;
  } catch (const type_error&) {
    // no loop of that type: the input's loop, cast into out
  }
  return std::nullopt;
}

namespace {

bool associative(const ufunc_def& u) {
  static const char* const names[] = {"add",        "multiply",    "maximum",    "minimum",     "fmax",
                                      "fmin",       "logical_and", "logical_or", "logical_xor", "bitwise_and",
                                      "bitwise_or", "bitwise_xor", "gcd",        "lcm"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return u.name == n; });
}

// The ufunc's loop body as a combine of two accumulators.
std::string combine_of(const ufunc_loop& l) {
  return "{ " + cname(l.in[0]) + " in0 = ca_cast<" + cname(l.in[0]) + ">(a); " + cname(l.in[1]) + " in1 = ca_cast<" +
         cname(l.in[1]) + ">(b); " + cname(l.out[0]) + " out0; { " + l.body + " } r = ca_cast<acc_t>(out0); }";
}

std::string identity_of(const ufunc_def& u, dtype acc) {
  if (u.name == "maximum" || u.name == "fmax") return "";
  if (u.name == "minimum" || u.name == "fmin") return "";
  if (u.identity.empty()) return "";
  if (u.identity == "inf" || u.identity == "-inf") return "";
  (void)acc;
  return "ca_cast<acc_t>(" + u.identity + ")";
}

// A contiguous (rows, n) copy of `a` with `axis` last, for the loops that walk one row per thread.
array rows_of(const array& a, int axis, dtype t) {
  array m = moveaxis(a, {axis}, {-1});
  array c = m.astype(t, order::C, false);
  if (!c.is_c_contiguous()) c = c.copy(order::C);
  std::int64_t n = a.shape()[static_cast<std::size_t>(axis)];
  std::int64_t rows = n == 0 ? 0 : c.size() / n;
  return c.reshape(shape_t{rows, n});
}

// Stores through raw pointers of any element type (bool arrays are unsigned char there).
constexpr const char* put_helper =
    "template <class P, class V> __device__ inline void ca_put(P& d, const V& v) { d = ca_cast<P>(v); }\n";

// One thread per row: acc folds the row in order; `body` sees raw0 (input), raw2 (output), `_n` and `acc`.
void row_loop(const std::string& name, const array& in, const array& out, std::int64_t rows, std::int64_t n,
              const std::string& body, dtype scalar_type) {
  if (rows == 0) return;
  ew::kernel_spec spec;
  spec.name = name;
  spec.body = body;
  spec.preamble = put_helper;
  spec.c_order_index = true;
  spec.id = ew::intern(spec);
  ew::operand ops[3] = {ew::operand::of_raw(in, in.type()), ew::operand::of_scalar(scalar::from_int(n), scalar_type),
                        ew::operand::of_raw(out, out.type())};
  ew::run(spec, ops, 2, ops + 2, 1, shape_t{rows}, array());
}

shape_t without_axis(const shape_t& s, int ax) {
  shape_t r;
  for (int i = 0; i < static_cast<int>(s.size()); ++i) {
    if (i != ax) r.push_back(s[static_cast<std::size_t>(i)]);
  }
  return r;
}

std::string fold_step(const ufunc_loop& l) {
  return "{ " + cname(l.in[0]) + " in0 = ca_cast<" + cname(l.in[0]) + ">(acc); " + cname(l.in[1]) + " in1 = ca_cast<" +
         cname(l.in[1]) + ">(x); " + cname(l.out[0]) + " out0; { " + l.body + " } acc = out0; }";
}

}  // namespace

array ufunc_reduce(const ufunc_def& u, const array& a, const reduce_options& o) {
  require_binary(u, "reduce");
  // NumPy reads where= first: a mask that is not bool is refused ('safe' casting) before the axes.
  if (o.where.defined() && o.where.type() != dtype::bool_) {
    throw type_error("Cannot cast array data from dtype('" + std::string(name(o.where.type())) +
                     "') to dtype('bool') according to the rule 'safe'");
  }
  std::vector<int> axes = reduction_axes(o.axis, a.ndim());
  const ufunc_loop& l = reduce_loop(u, a.type(), ufunc_method_loop_dtype(u, a.type(), o.dtype_, o.out));
  dtype out = l.out[0];
  dtype acc = compute_of(out);
  red::spec s;
  s.name = u.name;
  s.acc = cname(acc);
  s.in_compute = cname(acc);
  s.out_compute = cname(acc);
  s.map = "m = ca_cast<acc_t>(x);";
  s.combine = combine_of(l);
  s.identity = identity_of(u, acc);
  s.acc_bytes = itemsize(acc);
  bool empty_axis = false;
  for (int ax : axes) empty_axis = empty_axis || a.shape()[static_cast<std::size_t>(ax)] == 0;
  if (u.name == "maximum" || u.name == "fmax" || u.name == "minimum" || u.name == "fmin") {
    // Defined identities of their own for the parallel tree; an empty axis still has none (below).
    bool mx = u.name == "maximum" || u.name == "fmax";
    reduce_options ro = o;
    ro.axis = std::vector<int>(axes);
    if (u.name == "maximum") return amax(a.astype(out, order::K, false), ro);
    if (u.name == "minimum") return amin(a.astype(out, order::K, false), ro);
    return mx ? nanmax(a.astype(out, order::K, false), ro) : nanmin(a.astype(out, order::K, false), ro);
  }
  if (s.identity.empty()) {
    if (empty_axis && !o.initial && shape_size(a.shape()) == 0 && a.ndim() > 0) {
      throw value_error("zero-size array to reduction operation " + u.name + " which has no identity");
    }
    s.identity = "ca_cast<acc_t>(0)";  // never combined: the sequential fold starts from the first element
    s.sequential = true;
  }
  if (!associative(u)) {
    s.sequential = true;
    // NumPy folds a non-reorderable ufunc along one axis only.
    if (axes.size() > 1) {
      throw value_error("reduction operation '" + u.name +
                        "' is not reorderable, so at most one axis may be specified");
    }
  }
  red::call c;
  c.in = a;
  c.axes = axes;
  c.out_type = out;
  if (o.where.defined()) {
    c.mask = (o.where.type() == dtype::bool_ ? o.where : o.where.astype(dtype::bool_)).broadcast_to(a.shape());
    if (!o.initial && s.sequential) {
      throw value_error("reduction operation '" + u.name +
                        "' does not have an identity, so to use a where mask one has to specify 'initial'");
    }
  }
  array r = red::run(s, c);
  if (o.initial) {
    array init = full(shape_t{}, o.initial->cast(out), out);
    r = call_ufunc(u.name, std::vector<array>{init, r})[0].astype(out, order::K, false);
  }
  if (o.keepdims) {
    shape_t ks = a.shape();
    for (int ax : axes) ks[static_cast<std::size_t>(ax)] = 1;
    r = r.reshape(ks);
  }
  if (!o.out.defined()) return r;
  if (o.out.shape() != r.shape()) {
    throw value_error("output parameter for reduction operation " + u.name + " has the wrong shape " +
                      shape_to_string(o.out.shape()) + ", expected " + shape_to_string(r.shape()));
  }
  array w = o.out;
  w.assign(r);
  return o.out;
}

array ufunc_accumulate(const ufunc_def& u, const array& a_peer, int axis, const std::optional<dtype>& dt,
                       const array& out) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  require_binary(u, "accumulate");
  if (a.ndim() == 0) throw type_error("cannot accumulate on a scalar");
  int ax = normalize_axis(axis, a.ndim());
  const ufunc_loop& l = reduce_loop(u, a.type(), ufunc_method_loop_dtype(u, a.type(), dt, out));
  dtype t = l.out[0];
  if (u.name == "add") return cumsum(a, ax, t, out);
  if (u.name == "multiply") return cumprod(a, ax, t, out);
  array rows = rows_of(a, ax, t);
  std::int64_t n = rows.shape()[1], nrows = rows.shape()[0];
  array res = detail::new_array(t, rows.shape(), order::C, a.device());
  std::string ct = cname(t);
  std::string body = "const long long _n = in1; const long long base = (long long)i * _n; " + ct + " acc = ca_cast<" +
                     ct + ">(raw0[base]); ca_put(raw2[base], acc); for (long long k = 1; k < _n; ++k) { " + ct +
                     " x = ca_cast<" + ct + ">(raw0[base + k]); " + fold_step(l) + " ca_put(raw2[base + k], acc); }";
  row_loop(u.name + "_accumulate", rows, res, nrows, n, body, dtype::int64);
  // Back to the input's axis order.
  shape_t moved = without_axis(a.shape(), ax);
  moved.push_back(a.shape()[static_cast<std::size_t>(ax)]);
  array r = moveaxis(res.reshape(moved), {-1}, {ax});
  if (!out.defined()) return r.copy(order::K);
  if (out.shape() != r.shape()) throw value_error("output operand has the wrong shape for accumulate");
  array w = out;
  w.assign(r);
  return out;
}

array ufunc_reduceat(const ufunc_def& u, const array& a_peer, const array& indices_peer, int axis,
                     const std::optional<dtype>& dt, const array& out) {
  const array a = detail::on_current_device(a_peer);              // Note [peer operands]
  const array indices = detail::on_current_device(indices_peer);  // Note [peer operands]
  require_binary(u, "reduceat");
  if (a.ndim() == 0) throw type_error("cannot reduceat on a scalar");
  int ax = normalize_axis(axis, a.ndim());
  if (indices.ndim() != 1) throw value_error("index must be 1-dimensional");
  if (!is_integer(indices.type()))
    throw type_error("Cannot cast array data from indices to int64 according to the rule 'safe'");
  const ufunc_loop& l = reduce_loop(u, a.type(), ufunc_method_loop_dtype(u, a.type(), dt, out));
  dtype t = l.out[0];
  array rows = rows_of(a, ax, t);
  std::int64_t n = rows.shape()[1], nrows = rows.shape()[0];
  array idx = indices.astype(dtype::int64, order::C, false);
  if (!idx.is_c_contiguous()) idx = idx.copy(order::C);
  std::int64_t m = idx.size();
  // Bounds: NumPy raises IndexError for an index outside [0, n); one read-back of the extremes.
  if (m > 0) {
    std::int64_t lo = amin(idx).host_value<std::int64_t>(), hi = amax(idx).host_value<std::int64_t>();
    if (lo < 0 || hi >= n) {
      throw index_error("index " + std::to_string(lo < 0 ? lo : hi) + " out-of-bounds in reduceat [0, " +
                        std::to_string(n) + ")");
    }
  }
  array res = detail::new_array(t, shape_t{nrows, m}, order::C, a.device());
  if (nrows > 0 && m > 0) {
    std::string ct = cname(t);
    // One thread per (row, segment): thread i folds row i / m, segment i % m.
    const std::string kname = u.name + "_reduceat";  // the spec holds views: the strings must outlive run()
    ew::kernel_spec spec;
    spec.name = kname;
    const std::string body =
        "const long long _n = in2, _m = in3; const long long row = (long long)i / _m, s = (long long)i % _m; "
        "const long long b = raw1[s]; const long long e = s + 1 < _m ? raw1[s + 1] : _n; const auto* p = raw0 + row * _n; " +
        ct + " acc = ca_cast<" + ct + ">(p[b]); if (e > b) { for (long long k = b + 1; k < e; ++k) { " + ct +
        " x = ca_cast<" + ct + ">(p[k]); " + fold_step(l) + " } } ca_put(raw4[i], acc);";
    spec.body = body;
    spec.preamble = put_helper;
    spec.c_order_index = true;
    spec.id = ew::intern(spec);
    ew::operand ops[5] = {ew::operand::of_raw(rows, t), ew::operand::of_raw(idx, dtype::int64),
                          ew::operand::of_scalar(scalar::from_int(n), dtype::int64),
                          ew::operand::of_scalar(scalar::from_int(m), dtype::int64), ew::operand::of_raw(res, t)};
    ew::run(spec, ops, 4, ops + 4, 1, shape_t{nrows * m}, array());
  }
  shape_t moved = without_axis(a.shape(), ax);
  moved.push_back(m);
  array r = moveaxis(res.reshape(moved), {-1}, {ax});
  if (!out.defined()) return r.copy(order::K);
  if (out.shape() != r.shape()) throw value_error("output operand has the wrong shape for reduceat");
  array w = out;
  w.assign(r);
  return out;
}

void ufunc_at(const ufunc_def& u, array& a, const array& indices, const std::optional<ufunc_arg>& b) {
  if (u.nout != 1 || (u.nin == 2) != b.has_value() || u.nin > 2) {
    throw value_error(u.nin == 2 ? "second operand needed for ufunc" : "second operand provided when ufunc is unary");
  }
  // NumPy's order: the loop (TypeError), the indices (IndexError), the values' shape (ValueError).
  // Types as the ufunc resolves them for (a, b); results cast back into a's dtype.
  std::vector<ufunc_arg> args{ufunc_arg{a, scalar{}, false}};
  if (b) args.push_back(*b);
  ufunc_options opts;
  opts.rule = casting::unsafe;
  const ufunc_loop& l = resolve_loop(u, args, opts);
  // Indices along the first axis (integer array); each selects a[idx] (a sub-array for ndim > 1).
  if (!is_integer(indices.type())) throw index_error("arrays used as indices must be of integer (or boolean) type");
  array idx = indices.astype(dtype::int64, order::C, true).reshape(shape_t{indices.size()});
  std::int64_t n0 = a.ndim() == 0 ? 1 : a.shape()[0];
  if (a.ndim() == 0) throw index_error("too many indices for array: array is 0-dimensional, but 1 were indexed");
  std::int64_t inner = n0 == 0 ? 0 : a.size() / n0;
  std::int64_t m = idx.size();
  if (m > 0) {
    std::int64_t lo = amin(idx).host_value<std::int64_t>(), hi = amax(idx).host_value<std::int64_t>();
    if (lo < -n0 || hi >= n0) {
      throw index_error("index " + std::to_string(hi >= n0 ? hi : lo) + " is out of bounds for axis 0 with size " +
                        std::to_string(n0));
    }
  }
  shape_t vs{m};
  for (int d = 1; d < a.ndim(); ++d) vs.push_back(a.shape()[static_cast<std::size_t>(d)]);
  if (b && !b->is_scalar()) {
    bool fits = true;
    try {
      fits = broadcast_shapes(b->arr.shape(), vs) == vs;
    } catch (const value_error&) {
      fits = false;
    }
    if (!fits) throw value_error("array is not broadcastable to correct shape");
  }
  if (m == 0) return;
  array target = a.is_c_contiguous() ? a : a.copy(order::C);
  array vals;
  if (b) {
    array bv = b->is_scalar() ? full(shape_t{}, b->value.cast(l.in[1]), l.in[1])
                              : b->arr.astype(l.in[1], order::K, false);
    vals = bv.broadcast_to(vs).copy(order::C);
  }
  // Unbuffered: repeated indices apply one after another, as NumPy's; one thread per inner element walks the
  // index list in order, so no two threads touch the same element.
  std::string in0t = cname(l.in[0]);
  std::string body =
      "const long long _m = in1, _n0 = in2, _inner = in3; for (long long k = 0; k < _m; ++k) { long long j "
      "= raw0[k]; if (j < 0) j += _n0; auto& dst = raw4[j * _inner + i]; " +
      in0t + " in0 = ca_cast<" + in0t + ">(dst); ";
  if (b) body += cname(l.in[1]) + " in1 = ca_cast<" + cname(l.in[1]) + ">(raw5[k * _inner + i]); ";
  body += cname(l.out[0]) + " out0; { " + l.body + " } ca_put(dst, out0); }";
  const std::string kname = u.name + "_at";  // the spec holds views: the strings must outlive run()
  ew::kernel_spec spec;
  spec.name = kname;
  spec.body = body;
  spec.preamble = put_helper;
  spec.c_order_index = true;
  spec.id = ew::intern(spec);
  std::vector<ew::operand> ins{ew::operand::of_raw(idx, dtype::int64),
                               ew::operand::of_scalar(scalar::from_int(m), dtype::int64),
                               ew::operand::of_scalar(scalar::from_int(n0), dtype::int64),
                               ew::operand::of_scalar(scalar::from_int(inner), dtype::int64)};
  // raw4 is the target (operand index 4 = first output); raw5 the values, given after it as an input
  // would shift the numbering, so values ride as a second "output" the body only reads.
  std::vector<ew::operand> outs{ew::operand::of_raw(target, a.type())};
  if (b) outs.push_back(ew::operand::of_raw(vals, l.in[1]));
  if (inner > 0) ew::run(spec, ins, outs, shape_t{inner}, array());
  if (target.data() != a.data()) a.assign(target);
}

}  // namespace cuarray
