// Helpers shared by the linalg sources: dtype rules, argument checks, views and working copies.
#include "src/linalg/decomp_common.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include <cuda_runtime_api.h>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/graph.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/transfer.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/check.hpp"
#include "src/kernels/linalg_kernels.hpp"
#include "src/linalg/cublas.hpp"
#include "src/ops/reductions_internal.hpp"

namespace cuarray::linalg::detail {

dtype result_type(std::initializer_list<dtype> types) {
  bool is_double = false, is_cplx = false;
  for (dtype t : types) {
    if (t == dtype::float16) throw type_error("array type float16 is unsupported in linalg");
    if (is_complex(t)) is_cplx = true;
    if (!is_inexact(t) || t == dtype::float64 || t == dtype::complex128) is_double = true;
  }
  if (is_cplx) return is_double ? dtype::complex128 : dtype::complex64;
  return is_double ? dtype::float64 : dtype::float32;
}

dtype real_of(dtype t) {
  if (t == dtype::complex64) return dtype::float32;
  if (t == dtype::complex128) return dtype::float64;
  return t;
}

dtype complex_of(dtype t) {
  if (t == dtype::float32 || t == dtype::complex64) return dtype::complex64;
  return dtype::complex128;
}

void assert_stacked_2d(const array& a) {
  if (a.ndim() < 2) {
    throw linalg_error(std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
  }
}

void assert_stacked_square(const array& a) {
  assert_stacked_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2]) {
    throw linalg_error("Last 2 dimensions of the array must be square");
  }
}

shape_t batch_shape(const array& a) {
  shape_t s;
  for (int i = 0; i + 2 < a.ndim(); ++i) s.push_back(a.shape()[i]);
  return s;
}

std::int64_t batch_count(const array& a) { return shape_size(batch_shape(a)); }

array swap_last(const array& a) {
  descriptor d = a.desc();
  int n = a.ndim();
  std::swap(d.shape[n - 1], d.shape[n - 2]);
  std::swap(d.strides[n - 1], d.strides[n - 2]);
  return array(a.storage(), d);
}

array slice_axis(const array& a, int axis, std::int64_t start, std::int64_t stop) {
  if (axis < 0) axis += a.ndim();
  descriptor d = a.desc();
  stop = std::min(stop, d.shape[axis]);
  start = std::min(start, stop);
  d.offset += start * d.strides[axis];
  d.shape[axis] = stop - start;
  return array(a.storage(), d);
}

array diag_view(const array& a) {
  descriptor d = a.desc();
  int n = a.ndim();
  std::int64_t k = std::min(d.shape[n - 1], d.shape[n - 2]);
  std::int64_t stride = d.strides[n - 1] + d.strides[n - 2];
  d.shape.resize(n - 1);
  d.strides.resize(n - 1);
  d.shape[n - 2] = k;
  d.strides[n - 2] = stride;
  return array(a.storage(), d);
}

array drop_axis(const array& a, int axis) {
  if (axis < 0) axis += a.ndim();
  descriptor d = a.desc();
  d.shape.erase(axis);
  d.strides.erase(axis);
  return array(a.storage(), d);
}

array to_colmajor(const array& a, dtype t) { return swap_last(a).astype(t, order::C, true); }

array triangle(const array& x, bool upper) {
  std::int64_t m = x.shape()[x.ndim() - 2], n = x.shape()[x.ndim() - 1];
  array rows = arange(std::int64_t{0}, m).reshape(shape_t{m, 1});
  array cols = arange(std::int64_t{0}, n).reshape(shape_t{1, n});
  array keep = upper ? less_equal(rows, cols) : greater_equal(rows, cols);
  return where(keep, x, 0);
}

array gather_rows(const array& b, const array& perm) {
  return b.ndim() == 2 ? take(b, perm, 0) : take_along_axis(b, expand_dims(perm, std::vector<int>{-1}), -2);
}

array colmajor_image(const array& a, dtype t) {
  array view = swap_last(a);
  return view.type() == t && view.is_c_contiguous() ? view : view.astype(t, order::C, true);
}

namespace {
std::atomic<std::int64_t> batched_limit{1024};
std::atomic<std::int64_t> unit_solve_limit{256};
std::atomic<std::int64_t> tri_kernel_limit{128};
}  // namespace

