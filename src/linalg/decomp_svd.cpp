// Singular value decomposition (the polar route of svd_polar.cpp, Xgesvdp, Xgesvd, gesvdjBatched) and what
// builds on it: pinv, lstsq, matrix_rank.
#include <algorithm>
#include <cmath>
#include <limits>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/memory.hpp"
#include "cuarray/products.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/sorting.hpp"
#include "src/core/internal.hpp"
#include "src/linalg/cusolver.hpp"
#include "src/linalg/decomp_common.hpp"
#include "src/linalg/svd_polar.hpp"

namespace cuarray::linalg {

namespace cs = ::cuarray::detail::cusolver;
using namespace detail;

namespace {

// cuSOLVER's batched Jacobi SVD takes matrices up to 32 x 32.
constexpr std::int64_t gesvdj_batched_max = 32;

/// Which U QR-iteration Xgesvd computes (LAPACK's jobu): none, economy (M x N), full (M x M), or economy written
/// over the input (`u` unused; Note [svd low memory]).
enum class gesvd_u : signed char { none = 'N', economy = 'S', full = 'A', over_input = 'O' };

/// One tall matrix (M >= N, column-major at `w`) through QR-iteration Xgesvd: U as `ju` says and, with any U, VT
/// (N x N) column-major; S (N). `w` is overwritten.
void gesvd_one(cs::handle& h, int device, dtype t, std::int64_t M, std::int64_t N, void* w, void* s, void* u, void* vt,
               gesvd_u ju, int* info) {
  const cs::api& api = cs::get();
  cudaDataType ct = cs::data_type(t), rct = cs::data_type(real_of(t));
  const auto job_u = static_cast<signed char>(ju);
  // VT is N x N whether asked as 'A' or 'S' (M >= N); the low-memory route asks 'S', as CuPy's svd does.
  const signed char job_vt = ju == gesvd_u::none ? 'N' : ju == gesvd_u::over_input ? 'S' : 'A';
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(api.xgesvd_buffer(h.get(), h.params(), job_u, job_vt, M, N, ct, w, M, rct, s, ct, u, M, ct, vt, N, ct,
                              &dev_bytes, &host_bytes),
            "cusolverDnXgesvd_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  cs::check(api.xgesvd(h.get(), h.params(), job_u, job_vt, M, N, ct, w, M, rct, s, ct, u, M, ct, vt, N, ct, work.data(),
                       dev_bytes, host_work.data(), host_bytes, info),
            "cusolverDnXgesvd");
}

// Where the polar route ran out of memory, the segments it leaves cached in the pool (its arena, the outputs)
// would be split for the low-memory route's first buffers, and so held, while QR iteration's workspace then needs
// a segment of its own beside them: they go back to the device first (the pool itself would release them only
// once over its limit, after the split). Other allocators keep their own policy.
void release_cached_memory() {
  if (auto* pool = dynamic_cast<memory_pool*>(&current_allocator())) pool->free_all_blocks();
}

svd_result svd_general(const array& a, bool full_matrices, bool compute_uv) {
  assert_stacked_2d(a);
  dtype t = result_type({a.type()});
  dtype rt = real_of(t);
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  shape_t bshape = batch_shape(a);
  std::int64_t batch = shape_size(bshape);
  if (batch == 0 || k == 0) {
    svd_result r;
    r.S = empty(with_tail(bshape, {k}), rt);
    if (compute_uv) {
      r.U = full_matrices ? eye_stack(bshape, m, m, t) : zeros(with_tail(bshape, {m, k}), t);
      r.Vh = full_matrices ? eye_stack(bshape, n, n, t) : zeros(with_tail(bshape, {k, n}), t);
    }
    return r;
  }
  // NumPy raises for NaN and inf; cuSOLVER's iterations are kept away from them.
  if (any_nonfinite(a)) throw linalg_error("SVD did not converge");

  // Note [svd algorithm]: work on the tall one of A and A^H (M >= N), so every routine sees its preferred
  // shape. The column-major image of A^H is conj(A) in C order.
  const bool tall = m >= n;
  const std::int64_t M = std::max(m, n), N = k;
  auto working_copy = [&] {
    if (tall) return to_colmajor(a, t);
    if (!is_complex(t)) return a.astype(t, order::C, true);
    ufunc_options c_order;
    c_order.out_order = order::C;
    return conjugate(a, c_order);
  };
  array w = working_copy();
  const bool full_u = compute_uv && full_matrices && m != n;
  array s = ::cuarray::detail::new_array(rt, with_tail(bshape, {N}), order::C, device);
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  array ubuf, vhbuf;      // column-major U (..., cols, M); vhbuf: V^H of T read in C order (..., N, N)
  bool vh_is_vt = false;  // whether vhbuf holds VT column-major (gesvd) rather than V column-major
  const cs::api& api = cs::get();
  cs::handle h(device);
  const std::int64_t s_bytes = N * static_cast<std::int64_t>(itemsize(rt));

  if (batch > 1 && M <= gesvdj_batched_max) {
    int ti = cs::type_index(t), lwork = 0;
    ubuf = ::cuarray::detail::new_array(t, with_tail(bshape, {M, M}), order::C, device);
    vhbuf = ::cuarray::detail::new_array(t, with_tail(bshape, {N, N}), order::C, device);
    cusolverEigMode_t jobz = compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    cs::check(api.gesvdj_batched_buffer[ti](h.get(), jobz, static_cast<int>(M), static_cast<int>(N), w.data(),
                                            static_cast<int>(M), s.data(), ubuf.data(), static_cast<int>(M),
                                            vhbuf.data(), static_cast<int>(N), &lwork, h.gesvdj(),
                                            static_cast<int>(batch)),
              "cusolverDngesvdjBatched_bufferSize");
    array work = workspace(static_cast<std::size_t>(std::max(lwork, 1)) * itemsize(t), device);
    cs::check(api.gesvdj_batched[ti](h.get(), jobz, static_cast<int>(M), static_cast<int>(N), w.data(),
                                     static_cast<int>(M), s.data(), ubuf.data(), static_cast<int>(M), vhbuf.data(),
                                     static_cast<int>(N), work.data(), std::max(lwork, 1),
                                     static_cast<int*>(info.data()), h.gesvdj(), static_cast<int>(batch)),
              "cusolverDngesvdjBatched");
    for (int v : read_info(info)) {
      if (v > 0) throw linalg_error("SVD did not converge");
    }
    if (!full_matrices || !compute_uv) ubuf = slice_axis(ubuf, -2, 0, N);
  } else {
    const std::int64_t ucols = full_u ? M : N;
    // Note [svd low memory]: the polar route of Note [polar svd] peaks at about 5.03 n^2 for a square n x n
    // (the working copy and one arena), Xgesvdp's at 8.2 n^2 (the copy, U, V and its workspace of 5.2 n^2).
    // Where the one taken does not fit (the device is full, or the pool's limit says no), QR-iteration Xgesvd
    // writes U over the working copy instead, beside VT and its 3.1 n^2 workspace: 5.1 n^2, CuPy's own peak.
    const bool polar = compute_uv && !full_u && N >= polar_svd_min_n();
    std::vector<char> redo(static_cast<std::size_t>(batch), 0);
    size_t pdev = 0, phost = 0;
    array pwork;
    bool low_memory = false;
    // After the polar route ran out of memory: its buffers go, the pool gives its cached segments back, and the
    // working copy, which the route overwrote, is made again for the low-memory route.
    auto reset_for_low_memory = [&] {
      ubuf = array();
      vhbuf = array();
      w = array();
      release_cached_memory();
      w = working_copy();
    };
    if (polar) {
      try {
        polar_svd(a, tall, w, s, ubuf, vhbuf, redo);
      } catch (const out_of_memory_error&) {
        low_memory = true;
        reset_for_low_memory();
      }
    } else if (!full_u) {
      try {
        ubuf = ::cuarray::detail::new_array(t, with_tail(bshape, {ucols, M}), order::C, device);
        vhbuf = ::cuarray::detail::new_array(t, with_tail(bshape, {N, N}), order::C, device);
        cs::check(
            api.xgesvdp_buffer(h.get(), h.params(), compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR,
                               1, M, N, cs::data_type(t), w.data(), M, cs::data_type(rt), s.data(), cs::data_type(t),
                               ubuf.data(), M, cs::data_type(t), vhbuf.data(), N, cs::data_type(t), &pdev, &phost),
            "cusolverDnXgesvdp_bufferSize");
        pwork = workspace(pdev, device);
      } catch (const out_of_memory_error&) {
        low_memory = true;
        ubuf = array();
        vhbuf = array();
      }
    } else {
      ubuf = ::cuarray::detail::new_array(t, with_tail(bshape, {ucols, M}), order::C, device);
      vhbuf = ::cuarray::detail::new_array(t, with_tail(bshape, {N, N}), order::C, device);
    }
    auto low_memory_route = [&] {
      if (compute_uv) vhbuf = ::cuarray::detail::new_array(t, with_tail(bshape, {N, N}), order::C, device);
      for (std::int64_t i = 0; i < batch; ++i) {
        gesvd_one(h, device, t, M, N, matrix_ptr(w, i), static_cast<char*>(s.data()) + i * s_bytes, nullptr,
                  compute_uv ? matrix_ptr(vhbuf, i) : nullptr, compute_uv ? gesvd_u::over_input : gesvd_u::none,
                  static_cast<int*>(info.data()) + i);
      }
      for (int v : read_info(info)) {
        if (v > 0) throw linalg_error("SVD did not converge");
      }
      ubuf = w;  // U (M x N column-major) now lives in the working copy
      vh_is_vt = true;
    };
    // Xgesvdp's or the polar route's decomposition, then the redo of Note [gesvdp fallback].
    auto finish_fast_route = [&] {
      std::vector<double> err_sigma(static_cast<std::size_t>(batch), 0.0);
      if (!polar) {
        cudaDataType ct = cs::data_type(t), rct = cs::data_type(rt);
        cusolverEigMode_t jobz = compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        size_t dev_bytes = pdev, host_bytes = phost;
        array work = std::move(pwork);
        std::vector<unsigned char> host_work(host_bytes);
        for (std::int64_t i = 0; i < batch; ++i) {
          cs::check(api.xgesvdp(h.get(), h.params(), jobz, 1, M, N, ct, matrix_ptr(w, i), M, rct,
                                static_cast<char*>(s.data()) + i * s_bytes, ct, matrix_ptr(ubuf, i), M, ct,
                                matrix_ptr(vhbuf, i), N, ct, work.data(), dev_bytes, host_work.data(), host_bytes,
                                static_cast<int*>(info.data()) + i, &err_sigma[static_cast<std::size_t>(i)]),
                    "cusolverDnXgesvdp");
        }
        // Gesvdp overwrote w and is done with its workspace (the pool reuses both in stream order): a redo
        // below then allocates its fresh copy, VT and Xgesvd's workspace in their place instead of beside them.
        std::vector<int> inf = read_info(info);
        for (std::int64_t i = 0; i < batch; ++i) {
          if (inf[static_cast<std::size_t>(i)] != 0) redo[static_cast<std::size_t>(i)] = 1;
        }
      }
      w = array();
      // Note [gesvdp fallback]: where A has singular values near zero, Xgesvdp adds a perturbation of size
      // err_sigma so that its polar factor stays unitary, which moves those singular values to about
      // err_sigma (GPU runs: 1e-4 * smax in float32, far above eps * smax in float64 too): reconstructions
      // fail, and rank, pinv and lstsq cutoffs misjudge them. Matrices perturbed beyond rounding level
      // (N * eps * smax, backward-stable SVD's error), ill-conditioned ones (smin <= sqrt(eps) * smax, which
      // also catches a perturbed result should err_sigma under-report) and unconverged ones are redone with
      // QR-iteration Xgesvd, whatever compute_uv. The polar route of Note [polar svd] has a conditioning bound
      // of its own (polar_svd_tau), which its QDWH start needs. The singular values come along with the info read.
      std::vector<double> sv(static_cast<std::size_t>(batch * N));
      array s64 = rt == dtype::float64 ? s : s.astype(dtype::float64);
      s64.copy_to_host(sv);
      const double eps = eps_of(rt), ill = polar ? polar_svd_tau(rt) : std::sqrt(eps);
      array fresh;  // the routes overwrote w
      for (std::int64_t i = 0; i < batch; ++i) {
        const double smax = sv[static_cast<std::size_t>(i * N)], smin = sv[static_cast<std::size_t>(i * N + N - 1)];
        const double perturbation = err_sigma[static_cast<std::size_t>(i)];
        bool again = redo[static_cast<std::size_t>(i)] != 0 || !(smin > ill * smax) ||
                     !(perturbation <= static_cast<double>(N) * eps * smax);
        if (!again) continue;
        if (!fresh.defined()) fresh = working_copy();
        array wi = matrix_view(fresh, i);
        array vt = ::cuarray::detail::new_array(t, shape_t{N, N}, order::C, device);
        array info1 = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
        gesvd_one(h, device, t, M, N, wi.data(), static_cast<char*>(s.data()) + i * s_bytes, matrix_ptr(ubuf, i),
                  vt.data(), compute_uv ? gesvd_u::economy : gesvd_u::none, static_cast<int*>(info1.data()));
        if (read_info(info1)[0] > 0) throw linalg_error("SVD did not converge");
        // vhbuf holds V column-major here, i.e. V^T read in C order: conj of VT read as a column-major image.
        if (compute_uv) matrix_view(vhbuf, i).assign(conj_if_complex(swap_last(vt)));
      }
    };
    if (low_memory) {
      low_memory_route();
    } else if (full_u) {
      // Xgesvdp gives only the economy-size U.
      vh_is_vt = true;
      for (std::int64_t i = 0; i < batch; ++i) {
        gesvd_one(h, device, t, M, N, matrix_ptr(w, i), static_cast<char*>(s.data()) + i * s_bytes, matrix_ptr(ubuf, i),
                  matrix_ptr(vhbuf, i), compute_uv ? gesvd_u::full : gesvd_u::none, static_cast<int*>(info.data()) + i);
      }
      for (int v : read_info(info)) {
        if (v > 0) throw linalg_error("SVD did not converge");
      }
    } else {
      try {
        finish_fast_route();
      } catch (const out_of_memory_error&) {
        // The polar route's redo of an ill-conditioned matrix (in finish_fast_route) holds U and V of the stack beside
        // QR iteration's buffers; where those do not fit, the low-memory route does the whole call instead.
        if (!polar) throw;
        reset_for_low_memory();
        low_memory_route();
      }
    }
  }
  svd_result r;
  r.S = s;
  if (!compute_uv) return r;
  array ut = from_colmajor(ubuf);                                        // (..., M, cols)
  array vht = vh_is_vt ? from_colmajor(vhbuf) : conj_if_complex(vhbuf);  // V^H of T, (..., N, N)
  if (tall) {
    r.U = ut;
    r.Vh = vht;
  } else {
    // A = T^H = V S U^H.
    r.U = conj_if_complex(swap_last(vht));
    r.Vh = conj_if_complex(swap_last(ut));
  }
  return r;
}

}  // namespace

