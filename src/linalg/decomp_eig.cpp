// Eigen-decompositions: eigh/eigvalsh (Xsyevd, syevjBatched for stacks of small matrices), eig/eigvals (Xgeev).
#include <algorithm>
#include <cctype>
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

namespace {

// Jacobi's batched solver wins over a loop of Xsyevd calls for stacks of small matrices; cuSOLVER caps it at 32.
constexpr std::int64_t syevj_batched_max_n = 32;

eig_result eigh_impl(const array& a, std::string_view UPLO, bool vectors) {
  std::string uplo_s(UPLO);
  for (char& c : uplo_s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (uplo_s != "L" && uplo_s != "U") throw value_error("UPLO argument must be 'L' or 'U'");
  bool lower = uplo_s == "L";
  assert_stacked_square(a);
  dtype t = result_type({a.type()});
  dtype rt = real_of(t);
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t n = a.shape()[a.ndim() - 1], batch = batch_count(a);
  shape_t wshape = batch_shape(a);
  wshape.push_back(n);
  if (a.size() == 0) return {empty(wshape, rt), vectors ? empty(a.shape(), t) : array()};
  // NaN or inf in the triangle LAPACK reads makes NumPy raise; checking first keeps cuSOLVER off such input.
  if (is_inexact(a.type())) {
    array bad = logical_and(logical_not(isfinite(a)), triangle(ones(shape_t{n, n}, dtype::bool_), !lower));
    if (host_bool(any(bad))) throw linalg_error("Eigenvalues did not converge");
  }
  array buf = to_colmajor(a, t);
  array w = ::cuarray::detail::new_array(rt, wshape, order::C, device);
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  const cs::api& api = cs::get();
  cs::handle h(device);
  cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  cublasFillMode_t fill = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  if (batch > 1 && n <= syevj_batched_max_n) {
    int ti = cs::type_index(t), lwork = 0;
    cs::check(api.syevj_batched_buffer[ti](h.get(), jobz, fill, static_cast<int>(n), buf.data(), static_cast<int>(n),
                                           w.data(), &lwork, h.syevj(), static_cast<int>(batch)),
              "cusolverDnsyevjBatched_bufferSize");
    array work = workspace(static_cast<std::size_t>(std::max(lwork, 1)) * itemsize(t), device);
    cs::check(api.syevj_batched[ti](h.get(), jobz, fill, static_cast<int>(n), buf.data(), static_cast<int>(n), w.data(),
                                    work.data(), std::max(lwork, 1), static_cast<int*>(info.data()), h.syevj(),
                                    static_cast<int>(batch)),
              "cusolverDnsyevjBatched");
  } else {
    cudaDataType ct = cs::data_type(t), rct = cs::data_type(rt);
    size_t dev_bytes = 0, host_bytes = 0;
    cs::check(api.xsyevd_buffer(h.get(), h.params(), jobz, fill, n, ct, buf.data(), n, rct, w.data(), ct, &dev_bytes,
                                &host_bytes),
              "cusolverDnXsyevd_bufferSize");
    array work = workspace(dev_bytes, device);
    std::vector<unsigned char> host_work(host_bytes);
    const std::int64_t w_bytes = n * static_cast<std::int64_t>(itemsize(rt));
    for (std::int64_t i = 0; i < batch; ++i) {
      cs::check(api.xsyevd(h.get(), h.params(), jobz, fill, n, ct, matrix_ptr(buf, i), n, rct,
                           static_cast<char*>(w.data()) + i * w_bytes, ct, work.data(), dev_bytes, host_work.data(),
                           host_bytes, static_cast<int*>(info.data()) + i),
                "cusolverDnXsyevd");
    }
  }
  for (int v : read_info(info)) {
    if (v > 0) throw linalg_error("Eigenvalues did not converge");
  }
  // The eigenvectors are the columns of the column-major result, which from_colmajor reads as NumPy's v[:, j].
  return {w, vectors ? from_colmajor(buf) : array()};
}

eig_result eig_impl(const array& a, bool vectors) {
  assert_stacked_square(a);
  dtype rt = result_type({a.type()});
  dtype ct_type = complex_of(rt);
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t n = a.shape()[a.ndim() - 1], batch = batch_count(a);
  if (any_nonfinite(a)) throw linalg_error("Array must not contain infs or NaNs");
  shape_t wshape = batch_shape(a);
  wshape.push_back(n);
  // NumPy >= 2.5 returns complex eigenvalues and eigenvectors whatever their values (numpy/numpy#30411).
  if (a.size() == 0) return {empty(wshape, ct_type), vectors ? empty(a.shape(), ct_type) : array()};
  const cs::api& api = cs::get();
  if (!api.xgeev) {
    throw cuda_error(-1, "cusolverDnXgeev is not available in this cuSOLVER (it needs CUDA 12.6 or newer)");
  }
  // Real input goes through complex arithmetic, as the results are complex anyway (Xgeev's real mode would
  // pack conjugate pairs of vectors into real columns to be unpacked). Its eigenvalues are zgeev's of the
  // complexified matrix: real ones keep rounding-level imaginary parts and pairs are conjugate to rounding
  // only, where NumPy's dgeev makes them exact.
  array buf = to_colmajor(a, ct_type);
  array w = ::cuarray::detail::new_array(ct_type, wshape, order::C, device);
  array vr = vectors ? ::cuarray::detail::new_array(ct_type, a.shape(), order::C, device) : array();
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  cs::handle h(device);
  cudaDataType ct = cs::data_type(ct_type);
  cusolverEigMode_t jobvr = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(api.xgeev_buffer(h.get(), h.params(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, ct, buf.data(), n, ct, w.data(),
                             ct, nullptr, n, ct, vectors ? vr.data() : nullptr, n, ct, &dev_bytes, &host_bytes),
            "cusolverDnXgeev_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  const std::int64_t w_bytes = n * static_cast<std::int64_t>(itemsize(ct_type));
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xgeev(h.get(), h.params(), CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, ct, matrix_ptr(buf, i), n, ct,
                        static_cast<char*>(w.data()) + i * w_bytes, ct, nullptr, n, ct,
                        vectors ? matrix_ptr(vr, i) : nullptr, n, ct, work.data(), dev_bytes, host_work.data(),
                        host_bytes, static_cast<int*>(info.data()) + i),
              "cusolverDnXgeev");
  }
  for (int v : read_info(info)) {
    if (v > 0) throw linalg_error("Eigenvalues did not converge");
  }
  return {w, vectors ? from_colmajor(vr) : array()};
}

}  // namespace

eig_result eigh(const array& a, std::string_view UPLO) { return eigh_impl(a, UPLO, true); }
array eigvalsh(const array& a, std::string_view UPLO) { return eigh_impl(a, UPLO, false).eigenvalues; }
eig_result eig(const array& a) { return eig_impl(a, true); }
array eigvals(const array& a) { return eig_impl(a, false).eigenvalues; }

bool has_device_eig() { return cs::get().xgeev != nullptr; }

}  // namespace cuarray::linalg