std::int64_t batched_max_n() { return batched_limit.load(std::memory_order_relaxed); }
std::int64_t set_batched_max_n(std::int64_t n) { return batched_limit.exchange(n); }
std::int64_t unit_solve_min_n() { return unit_solve_limit.load(std::memory_order_relaxed); }
std::int64_t set_unit_solve_min_n(std::int64_t n) { return unit_solve_limit.exchange(n); }
std::int64_t tri_kernel_max_k() { return tri_kernel_limit.load(std::memory_order_relaxed); }
std::int64_t set_tri_kernel_max_k(std::int64_t k) { return tri_kernel_limit.exchange(k); }

bool tri_kernel_route(std::int64_t batch, std::int64_t n, std::int64_t k) {
  if (k == 1 && !use_batched(batch, n)) return false;
  return k <= tri_kernel_max_k() && ::cuarray::detail::tri_solve_fits(batch, n, k);
}

bool getrs_kernel_route(std::int64_t batch, std::int64_t n, std::int64_t k, int device) {
  return n <= ::cuarray::detail::pivot_seed_max_n(device) && k <= tri_kernel_max_k() &&
         ::cuarray::detail::tri_solve_fits(batch, n, k);
}

array matrix_pointers(const array& a) {
  const std::int64_t batch = batch_count(a);
  array p = ::cuarray::detail::new_array(dtype::uint64, shape_t{batch}, order::C, a.device());
  cudaStream_t stream = ::cuarray::detail::enter_device(a.device());
  ::cuarray::detail::launch_matrix_pointers(a.data(), matrix_bytes(a), batch, static_cast<void**>(p.data()), stream);
  return p;
}

array getrf_batched(const array& buf, const array& info, array* pointers) {
  const std::int64_t n = buf.shape()[buf.ndim() - 1];
  shape_t pshape = batch_shape(buf);
  pshape.push_back(n);
  array piv = ::cuarray::detail::new_array(dtype::int32, pshape, order::C, buf.device());
  array ptrs = matrix_pointers(buf);
  ::cuarray::detail::cublas_getrf_batched(buf.type(), buf.device(), n, static_cast<void* const*>(ptrs.data()), n,
                                          static_cast<int*>(piv.data()), static_cast<int*>(info.data()),
                                          batch_count(buf));
  if (pointers) *pointers = ptrs;
  return piv;
}

void trsm_stack(dtype t, bool right, bool lower, int trans, bool unit_diagonal, std::int64_t n, std::int64_t k,
                const array& a, const array& b, std::int64_t ldb) {
  const int device = a.device();
  const std::int64_t batch = batch_count(a);
  if (use_batched(batch, n)) {
    array pa = matrix_pointers(a), pb = matrix_pointers(b);
    ::cuarray::detail::cublas_trsm_batched(t, device, right, lower, trans, unit_diagonal, n, k,
                                           static_cast<const void* const*>(pa.data()), n,
                                           static_cast<void* const*>(pb.data()), ldb, batch);
    return;
  }
  for (std::int64_t i = 0; i < batch; ++i) {
    ::cuarray::detail::cublas_trsm(t, device, right, lower, trans, unit_diagonal, n, k, matrix_ptr(a, i), n,
                                   matrix_ptr(b, i), ldb);
  }
}

array conj_if_complex(const array& x) { return is_complex(x.type()) ? conjugate(x) : x; }

array eye_stack(const shape_t& batch, std::int64_t m, std::int64_t n, dtype t) {
  array e = eye(m, n, 0, t);
  shape_t full = batch;
  full.push_back(m);
  full.push_back(n);
  array out = empty(full, t);
  out.assign(e);
  return out;
}

array workspace(std::size_t bytes, int device) {
  // Note [cusolver workspaces]: stream-ordered pool memory, returned when the array dies after the calls that
  // use it have been enqueued on the same stream.
  return ::cuarray::detail::new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1))},
                                      order::C, device);
}

std::vector<int> read_info(const array& info) {
  std::vector<int> host(static_cast<std::size_t>(info.size()));
  // A stack's flags are nearly always all zero: one reduction and an 8-byte read then stand for the whole
  // array's copy (64 KiB for 16384 matrices).
  if (info.size() > 64 && count_nonzero(info).host_value<std::int64_t>() == 0) return host;
  info.copy_to_host(host);
  return host;
}

