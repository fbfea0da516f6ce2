// cuSOLVER loaded with dlopen on first use (Note [cuda library search order]) and its per-device handle pool.
#include "src/linalg/cusolver.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/cuda/library.hpp"
#include "src/core/internal.hpp"

namespace cuarray::detail::cusolver {

namespace {

struct loaded_api {
  api fns{};
  void* handle = nullptr;
  std::string error;
};

template <class F>
void typed(void* h, const char* const (&names)[4], F (&fns)[4], std::string& missing) {
  for (int i = 0; i < 4; ++i) resolve_symbol(h, names[i], fns[i], missing);
}

std::string resolve_all(void* h, api& a) {
  std::string missing;
  resolve_symbol(h, "cusolverDnCreate", a.create, missing);
  resolve_symbol(h, "cusolverDnSetStream", a.set_stream, missing);
  resolve_symbol(h, "cusolverDnCreateParams", a.create_params, missing);
  resolve_symbol(h, "cusolverDnXpotrf_bufferSize", a.xpotrf_buffer, missing);
  resolve_symbol(h, "cusolverDnXpotrf", a.xpotrf, missing);
  resolve_symbol(h, "cusolverDnXgetrf_bufferSize", a.xgetrf_buffer, missing);
  resolve_symbol(h, "cusolverDnXgetrf", a.xgetrf, missing);
  resolve_symbol(h, "cusolverDnXgetrs", a.xgetrs, missing);
  resolve_symbol(h, "cusolverDnXpotrs", a.xpotrs, missing);
  resolve_symbol(h, "cusolverDnXgeqrf_bufferSize", a.xgeqrf_buffer, missing);
  resolve_symbol(h, "cusolverDnXgeqrf", a.xgeqrf, missing);
  resolve_symbol(h, "cusolverDnXsyevd_bufferSize", a.xsyevd_buffer, missing);
  resolve_symbol(h, "cusolverDnXsyevd", a.xsyevd, missing);
  resolve_symbol(h, "cusolverDnXgesvd_bufferSize", a.xgesvd_buffer, missing);
  resolve_symbol(h, "cusolverDnXgesvd", a.xgesvd, missing);
  resolve_symbol(h, "cusolverDnXgesvdp_bufferSize", a.xgesvdp_buffer, missing);
  resolve_symbol(h, "cusolverDnXgesvdp", a.xgesvdp, missing);
  typed(h, {"cusolverDnSorgqr_bufferSize", "cusolverDnDorgqr_bufferSize", "cusolverDnCungqr_bufferSize",
            "cusolverDnZungqr_bufferSize"}, a.orgqr_buffer, missing);
  typed(h, {"cusolverDnSorgqr", "cusolverDnDorgqr", "cusolverDnCungqr", "cusolverDnZungqr"}, a.orgqr, missing);
  typed(h, {"cusolverDnSpotrfBatched", "cusolverDnDpotrfBatched", "cusolverDnCpotrfBatched",
            "cusolverDnZpotrfBatched"}, a.potrf_batched, missing);
  typed(h, {"cusolverDnSsyevjBatched_bufferSize", "cusolverDnDsyevjBatched_bufferSize",
            "cusolverDnCheevjBatched_bufferSize", "cusolverDnZheevjBatched_bufferSize"}, a.syevj_batched_buffer,
        missing);
  typed(h, {"cusolverDnSsyevjBatched", "cusolverDnDsyevjBatched", "cusolverDnCheevjBatched",
            "cusolverDnZheevjBatched"}, a.syevj_batched, missing);
  typed(h, {"cusolverDnSgesvdjBatched_bufferSize", "cusolverDnDgesvdjBatched_bufferSize",
            "cusolverDnCgesvdjBatched_bufferSize", "cusolverDnZgesvdjBatched_bufferSize"}, a.gesvdj_batched_buffer,
        missing);
  typed(h, {"cusolverDnSgesvdjBatched", "cusolverDnDgesvdjBatched", "cusolverDnCgesvdjBatched",
            "cusolverDnZgesvdjBatched"}, a.gesvdj_batched, missing);
  resolve_symbol(h, "cusolverDnCreateSyevjInfo", a.create_syevj_info, missing);
  resolve_symbol(h, "cusolverDnXsyevjSetSortEig", a.syevj_set_sort, missing);
  resolve_symbol(h, "cusolverDnCreateGesvdjInfo", a.create_gesvdj_info, missing);
  resolve_symbol(h, "cusolverDnXgesvdjSetSortEig", a.gesvdj_set_sort, missing);
  // Xgeev arrived in CUDA 12.6: its absence is not an error (eig falls back, see linalg.hpp).
  std::string optional;
  resolve_symbol(h, "cusolverDnXgeev_bufferSize", a.xgeev_buffer, optional);
  resolve_symbol(h, "cusolverDnXgeev", a.xgeev, optional);
  if (!a.xgeev_buffer || !a.xgeev) a.xgeev_buffer = nullptr, a.xgeev = nullptr;
  return missing;
}

loaded_api load() {
  loaded_api l;
  cuda_library lib = load_cuda_library("cuSOLVER (libcusolver)", "nvidia-cusolver-cu12/cu13",
                                       {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"},
                                       "CUARRAY_CUSOLVER_PATH", [&l](void* h) { return resolve_all(h, l.fns); });
  l.handle = lib.handle;
  l.error = lib.error;
  return l;
}

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return "cuSOLVER error";
  }
}

// Note [cusolver handles]: creating a handle costs milliseconds, and a handle must not be used by two threads
// at once, so idle handles wait in a free list per device and a call borrows one, points it at the current
// stream and gives it back. Handles live until the process exits (destroying them at exit could run after the
// driver has gone).
std::mutex pool_mutex;
std::unordered_map<int, std::vector<handle::entry*>>& free_lists() {
  static auto* lists = new std::unordered_map<int, std::vector<handle::entry*>>();
  return *lists;
}

}  // namespace

