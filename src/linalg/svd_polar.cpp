// svd's polar route: QDWH's polar decomposition T = U_p H, then H = V S V^H (Xsyevd) and U = U_p V.
#include "src/linalg/svd_polar.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <memory>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/memory.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/check.hpp"
#include "src/linalg/cublas.hpp"
#include "src/linalg/cusolver.hpp"
#include "src/linalg/decomp_common.hpp"

namespace cuarray::linalg::detail {

namespace cs = ::cuarray::detail::cusolver;
using ::cuarray::detail::cublas_workspace;

// Note [polar svd]: the SVD of the tall form T (M x N, M >= N) of each matrix, in three steps:
//  1. QDWH (Nakatsukasa, Bai and Gygi, SIAM J. Matrix Anal. Appl. 31, 2010), the dynamically weighted Halley
//     iteration, takes X_0 = T / ||T||_F to T's polar factor U_p in a few steps: a QR step
//     ([sqrt(c) X; I] = [Q1; Q2] R, X <- (b/c) X + (a - b/c) / sqrt(c) Q1 Q2^H) while c > 100, then Cholesky
//     steps (Z = I + c X^H X = R^H R, X <- (b/c) X + (a - b/c) X Z^-1). The weights a, b, c come from l, a
//     lower bound of X's smallest singular value, which the scalar recurrence l <- l (a + b l^2) / (1 + c l^2)
//     carries to 1; so the number of steps is known on the host and the loop needs no device read.
//  2. H = U_p^H T, Hermitian positive definite; Xsyevd gives H = V S V^H, and S holds T's singular values.
//  3. U = U_p V.
// cuSOLVER's own polar SVD, Xgesvdp, does the same at about the same speed (H100, n = 4096 float64: 5 QDWH
// steps in about 110 ms, Xsyevd about 130 ms), but its workspace is 5.19 n^2 on top of the copy, U and V
// (8.2 n^2 in all, 1.64x CuPy's QR iteration). Here the memory is laid out for the least peak:
//  - l_0 = 0.9 tau / sqrt(N) is a true lower bound for every matrix that this route keeps: a matrix with
//    s_min <= tau s_max is redone by QR iteration (as in Note [gesvdp fallback]), and ||T||_F <= sqrt(N) s_max.
//    Where the bound is false, QDWH's map keeps singular values in [0, 1], so the computed s_min comes out
//    smaller still and the same check sends the matrix to QR iteration. tau is sqrt(eps) in double precision
//    (5 steps at n = 4096) and eps^(2/3) in single, where sqrt(eps) = 3.5e-4 would send most random square
//    matrices of order 1000 and more (condition about 2n) to QR iteration, 10x slower.
//  - Every temporary lives in one arena of the largest phase's size: the QR step's stacked (M + N) x N matrix,
//    the Cholesky step's Z and X Z^-1, H with T's copy, and Xsyevd's workspace (4.03 N^2 for N = 4096), with
//    cuBLAS's workspace inside it (the pool's would be a segment of its own).
//  - While Xsyevd runs, U_p waits in pinned host memory (two copies of M N elements, a few ms over PCIe), and H
//    sits in the working copy's place: the device then holds only that and the arena, 5.03 n^2 for a square
//    n x n, where CuPy's gesvd peaks at 5.07 n^2.
//  - U_p comes back, and U and V are written, in the arena's memory once the pool has it back.
// GPU runs, tools/diag/qdwh23.py: reconstruction errors ||U S V^H - A|| / ||A|| of 8e-15 and U's orthogonality
// 5e-13 (Frobenius, n = 4096 float64), as Xgesvdp's.

namespace {

std::atomic<std::int64_t> polar_limit{0};

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// QDWH's weights for the lower bound l (0 < l <= 1) of the iterate's singular values.
qdwh_weights weights_for(double l) {
  const double l2 = l * l;
  const double g = std::cbrt(4.0 * (1.0 - l2) / (l2 * l2));
  const double sq = std::sqrt(1.0 + g);
  const double a = sq + 0.5 * std::sqrt(8.0 - 4.0 * g + 8.0 * (2.0 - l2) / (l2 * sq));
  const double b = (a - 1.0) * (a - 1.0) / 4.0;
  return {a, b, a + b - 1.0};
}

}  // namespace

std::vector<qdwh_weights> qdwh_plan(double l, double eps) {
  std::vector<qdwh_weights> steps;
  while (1.0 - l > 10.0 * eps && steps.size() < 20) {
    qdwh_weights w = weights_for(l);
    steps.push_back(w);
    l = std::min(1.0, l * (w.a + w.b * l * l) / (1.0 + w.c * l * l));
  }
  return steps;
}

double polar_svd_tau(dtype rt) {
  const double eps = eps_of(rt);
  return rt == dtype::float32 ? std::cbrt(eps * eps) : std::sqrt(eps);
}

std::int64_t polar_svd_min_n() { return polar_limit.load(std::memory_order_relaxed); }
std::int64_t set_polar_svd_min_n(std::int64_t n) { return polar_limit.exchange(n); }

void polar_svd(const array& a, bool tall, const array& w, const array& s, array& ubuf, array& vbuf,
               std::vector<char>& redo) {
  const dtype t = w.type(), rt = real_of(t);
  const int device = w.device();
  const int nd = w.ndim();
  const std::int64_t N = w.shape()[nd - 2], M = w.shape()[nd - 1];
  const std::int64_t batch = w.size() / (M * N);
  const std::int64_t es = static_cast<std::int64_t>(itemsize(t)), rs = static_cast<std::int64_t>(itemsize(rt));
  const shape_t bshape = batch_shape(w);
  auto allocate_outputs = [&] {
    if (ubuf.defined()) return;
    ubuf = ::cuarray::detail::new_array(t, with_tail(bshape, {N, M}), order::C, device);
    vbuf = ::cuarray::detail::new_array(t, with_tail(bshape, {N, N}), order::C, device);
  };
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaStream_t stream = h.stream();
  const cudaDataType ct = cs::data_type(t), rct = cs::data_type(rt);
  const int ti = cs::type_index(t);
  const double eps = eps_of(rt);
  const std::int64_t stacked = M + N;
  if (stacked > INT32_MAX) {  // orgqr counts in int: QR iteration takes these
    std::fill(redo.begin(), redo.end(), 1);
    allocate_outputs();
    return;
  }

  // Workspace sizes (the pointers only tell the dtype).
  void* any = w.data();
  std::size_t qr_dev = 0, qr_host = 0, po_dev = 0, po_host = 0, ev_dev = 0, ev_host = 0;
  int org_lwork = 0;
  cs::check(api.xgeqrf_buffer(h.get(), h.params(), stacked, N, ct, any, stacked, ct, any, ct, &qr_dev, &qr_host),
            "cusolverDnXgeqrf_bufferSize");
  cs::check(api.orgqr_buffer[ti](h.get(), static_cast<int>(stacked), static_cast<int>(N), static_cast<int>(N), any,
                                 static_cast<int>(stacked), any, &org_lwork),
            "cusolverDnorgqr_bufferSize");
  cs::check(api.xpotrf_buffer(h.get(), h.params(), CUBLAS_FILL_MODE_UPPER, N, ct, any, N, ct, &po_dev, &po_host),
            "cusolverDnXpotrf_bufferSize");
  cs::check(api.xsyevd_buffer(h.get(), h.params(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N, ct, any, N, rct,
                              any, ct, &ev_dev, &ev_host),
            "cusolverDnXsyevd_bufferSize");
  const std::size_t mn = static_cast<std::size_t>(M * N * es), nn = static_cast<std::size_t>(N * N * es);
  // cuBLAS picks its kernels to fit the workspace it is given; a quarter of a matrix (32 MiB at n = 4096 float64,
  // its own size on Hopper) keeps it from setting the peak of small orders.
  const std::size_t blas = aligned(
      std::min(::cuarray::detail::cublas_workspace_bytes(device), std::max(nn / 4, std::size_t{1} << 20)));
  const std::size_t qr_work = aligned(std::max(qr_dev, static_cast<std::size_t>(org_lwork) * es));
  const std::size_t qr_need = aligned(static_cast<std::size_t>(stacked * N * es)) + aligned(N * es) + qr_work + blas;
  const std::size_t chol_need = aligned(nn) + aligned(mn) + aligned(po_dev) + blas;
  const std::size_t h_need = aligned(mn) + aligned(nn) + blas;
  const std::size_t eig_need = aligned(N * rs) + aligned(ev_dev);
  const std::size_t arena_bytes = std::max({qr_need, chol_need, h_need, eig_need});
  std::vector<unsigned char> host_work(std::max({qr_host, po_host, ev_host, std::size_t{1}}));

  const std::vector<qdwh_weights> steps = qdwh_plan(0.9 * polar_svd_tau(rt) / std::sqrt(static_cast<double>(N)), eps);
  // Info flags per matrix: geqrf, orgqr, syevd, then one per Cholesky step.
  const std::int64_t slots = 3 + static_cast<std::int64_t>(steps.size());
  array flags = zeros(shape_t{batch * slots}, dtype::int32);
  array ones_n = ones(shape_t{N}, t);
  // U_p's place on the host: a pinned block, or pageable memory where pinned memory runs out (its copies then
  // wait for the stream).
  ::cuarray::pinned_ptr pinned;
  std::unique_ptr<unsigned char[]> pageable;
  void* parked = nullptr;
  try {
    pinned = ::cuarray::alloc_pinned_memory(mn);
    parked = pinned->ptr();
  } catch (const std::exception&) {
    pageable.reset(new unsigned char[mn]);
    parked = pageable.get();
  }
  // Copies to and from `parked` may still be queued when an exception leaves: wait for them before it goes.
  struct wait_on_unwind {
    cudaStream_t s;
    int pending = std::uncaught_exceptions();
    ~wait_on_unwind() {
      if (std::uncaught_exceptions() > pending) (void)cudaStreamSynchronize(s);
    }
  } unwind_guard{stream};
  const std::int64_t am = a.shape()[a.ndim() - 2], an = a.shape()[a.ndim() - 1];
  const array flat = a.reshape(shape_t{batch, am, an});

  // I (N x N) at p with leading dimension ld.
  auto set_identity = [&](char* p, std::int64_t ld) {
    CUARRAY_CUDA_CHECK(cudaMemset2DAsync(p, static_cast<std::size_t>(ld * es), 0, static_cast<std::size_t>(N * es),
                                         static_cast<std::size_t>(N), stream));
    CUARRAY_CUDA_CHECK(cudaMemcpy2DAsync(p, static_cast<std::size_t>((ld + 1) * es), ones_n.data(),
                                         static_cast<std::size_t>(es), static_cast<std::size_t>(es),
                                         static_cast<std::size_t>(N), cudaMemcpyDeviceToDevice, stream));
  };

  for (std::int64_t i = 0; i < batch; ++i) {
    char* x = static_cast<char*>(matrix_ptr(w, i));
    int* info = static_cast<int*>(flags.data()) + i * slots;
    std::vector<double> host_norm(1);
    vector_norm(matrix_view(w, i)).astype(dtype::float64).copy_to_host(host_norm);
    const double alpha = host_norm[0];
    if (!(alpha > 0.0)) {  // a zero matrix: QR iteration gives it its singular vectors
      redo[static_cast<std::size_t>(i)] = 1;
      continue;
    }
    {
      array arena = workspace(arena_bytes, device);
      char* base = static_cast<char*>(arena.data());
      auto blas_at = [&](std::size_t offset) { return cublas_workspace{base + offset, blas}; };

      // 1. QDWH.
      cublas_workspace ws0 = blas_at(arena_bytes - blas);
      ::cuarray::detail::cublas_geam(t, device, 0, 0, M, N, 1.0 / alpha, x, M, 0.0, x, M, x, M, ws0);
      for (std::size_t k = 0; k < steps.size(); ++k) {
        const qdwh_weights& q = steps[k];
        const double bc = q.b / q.c;
        if (q.c > 100.0) {
          char* wq = base;
          char* tau = wq + aligned(static_cast<std::size_t>(stacked * N * es));
          char* work = tau + aligned(N * es);
          cublas_workspace ws = blas_at(static_cast<std::size_t>(work - base) + qr_work);
          ::cuarray::detail::cublas_geam(t, device, 0, 0, M, N, std::sqrt(q.c), x, M, 0.0, x, M, wq, stacked, ws);
          set_identity(wq + M * es, stacked);
          cs::check(api.xgeqrf(h.get(), h.params(), stacked, N, ct, wq, stacked, ct, tau, ct, work, qr_work,
                               host_work.data(), qr_host, info),
                    "cusolverDnXgeqrf");
          cs::check(api.orgqr[ti](h.get(), static_cast<int>(stacked), static_cast<int>(N), static_cast<int>(N), wq,
                                  static_cast<int>(stacked), tau, work, static_cast<int>(qr_work / es), info + 1),
                    "cusolverDnorgqr");
          ::cuarray::detail::cublas_gemm_scaled(t, device, 0, 2, M, N, N, (q.a - bc) / std::sqrt(q.c), wq, stacked,
                                                wq + M * es, stacked, bc, x, M, ws);
        } else {
          char* z = base;
          char* y = z + aligned(nn);
          char* work = y + aligned(mn);
          cublas_workspace ws = blas_at(static_cast<std::size_t>(work - base) + aligned(po_dev));
          set_identity(z, N);
          ::cuarray::detail::cublas_gemm_scaled(t, device, 2, 0, N, N, M, q.c, x, M, x, M, 1.0, z, N, ws);
          cs::check(api.xpotrf(h.get(), h.params(), CUBLAS_FILL_MODE_UPPER, N, ct, z, N, ct, work, po_dev,
                               host_work.data(), po_host, info + 3 + k),
                    "cusolverDnXpotrf");
          CUARRAY_CUDA_CHECK(cudaMemcpyAsync(y, x, mn, cudaMemcpyDeviceToDevice, stream));
          ::cuarray::detail::cublas_trsm(t, device, true, false, 0, false, N, M, z, N, y, M, &ws);
          ::cuarray::detail::cublas_trsm(t, device, true, false, 2, false, N, M, z, N, y, M, &ws);
          ::cuarray::detail::cublas_geam(t, device, 0, 0, M, N, bc, x, M, q.a - bc, y, M, x, M, ws);
        }
      }

      // 2. H = U_p^H T, from a fresh copy of T (tall: A column-major; wide: A^H's conjugate transpose A, read
      // as A^T column-major, and H = A U_p, the same Hermitian matrix to rounding).
      {
        char* tm = base;
        char* hm = tm + aligned(mn);
        cublas_workspace ws = blas_at(aligned(mn) + aligned(nn));
        array tv(arena.storage(), descriptor{t, shape_t{N, M}, strides_t{M * es, es}, arena.offset()});
        const array ai = drop_axis(slice_axis(flat, 0, i, i + 1), 0);
        tv.assign(tall ? swap_last(ai) : ai);
        if (tall) {
          ::cuarray::detail::cublas_gemm_scaled(t, device, 2, 0, N, N, M, 1.0, x, M, tm, M, 0.0, hm, N, ws);
        } else {
          ::cuarray::detail::cublas_gemm_scaled(t, device, 1, 0, N, N, M, 1.0, tm, M, x, M, 0.0, hm, N, ws);
        }
        // U_p to the host; H into its place.
        CUARRAY_CUDA_CHECK(cudaMemcpyAsync(parked, x, mn, cudaMemcpyDeviceToHost, stream));
        CUARRAY_CUDA_CHECK(cudaMemcpyAsync(x, hm, nn, cudaMemcpyDeviceToDevice, stream));
      }

      // 3. H = V S V^H (ascending), V over H; S reversed into s.
      char* evals = base;
      char* work = evals + aligned(N * rs);
      cs::check(api.xsyevd(h.get(), h.params(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N, ct, x, N, rct,
                           evals, ct, work, ev_dev, host_work.data(), ev_host, info + 2),
                "cusolverDnXsyevd");
      const array ev(arena.storage(), descriptor{rt, shape_t{N}, strides_t{rs}, arena.offset()});
      array si(s.storage(), descriptor{rt, shape_t{N}, strides_t{rs}, s.offset() + i * N * rs});
      si.assign(flip(ev));
    }  // the arena goes back to the pool (stream-ordered): U_p, U and V take its place

    allocate_outputs();
    array up = workspace(mn, device);
    array blas_ws = workspace(blas, device);
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(up.data(), parked, mn, cudaMemcpyHostToDevice, stream));
    // V's columns in descending order: the rows of the C-ordered (N, N) image, reversed.
    const array vcols(w.storage(), descriptor{t, shape_t{N, N}, strides_t{N * es, es}, w.offset() + i * M * N * es});
    array vi = matrix_view(vbuf, i);
    vi.assign(flip(vcols, std::vector<int>{0}));
    ::cuarray::detail::cublas_gemm_scaled(t, device, 0, 0, M, N, N, 1.0, up.data(), M, vi.data(), N, 0.0,
                                          matrix_ptr(ubuf, i), M, cublas_workspace{blas_ws.data(), blas});
  }
  allocate_outputs();
  std::vector<int> fl = read_info(flags);  // also waits for the last copy from the pinned buffer
  for (std::int64_t i = 0; i < batch; ++i) {
    for (std::int64_t k = 0; k < slots; ++k) {
      if (fl[static_cast<std::size_t>(i * slots + k)] != 0) redo[static_cast<std::size_t>(i)] = 1;
    }
  }
}

}  // namespace cuarray::linalg::detail
