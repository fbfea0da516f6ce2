// Matrix and tensor products: matmul, dot, vdot, inner, outer, vecdot, tensordot, kron, cross, trace, linalg's.
#include "cuarray/products.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"
#include "src/linalg/cublas.hpp"
#include "src/linalg/products_internal.hpp"

namespace cuarray {

// ---------------------------------------------------------------------------------------------------------
// TF32 switch (Note [tf32])

namespace {
thread_local int tls_tf32 = -1;  // -1: not read from the environment yet
}

bool tf32_enabled() {
  if (tls_tf32 < 0) {
    const char* v = std::getenv("CUARRAY_TF32");
    tls_tf32 = (v && v[0] == '1' && v[1] == '\0') ? 1 : 0;
  }
  return tls_tf32 == 1;
}

bool set_tf32_enabled(bool enabled) {
  bool previous = tf32_enabled();
  tls_tf32 = enabled ? 1 : 0;
  return previous;
}

namespace detail {

std::string dtype_str(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

array as_type(const array& a, dtype t) { return a.type() == t ? a : a.astype(t, order::K); }

array diagonal_of(const array& a, std::int64_t offset, int axis1, int axis2) {
  const shape_t& sh = a.shape();
  const strides_t& st = a.strides();
  std::int64_t n1 = sh[axis1], n2 = sh[axis2], len, off = a.offset();
  if (offset >= 0) {
    len = std::max<std::int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) off += offset * st[axis2];
  } else {
    len = std::max<std::int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) off += -offset * st[axis1];
  }
  descriptor d;
  d.type = a.type();
  for (int i = 0; i < a.ndim(); ++i) {
    if (i == axis1 || i == axis2) continue;
    d.shape.push_back(sh[i]);
    d.strides.push_back(st[i]);
  }
  d.shape.push_back(len);
  d.strides.push_back(st[axis1] + st[axis2]);
  d.offset = off;
  return array(a.storage(), d);
}

array merge_batch(const array& a) {
  int nd = a.ndim();
  std::int64_t r = a.shape()[nd - 2], c = a.shape()[nd - 1], nb = 1;
  for (int i = 0; i < nd - 2; ++i) nb *= a.shape()[i];
  // The batch axes chain when stepping an outer one equals stepping the next across its extent.
  bool chain = true;
  std::int64_t stride = 0;
  int last = -1;
  for (int i = 0; i < nd - 2 && chain; ++i) {
    if (a.shape()[i] == 1) continue;
    if (last >= 0 && a.strides()[last] != a.strides()[i] * a.shape()[i]) chain = false;
    last = i;
    stride = a.strides()[i];
  }
  if (chain || nb == 0) {
    descriptor d;
    d.type = a.type();
    d.shape = shape_t{nb, r, c};
    d.strides = strides_t{stride, a.strides()[nd - 2], a.strides()[nd - 1]};
    d.offset = a.offset();
    return array(a.storage(), d);
  }
  return a.copy(order::C).reshape_view(shape_t{nb, r, c});
}

// Note [integer products]: integer and bool products have no BLAS; one generated kernel computes one output
// element per thread, reading A's row and B's column with element strides (any layout, broadcast batches of
// stride 0 included, so nothing is copied). Products and sums run in 64-bit unsigned arithmetic, which wraps
// to the same bits as NumPy's loops in the dtype (two's complement), so one body serves every integer dtype.
// Inputs: raw0 = A, raw1 = B, then k, n, m, both batch strides as one complex128 scalar (exact below 2^53: the
// engine takes at most ten inputs), A's row and column strides, B's column and row strides.
const ew::kernel_spec& int_gemm_spec(bool is_bool) {
  static const ew::kernel_spec specs[2] = {[] {
    ew::kernel_spec s;
    s.name = "int_gemm";
    s.body =
        "const long long col = (long long)i % in3; const long long t_ = (long long)i / in3;"
        "const long long row = t_ % in4; const long long bt = t_ / in4;"
        "const auto* pa = raw0 + bt * (long long)in5.re + row * in6;"
        "const auto* pb = raw1 + bt * (long long)in5.im + col * in8;"
        "unsigned long long acc = 0;"
        "for (long long q = 0; q < in2; ++q) acc += (unsigned long long)pa[q * in7] * (unsigned long long)pb[q * in9];"
        "out0 = (decltype(out0))acc;";
    s.c_order_index = true;
    s.id = ew::intern(s);
    return s;
                                           }(),
                                           [] {
    ew::kernel_spec s;
    s.name = "bool_gemm";
    s.body = "const long long col = (long long)i % in3; const long long t_ = (long long)i / in3;"
             "const long long row = t_ % in4; const long long bt = t_ / in4;"
             "const auto* pa = raw0 + bt * (long long)in5.re + row * in6;"
             "const auto* pb = raw1 + bt * (long long)in5.im + col * in8;"
             "bool acc = false;"
             "for (long long q = 0; q < in2; ++q) { if (pa[q * in7] && pb[q * in9]) { acc = true; break; } }"
             "out0 = acc;";
    s.c_order_index = true;
    s.id = ew::intern(s);
    return s;
  }()};
  return specs[is_bool ? 1 : 0];
}

namespace {

ew::operand i64(std::int64_t v) { return ew::operand::of_scalar(scalar::from_int(v), dtype::int64); }

bool elem_strides(const array& a, std::int64_t out[3]) {
  auto isz = static_cast<std::int64_t>(a.itemsize());
  if (reinterpret_cast<std::uintptr_t>(a.data()) % static_cast<std::uintptr_t>(isz) != 0) return false;
  for (int i = 0; i < 3; ++i) {
    if (a.strides()[i] % isz != 0) return false;
    out[i] = a.strides()[i] / isz;
  }
  return true;
}

// A compact copy of a 3-D operand; a repeated (stride-0) batch stays repeated and only its one matrix is copied.
array compact(const array& a) {
  if (a.shape()[0] > 1 && a.strides()[0] == 0) {
    descriptor d = a.desc();
    d.shape[0] = 1;
    array one = array(a.storage(), d).copy(order::C);
    descriptor r = one.desc();
    r.shape[0] = a.shape()[0];
    r.strides[0] = 0;
    return array(one.storage(), r);
  }
  return a.copy(order::C);
}

detail::gemm_operand operand_of(const array& a, const std::int64_t s[3], bool conj) {
  detail::gemm_operand g;
  g.data = a.data();
  g.rows = a.shape()[1];
  g.cols = a.shape()[2];
  g.batch_stride = a.shape()[0] > 1 ? s[0] : 0;
  g.row_stride = s[1];
  g.col_stride = s[2];
  g.conj = conj;
  return g;
}

}  // namespace

array batched_matmul(const array& a_peer, const array& b_peer, const array& dst, bool conj_a) {
  const dtype t = a_peer.type();
  // CuPy: the current device's cuBLAS handle computes into an array of the current device.
  const int device = current_device();
  const array a_in = on_current_device(a_peer), b_in = on_current_device(b_peer);
  if (dst.defined() && dst.device() != device) require_peer_access(device, dst.device());  // written in place
  std::int64_t nb = a_in.shape()[0], m = a_in.shape()[1], k = a_in.shape()[2], n = b_in.shape()[2];
  array c = dst.defined() ? dst : new_array(t, shape_t{nb, m, n}, order::C, device);
  if (c.size() == 0) return c;
  if (k == 0) {
    c.fill(scalar::from_int(0).cast(t));
    return c;
  }
  array a = a_in, b = b_in;
  if (!is_inexact(t)) {
    std::int64_t sa[3], sb[3];
    if (!elem_strides(a, sa)) a = compact(a), elem_strides(a, sa);
    if (!elem_strides(b, sb)) b = compact(b), elem_strides(b, sb);
    if (a.shape()[0] == 1) sa[0] = 0;
    if (b.shape()[0] == 1) sb[0] = 0;
    ew::run(int_gemm_spec(t == dtype::bool_),
            {ew::operand::of_raw(a, t), ew::operand::of_raw(b, t), i64(k), i64(n), i64(m),
             ew::operand::of_scalar(scalar::from_complex({static_cast<double>(sa[0]), static_cast<double>(sb[0])}),
                                    dtype::complex128),
             i64(sa[1]), i64(sa[2]), i64(sb[2]), i64(sb[1])},
            {ew::operand::of(c, t)}, c.shape());
    return c;
  }
  bool cj = conj_a && is_complex(t);
  array cv = c;
  // One matrix B for the whole batch: the batch folds into A's rows when they chain, one large GEMM instead of
  // many small ones (C is contiguous, so its rows chain too).
  if (nb > 1 && (b.strides()[0] == 0 || b.shape()[0] == 1)) {
    strides_t s2;
    if (nocopy_reshape_strides(a.shape(), a.strides(), shape_t{nb * m, k}, false, a.itemsize(), s2)) {
      descriptor da = a.desc(), db = b.desc(), dc = c.desc();
      da.shape = shape_t{1, nb * m, k};
      da.strides = strides_t{0, s2[0], s2[1]};
      db.shape[0] = 1;
      dc.shape = shape_t{1, nb * m, n};
      dc.strides = strides_t{0, c.strides()[1], c.strides()[2]};
      a = array(a.storage(), da);
      b = array(b.storage(), db);
      cv = array(c.storage(), dc);
      m *= nb;
      nb = 1;
    }
  }
  std::int64_t sa[3] = {0, 0, 0}, sb[3] = {0, 0, 0};
  detail::gemm_operand ga, gb;
  bool ok_a = elem_strides(a, sa) && gemm_layout_ok(ga = operand_of(a, sa, cj));
  if (!ok_a && cj) {
    // Conjugation needs the transposed form; a conjugated compact copy needs no flag at all.
    a = conjugate(a);
    cj = false;
    elem_strides(a, sa);
    ok_a = gemm_layout_ok(ga = operand_of(a, sa, false));
  }
  if (!ok_a) {  // cj is false here: a compact row-major copy always suits cuBLAS
    a = compact(a);
    elem_strides(a, sa);
    ga = operand_of(a, sa, false);
  }
  if (!(elem_strides(b, sb) && gemm_layout_ok(gb = operand_of(b, sb, false)))) {
    b = compact(b);
    elem_strides(b, sb);
    gb = operand_of(b, sb, false);
  }
  std::int64_t isz = static_cast<std::int64_t>(c.itemsize());
  cublas_gemm(t, device, nb, ga, gb, cv.data(), cv.strides()[1] / isz, 1, nb > 1 ? cv.strides()[0] / isz : m * n);
  return c;
}

}  // namespace detail

