// cuSOLVER loaded on first use (src/cuda/library.hpp) and its per-device handle pool.
#include "src/linalg/cusolver.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/library.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::detail::cusolver {

namespace {

struct loaded_api {
  api fns{};
  void* handle = nullptr;
  std::string error;
};

const library_spec cusolver_library{"cuSOLVER (libcusolver)",
                                    "nvidia-cusolver-cu12/cu13",
                                    {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"},
                                    "CUARRAY_CUSOLVER_PATH"};

/// The four S/D/C/Z members of a typed family (Note [cusolver typed routines]).
template <class F> void typed(std::vector<library_symbol>& out, const char* const (&names)[4], F (&fns)[4]) {
  for (int i = 0; i < 4; ++i) out.emplace_back(names[i], fns[i]);
}

std::vector<library_symbol> cusolver_symbols(api& a) {
  std::vector<library_symbol> t = {
      {"cusolverDnCreate", a.create},
      {"cusolverDnSetStream", a.set_stream},
      {"cusolverDnCreateParams", a.create_params},
      {"cusolverDnXpotrf_bufferSize", a.xpotrf_buffer},
      {"cusolverDnXpotrf", a.xpotrf},
      {"cusolverDnXgetrf_bufferSize", a.xgetrf_buffer},
      {"cusolverDnXgetrf", a.xgetrf},
      {"cusolverDnXgetrs", a.xgetrs},
      {"cusolverDnXpotrs", a.xpotrs},
      {"cusolverDnXgeqrf_bufferSize", a.xgeqrf_buffer},
      {"cusolverDnXgeqrf", a.xgeqrf},
      {"cusolverDnXsyevd_bufferSize", a.xsyevd_buffer},
      {"cusolverDnXsyevd", a.xsyevd},
      {"cusolverDnXgesvd_bufferSize", a.xgesvd_buffer},
      {"cusolverDnXgesvd", a.xgesvd},
      {"cusolverDnXgesvdp_bufferSize", a.xgesvdp_buffer},
      {"cusolverDnXgesvdp", a.xgesvdp},
      {"cusolverDnCreateSyevjInfo", a.create_syevj_info},
      {"cusolverDnXsyevjSetSortEig", a.syevj_set_sort},
      {"cusolverDnCreateGesvdjInfo", a.create_gesvdj_info},
      {"cusolverDnXgesvdjSetSortEig", a.gesvdj_set_sort},
      // Xgeev arrived in CUDA 12.6: its absence is not an error (eig falls back, see linalg.hpp).
      {"cusolverDnXgeev_bufferSize", a.xgeev_buffer, library_symbol::optional},
      {"cusolverDnXgeev", a.xgeev, library_symbol::optional},
  };
  typed(t,
        {"cusolverDnSorgqr_bufferSize", "cusolverDnDorgqr_bufferSize", "cusolverDnCungqr_bufferSize",
         "cusolverDnZungqr_bufferSize"},
        a.orgqr_buffer);
  typed(t, {"cusolverDnSorgqr", "cusolverDnDorgqr", "cusolverDnCungqr", "cusolverDnZungqr"}, a.orgqr);
  typed(t, {"cusolverDnSpotrfBatched", "cusolverDnDpotrfBatched", "cusolverDnCpotrfBatched", "cusolverDnZpotrfBatched"},
        a.potrf_batched);
  typed(t,
        {"cusolverDnSsyevjBatched_bufferSize", "cusolverDnDsyevjBatched_bufferSize",
         "cusolverDnCheevjBatched_bufferSize", "cusolverDnZheevjBatched_bufferSize"},
        a.syevj_batched_buffer);
  typed(t, {"cusolverDnSsyevjBatched", "cusolverDnDsyevjBatched", "cusolverDnCheevjBatched", "cusolverDnZheevjBatched"},
        a.syevj_batched);
  typed(t,
        {"cusolverDnSgesvdjBatched_bufferSize", "cusolverDnDgesvdjBatched_bufferSize",
         "cusolverDnCgesvdjBatched_bufferSize", "cusolverDnZgesvdjBatched_bufferSize"},
        a.gesvdj_batched_buffer);
  typed(t,
        {"cusolverDnSgesvdjBatched", "cusolverDnDgesvdjBatched", "cusolverDnCgesvdjBatched",
         "cusolverDnZgesvdjBatched"},
        a.gesvdj_batched);
  return t;
}

loaded_api load() {
  loaded_api l;
  cuda_library lib = load_library(cusolver_library, cusolver_symbols(l.fns));
  if (!l.fns.xgeev_buffer || !l.fns.xgeev) l.fns.xgeev_buffer = nullptr, l.fns.xgeev = nullptr;  // both or neither
  l.handle = lib.handle;
  l.error = lib.error;
  return l;
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
    throw cuda_error(-1, std::string(what) + " failed: " + status_text(status_source::cusolver, status) + " (" +
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

std::uintptr_t device_handle(int device) {
  const api& a = cusolver::get();
  cudaStream_t stream = enter_device(device);
  // Not one of the pool's handles (Note [cusolver handles]): those are lent call by call, and a handle the user
  // keeps must not be lent to cuarray's own calls meanwhile. Like them it lives until the process exits.
  thread_local std::unordered_map<int, cusolverDnHandle_t> own;
  cusolverDnHandle_t& h = own[device];
  if (!h) {
    cusolverDnHandle_t made = nullptr;
    check(a.create(&made), "cusolverDnCreate");
    h = made;
  }
  check(a.set_stream(h, stream), "cusolverDnSetStream");
  return reinterpret_cast<std::uintptr_t>(h);
}

}  // namespace cuarray::detail::cusolver

namespace cuarray {
std::uintptr_t cusolver_handle(int device) { return detail::cusolver::device_handle(device); }
}  // namespace cuarray