svd_result svd(const array& a, bool full_matrices, bool compute_uv, bool hermitian) {
  if (!hermitian) return svd_general(a, full_matrices, compute_uv);
  // NumPy's hermitian path: |eigenvalues| sorted descending, the signs moved into Vh.
  if (!compute_uv) {
    svd_result r;
    r.S = flip(sort(absolute(eigvalsh(a)), -1), std::vector<int>{-1});
    return r;
  }
  eig_result e = eigh(a);
  array sgn = copysign(1.0, e.eigenvalues);
  array s = absolute(e.eigenvalues);
  array sidx = flip(argsort(s, -1), std::vector<int>{-1});
  sgn = take_along_axis(sgn, sidx, -1);
  s = take_along_axis(s, sidx, -1);
  array u = take_along_axis(e.eigenvectors, expand_dims(sidx, {-2}), -1);
  array vt = conj_if_complex(swap_last(multiply(u, expand_dims(sgn, {-2}))));
  return {u, s, vt};
}

array svdvals(const array& x) { return svd(x, true, false, false).S; }

double default_rtol(const array& a) {
  std::int64_t mx = 0;
  for (int i = std::max(0, a.ndim() - 2); i < a.ndim(); ++i) mx = std::max(mx, a.shape()[i]);
  return static_cast<double>(mx) * eps_of(is_inexact(a.type()) ? a.type() : dtype::float64);
}

