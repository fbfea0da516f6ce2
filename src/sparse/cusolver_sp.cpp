// cuSOLVER's sparse QR solve (cusolverSp<t>csrlsvqr) behind cuarray.scipy.sparse.linalg.spsolve.
#include <cusolverSp.h>  // types and enums only: every call goes through the pointers below
#include <dlfcn.h>

#include <climits>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/sparse.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/library.hpp"
#include "src/linalg/cusolver.hpp"

namespace cuarray::sparse {

namespace {

using st = cusolverStatus_t;
using sp = cusolverSpHandle_t;

// Note [cusolver sparse symbols]: the sparse routines live in the same libcusolver that the dense loader
// (src/linalg/cusolver.cpp) opens, and cusparseCreateMatDescr in the libcusparse of src/sparse/cusparse.cpp.
// Rather than a second search (which could pick another copy), each loaded library is reopened by the file it
// came from (dladdr of a resolved dense routine; cusparse_path()): dlopen of a loaded file returns the same
// object. The sparse routines are resolved apart from the dense ones because NVIDIA deprecates them in favour
// of cuDSS: a libcusolver without them must still serve dense linear algebra, and only spsolve reports them
// missing. The S/C routines take a float tolerance and D/Z a double one, so they form two pointer families
// (Note [cusolver typed routines] otherwise: pointer parameters as void*).
using lsvqr_f = st (*)(sp, int, int, cusparseMatDescr_t, const void*, const int*, const int*, const void*, float, int,
                       void*, int*);
using lsvqr_d = st (*)(sp, int, int, cusparseMatDescr_t, const void*, const int*, const int*, const void*, double, int,
                       void*, int*);

struct sp_api {
  std::string error;  // empty once everything resolved
  st (*create)(sp*) = nullptr;
  st (*set_stream)(sp, cudaStream_t) = nullptr;
  lsvqr_f scsrlsvqr = nullptr, ccsrlsvqr = nullptr;
  lsvqr_d dcsrlsvqr = nullptr, zcsrlsvqr = nullptr;
  cusparseStatus_t (*create_descr)(cusparseMatDescr_t*) = nullptr;
  cusparseMatDescr_t descr = nullptr;  // general, zero-based: the defaults; shared read-only by every call
};

/// The dlopen handle of the loaded file that defines `fn`, or null with `error` set.
void* reopen(void* fn, const char* what, std::string& error) {
  Dl_info info{};
  if (!fn || ::dladdr(fn, &info) == 0 || !info.dli_fname) {
    error = std::string("cannot locate the loaded ") + what;
    return nullptr;
  }
  void* h = ::dlopen(info.dli_fname, RTLD_NOW | RTLD_LOCAL);  // never closed, as load_library's handles
  if (!h) error = std::string("cannot reopen ") + info.dli_fname + ": " + (::dlerror() ? ::dlerror() : "?");
  return h;
}

sp_api load_sp() {
  sp_api a;
  const auto& dense = detail::cusolver::get();  // cuda_error when libcusolver cannot be found
  std::string why;
  void* h = reopen(reinterpret_cast<void*>(dense.create), "libcusolver", why);
  if (!h) {
    a.error = why;
    return a;
  }
  const detail::library_symbol solver_symbols[] = {
      {"cusolverSpCreate", a.create},       {"cusolverSpSetStream", a.set_stream}, {"cusolverSpScsrlsvqr", a.scsrlsvqr},
      {"cusolverSpDcsrlsvqr", a.dcsrlsvqr}, {"cusolverSpCcsrlsvqr", a.ccsrlsvqr},  {"cusolverSpZcsrlsvqr", a.zcsrlsvqr},
  };
  std::string missing = detail::resolve_symbols(h, solver_symbols);
  std::string cusparse_file = cusparse_path();  // loads cuSPARSE (cuda_error when missing)
  void* hs = ::dlopen(cusparse_file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!hs) {
    a.error = "cannot reopen " + cusparse_file;
    return a;
  }
  const detail::library_symbol sparse_symbols[] = {{"cusparseCreateMatDescr", a.create_descr}};
  if (std::string more = detail::resolve_symbols(hs, sparse_symbols); !more.empty()) {
    missing += missing.empty() ? more : ", " + more;
  }
  if (!missing.empty()) {
    a.error = "cuSOLVER's sparse QR solver is unavailable: the loaded libraries lack " + missing +
              " (NVIDIA deprecates cusolverSp in favour of cuDSS; use a CUDA 12/13 toolkit that still ships it)";
    return a;
  }
  if (a.create_descr(&a.descr) != CUSPARSE_STATUS_SUCCESS || !a.descr) {
    a.error = "cusparseCreateMatDescr failed";
  }
  return a;
}

const sp_api& api() {
  static std::once_flag once;
  static sp_api loaded;
  std::call_once(once, [] { loaded = load_sp(); });
  if (!loaded.error.empty()) throw cuda_error(-1, loaded.error);
  return loaded;
}

// One handle per thread and device, created on first use and never destroyed (as Note [cusparse handles]):
// cusolverSpCreate costs milliseconds, and destroying at exit could run after the driver has gone.
sp handle_for(const sp_api& a, int device, cudaStream_t stream) {
  thread_local std::vector<sp> handles;
  if (device >= static_cast<int>(handles.size())) handles.resize(static_cast<std::size_t>(device) + 1, nullptr);
  sp& h = handles[static_cast<std::size_t>(device)];
  if (!h) detail::cusolver::check(a.create(&h), "cusolverSpCreate");
  detail::cusolver::check(a.set_stream(h, stream), "cusolverSpSetStream");
  return h;
}

void check_operand(const array& v, const char* what, dtype t, std::int64_t n) {
  if (v.type() != t) {
    throw type_error(std::string("csrlsvqr: ") + what + " has dtype " + std::string(name(v.type())) +
                     ", expected the matrix's " + std::string(name(t)));
  }
  if (v.ndim() < 1 || v.ndim() > 2 || v.shape()[0] != n) {
    throw value_error(std::string("csrlsvqr: ") + what +
                      " must have shape (n,) or (n, k) with n = " + std::to_string(n));
  }
  if (!v.is_f_contiguous()) throw value_error(std::string("csrlsvqr: ") + what + " must be F-contiguous");
}

}  // namespace

void load_cusolver_sp() { api(); }

std::int64_t csrlsvqr(const csr_view& a, const array& b, array& x, double tol, int reorder) {
  if (a.rows != a.cols) throw value_error("csrlsvqr: the matrix must be square");
  if (a.indptr.type() != dtype::int32 || a.indices.type() != dtype::int32) {
    throw type_error("csrlsvqr: cuSOLVER's sparse QR takes int32 indices only");
  }
  if (a.indptr.ndim() != 1 || a.indices.ndim() != 1 || a.data.ndim() != 1 || !a.indptr.is_c_contiguous() ||
      !a.indices.is_c_contiguous() || !a.data.is_c_contiguous()) {
    throw value_error("csrlsvqr: sparse index and data arrays must be 1-D and contiguous");
  }
  if (a.indptr.size() != a.rows + 1 || a.indices.size() != a.data.size()) {
    throw value_error("csrlsvqr: inconsistent CSR arrays");
  }
  if (a.rows > INT_MAX || a.data.size() > INT_MAX) {
    throw value_error("csrlsvqr: cuSOLVER's sparse QR takes 32-bit sizes; n and nnz must not exceed 2**31 - 1");
  }
  dtype t = a.data.type();
  int ti = detail::cusolver::type_index(t);  // type_error for dtypes cuSOLVER lacks
  std::int64_t n = a.rows;
  check_operand(b, "b", t, n);
  check_operand(x, "x", t, n);
  if (b.shape() != x.shape()) throw value_error("csrlsvqr: b and x differ in shape");
  std::int64_t k = b.ndim() == 2 ? b.shape()[1] : 1;
  if (n == 0 || k == 0) return -1;
  // An empty pattern is singular at column 0; cuSOLVER is not asked (it may reject nnz = 0 as invalid).
  if (a.data.size() == 0) return 0;
  const sp_api& A = api();
  int device = a.data.device();
  sp h = handle_for(A, device, detail::enter_device(device));
  const int m = static_cast<int>(n), nnz = static_cast<int>(a.data.size());
  const auto* p = static_cast<const int*>(a.indptr.data());
  const auto* i = static_cast<const int*>(a.indices.data());
  const std::size_t column = static_cast<std::size_t>(n) * itemsize(t);
  const auto* bp = static_cast<const unsigned char*>(b.data());
  auto* xp = static_cast<unsigned char*>(x.data());
  // Each column refactorises: the routine has no multiple-right-hand-side form. It blocks until the solve is
  // done (the singularity index comes back to the host), so the loop stops at the first singular column; the
  // matrix, and so the answer, is the same for every column.
  for (std::int64_t c = 0; c < k; ++c) {
    int singularity = -1;
    const void* bc = bp + static_cast<std::size_t>(c) * column;
    void* xc = xp + static_cast<std::size_t>(c) * column;
    st s;
    switch (ti) {
      case 0:
        s = A.scsrlsvqr(h, m, nnz, A.descr, a.data.data(), p, i, bc, static_cast<float>(tol), reorder, xc,
                        &singularity);
        break;
      case 1: s = A.dcsrlsvqr(h, m, nnz, A.descr, a.data.data(), p, i, bc, tol, reorder, xc, &singularity); break;
      case 2:
        s = A.ccsrlsvqr(h, m, nnz, A.descr, a.data.data(), p, i, bc, static_cast<float>(tol), reorder, xc,
                        &singularity);
        break;
      default: s = A.zcsrlsvqr(h, m, nnz, A.descr, a.data.data(), p, i, bc, tol, reorder, xc, &singularity); break;
    }
    static const char* const names[4] = {"cusolverSpScsrlsvqr", "cusolverSpDcsrlsvqr", "cusolverSpCcsrlsvqr",
                                         "cusolverSpZcsrlsvqr"};
    detail::cusolver::check(s, names[ti]);
    if (singularity >= 0) return singularity;
  }
  return -1;
}

}  // namespace cuarray::sparse
