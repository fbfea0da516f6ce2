// Cholesky (Xpotrf, potrfBatched for stacks of small matrices) and QR (Xgeqrf + orgqr/ungqr) factorisations.
#include <algorithm>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/reduction.hpp"
#include "src/core/internal.hpp"
#include "src/linalg/cusolver.hpp"
#include "src/linalg/decomp_common.hpp"

namespace cuarray::linalg {

namespace cs = ::cuarray::detail::cusolver;
using namespace detail;

array cholesky(const array& a, bool upper) {
  assert_stacked_square(a);
  dtype t = result_type({a.type()});
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t n = a.shape()[a.ndim() - 1], batch = batch_count(a);
  if (a.size() == 0) return empty(a.shape(), t);
  array buf = to_colmajor(a, t);
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType ct = cs::data_type(t);
  // The column-major copy holds A itself, so cuSOLVER's triangle is NumPy's UPLO.
  cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  // One potrfBatched call (Note [batched small LU]), up to the order 128 that it had before getrf took the route.
  if (use_batched(batch, n) && n <= 128) {
    array dptrs = matrix_pointers(buf);
    cs::check(api.potrf_batched[cs::type_index(t)](h.get(), uplo, static_cast<int>(n),
                                                   static_cast<void**>(dptrs.data()), static_cast<int>(n),
                                                   static_cast<int*>(info.data()), static_cast<int>(batch)),
              "cusolverDnpotrfBatched");
  } else {
    size_t dev_bytes = 0, host_bytes = 0;
    cs::check(api.xpotrf_buffer(h.get(), h.params(), uplo, n, ct, buf.data(), n, ct, &dev_bytes, &host_bytes),
              "cusolverDnXpotrf_bufferSize");
    array work = workspace(dev_bytes, device);
    std::vector<unsigned char> host_work(host_bytes);
    for (std::int64_t i = 0; i < batch; ++i) {
      cs::check(api.xpotrf(h.get(), h.params(), uplo, n, ct, matrix_ptr(buf, i), n, ct, work.data(), dev_bytes,
                           host_work.data(), host_bytes, static_cast<int*>(info.data()) + i),
                "cusolverDnXpotrf");
    }
  }
  array r = triangle(from_colmajor(buf), upper);
  std::vector<int> inf = read_info(info);
  if (std::any_of(inf.begin(), inf.end(), [](int v) { return v > 0; })) {
    // LAPACK stops at a NaN pivot as at a negative one; NumPy's result for NaN input is NaN, not an error.
    array nan_in = any(isnan(a), along({-2, -1}));
    std::vector<unsigned char> has_nan(static_cast<std::size_t>(batch));
    nan_in.copy_to_host(has_nan);
    for (std::int64_t i = 0; i < batch; ++i) {
      if (inf[static_cast<std::size_t>(i)] > 0 && !has_nan[static_cast<std::size_t>(i)]) {
        throw linalg_error("Matrix is not positive definite");
      }
    }
    shape_t bshape = batch_shape(a);
    bshape.push_back(1), bshape.push_back(1);
    array nan_tri = triangle(full(shape_t{n, n}, std::nan(""), t), upper);
    r = where(nan_in.reshape(bshape), nan_tri, r);
  }
  return r;
}

qr_result qr(const array& a, std::string_view mode) {
  if (mode == "f" || mode == "full") mode = "reduced";
  if (mode == "e") mode = "economic";
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw" && mode != "economic") {
    throw value_error("Unrecognized mode '" + std::string(mode) + "'");
  }
  assert_stacked_2d(a);
  dtype t = result_type({a.type()});
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  std::int64_t batch = batch_count(a);
  shape_t bshape = batch_shape(a);
  array buf = to_colmajor(a, t);  // (..., n, m): the column-major image of each (m, n) matrix
  shape_t tshape = bshape;
  tshape.push_back(k);
  array tau = ::cuarray::detail::new_array(t, tshape, order::C, device);
  const cs::api& api = cs::get();
  cudaDataType ct = cs::data_type(t);
  if (batch > 0 && k > 0) {
    cs::handle h(device);
    array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
    size_t dev_bytes = 0, host_bytes = 0;
    cs::check(api.xgeqrf_buffer(h.get(), h.params(), m, n, ct, buf.data(), m, ct, tau.data(), ct, &dev_bytes,
                                &host_bytes),
              "cusolverDnXgeqrf_bufferSize");
    array work = workspace(dev_bytes, device);
    std::vector<unsigned char> host_work(host_bytes);
    const std::int64_t tau_bytes = k * static_cast<std::int64_t>(itemsize(t));
    for (std::int64_t i = 0; i < batch; ++i) {
      cs::check(api.xgeqrf(h.get(), h.params(), m, n, ct, matrix_ptr(buf, i), m, ct,
                           static_cast<char*>(tau.data()) + i * tau_bytes, ct, work.data(), dev_bytes, host_work.data(),
                           host_bytes, static_cast<int*>(info.data())),
                "cusolverDnXgeqrf");
    }
  }
  array afact = from_colmajor(buf);  // (..., m, n) with R on and above the diagonal
  if (mode == "r") return {array(), triangle(slice_axis(afact, -2, 0, k), true)};
  if (mode == "raw") return {buf, tau};
  if (mode == "economic") return {afact, array()};

  std::int64_t mc = (mode == "complete" && m > n) ? m : k;
  shape_t qshape = bshape;
  qshape.push_back(mc), qshape.push_back(m);
  array qbuf;  // (..., mc, m): the column-major image of Q (m, mc)
  if (k == 0) {
    qbuf = eye_stack(bshape, mc, m, t);  // no reflectors: Q is the identity's first mc columns
  } else {
    qbuf = mc > n ? zeros(qshape, t) : ::cuarray::detail::new_array(t, qshape, order::C, device);
    slice_axis(qbuf, -2, 0, k).assign(slice_axis(buf, -2, 0, k));
    cs::handle h(device);
    int ti = cs::type_index(t);
    int lwork = 0;
    cs::check(api.orgqr_buffer[ti](h.get(), static_cast<int>(m), static_cast<int>(mc), static_cast<int>(k), qbuf.data(),
                                   static_cast<int>(m), tau.data(), &lwork),
              "cusolverDnorgqr_bufferSize");
    array work = workspace(static_cast<std::size_t>(std::max(lwork, 1)) * itemsize(t), device);
    array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
    const std::int64_t tau_bytes = k * static_cast<std::int64_t>(itemsize(t));
    for (std::int64_t i = 0; i < batch; ++i) {
      cs::check(api.orgqr[ti](h.get(), static_cast<int>(m), static_cast<int>(mc), static_cast<int>(k),
                              matrix_ptr(qbuf, i), static_cast<int>(m),
                              static_cast<const char*>(tau.data()) + i * tau_bytes, work.data(), std::max(lwork, 1),
                              static_cast<int*>(info.data())),
                "cusolverDnorgqr");
    }
  }
  return {from_colmajor(qbuf), triangle(slice_axis(afact, -2, 0, mc), true)};
}

}  // namespace cuarray::linalg