array pinv(const array& a, const std::optional<ufunc_arg>& rcond, bool hermitian) {
  assert_stacked_2d(a);
  ufunc_arg rc = rcond ? *rcond : ufunc_arg(1e-15);
  std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  ::cuarray::detail::enter_device(a.device());
  if (a.size() == 0) return empty(with_tail(batch_shape(a), {n, m}), a.type());
  svd_result r = svd(conj_if_complex(a), false, true, hermitian);
  array smax = amax(r.S, along({-1}, true));
  array cutoff = rc.is_scalar() ? multiply(rc, smax) : multiply(expand_dims(rc.arr, {-1}), smax);
  array large = greater(r.S, cutoff);
  array sinv = where(large, divide(1, r.S), 0).astype(r.S.type(), order::K, false);
  return cuarray::matmul(swap_last(r.Vh), multiply(expand_dims(sinv, {-1}), swap_last(r.U)));
}

lstsq_result lstsq(const array& a, const array& b, std::optional<double> rcond) {
  const bool is_1d = b.ndim() == 1;
  array bm = is_1d ? b.reshape(shape_t{b.shape()[0], 1}) : b;
  for (const array* x : std::initializer_list<const array*>{&a, &bm}) {
    if (x->ndim() != 2) {
      throw linalg_error(std::to_string(x->ndim()) + "-dimensional array given. Array must be two-dimensional");
    }
  }
  std::int64_t m = a.shape()[0], n = a.shape()[1], nrhs = bm.shape()[1];
  if (m != bm.shape()[0]) throw linalg_error("Incompatible dimensions");
  dtype t = result_type({a.type(), b.type()});
  dtype rt = real_of(t);
  ::cuarray::detail::enter_device(a.device());
  // NumPy computes in double precision, so its default cutoff is float64's epsilon whatever the input.
  const double rc = rcond ? *rcond : std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(m, n));
  array at = a.astype(t, order::K, false), bt = bm.astype(t, order::K, false);
  lstsq_result res;
  array x;
  if (m == 0 || n == 0) {
    x = zeros(shape_t{n, nrhs}, t);
    res.s = empty(shape_t{0}, rt);
    res.rank = 0;
  } else {
    svd_result r = svd(at, false, true, false);
    array smax = amax(r.S, along({-1}, true));
    array large = greater(r.S, multiply(smax, rc));
    res.rank = count_nonzero(large).host_value<std::int64_t>();
    array sinv = where(large, divide(1, r.S), 0).astype(rt, order::K, false);
    array uhb = cuarray::matmul(conj_if_complex(swap_last(r.U)), bt);
    x = cuarray::matmul(conj_if_complex(swap_last(r.Vh)), multiply(expand_dims(sinv, {-1}), uhb));
    res.s = r.S;
  }
  if (res.rank == n && m > n) {
    array resid = subtract(bt, cuarray::matmul(at, x));
    array sq = is_complex(t) ? add(square(real(resid)), square(imag(resid))) : square(resid);
    res.residuals = sum(sq, along({0})).astype(rt, order::K, false);
  } else {
    res.residuals = empty(shape_t{0}, rt);
  }
  res.x = is_1d ? x.reshape(shape_t{n}) : x;
  return res;
}

array matrix_rank(const array& A, const std::optional<ufunc_arg>& tol, bool hermitian,
                  const std::optional<ufunc_arg>& rtol) {
  if (tol && rtol) throw value_error("`tol` and `rtol` can't be both set.");
  ::cuarray::detail::enter_device(A.device());
  if (A.ndim() < 2) return logical_not(all(equal(A, 0))).astype(dtype::int64);
  array S = svd(A, true, false, hermitian).S;
  auto with_axis = [](const ufunc_arg& v) { return v.is_scalar() ? v : ufunc_arg(expand_dims(v.arr, {-1})); };
  ufunc_arg thresh;
  if (!tol) {
    std::int64_t mx = std::max(A.shape()[A.ndim() - 1], A.shape()[A.ndim() - 2]);
    ufunc_arg r = rtol ? with_axis(*rtol) : ufunc_arg(static_cast<double>(mx) * eps_of(S.type()));
    reduce_options o = along({-1}, true);
    o.initial = scalar::from_double(0.0, S.type());
    thresh = multiply(amax(S, o), r);
  } else {
    thresh = with_axis(*tol);
  }
  return count_nonzero(greater(S, thresh), std::vector<int>{-1});
}

}  // namespace cuarray::linalg