const api& get() {
  static std::once_flag once;
  static loaded_api loaded;
  std::call_once(once, [] { loaded = load(); });
  if (!loaded.handle) throw cuda_error(-1, loaded.error);
  return loaded.fns;
}

void check(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS) {
    throw cuda_error(-1, std::string(what) + " failed: " + status_name(status) + " (" +
                             std::to_string(static_cast<int>(status)) + ")");
  }
}

int type_index(dtype t) {
  switch (t) {
    case dtype::float32: return 0;
    case dtype::float64: return 1;
    case dtype::complex64: return 2;
    case dtype::complex128: return 3;
    default: throw type_error("cuSOLVER has no routines for dtype " + std::string(name(t)));
  }
}

cudaDataType data_type(dtype t) {
  constexpr cudaDataType types[4] = {CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F};
  return types[type_index(t)];
}

handle::handle(int device) : device_(device) {
  const api& a = cusolver::get();
  stream_ = enter_device(device);
  {
    std::lock_guard<std::mutex> lock(pool_mutex);
    auto& list = free_lists()[device];
    if (!list.empty()) {
      entry_ = list.back();
      list.pop_back();
    } else {
      entry_ = nullptr;
    }
  }
  if (!entry_) {
    auto* e = new entry();
    check(a.create(&e->h), "cusolverDnCreate");
    check(a.create_params(&e->params), "cusolverDnCreateParams");
    check(a.create_syevj_info(&e->syevj), "cusolverDnCreateSyevjInfo");
    check(a.syevj_set_sort(e->syevj, 1), "cusolverDnXsyevjSetSortEig");
    check(a.create_gesvdj_info(&e->gesvdj), "cusolverDnCreateGesvdjInfo");
    check(a.gesvdj_set_sort(e->gesvdj, 1), "cusolverDnXgesvdjSetSortEig");
    entry_ = e;
  }
  cusolverStatus_t s = a.set_stream(entry_->h, stream_);
  if (s != CUSOLVER_STATUS_SUCCESS) {
    std::lock_guard<std::mutex> lock(pool_mutex);
    free_lists()[device_].push_back(entry_);
    check(s, "cusolverDnSetStream");
  }
}

handle::~handle() {
  std::lock_guard<std::mutex> lock(pool_mutex);
  free_lists()[device_].push_back(entry_);
}

}  // namespace cuarray::detail::cusolver