using detail::as_type;
using detail::dtype_str;

namespace {

array multiply_arrays(const array& a, const array& b, const array& out = array()) {
  ufunc_options o;
  if (out.defined()) o.out.push_back(out);
  return multiply(ufunc_arg(a), ufunc_arg(b), o);
}

shape_t slice_shape(const shape_t& s, int from, int to) {
  shape_t r;
  for (int i = from; i < to; ++i) r.push_back(s[i]);
  return r;
}

std::int64_t prod(const shape_t& s) {
  std::int64_t p = 1;
  for (std::int64_t v : s) p *= v;
  return p;
}

// The result array or `out`: written straight into `out` when it is a C-contiguous array of the result dtype
// that shares no memory with the inputs, else computed apart and copied in (casting as NumPy's out= does).
struct out_target {
  array out, dst;
  out_target(const array& out_, dtype t, const shape_t& shape, std::initializer_list<const array*> inputs) : out(out_) {
    if (!out.defined()) return;
    if (out.type() != t || !out.is_c_contiguous() || out.shape() != shape) return;
    for (const array* in : inputs)
      if (detail::may_overlap(out, *in)) return;
    dst = out;
  }
  /// The C-contiguous destination viewed as (1, rows, cols), or an undefined array.
  array as3(std::int64_t rows, std::int64_t cols) const {
    if (!dst.defined()) return array();
    return dst.reshape_view(shape_t{1, rows, cols});
  }
  array finish(const array& result) const {
    if (!out.defined()) return result;
    array o = out;
    if (!dst.defined()) o.assign(result);
    return o;
  }
};

// NumPy's "(2,3)" spelling of a shape in dot's and matmul's messages.
std::string compact_shape(const shape_t& s) {
  std::string r = "(";
  for (int i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

const char* const matmul_sig = "(n?,k),(k,m?)->(n?,m?)";

std::string remapped(const array& x, int ncore, int nbatch_total) {
  std::string s = compact_shape(x.shape()) + "->(";
  int nb = x.ndim() - ncore;
  (void)nbatch_total;
  for (int i = 0; i < nb; ++i) s += std::to_string(x.shape()[i]) + ",";
  for (int i = 0; i < ncore; ++i) s += std::string("newaxis") + (i + 1 < ncore ? "," : "");
  return s + ")";
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// matmul

// NumPy's order (a gufunc's): the loop and the casts of the inputs and the output (TypeError) before the
// operands' dimensions, core sizes and batch broadcast (ValueError).
array matmul(const array& a, const array& b, const array& out, std::optional<dtype> dtype_, casting rule) {
  dtype t = dtype_ ? *dtype_ : promote_types(a.type(), b.type());
  for (int i = 0; i < 2; ++i) {
    dtype from = (i == 0 ? a : b).type();
    if (!can_cast(from, t, rule)) {
      throw type_error("Cannot cast ufunc 'matmul' input " + std::to_string(i) + " from " + dtype_str(from) + " to " +
                       dtype_str(t) + " with casting rule '" + casting_name(rule) + "'");
    }
  }
  if (out.defined() && !can_cast(t, out.type(), rule)) {
    throw type_error("Cannot cast ufunc 'matmul' output from " + dtype_str(t) + " to " + dtype_str(out.type()) +
                     " with casting rule '" + casting_name(rule) + "'");
  }
  for (int i = 0; i < 2; ++i) {
    const array& x = i == 0 ? a : b;
    if (x.ndim() == 0) {
      throw value_error("matmul: Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature " + matmul_sig +
                        " requires 1)");
    }
  }
  const bool a_vec = a.ndim() == 1, b_vec = b.ndim() == 1;
  std::int64_t m = a_vec ? 1 : a.shape()[a.ndim() - 2], ka = a.shape()[a.ndim() - 1];
  std::int64_t kb = b_vec ? b.shape()[0] : b.shape()[b.ndim() - 2], n = b_vec ? 1 : b.shape()[b.ndim() - 1];
  if (ka != kb) {
    throw value_error("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
                      std::string(matmul_sig) + " (size " + std::to_string(kb) + " is different from " +
                      std::to_string(ka) + ")");
  }
  shape_t core_out;
  if (!a_vec) core_out.push_back(m);
  if (!b_vec) core_out.push_back(n);
  shape_t ba = slice_shape(a.shape(), 0, a_vec ? 0 : a.ndim() - 2);
  shape_t bb = slice_shape(b.shape(), 0, b_vec ? 0 : b.ndim() - 2);
  shape_t batch;
  try {
    batch = broadcast_shapes(ba, bb);
  } catch (const value_error&) {
    throw value_error("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                      remapped(a, a_vec ? 1 : 2, 0) + " " + remapped(b, b_vec ? 1 : 2, 0) + "  and requested shape " +
                      compact_shape(core_out));
  }
  if (out.defined()) {
    int oc = static_cast<int>(core_out.size());
    if (out.ndim() < oc) {
      throw value_error("matmul: Output operand 0 does not have enough dimensions (has " + std::to_string(out.ndim()) +
                        ", gufunc core with signature " + matmul_sig + " requires " + std::to_string(oc) + ")");
    }
    for (int i = 0; i < oc; ++i) {
      std::int64_t got = out.shape()[out.ndim() - oc + i];
      if (got != core_out[i]) {
        throw value_error("matmul: Output operand 0 has a mismatch in its core dimension " + std::to_string(i) +
                          ", with gufunc signature " + matmul_sig + " (size " + std::to_string(got) +
                          " is different from " + std::to_string(core_out[i]) + ")");
      }
    }
    shape_t bo = slice_shape(out.shape(), 0, out.ndim() - oc);
    shape_t full;
    try {
      full = broadcast_shapes(batch, bo);
    } catch (const value_error&) {
      full = shape_t{-1};
    }
    if (full != bo) {
      throw value_error("non-broadcastable output operand with shape " + shape_to_string(out.shape()) +
                        " doesn't match the broadcast shape " + shape_to_string(full == shape_t{-1} ? batch : full));
    }
    batch = bo;
  }
  shape_t result_shape = batch;
  for (std::int64_t v : core_out) result_shape.push_back(v);

  // 3-D operands: vectors become 1 x k rows / k x 1 columns, batches broadcast then merge.
  array a2 = as_type(a, t), b2 = as_type(b, t);
  if (a_vec) {
    descriptor d = a2.desc();
    d.shape = shape_t{1, ka};
    d.strides = strides_t{0, a2.strides()[0]};
    a2 = array(a2.storage(), d);
  }
  if (b_vec) {
    descriptor d = b2.desc();
    d.shape = shape_t{kb, 1};
    d.strides = strides_t{b2.strides()[0], static_cast<std::int64_t>(b2.itemsize())};
    b2 = array(b2.storage(), d);
  }
  shape_t fa = batch, fb = batch;
  fa.push_back(m), fa.push_back(ka);
  fb.push_back(kb), fb.push_back(n);
  array a3 = detail::merge_batch(a2.broadcast_to(fa));
  array b3 = detail::merge_batch(b2.broadcast_to(fb));
  std::int64_t nb = prod(batch);
  out_target target(out, t, result_shape, {&a, &b});
  array dst = target.dst.defined() ? target.dst.reshape_view(shape_t{nb, m, n}) : array();
  array c = detail::batched_matmul(a3, b3, dst);
  return target.finish(c.reshape_view(result_shape));
}

array matmul(const array& a, const array& b) { return matmul(a, b, array(), std::nullopt, casting::same_kind); }

// ---------------------------------------------------------------------------------------------------------
// dot, inner, vdot, outer, vecdot

namespace {

// (M, K) @ (K, N) as 2-D arrays of dtype t (views where possible), into `target`'s destination when it has one.
array gemm2d(const array& a2, const array& b2, const out_target& target) {
  descriptor da = a2.desc(), db = b2.desc();
  da.shape.insert(0, 1), da.strides.insert(0, 0);
  db.shape.insert(0, 1), db.strides.insert(0, 0);
  array dst = target.as3(a2.shape()[0], b2.shape()[1]);
  array c = detail::batched_matmul(array(a2.storage(), da), array(b2.storage(), db), dst);
  return c.reshape_view(shape_t{a2.shape()[0], b2.shape()[1]});
}

void check_dot_out(const array& out, dtype t, const shape_t& shape) {
  if (!out.defined()) return;
  if (out.type() != t || out.ndim() != shape.size() || !out.is_c_contiguous()) {
    throw value_error("output array is not acceptable (must have the right datatype, number of dimensions, and be a "
                      "C-Array)");
  }
  if (out.shape() != shape) throw value_error("output array has wrong dimensions");
}

}  // namespace

array dot(const array& a, const array& b, const array& out) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply_arrays(a, b, out);
  int kb_dim = b.ndim() == 1 ? 0 : b.ndim() - 2;
  std::int64_t ka = a.shape()[a.ndim() - 1], kb = b.shape()[kb_dim];
  if (ka != kb) {
    throw value_error("shapes " + compact_shape(a.shape()) + " and " + compact_shape(b.shape()) +
                      " not aligned: " + std::to_string(ka) + " (dim " + std::to_string(a.ndim() - 1) +
                      ") != " + std::to_string(kb) + " (dim " + std::to_string(kb_dim) + ")");
  }
  dtype t = promote_types(a.type(), b.type());
  shape_t shape = slice_shape(a.shape(), 0, a.ndim() - 1);
  for (int i = 0; i < b.ndim(); ++i)
    if (i != kb_dim) shape.push_back(b.shape()[i]);
  check_dot_out(out, t, shape);
  std::int64_t M = prod(slice_shape(a.shape(), 0, a.ndim() - 1)), N = 1;
  for (int i = 0; i < b.ndim(); ++i)
    if (i != kb_dim) N *= b.shape()[i];
  array A = as_type(a, t).reshape(shape_t{M, ka});
  array B = as_type(b, t);
  if (b.ndim() == 1) {
    B = B.reshape(shape_t{kb, 1});
  } else if (b.ndim() > 2) {
    std::vector<int> perm{b.ndim() - 2};
    for (int i = 0; i < b.ndim(); ++i)
      if (i != b.ndim() - 2) perm.push_back(i);
    B = B.transpose(perm).reshape(shape_t{kb, N});
  }
  out_target target(out, t, shape, {&a, &b});
  return target.finish(gemm2d(A, B, target).reshape(shape));
}

array inner(const array& a, const array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply_arrays(a, b);
  std::int64_t ka = a.shape()[a.ndim() - 1], kb = b.shape()[b.ndim() - 1];
  if (ka != kb) {
    // NumPy reports b with its last axis moved first, as its dot sees it.
    shape_t bm{kb};
    for (int i = 0; i < b.ndim() - 1; ++i) bm.push_back(b.shape()[i]);
    throw value_error("shapes " + compact_shape(a.shape()) + " and " + compact_shape(bm) +
                      " not aligned: " + std::to_string(ka) + " (dim " + std::to_string(a.ndim() - 1) +
                      ") != " + std::to_string(kb) + " (dim 0)");
  }
  dtype t = promote_types(a.type(), b.type());
  shape_t sa = slice_shape(a.shape(), 0, a.ndim() - 1), sb = slice_shape(b.shape(), 0, b.ndim() - 1), shape = sa;
  for (std::int64_t v : sb) shape.push_back(v);
  array A = as_type(a, t).reshape(shape_t{prod(sa), ka});
  array B = as_type(b, t).reshape(shape_t{prod(sb), kb}).transpose();
  return gemm2d(A, B, out_target(array(), t, shape, {})).reshape(shape);
}

array vdot(const array& a, const array& b) {
  if (a.size() != b.size())
    throw value_error("vdot: vectors have different lengths (" + std::to_string(a.size()) + " and " +
                      std::to_string(b.size()) + ")");
  dtype t = promote_types(a.type(), b.type());
  std::int64_t n = a.size();
  array A = as_type(a, t).reshape(shape_t{1, 1, n});
  array B = as_type(b, t).reshape(shape_t{1, n, 1});
  return detail::batched_matmul(A, B, array(), true).reshape_view(shape_t{});
}

array outer(const array& a, const array& b, const array& out) {
  array A = ravel(a), B = ravel(b);
  return multiply_arrays(A.reshape(shape_t{A.size(), 1}), B.reshape(shape_t{1, B.size()}), out);
}

array vecdot(const array& a, const array& b, int axis, const array& out) {
  for (int i = 0; i < 2; ++i) {
    if ((i == 0 ? a : b).ndim() == 0) {
      throw value_error("vecdot: Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature (n),(n)->() requires 1)");
    }
  }
  int axa = normalize_axis(axis, a.ndim()), axb = normalize_axis(axis, b.ndim());
  array A = moveaxis(a, {axa}, {-1}), B = moveaxis(b, {axb}, {-1});
  std::int64_t na = A.shape()[A.ndim() - 1], nb = B.shape()[B.ndim() - 1];
  if (na != nb) {
    throw value_error("vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                      "(n),(n)->() (size " +
                      std::to_string(nb) + " is different from " + std::to_string(na) + ")");
  }
  dtype t = promote_types(a.type(), b.type());
  A = as_type(A, t);
  B = as_type(B, t);
  if (is_complex(t)) A = conjugate(A);
  ufunc_options mo;
  mo.dtype_ = t;
  array p = multiply(ufunc_arg(A), ufunc_arg(B), mo);
  reduce_options ro;
  ro.axis = std::vector<int>{-1};
  ro.out = out;
  if (t == dtype::bool_) return any(p, ro);
  ro.dtype_ = t;
  return sum(p, ro);
}

// ---------------------------------------------------------------------------------------------------------
// tensordot, kron, cross, trace

array tensordot(const array& a, const array& b, const std::vector<int>& axes_a_in, const std::vector<int>& axes_b_in) {
  auto has_dup = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) != v.end();
  };
  if (has_dup(axes_a_in) || has_dup(axes_b_in)) throw value_error("duplicate axes are not allowed in tensordot");
  if (axes_a_in.size() != axes_b_in.size()) throw value_error("shape-mismatch for sum");
  std::vector<int> axes_a = axes_a_in, axes_b = axes_b_in;
  for (std::size_t k = 0; k < axes_a.size(); ++k) {
    // NumPy indexes the shape tuples with the raw axes first.
    if (axes_a[k] >= a.ndim() || axes_a[k] < -a.ndim() || axes_b[k] >= b.ndim() || axes_b[k] < -b.ndim())
      throw index_error("tuple index out of range");
    if (axes_a[k] < 0) axes_a[k] += a.ndim();
    if (axes_b[k] < 0) axes_b[k] += b.ndim();
    if (a.shape()[axes_a[k]] != b.shape()[axes_b[k]]) throw value_error("shape-mismatch for sum");
  }
  if (has_dup(axes_a) || has_dup(axes_b)) throw value_error("duplicate axes are not allowed in tensordot");
  std::vector<int> perm_a, perm_b;
  shape_t free_a, free_b, shape;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(axes_a.begin(), axes_a.end(), i) == axes_a.end()) perm_a.push_back(i), free_a.push_back(a.shape()[i]);
  for (int i = 0; i < b.ndim(); ++i)
    if (std::find(axes_b.begin(), axes_b.end(), i) == axes_b.end()) free_b.push_back(b.shape()[i]);
  std::int64_t K = 1;
  for (int ax : axes_a) perm_a.push_back(ax), K *= a.shape()[ax];
  for (int ax : axes_b) perm_b.push_back(ax);
  for (int i = 0; i < b.ndim(); ++i)
    if (std::find(axes_b.begin(), axes_b.end(), i) == axes_b.end()) perm_b.push_back(i);
  shape = free_a;
  for (std::int64_t v : free_b) shape.push_back(v);
  dtype t = promote_types(a.type(), b.type());
  array A = as_type(a, t).transpose(perm_a).reshape(shape_t{prod(free_a), K});
  array B = as_type(b, t).transpose(perm_b).reshape(shape_t{K, prod(free_b)});
  return gemm2d(A, B, out_target(array(), t, shape, {})).reshape(shape);
}

array tensordot(const array& a, const array& b, std::int64_t axes) {
  // NumPy's range(-axes, 0) and range(axes): a negative count sums over nothing.
  std::vector<int> aa, bb;
  for (std::int64_t i = -axes; i < 0; ++i) aa.push_back(static_cast<int>(i));
  for (std::int64_t i = 0; i < axes; ++i) bb.push_back(static_cast<int>(i));
  return tensordot(a, b, aa, bb);
}

array kron(const array& a_in, const array& b) {
  int ndb = b.ndim();
  array a = a_in;
  if (a.ndim() < ndb) {
    shape_t s(ndb - a.ndim(), 1);
    for (std::int64_t v : a.shape()) s.push_back(v);
    a = reshape(a, s);
  }
  int nda = a.ndim(), nd = std::max(nda, ndb);
  if (nda == 0 || ndb == 0) return multiply_arrays(a, b);
  shape_t as_(std::max(0, ndb - nda), 1), bs(std::max(0, nda - ndb), 1);
  for (std::int64_t v : a.shape()) as_.push_back(v);
  for (std::int64_t v : b.shape()) bs.push_back(v);
  // Interleave: a's axes at even positions with unit axes between, b's at odd ones.
  shape_t ea, eb, rs;
  for (int i = 0; i < nd; ++i) {
    ea.push_back(as_[i]), ea.push_back(1);
    eb.push_back(1), eb.push_back(bs[i]);
    rs.push_back(as_[i] * bs[i]);
  }
  array r = multiply_arrays(reshape(a, ea), reshape(b, eb));
  return r.reshape(rs);
}

namespace {
int axis_with_prefix(int axis, int ndim, const char* prefix) {
  try {
    return normalize_axis(axis, ndim);
  } catch (const axis_error& e) {
    throw axis_error(std::string(prefix) + ": " + e.what());
  }
}
array component(const array& x, std::int64_t i) {
  descriptor d = x.desc();
  d.offset += i * d.strides[d.shape.size() - 1];
  d.shape.resize(d.shape.size() - 1);
  d.strides.resize(d.strides.size() - 1);
  return array(x.storage(), d);
}
}  // namespace

array cross(const array& a_in, const array& b_in, int axisa, int axisb, int axisc, std::optional<int> axis) {
  if (axis) axisa = axisb = axisc = *axis;
  if (a_in.ndim() < 1 || b_in.ndim() < 1) throw value_error("At least one array has zero dimension");
  axisa = axis_with_prefix(axisa, a_in.ndim(), "axisa");
  axisb = axis_with_prefix(axisb, b_in.ndim(), "axisb");
  array a = moveaxis(a_in, {axisa}, {-1}), b = moveaxis(b_in, {axisb}, {-1});
  std::int64_t la = a.shape()[a.ndim() - 1], lb = b.shape()[b.ndim() - 1];
  // NumPy 2.5 removed the 2-element vectors that 2.0 deprecated: 3-element vectors only.
  if (la != 3 || lb != 3) {
    throw value_error("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                      std::to_string(la) + " and " + std::to_string(lb) + " dimensional instead.");
  }
  shape_t shape = broadcast_shapes(slice_shape(a.shape(), 0, a.ndim() - 1), slice_shape(b.shape(), 0, b.ndim() - 1));
  shape.push_back(3);
  axisc = axis_with_prefix(axisc, shape.size(), "axisc");
  dtype t = promote_types(a.type(), b.type());
  array cp = detail::new_array(t, shape, order::C, a.device());
  a = as_type(a, t);
  b = as_type(b, t);
  array a0 = component(a, 0), a1 = component(a, 1), b0 = component(b, 0), b1 = component(b, 1);
  auto sub_into = [&](const array& dst, const array& x, const array& y) {  // dst -= x * y
    array tmp = multiply_arrays(x, y);
    ufunc_options o;
    o.out.push_back(dst);
    subtract(ufunc_arg(dst), ufunc_arg(tmp), o);
  };
  array a2 = component(a, 2), b2 = component(b, 2);
  array c0 = component(cp, 0), c1 = component(cp, 1), c2 = component(cp, 2);
  multiply_arrays(a1, b2, c0);
  sub_into(c0, a2, b1);
  multiply_arrays(a2, b0, c1);
  sub_into(c1, a0, b2);
  multiply_arrays(a0, b1, c2);
  sub_into(c2, a1, b0);
  return moveaxis(cp, {-1}, {axisc});
}

array trace(const array& a, std::int64_t offset, int axis1, int axis2, std::optional<dtype> dtype_, const array& out) {
  if (a.ndim() < 2) throw value_error("diag requires an array of at least two dimensions");
  int x = axis_with_prefix(axis1, a.ndim(), "axis1"), y = axis_with_prefix(axis2, a.ndim(), "axis2");
  if (x == y) throw value_error("axis1 and axis2 cannot be the same");
  array d = detail::diagonal_of(a, offset, x, y);
  reduce_options ro;
  ro.axis = std::vector<int>{-1};
  ro.dtype_ = dtype_;
  ro.out = out;
  return sum(d, ro);
}

// ---------------------------------------------------------------------------------------------------------
// linalg

namespace linalg {

namespace {
void assert_stacked_square(const array& a) {
  if (a.ndim() < 2) {
    throw linalg_error(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
  }
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw linalg_error("Last 2 dimensions of the array must be square");
}
}  // namespace

array matrix_power(const array& a_in, std::int64_t n) {
  assert_stacked_square(a_in);
  array a = a_in;
  if (n < 0) {
    a = inv(a_in);                        // linalg_error("Singular matrix") as NumPy's
    n = n == INT64_MIN ? INT64_MAX : -n;  // NumPy's abs(n) is exact; one power more of a huge count changes nothing
  }
  if (n == 0) {
    array r = detail::new_array(a.type(), a.shape(), order::C, a.device());
    std::int64_t s = a.shape()[a.ndim() - 1];
    r.assign(eye(s, s, 0, a.type()));
    return r;
  }
  if (n == 1) return a;
  if (n == 2) return cuarray::matmul(a, a);
  if (n == 3) return cuarray::matmul(cuarray::matmul(a, a), a);
  array z, result;
  while (n > 0) {
    z = z.defined() ? cuarray::matmul(z, z) : a;
    std::int64_t bit = n % 2;
    n /= 2;
    if (bit) result = result.defined() ? cuarray::matmul(result, z) : z;
  }
  return result;
}

array multi_dot(const std::vector<array>& arrays_in, const array& out) {
  std::size_t n = arrays_in.size();
  if (n < 2) throw value_error("Expecting at least two arrays.");
  if (n == 2) return cuarray::dot(arrays_in[0], arrays_in[1], out);
  std::vector<array> arrays = arrays_in;
  int nd_first = arrays[0].ndim(), nd_last = arrays[n - 1].ndim();
  if (nd_first == 1) arrays[0] = arrays[0].reshape(shape_t{1, arrays[0].shape()[0]});
  if (nd_last == 1) arrays[n - 1] = arrays[n - 1].reshape(shape_t{1, arrays[n - 1].shape()[0]}).transpose();
  for (const array& x : arrays) {
    if (x.ndim() != 2) {
      throw linalg_error(std::to_string(x.ndim()) + "-dimensional array given. Array must be two-dimensional");
    }
  }
  array result;
  if (n == 3) {
    const array &A = arrays[0], &B = arrays[1], &C = arrays[2];
    double a0 = A.shape()[0], a1b0 = A.shape()[1], b1c0 = C.shape()[0], c1 = C.shape()[1];
    double cost1 = a0 * b1c0 * (a1b0 + c1), cost2 = a1b0 * c1 * (a0 + b1c0);
    result = cost1 < cost2 ? cuarray::dot(cuarray::dot(A, B), C, out) : cuarray::dot(A, cuarray::dot(B, C), out);
  } else {
    // NumPy's matrix-chain order (Cormen), ties resolved the same way.
    std::vector<double> p;
    for (const array& x : arrays) p.push_back(static_cast<double>(x.shape()[0]));
    p.push_back(static_cast<double>(arrays[n - 1].shape()[1]));
    std::vector<std::vector<double>> m(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<std::size_t>> s(n, std::vector<std::size_t>(n, 0));
    for (std::size_t l = 1; l < n; ++l) {
      for (std::size_t i = 0; i + l < n; ++i) {
        std::size_t j = i + l;
        m[i][j] = std::numeric_limits<double>::infinity();
        for (std::size_t k = i; k < j; ++k) {
          double q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
          if (q < m[i][j]) m[i][j] = q, s[i][j] = k;
        }
      }
    }
    std::function<array(std::size_t, std::size_t, const array&)> chain = [&](std::size_t i, std::size_t j,
                                                                             const array& o) -> array {
      if (i == j) return arrays[i];
      return cuarray::dot(chain(i, s[i][j], array()), chain(s[i][j] + 1, j, array()), o);
    };
    result = chain(0, n - 1, out);
  }
  if (nd_first == 1 && nd_last == 1) return result.reshape(shape_t{});
  if (nd_first == 1 || nd_last == 1) return ravel(result);
  return result;
}

array matmul(const array& a, const array& b) { return cuarray::matmul(a, b); }

array outer(const array& a, const array& b) {
  if (a.ndim() != 1 || b.ndim() != 1) {
    throw value_error("Input arrays must be one-dimensional, but they are x1.ndim=" + std::to_string(a.ndim()) +
                      " and x2.ndim=" + std::to_string(b.ndim()) + ".");
  }
  return cuarray::outer(a, b);
}

array tensordot(const array& a, const array& b, std::int64_t axes) { return cuarray::tensordot(a, b, axes); }
array tensordot(const array& a, const array& b, const std::vector<int>& axes_a, const std::vector<int>& axes_b) {
  return cuarray::tensordot(a, b, axes_a, axes_b);
}

array vecdot(const array& a, const array& b, int axis) { return cuarray::vecdot(a, b, axis); }

array cross(const array& a, const array& b, int axis) {
  auto len = [axis](const array& x) -> std::int64_t {
    if (x.ndim() == 0) throw index_error("tuple index out of range");
    int ax = axis < 0 ? axis + x.ndim() : axis;
    if (ax < 0 || ax >= x.ndim()) throw index_error("tuple index out of range");
    return x.shape()[ax];
  };
  std::int64_t la = len(a), lb = len(b);
  if (la != 3 || lb != 3) {
    throw value_error("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                      std::to_string(la) + " and " + std::to_string(lb) + " dimensional instead.");
  }
  return cuarray::cross(a, b, -1, -1, -1, axis);
}

array diagonal(const array& a, std::int64_t offset) {
  if (a.ndim() < 2) throw value_error("diag requires an array of at least two dimensions");
  return detail::diagonal_of(a, offset, a.ndim() - 2, a.ndim() - 1);
}

array trace(const array& a, std::int64_t offset, std::optional<dtype> dtype_) {
  return cuarray::trace(a, offset, -2, -1, dtype_);
}

}  // namespace linalg

}  // namespace cuarray