namespace {

// The calling thread's pinned slot for info_read, and one event per device. Both live as long as the thread's
// process: freeing them at thread exit could run after the CUDA runtime is gone.
constexpr std::int64_t info_slot_flags = 64;  // info of up to this many flags is copied whole, else counted
struct info_slot {
  void* pinned = nullptr;  // info_slot_flags int32 flags, or one int64 count
  std::vector<cudaEvent_t> events;
  bool busy = false;
};
thread_local info_slot tls_info_slot;

}  // namespace

info_read::info_read(array info) : info_(std::move(info)) {
  info_slot& slot = tls_info_slot;
  if (info_.size() == 0 || info_.type() != dtype::int32 || !info_.is_c_contiguous() || slot.busy ||
      !synchronize_allowed()) {
    return;
  }
  const int device = info_.device();
  cudaStream_t stream = ::cuarray::detail::enter_device(device);
  if (is_capturing(stream_ref(stream))) return;
  if (!slot.pinned) {
    void* p = nullptr;
    if (cudaHostAlloc(&p, info_slot_flags * sizeof(int), cudaHostAllocPortable) != cudaSuccess) {
      (void)cudaGetLastError();
      return;
    }
    slot.pinned = p;
  }
  if (slot.events.size() <= static_cast<std::size_t>(device)) slot.events.resize(static_cast<std::size_t>(device) + 1);
  cudaEvent_t& ev = slot.events[static_cast<std::size_t>(device)];
  if (!ev) CUARRAY_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  if (info_.size() <= info_slot_flags) {
    memcpy_device_to_host_async(slot.pinned, info_.data(), info_.nbytes(), stream_ref(stream));
  } else {
    count_ = count_nonzero(info_);
    memcpy_device_to_host_async(slot.pinned, count_.data(), sizeof(std::int64_t), stream_ref(stream));
  }
  CUARRAY_CUDA_CHECK(cudaEventRecord(ev, stream));
  slot.busy = true;
  event_ = ev;
}

info_read::~info_read() {
  if (!event_) return;
  (void)cudaEventSynchronize(static_cast<cudaEvent_t>(event_));  // the slot is written until the event completes
  tls_info_slot.busy = false;
}

std::vector<int> info_read::flags() {
  if (!event_) return read_info(info_);
  const cudaError_t st = cudaEventSynchronize(static_cast<cudaEvent_t>(event_));
  std::vector<int> host(static_cast<std::size_t>(info_.size()));
  std::int64_t count = 0;
  if (st == cudaSuccess) {
    if (info_.size() <= info_slot_flags) {
      std::memcpy(host.data(), tls_info_slot.pinned, host.size() * sizeof(int));
    } else {
      std::memcpy(&count, tls_info_slot.pinned, sizeof(count));
    }
  }
  event_ = nullptr;
  tls_info_slot.busy = false;
  CUARRAY_CUDA_CHECK(st);
  if (count != 0) info_.copy_to_host(host);
  return host;
}

bool host_bool(const array& b) { return b.host_value<bool>(); }

double eps_of(dtype t) {
  switch (real_of(t)) {
    case dtype::float16: return 0.0009765625;
    case dtype::float32: return std::numeric_limits<float>::epsilon();
    default: return std::numeric_limits<double>::epsilon();
  }
}

array matrix_view(const array& stack, std::int64_t i) {
  descriptor d;
  d.type = stack.type();
  int nd = stack.ndim();
  d.shape = shape_t{stack.shape()[nd - 2], stack.shape()[nd - 1]};
  d.strides = shape_t{stack.strides()[nd - 2], stack.strides()[nd - 1]};
  d.offset = stack.offset() + i * matrix_bytes(stack);
  return array(stack.storage(), d);
}

shape_t with_tail(shape_t s, std::initializer_list<std::int64_t> tail) {
  for (std::int64_t v : tail) s.push_back(v);
  return s;
}

bool any_nonfinite(const array& a) {
  // One read of `a` in place: isfinite's bool array (an eighth of a float64 matrix) would stay in the pool as a
  // segment of its own beside the working copies that follow, above the peak that Note [polar svd] keeps.
  return is_inexact(a.type()) && a.size() != 0 && !host_bool(::cuarray::detail::all_finite(a));
}

}  // namespace cuarray::linalg::detail
