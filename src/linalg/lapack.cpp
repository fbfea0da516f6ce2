// LAPACK-style primitives for cuarray.scipy.linalg: getrf/getrs and potrf/potrs (cuSOLVER), trsm (cuBLAS).
#include "cuarray/linalg_lapack.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/core/internal.hpp"
#include "src/linalg/cublas.hpp"
#include "src/linalg/cusolver.hpp"
#include "src/linalg/decomp_common.hpp"

namespace cuarray::linalg::lapack {

namespace cs = ::cuarray::detail::cusolver;
using namespace ::cuarray::linalg::detail;

namespace {

void require_stack(const array& a, const char* what) {
  if (a.ndim() < 2) throw value_error(std::string(what) + ": expected a stack of matrices (..., M, N)");
  cs::type_index(a.type());  // type_error for any dtype cuSOLVER lacks
}

void require_square(const array& a, const char* what) {
  require_stack(a, what);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2]) {
    throw value_error(std::string(what) + ": expected square matrices");
  }
}

// The right-hand sides must match the matrices in batch shape, row count and dtype.
void require_rhs(const array& a, const array& b, const char* what) {
  require_stack(b, what);
  if (b.type() != a.type()) throw type_error(std::string(what) + ": operands of different dtypes");
  if (batch_shape(a) != batch_shape(b) || b.shape()[b.ndim() - 2] != a.shape()[a.ndim() - 1]) {
    throw value_error(std::string(what) + ": right-hand sides do not match the matrices' shape");
  }
}

cublasFillMode_t fill(bool lower) { return lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER; }

}  // namespace

lu_factors getrf(const array& a) {
  require_stack(a, "getrf");
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  std::int64_t batch = batch_count(a);
  shape_t pshape = batch_shape(a);
  pshape.push_back(k);
  lu_factors r;
  r.ipiv = ::cuarray::detail::new_array(dtype::int64, pshape, order::C, device);
  r.info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  array buf = to_colmajor(a, a.type());  // (..., N, M) C-ordered: column-major images of the M x N matrices
  r.lu = from_colmajor(buf);
  if (batch == 0) return r;
  if (k == 0) {
    r.info.fill(scalar::from_double(0.0).cast(dtype::int32));
    return r;
  }
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(a.type());
  std::int64_t ld = std::max<std::int64_t>(1, m);
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(api.xgetrf_buffer(h.get(), h.params(), m, n, t, buf.data(), ld, t, &dev_bytes, &host_bytes),
            "cusolverDnXgetrf_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xgetrf(h.get(), h.params(), m, n, t, matrix_ptr(buf, i), ld,
                         static_cast<std::int64_t*>(r.ipiv.data()) + i * k, t, work.data(), dev_bytes, host_work.data(),
                         host_bytes, static_cast<int*>(r.info.data()) + i),
              "cusolverDnXgetrf");
  }
  return r;
}

array getrs(const array& lu, const array& ipiv, const array& b, int trans) {
  require_square(lu, "getrs");
  require_rhs(lu, b, "getrs");
  if (trans < 0 || trans > 2) throw value_error("getrs: trans must be 0, 1 or 2");
  std::int64_t n = lu.shape()[lu.ndim() - 1], k = b.shape()[b.ndim() - 1], batch = batch_count(lu);
  shape_t pshape = batch_shape(lu);
  pshape.push_back(n);
  if (ipiv.type() != dtype::int64 || ipiv.shape() != pshape) {
    throw value_error("getrs: pivots must be int64 of shape (..., N)");
  }
  const int device = lu.device();
  ::cuarray::detail::enter_device(device);
  array rhs = to_colmajor(b, b.type());
  if (batch == 0 || n == 0 || k == 0) return from_colmajor(rhs);
  array a = to_colmajor(lu, lu.type());
  array piv = ipiv.astype(dtype::int64, order::C, false);
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(lu.type());
  cublasOperation_t op = trans == 0 ? CUBLAS_OP_N : trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xgetrs(h.get(), h.params(), op, n, k, t, matrix_ptr(a, i), n,
                         static_cast<const std::int64_t*>(piv.data()) + i * n, t, matrix_ptr(rhs, i), n,
                         static_cast<int*>(info.data())),
              "cusolverDnXgetrs");
  }
  return from_colmajor(rhs);
}

cholesky_factors potrf(const array& a, bool lower) {
  require_square(a, "potrf");
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t n = a.shape()[a.ndim() - 1], batch = batch_count(a);
  cholesky_factors r;
  r.info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  array buf = to_colmajor(a, a.type());
  r.c = from_colmajor(buf);
  if (batch == 0) return r;
  if (n == 0) {
    r.info.fill(scalar::from_double(0.0).cast(dtype::int32));
    return r;
  }
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(a.type());
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(api.xpotrf_buffer(h.get(), h.params(), fill(lower), n, t, buf.data(), n, t, &dev_bytes, &host_bytes),
            "cusolverDnXpotrf_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xpotrf(h.get(), h.params(), fill(lower), n, t, matrix_ptr(buf, i), n, t, work.data(), dev_bytes,
                         host_work.data(), host_bytes, static_cast<int*>(r.info.data()) + i),
              "cusolverDnXpotrf");
  }
  return r;
}

array potrs(const array& c, const array& b, bool lower) {
  require_square(c, "potrs");
  require_rhs(c, b, "potrs");
  std::int64_t n = c.shape()[c.ndim() - 1], k = b.shape()[b.ndim() - 1], batch = batch_count(c);
  const int device = c.device();
  ::cuarray::detail::enter_device(device);
  array rhs = to_colmajor(b, b.type());
  if (batch == 0 || n == 0 || k == 0) return from_colmajor(rhs);
  array a = to_colmajor(c, c.type());
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(c.type());
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xpotrs(h.get(), h.params(), fill(lower), n, k, t, matrix_ptr(a, i), n, t, matrix_ptr(rhs, i), n,
                         static_cast<int*>(info.data())),
              "cusolverDnXpotrs");
  }
  return from_colmajor(rhs);
}

array trsm(const array& a, const array& b, bool lower, int trans, bool unit_diagonal) {
  require_square(a, "trsm");
  require_rhs(a, b, "trsm");
  if (trans < 0 || trans > 2) throw value_error("trsm: trans must be 0, 1 or 2");
  std::int64_t n = a.shape()[a.ndim() - 1], k = b.shape()[b.ndim() - 1], batch = batch_count(a);
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  array rhs = to_colmajor(b, b.type());
  if (batch == 0 || n == 0 || k == 0) return from_colmajor(rhs);
  array m = to_colmajor(a, a.type());
  for (std::int64_t i = 0; i < batch; ++i) {
    ::cuarray::detail::cublas_trsm(a.type(), device, false, lower, trans, unit_diagonal, n, k, matrix_ptr(m, i), n,
                                   matrix_ptr(rhs, i), n);
  }
  return from_colmajor(rhs);
}

}  // namespace cuarray::linalg::lapack
