// Devices, streams and events over the CUDA runtime, with the current device and stream cached per thread.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <array>
#include <atomic>
#include <mutex>
#include <string>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/event.hpp"
#include "cuarray/graph.hpp"
#include "cuarray/memory.hpp"
#include "cuarray/stream.hpp"
#include "src/cuda/check.hpp"
#include "src/cuda/status.hpp"

namespace cuarray {

namespace detail {

namespace {

std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// The runtime answers cudaErrorInsufficientDriver both when libcuda is missing and when it is too old: tell
// the two apart, since the remedies differ (install a driver; update it).
std::string driver_problem(cudaError_t status) {
  if (status != cudaErrorInsufficientDriver && status != cudaErrorStubLibrary) return {};
  void* h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* why = ::dlerror();
    return std::string("no NVIDIA driver: libcuda.so.1 could not be loaded (") + (why ? why : "not found") +
           "); install the NVIDIA driver";
  }
  using get_version_fn = int (*)(int*);
  auto get_version = reinterpret_cast<get_version_fn>(::dlsym(h, "cuDriverGetVersion"));
  int version = 0;
  std::string out;
  if (status == cudaErrorStubLibrary) {
    out = "the libcuda.so.1 found is the toolkit's stub, not a driver; install the NVIDIA driver";
  } else if (get_version && get_version(&version) == 0 && version < CUDART_VERSION) {
    out = "the NVIDIA driver is too old: it supports CUDA " + cuda_version_text(version) + ", cuarray needs " +
          cuda_version_text(CUDART_VERSION) + " or newer; update the driver";
  }
  ::dlclose(h);
  return out;
}

}  // namespace

void throw_cuda_error(cudaError_t status, const char* call) {
  (void)cudaGetLastError();  // clear a non-sticky error so that later calls do not report it again
  std::string msg = runtime_status_message(status);
  if (std::string problem = driver_problem(status); !problem.empty()) msg = problem + " [" + msg + "]";
  if (call && *call) msg += " (in " + std::string(call) + ")";
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver ||
      status == cudaErrorCallRequiresNewerDriver || status == cudaErrorStubLibrary ||
      status == cudaErrorDevicesUnavailable) {
    throw no_device_error(static_cast<int>(status), "no CUDA device was found: " + msg);
  }
  throw cuda_error(static_cast<int>(status), msg);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------------
// Devices

namespace {

struct device_table {
  int count = 0;
  cudaError_t status = cudaSuccess;
};

// Probed once: a process without a driver must keep working (import, CPU-only paths) and get the same
// clear error from every later device use.
const device_table& devices() {
  static const device_table table = [] {
    device_table t;
    t.status = cudaGetDeviceCount(&t.count);
    if (t.status != cudaSuccess) {
      (void)cudaGetLastError();
      t.count = 0;
    }
    return t;
  }();
  return table;
}

thread_local int tls_current_device = 0;
thread_local int tls_active_device = -1;
constexpr int max_devices = 64;
thread_local std::array<CUstream_st*, max_devices> tls_current_stream{};

void check_device_id(int id) {
  require_device();
  if (id < 0 || id >= devices().count) {
    throw cuda_error(static_cast<int>(cudaErrorInvalidDevice),
                     "cudaErrorInvalidDevice: invalid device ordinal " + std::to_string(id) + " (" +
                         std::to_string(devices().count) + " device(s) available)");
  }
}

}  // namespace

int device_count() { return devices().count; }

bool is_available() { return devices().count > 0; }

void require_device() {
  const device_table& t = devices();
  if (t.count > 0) return;
  std::string why = t.status == cudaSuccess ? std::string("cudaErrorNoDevice: the CUDA driver reports no device")
                                            : detail::runtime_status_message(t.status);
  if (std::string problem = detail::driver_problem(t.status); !problem.empty()) why = problem + " [" + why + "]";
  throw no_device_error(static_cast<int>(t.status == cudaSuccess ? cudaErrorNoDevice : t.status),
                        "no CUDA device was found (" + why + ")");
}

int current_device() { return tls_current_device; }

void set_current_device(int id) {
  if (id == tls_current_device && tls_active_device == id) return;
  check_device_id(id);
  activate_device(id);
  tls_current_device = id;
}

void activate_device(int id) {
  if (id == tls_active_device) return;
  check_device_id(id);
  CUARRAY_CUDA_CHECK(cudaSetDevice(id));
  tls_active_device = id;
}

// Note [peer operands]: CuPy runs an operation on the current device; an array operand of another device is
// read (or written) in place over peer access, which is enabled on use, with a PerformanceWarning each time, and
// a ValueError where the devices cannot reach each other. Callers test `arr.device() != current` themselves, so
// the one-device path costs one int compare per operand. Whether a pair can reach each other never changes and
// is cached; enabling is asked every time, as CuPy does, because another library in the process may have
// disabled it (cudaDeviceDisablePeerAccess) since.
void (*peer_access_warning_hook)(int array_device, int current_device) = nullptr;

std::string peer_access_message(int array_device, int current, bool available) {
  return "The device where the array resides (" + std::to_string(array_device) +
         ") is different from the current device (" + std::to_string(current) + "). " +
         (available ? "Peer access has been activated automatically."
                    : "Peer access is unavailable between these devices.");
}

void require_peer_access(int current, int other) {
  if (current == other) return;
  check_device_id(current);
  check_device_id(other);
  // 0: not asked yet, 1: peers, 2: not peers.
  static std::array<std::atomic<signed char>, max_devices * max_devices> can_access{};
  std::atomic<signed char>& known = can_access[static_cast<std::size_t>(current * max_devices + other)];
  signed char state = known.load(std::memory_order_relaxed);
  if (state == 0) {
    int v = 0;
    CUARRAY_CUDA_CHECK(cudaDeviceCanAccessPeer(&v, current, other));
    state = v ? 1 : 2;
    known.store(state, std::memory_order_relaxed);
  }
  if (state == 2) throw value_error(peer_access_message(other, current, false));
  activate_device(current);  // peer access is granted to the active device
  cudaError_t st = cudaDeviceEnablePeerAccess(other, 0);
  if (st == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();  // not sticky, but the runtime would report it again from cudaGetLastError
  } else if (st != cudaSuccess) {
    detail::throw_cuda_error(st, "cudaDeviceEnablePeerAccess");
  }
  if (peer_access_warning_hook) peer_access_warning_hook(other, current);
}

std::string compute_capability(int id) {
  int major = device_attribute(id, cudaDevAttrComputeCapabilityMajor);
  int minor = device_attribute(id, cudaDevAttrComputeCapabilityMinor);
  return std::to_string(major) + std::to_string(minor);
}

int device_attribute(int id, int attribute) {
  check_device_id(id);
  int value = 0;
  CUARRAY_CUDA_CHECK(cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(attribute), id));
  return value;
}

std::pair<std::size_t, std::size_t> mem_info(int id) {
  int previous = tls_current_device;
  activate_device(id);
  std::size_t free = 0, total = 0;
  cudaError_t st = cudaMemGetInfo(&free, &total);
  activate_device(previous);
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaMemGetInfo");
  return {free, total};
}

void device_synchronize(int id) {
  if (detail::active_captures() != 0) {
    throw cuda_error(static_cast<int>(cudaErrorStreamCaptureUnsupported),
                     "cudaErrorStreamCaptureUnsupported: synchronizing the device waits for every stream, which "
                     "cannot happen while a stream captures a CUDA graph; end the capture first");
  }
  int previous = tls_current_device;
  activate_device(id);
  cudaError_t st = cudaDeviceSynchronize();
  activate_device(previous);
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaDeviceSynchronize");
  poll_pending_copies();
}

int runtime_version() {
  int v = 0;
  CUARRAY_CUDA_CHECK(cudaRuntimeGetVersion(&v));
  return v;
}

int driver_version() {
  int v = 0;
  CUARRAY_CUDA_CHECK(cudaDriverGetVersion(&v));
  return v;
}

// ---------------------------------------------------------------------------------------------------------
// Streams

void stream_ref::synchronize() const {
  require_device();
  require_not_capturing(*this, "Synchronizing a stream");
  CUARRAY_CUDA_CHECK(cudaStreamSynchronize(handle_));
  poll_pending_copies();
}

bool stream_ref::query() const {
  require_device();
  cudaError_t st = cudaStreamQuery(handle_);
  if (st == cudaSuccess) return true;
  if (st == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  detail::throw_cuda_error(st, "cudaStreamQuery");
}

void stream_ref::wait(const event& e) const { CUARRAY_CUDA_CHECK(cudaStreamWaitEvent(handle_, e.get(), 0)); }

stream::stream(bool non_blocking, int priority) : device_(current_device()) {
  activate_device(device_);
  cudaStream_t h = nullptr;
  CUARRAY_CUDA_CHECK(
      cudaStreamCreateWithPriority(&h, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault, priority));
  handle_ = h;
}

stream::~stream() {
  if (!handle_) return;
  // Errors here mean the process is shutting down the runtime; nothing useful can be done with them.
  if (cudaSetDevice(device_) == cudaSuccess) (void)cudaStreamDestroy(handle_);
  (void)cudaGetLastError();
  if (tls_active_device >= 0) (void)cudaSetDevice(tls_active_device);
}

stream_ref current_stream() { return stream_ref(tls_current_stream[static_cast<std::size_t>(tls_current_device)]); }

stream_ref current_stream(int device) {
  if (device < 0 || device >= max_devices) return stream_ref();
  return stream_ref(tls_current_stream[static_cast<std::size_t>(device)]);
}

void set_current_stream(stream_ref s) { tls_current_stream[static_cast<std::size_t>(tls_current_device)] = s.get(); }

void stream_priority_range(int& least, int& greatest) {
  activate_device(current_device());
  CUARRAY_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
}

// ---------------------------------------------------------------------------------------------------------
// Events

event::event(bool blocking, bool disable_timing, bool interprocess) {
  activate_device(current_device());
  unsigned flags = cudaEventDefault;
  if (blocking) flags |= cudaEventBlockingSync;
  if (disable_timing) flags |= cudaEventDisableTiming;
  if (interprocess) flags |= cudaEventInterprocess;
  cudaEvent_t h = nullptr;
  CUARRAY_CUDA_CHECK(cudaEventCreateWithFlags(&h, flags));
  handle_ = h;
}

event::~event() {
  if (handle_) (void)cudaEventDestroy(handle_);
  (void)cudaGetLastError();
}

void event::record(stream_ref s) { CUARRAY_CUDA_CHECK(cudaEventRecord(handle_, s.get())); }

void event::synchronize() const {
  CUARRAY_CUDA_CHECK(cudaEventSynchronize(handle_));
  poll_pending_copies();
}

bool event::query() const {
  cudaError_t st = cudaEventQuery(handle_);
  if (st == cudaSuccess) return true;
  if (st == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  detail::throw_cuda_error(st, "cudaEventQuery");
}

float elapsed_time(const event& start, const event& end) {
  float ms = 0;
  CUARRAY_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get()));
  return ms;
}

}  // namespace cuarray
