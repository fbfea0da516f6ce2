// Thin bindings of the CUDA runtime, driver and NVTX with CuPy's names (cuarray.cuda.runtime, .driver, .nvtx),
// CuPy's memory hooks on the pool, and allow_synchronize.
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nvtx3/nvToolsExt.h>

#include <cstring>
#include <memory>
#include <string>
#include <tuple>

#include "common.hpp"
#include "src/cuda/cuda.hpp"

namespace cuarray::py {

namespace {

// ---------------------------------------------------------------------------------------------------------
// Runtime: CuPy's thin wrappers take and return plain ints for pointers and handles, and raise
// CUDARuntimeError('<name>: <description>') with the status in `.status`.

[[noreturn]] void runtime_fail(cudaError_t st) {
  (void)detail::cudart().cudaGetLastError();  // a non-sticky error must not resurface in a later call
  throw cuda_error(static_cast<int>(st), detail::runtime_status_message(st));
}

inline void rt(cudaError_t st) {
  if (st != cudaSuccess) runtime_fail(st);
}

// cuarray caches the device the runtime uses per thread (src/cuda/runtime.cpp); calls that act on "the
// current device" first make cuarray's current device the runtime's one, so that both views agree.
void use_current_device() {
  if (is_available()) activate_device(current_device());
}

template <class T> T* as_ptr(std::intptr_t v) { return reinterpret_cast<T*>(v); }
cudaStream_t as_stream(std::intptr_t v) { return reinterpret_cast<cudaStream_t>(v); }
cudaEvent_t as_event(std::intptr_t v) { return reinterpret_cast<cudaEvent_t>(v); }

std::intptr_t as_int(const void* p) { return reinterpret_cast<std::intptr_t>(p); }

// A Python callable run by cudaLaunchHostFunc / cudaStreamAddCallback: (func, arg) kept alive by one
// reference that the callback drops after the call.
struct host_callback {
  nb::object func, arg;
};

void CUDART_CB run_host_func(void* data) {
  PyGILState_STATE st = PyGILState_Ensure();
  {
    std::unique_ptr<host_callback> cb(static_cast<host_callback*>(data));
    try {
      cb->func(cb->arg);
    } catch (nb::python_error& e) {
      e.discard_as_unraisable("cuarray.cuda.runtime.launchHostFunc callback");
    } catch (...) {
    }
  }
  PyGILState_Release(st);
}

void CUDART_CB run_stream_callback(cudaStream_t stream, cudaError_t status, void* data) {
  PyGILState_STATE st = PyGILState_Ensure();
  {
    std::unique_ptr<host_callback> cb(static_cast<host_callback*>(data));
    try {
      cb->func(as_int(stream), static_cast<int>(status), cb->arg);
    } catch (nb::python_error& e) {
      e.discard_as_unraisable("cuarray.cuda.runtime.streamAddCallback callback");
    } catch (...) {
    }
  }
  PyGILState_Release(st);
}

std::string pci_bus_id_of(int device) {
  char buf[32] = {};
  rt(detail::cudart().cudaDeviceGetPCIBusId(buf, static_cast<int>(sizeof(buf)), device));
  return std::string(buf);
}

void init_runtime_api(nb::module_& r) {
  r.def(
      "malloc",
      [](std::size_t size) {
    use_current_device();
    void* p = nullptr;
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaMalloc(&p, size));
    }
    return as_int(p);
      },
      nb::arg("size"));
  r.def(
      "mallocManaged",
      [](std::size_t size, unsigned flags) {
    use_current_device();
    void* p = nullptr;
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaMallocManaged(&p, size, flags));
    }
    return as_int(p);
      },
      nb::arg("size"), nb::arg("flags") = static_cast<unsigned>(cudaMemAttachGlobal));
  r.def(
      "mallocAsync",
      [](std::size_t size, std::intptr_t stream) {
    use_current_device();
    void* p = nullptr;
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaMallocAsync(&p, size, as_stream(stream)));
    }
    return as_int(p);
      },
      nb::arg("size"), nb::arg("stream"));
  r.def(
      "mallocFromPoolAsync",
      [](std::size_t size, std::intptr_t pool, std::intptr_t stream) {
    void* p = nullptr;
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaMallocFromPoolAsync(&p, size, reinterpret_cast<cudaMemPool_t>(pool), as_stream(stream)));
    }
    return as_int(p);
      },
      nb::arg("size"), nb::arg("pool"), nb::arg("stream"));
  r.def(
      "hostAlloc",
      [](std::size_t size, unsigned flags) {
    void* p = nullptr;
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaHostAlloc(&p, size, flags));
    }
    return as_int(p);
      },
      nb::arg("size"), nb::arg("flags"));
  r.def(
      "hostRegister",
      [](std::intptr_t ptr, std::size_t size, unsigned flags) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaHostRegister(as_ptr<void>(ptr), size, flags));
      },
      nb::arg("ptr"), nb::arg("size"), nb::arg("flags"));
  r.def(
      "hostUnregister",
      [](std::intptr_t ptr) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaHostUnregister(as_ptr<void>(ptr)));
      },
      nb::arg("ptr"));
  r.def(
      "free",
      [](std::intptr_t ptr) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaFree(as_ptr<void>(ptr)));
      },
      nb::arg("ptr"));
  r.def(
      "freeHost",
      [](std::intptr_t ptr) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaFreeHost(as_ptr<void>(ptr)));
      },
      nb::arg("ptr"));
  r.def(
      "freeAsync",
      [](std::intptr_t ptr, std::intptr_t stream) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaFreeAsync(as_ptr<void>(ptr), as_stream(stream)));
      },
      nb::arg("ptr"), nb::arg("stream"));
  r.def("memGetInfo", [] {
    use_current_device();
    std::size_t free = 0, total = 0;
    rt(detail::cudart().cudaMemGetInfo(&free, &total));
    return std::make_pair(free, total);
  });
  r.def(
      "memcpy",
      [](std::intptr_t dst, std::intptr_t src, std::size_t size, int kind) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpy(as_ptr<void>(dst), as_ptr<const void>(src), size,
                                   static_cast<cudaMemcpyKind>(kind)));
      },
      nb::arg("dst"), nb::arg("src"), nb::arg("size"), nb::arg("kind"));
  r.def(
      "memcpyAsync",
      [](std::intptr_t dst, std::intptr_t src, std::size_t size, int kind, std::intptr_t stream) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpyAsync(as_ptr<void>(dst), as_ptr<const void>(src), size,
                                        static_cast<cudaMemcpyKind>(kind), as_stream(stream)));
      },
      nb::arg("dst"), nb::arg("src"), nb::arg("size"), nb::arg("kind"), nb::arg("stream"));
  r.def(
      "memcpyPeer",
      [](std::intptr_t dst, int dst_device, std::intptr_t src, int src_device, std::size_t size) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpyPeer(as_ptr<void>(dst), dst_device, as_ptr<const void>(src), src_device, size));
      },
      nb::arg("dst"), nb::arg("dstDevice"), nb::arg("src"), nb::arg("srcDevice"), nb::arg("size"));
  r.def(
      "memcpyPeerAsync",
      [](std::intptr_t dst, int dst_device, std::intptr_t src, int src_device, std::size_t size, std::intptr_t stream) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpyPeerAsync(as_ptr<void>(dst), dst_device, as_ptr<const void>(src), src_device, size,
                                            as_stream(stream)));
      },
      nb::arg("dst"), nb::arg("dstDevice"), nb::arg("src"), nb::arg("srcDevice"), nb::arg("size"), nb::arg("stream"));
  r.def(
      "memcpy2D",
      [](std::intptr_t dst, std::size_t dpitch, std::intptr_t src, std::size_t spitch, std::size_t width,
         std::size_t height, int kind) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpy2D(as_ptr<void>(dst), dpitch, as_ptr<const void>(src), spitch, width, height,
                                     static_cast<cudaMemcpyKind>(kind)));
      },
      nb::arg("dst"), nb::arg("dpitch"), nb::arg("src"), nb::arg("spitch"), nb::arg("width"), nb::arg("height"),
      nb::arg("kind"));
  r.def(
      "memcpy2DAsync",
      [](std::intptr_t dst, std::size_t dpitch, std::intptr_t src, std::size_t spitch, std::size_t width,
         std::size_t height, int kind, std::intptr_t stream) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpy2DAsync(as_ptr<void>(dst), dpitch, as_ptr<const void>(src), spitch, width, height,
                                          static_cast<cudaMemcpyKind>(kind), as_stream(stream)));
      },
      nb::arg("dst"), nb::arg("dpitch"), nb::arg("src"), nb::arg("spitch"), nb::arg("width"), nb::arg("height"),
      nb::arg("kind"), nb::arg("stream"));
  r.def(
      "memset",
      [](std::intptr_t ptr, int value, std::size_t size) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemset(as_ptr<void>(ptr), value, size));
      },
      nb::arg("ptr"), nb::arg("value"), nb::arg("size"));
  r.def(
      "memsetAsync",
      [](std::intptr_t ptr, int value, std::size_t size, std::intptr_t stream) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemsetAsync(as_ptr<void>(ptr), value, size, as_stream(stream)));
      },
      nb::arg("ptr"), nb::arg("value"), nb::arg("size"), nb::arg("stream"));
  r.def(
      "memPrefetchAsync",
      [](std::intptr_t ptr, std::size_t count, int dst_device, std::intptr_t stream) {
    nb::gil_scoped_release release;
#if CUDART_VERSION >= 13000
    cudaMemLocation loc{};
    loc.type = dst_device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = dst_device == cudaCpuDeviceId ? 0 : dst_device;
    rt(detail::cudart().cudaMemPrefetchAsync(as_ptr<const void>(ptr), count, loc, 0, as_stream(stream)));
#else
    rt(detail::cudart().cudaMemPrefetchAsync(as_ptr<const void>(ptr), count, dst_device, as_stream(stream)));
#endif
      },
      nb::arg("devPtr"), nb::arg("count"), nb::arg("dstDevice"), nb::arg("stream"));
  r.def(
      "memAdvise",
      [](std::intptr_t ptr, std::size_t count, int advice, int device) {
    nb::gil_scoped_release release;
#if CUDART_VERSION >= 13000
    cudaMemLocation loc{};
    loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    loc.id = device == cudaCpuDeviceId ? 0 : device;
    rt(detail::cudart().cudaMemAdvise(as_ptr<const void>(ptr), count, static_cast<cudaMemoryAdvise>(advice), loc));
#else
    rt(detail::cudart().cudaMemAdvise(as_ptr<const void>(ptr), count, static_cast<cudaMemoryAdvise>(advice), device));
#endif
      },
      nb::arg("devPtr"), nb::arg("count"), nb::arg("advice"), nb::arg("device"));
  // (device, devicePointer, hostPointer, type); cuarray.cuda.runtime wraps it in PointerAttributes.
  r.def(
      "_pointer_attributes",
      [](std::intptr_t ptr) {
    cudaPointerAttributes a{};
    rt(detail::cudart().cudaPointerGetAttributes(&a, as_ptr<const void>(ptr)));
    return std::make_tuple(a.device, as_int(a.devicePointer), as_int(a.hostPointer), static_cast<int>(a.type));
      },
      nb::arg("ptr"));
  r.def(
      "pointerGetMemoryType",
      [](std::intptr_t ptr) {
    cudaPointerAttributes a{};
    rt(detail::cudart().cudaPointerGetAttributes(&a, as_ptr<const void>(ptr)));
    return static_cast<int>(a.type);
      },
      nb::arg("ptr"));

  r.def(
      "deviceCanAccessPeer",
      [](int device, int peer) {
    int v = 0;
    rt(detail::cudart().cudaDeviceCanAccessPeer(&v, device, peer));
    return v;
      },
      nb::arg("device"), nb::arg("peerDevice"));
  r.def(
      "deviceEnablePeerAccess",
      [](int peer) {
    use_current_device();
    rt(detail::cudart().cudaDeviceEnablePeerAccess(peer, 0));
      },
      nb::arg("peerDevice"));
  r.def(
      "deviceDisablePeerAccess",
      [](int peer) {
    use_current_device();
    rt(detail::cudart().cudaDeviceDisablePeerAccess(peer));
      },
      nb::arg("peerDevice"));
  r.def(
      "deviceGetLimit",
      [](int limit) {
    use_current_device();
    std::size_t v = 0;
    rt(detail::cudart().cudaDeviceGetLimit(&v, static_cast<cudaLimit>(limit)));
    return v;
      },
      nb::arg("limit"));
  r.def(
      "deviceSetLimit",
      [](int limit, std::size_t value) {
    use_current_device();
    rt(detail::cudart().cudaDeviceSetLimit(static_cast<cudaLimit>(limit), value));
      },
      nb::arg("limit"), nb::arg("value"));
  r.def(
      "deviceGetByPCIBusId",
      [](const std::string& bus_id) {
    int d = -1;
    rt(detail::cudart().cudaDeviceGetByPCIBusId(&d, bus_id.c_str()));
    return d;
      },
      nb::arg("pci_bus_id"));
  r.def("deviceGetPCIBusId", &pci_bus_id_of, nb::arg("device"));
  r.def(
      "deviceGetDefaultMemPool",
      [](int device) {
    cudaMemPool_t p = nullptr;
    rt(detail::cudart().cudaDeviceGetDefaultMemPool(&p, device));
    return as_int(p);
      },
      nb::arg("device"));
  r.def(
      "deviceGetMemPool",
      [](int device) {
    cudaMemPool_t p = nullptr;
    rt(detail::cudart().cudaDeviceGetMemPool(&p, device));
    return as_int(p);
      },
      nb::arg("device"));
  r.def(
      "deviceSetMemPool",
      [](int device, std::intptr_t pool) {
    rt(detail::cudart().cudaDeviceSetMemPool(device, reinterpret_cast<cudaMemPool_t>(pool)));
      },
      nb::arg("device"), nb::arg("pool"));
  r.def(
      "memPoolTrimTo",
      [](std::intptr_t pool, std::size_t size) {
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemPoolTrimTo(reinterpret_cast<cudaMemPool_t>(pool), size));
      },
      nb::arg("pool"), nb::arg("size"));
  // The reuse flags (attributes 1..3) are ints, the byte counts 64-bit.
  r.def(
      "memPoolGetAttribute",
      [](std::intptr_t pool, int attr) -> std::uint64_t {
        if (attr >= 1 && attr <= 3) {
          int v = 0;
          rt(detail::cudart().cudaMemPoolGetAttribute(reinterpret_cast<cudaMemPool_t>(pool),
                                                      static_cast<cudaMemPoolAttr>(attr), &v));
          return static_cast<std::uint64_t>(v);
        }
        std::uint64_t v = 0;
        rt(detail::cudart().cudaMemPoolGetAttribute(reinterpret_cast<cudaMemPool_t>(pool),
                                                    static_cast<cudaMemPoolAttr>(attr), &v));
        return v;
      },
      nb::arg("pool"), nb::arg("attr"));
  r.def(
      "memPoolSetAttribute",
      [](std::intptr_t pool, int attr, std::uint64_t value) {
    if (attr >= 1 && attr <= 3) {
      int v = static_cast<int>(value);
      rt(detail::cudart().cudaMemPoolSetAttribute(reinterpret_cast<cudaMemPool_t>(pool),
                                                  static_cast<cudaMemPoolAttr>(attr), &v));
      return;
    }
    rt(detail::cudart().cudaMemPoolSetAttribute(reinterpret_cast<cudaMemPool_t>(pool),
                                                static_cast<cudaMemPoolAttr>(attr), &value));
      },
      nb::arg("pool"), nb::arg("attr"), nb::arg("value"));

  // Streams and events.
  r.def("streamCreate", [] {
    use_current_device();
    cudaStream_t s = nullptr;
    rt(detail::cudart().cudaStreamCreate(&s));
    return as_int(s);
  });
  r.def(
      "streamCreateWithFlags",
      [](unsigned flags) {
    use_current_device();
    cudaStream_t s = nullptr;
    rt(detail::cudart().cudaStreamCreateWithFlags(&s, flags));
    return as_int(s);
      },
      nb::arg("flags"));
  r.def(
      "streamCreateWithPriority",
      [](unsigned flags, int priority) {
    use_current_device();
    cudaStream_t s = nullptr;
    rt(detail::cudart().cudaStreamCreateWithPriority(&s, flags, priority));
    return as_int(s);
      },
      nb::arg("flags"), nb::arg("priority"));
  r.def(
      "streamGetFlags",
      [](std::intptr_t stream) {
    unsigned flags = 0;
    rt(detail::cudart().cudaStreamGetFlags(as_stream(stream), &flags));
    return flags;
      },
      nb::arg("stream"));
  r.def(
      "streamGetPriority",
      [](std::intptr_t stream) {
    int p = 0;
    rt(detail::cudart().cudaStreamGetPriority(as_stream(stream), &p));
    return p;
      },
      nb::arg("stream"));
  r.def(
      "streamDestroy", [](std::intptr_t stream) { rt(detail::cudart().cudaStreamDestroy(as_stream(stream))); },
      nb::arg("stream"));
  r.def(
      "streamSynchronize",
      [](std::intptr_t stream) {
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaStreamSynchronize(as_stream(stream)));
    }
    poll_pending_copies();
      },
      nb::arg("stream"));
  // As CuPy's: the status (0, or cudaErrorNotReady while work is pending), not an exception.
  r.def(
      "streamQuery",
      [](std::intptr_t stream) {
    cudaError_t st = detail::cudart().cudaStreamQuery(as_stream(stream));
    if (st != cudaSuccess) (void)detail::cudart().cudaGetLastError();
    return static_cast<int>(st);
      },
      nb::arg("stream"));
  r.def(
      "streamWaitEvent",
      [](std::intptr_t stream, std::intptr_t event, unsigned flags) {
    rt(detail::cudart().cudaStreamWaitEvent(as_stream(stream), as_event(event), flags));
      },
      nb::arg("stream"), nb::arg("event"), nb::arg("flags") = 0u);
  r.def(
      "launchHostFunc",
      [](std::intptr_t stream, nb::object callback, nb::object arg) {
    auto* cb = new host_callback{std::move(callback), std::move(arg)};
    cudaError_t st = detail::cudart().cudaLaunchHostFunc(as_stream(stream), run_host_func, cb);
    if (st != cudaSuccess) {
      delete cb;
      runtime_fail(st);
    }
      },
      nb::arg("stream"), nb::arg("callback"), nb::arg("arg"));
  r.def(
      "streamAddCallback",
      [](std::intptr_t stream, nb::object callback, nb::object arg, unsigned flags) {
    auto* cb = new host_callback{std::move(callback), std::move(arg)};
    cudaError_t st = detail::cudart().cudaStreamAddCallback(as_stream(stream), run_stream_callback, cb, flags);
    if (st != cudaSuccess) {
      delete cb;
      runtime_fail(st);
    }
      },
      nb::arg("stream"), nb::arg("callback"), nb::arg("arg"), nb::arg("flags") = 0u);
  r.def(
      "streamBeginCapture",
      [](std::intptr_t stream, int mode) {
    rt(detail::cudart().cudaStreamBeginCapture(as_stream(stream), static_cast<cudaStreamCaptureMode>(mode)));
      },
      nb::arg("stream"), nb::arg("mode") = static_cast<int>(cudaStreamCaptureModeRelaxed));
  r.def(
      "streamEndCapture",
      [](std::intptr_t stream) {
    cudaGraph_t g = nullptr;
    rt(detail::cudart().cudaStreamEndCapture(as_stream(stream), &g));
    return as_int(g);
      },
      nb::arg("stream"));
  r.def(
      "streamIsCapturing",
      [](std::intptr_t stream) {
    cudaStreamCaptureStatus s = cudaStreamCaptureStatusNone;
    rt(detail::cudart().cudaStreamIsCapturing(as_stream(stream), &s));
    if (s == cudaStreamCaptureStatusInvalidated) {
      throw std::runtime_error("the stream was capturing, but an error has invalidated the capture sequence");
    }
    return s == cudaStreamCaptureStatusActive;
      },
      nb::arg("stream"));
  r.def("eventCreate", [] {
    use_current_device();
    cudaEvent_t e = nullptr;
    rt(detail::cudart().cudaEventCreate(&e));
    return as_int(e);
  });
  r.def(
      "eventCreateWithFlags",
      [](unsigned flags) {
    use_current_device();
    cudaEvent_t e = nullptr;
    rt(detail::cudart().cudaEventCreateWithFlags(&e, flags));
    return as_int(e);
      },
      nb::arg("flags"));
  r.def(
      "eventDestroy", [](std::intptr_t event) { rt(detail::cudart().cudaEventDestroy(as_event(event))); },
      nb::arg("event"));
  r.def(
      "eventElapsedTime",
      [](std::intptr_t start, std::intptr_t end) {
    float ms = 0;
    rt(detail::cudart().cudaEventElapsedTime(&ms, as_event(start), as_event(end)));
    return ms;
      },
      nb::arg("start"), nb::arg("end"));
  r.def(
      "eventQuery",
      [](std::intptr_t event) {
    cudaError_t st = detail::cudart().cudaEventQuery(as_event(event));
    if (st != cudaSuccess) (void)detail::cudart().cudaGetLastError();
    return static_cast<int>(st);
      },
      nb::arg("event"));
  r.def(
      "eventRecord",
      [](std::intptr_t event, std::intptr_t stream) {
    rt(detail::cudart().cudaEventRecord(as_event(event), as_stream(stream)));
      },
      nb::arg("event"), nb::arg("stream"));
  r.def(
      "eventSynchronize",
      [](std::intptr_t event) {
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaEventSynchronize(as_event(event)));
    }
    poll_pending_copies();
      },
      nb::arg("event"));

  // Inter-process handles: 64 opaque bytes.
  r.def(
      "ipcGetMemHandle",
      [](std::intptr_t ptr) {
    cudaIpcMemHandle_t h{};
    rt(detail::cudart().cudaIpcGetMemHandle(&h, as_ptr<void>(ptr)));
    return nb::bytes(h.reserved, sizeof(h.reserved));
      },
      nb::arg("devPtr"));
  r.def(
      "ipcOpenMemHandle",
      [](nb::bytes handle, unsigned flags) {
    cudaIpcMemHandle_t h{};
    if (handle.size() != sizeof(h.reserved)) throw value_error("an IPC memory handle has 64 bytes");
    std::memcpy(h.reserved, handle.c_str(), sizeof(h.reserved));
    void* p = nullptr;
    rt(detail::cudart().cudaIpcOpenMemHandle(&p, h, flags));
    return as_int(p);
      },
      nb::arg("handle"), nb::arg("flags") = static_cast<unsigned>(cudaIpcMemLazyEnablePeerAccess));
  r.def(
      "ipcCloseMemHandle", [](std::intptr_t ptr) { rt(detail::cudart().cudaIpcCloseMemHandle(as_ptr<void>(ptr))); },
      nb::arg("devPtr"));
  r.def(
      "ipcGetEventHandle",
      [](std::intptr_t event) {
    cudaIpcEventHandle_t h{};
    rt(detail::cudart().cudaIpcGetEventHandle(&h, as_event(event)));
    return nb::bytes(h.reserved, sizeof(h.reserved));
      },
      nb::arg("event"));
  r.def(
      "ipcOpenEventHandle",
      [](nb::bytes handle) {
    cudaIpcEventHandle_t h{};
    if (handle.size() != sizeof(h.reserved)) throw value_error("an IPC event handle has 64 bytes");
    std::memcpy(h.reserved, handle.c_str(), sizeof(h.reserved));
    cudaEvent_t e = nullptr;
    rt(detail::cudart().cudaIpcOpenEventHandle(&e, h));
    return as_int(e);
      },
      nb::arg("handle"));

  // Graphs (thin handles; cuarray.cuda.Graph is the object API).
  r.def(
      "graphDestroy", [](std::intptr_t g) { rt(detail::cudart().cudaGraphDestroy(reinterpret_cast<cudaGraph_t>(g))); },
      nb::arg("graph"));
  r.def(
      "graphExecDestroy",
      [](std::intptr_t g) { rt(detail::cudart().cudaGraphExecDestroy(reinterpret_cast<cudaGraphExec_t>(g))); },
      nb::arg("graphExec"));
  r.def(
      "graphInstantiate",
      [](std::intptr_t g) {
    cudaGraphExec_t e = nullptr;
    {
      nb::gil_scoped_release release;
      rt(detail::cudart().cudaGraphInstantiate(&e, reinterpret_cast<cudaGraph_t>(g), 0));
    }
    return as_int(e);
      },
      nb::arg("graph"));
  r.def(
      "graphLaunch",
      [](std::intptr_t g, std::intptr_t stream) {
    rt(detail::cudart().cudaGraphLaunch(reinterpret_cast<cudaGraphExec_t>(g), as_stream(stream)));
      },
      nb::arg("graphExec"), nb::arg("stream"));
  r.def(
      "graphUpload",
      [](std::intptr_t g, std::intptr_t stream) {
    rt(detail::cudart().cudaGraphUpload(reinterpret_cast<cudaGraphExec_t>(g), as_stream(stream)));
      },
      nb::arg("graphExec"), nb::arg("stream"));
  r.def(
      "graphDebugDotPrint",
      [](std::intptr_t g, const std::string& path, unsigned flags) {
    rt(detail::cudart().cudaGraphDebugDotPrint(reinterpret_cast<cudaGraph_t>(g), path.c_str(), flags));
      },
      nb::arg("graph"), nb::arg("path"), nb::arg("flags"));

  r.def("profilerStart", [] { rt(detail::cudart().cudaProfilerStart()); });
  r.def("profilerStop", [] { rt(detail::cudart().cudaProfilerStop()); });
  // The runtime linked into cuarray (CuPy's runtimeGetVersion); the driver's version goes through
  // cuarray.cuda.runtime.driverGetVersion.
  r.def("_build_runtime_version", [] { return CUDART_VERSION; });
  r.def("_error_name", [](int status) { return detail::status_text(detail::status_source::runtime, status); });
  r.def("_error_string", [](int status) { return std::string(detail::runtime_status_string(status)); });
}

// ---------------------------------------------------------------------------------------------------------
// Driver: functions resolved through the runtime's entry-point query at the CUDA 12.0 ABI (no link
// against libcuda; the signatures below are those of 12.0, whatever the toolkit's headers say now).

struct driver_error : std::runtime_error {
  driver_error(int status, const std::string& what) : std::runtime_error(what), status(status) {}
  int status;
};

PyObject* g_driver_error_type = nullptr;

void* resolve_driver(const char* name) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  cudaError_t st = detail::cudart().cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q);
  if (st != cudaSuccess) runtime_fail(st);  // no driver: CUDARuntimeError as every other device use
  if (q != cudaDriverEntryPointSuccess || !p) {
    throw cuda_error(static_cast<int>(cudaErrorSymbolNotFound),
                     std::string("cudaErrorSymbolNotFound: the CUDA driver has no function ") + name);
  }
  return p;
}

// The function `name` of type F, resolved once per call site.
#define CUARRAY_DRIVER_FN(F, name) static const auto name = reinterpret_cast<F>(resolve_driver(#name))

using get_error_fn = CUresult (*)(CUresult, const char**);

[[noreturn]] void driver_fail(CUresult r) {
  CUARRAY_DRIVER_FN(get_error_fn, cuGetErrorName);
  CUARRAY_DRIVER_FN(get_error_fn, cuGetErrorString);
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "CUDA_ERROR_UNKNOWN";
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text) text = "unknown error";
  throw driver_error(static_cast<int>(r), std::string(name) + ": " + text);
}

inline void dr(CUresult r) {
  if (r != CUDA_SUCCESS) driver_fail(r);
}

void init_driver_api(nb::module_& d) {
  d.def("_error_text", [](int status) {
    CUARRAY_DRIVER_FN(get_error_fn, cuGetErrorName);
    CUARRAY_DRIVER_FN(get_error_fn, cuGetErrorString);
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(static_cast<CUresult>(status), &name) != CUDA_SUCCESS || !name) name = "CUDA_ERROR_UNKNOWN";
    if (cuGetErrorString(static_cast<CUresult>(status), &text) != CUDA_SUCCESS || !text) text = "unknown error";
    return std::string(name) + ": " + text;
  });
  d.def("get_build_version", [] { return CUDA_VERSION; });
  d.def(
      "devicePrimaryCtxRelease",
      [](int dev) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUdevice), cuDevicePrimaryCtxRelease);
    nb::gil_scoped_release release;
    dr(cuDevicePrimaryCtxRelease(dev));
      },
      nb::arg("dev"));
  d.def("ctxGetCurrent", [] {
    CUARRAY_DRIVER_FN(CUresult(*)(CUcontext*), cuCtxGetCurrent);
    CUcontext c = nullptr;
    dr(cuCtxGetCurrent(&c));
    return as_int(c);
  });
  d.def(
      "ctxSetCurrent",
      [](std::intptr_t ctx) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUcontext), cuCtxSetCurrent);
    dr(cuCtxSetCurrent(reinterpret_cast<CUcontext>(ctx)));
      },
      nb::arg("ctx"));
  d.def(
      "ctxCreate",
      [](int dev) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUcontext*, unsigned, CUdevice), cuCtxCreate);
    CUcontext c = nullptr;
    nb::gil_scoped_release release;
    dr(cuCtxCreate(&c, 0, dev));
    return as_int(c);
      },
      nb::arg("dev"));
  d.def(
      "ctxDestroy",
      [](std::intptr_t ctx) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUcontext), cuCtxDestroy);
    nb::gil_scoped_release release;
    dr(cuCtxDestroy(reinterpret_cast<CUcontext>(ctx)));
      },
      nb::arg("ctx"));
  d.def("ctxGetDevice", [] {
    CUARRAY_DRIVER_FN(CUresult(*)(CUdevice*), cuCtxGetDevice);
    CUdevice dev = 0;
    dr(cuCtxGetDevice(&dev));
    return static_cast<int>(dev);
  });
  d.def("linkCreate", [] {
    CUARRAY_DRIVER_FN(CUresult(*)(unsigned, CUjit_option*, void**, CUlinkState*), cuLinkCreate);
    CUlinkState s = nullptr;
    dr(cuLinkCreate(0, nullptr, nullptr, &s));
    return as_int(s);
  });
  d.def(
      "linkAddData",
      [](std::intptr_t state, int input_type, nb::bytes data, const std::string& name) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUlinkState, CUjitInputType, void*, size_t, const char*, unsigned, CUjit_option*,
                                  void**),
                      cuLinkAddData);
    // With the terminating NUL, as PTX text needs (CuPy passes len + 1 as well).
    std::string copy(data.c_str(), data.size());
    nb::gil_scoped_release release;
    dr(cuLinkAddData(reinterpret_cast<CUlinkState>(state), static_cast<CUjitInputType>(input_type), copy.data(),
                     copy.size() + 1, name.c_str(), 0, nullptr, nullptr));
      },
      nb::arg("state"), nb::arg("input_type"), nb::arg("data"), nb::arg("name"));
  d.def(
      "linkAddFile",
      [](std::intptr_t state, int input_type, const std::string& path) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUlinkState, CUjitInputType, const char*, unsigned, CUjit_option*, void**),
                      cuLinkAddFile);
    nb::gil_scoped_release release;
    dr(cuLinkAddFile(reinterpret_cast<CUlinkState>(state), static_cast<CUjitInputType>(input_type), path.c_str(), 0,
                     nullptr, nullptr));
      },
      nb::arg("state"), nb::arg("input_type"), nb::arg("path"));
  d.def(
      "linkComplete",
      [](std::intptr_t state) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUlinkState, void**, size_t*), cuLinkComplete);
    void* out = nullptr;
    size_t size = 0;
    {
      nb::gil_scoped_release release;
      dr(cuLinkComplete(reinterpret_cast<CUlinkState>(state), &out, &size));
    }
    return nb::bytes(static_cast<const char*>(out), size);
      },
      nb::arg("state"));
  d.def(
      "linkDestroy",
      [](std::intptr_t state) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUlinkState), cuLinkDestroy);
    dr(cuLinkDestroy(reinterpret_cast<CUlinkState>(state)));
      },
      nb::arg("state"));
  d.def(
      "moduleLoad",
      [](const std::string& filename) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUmodule*, const char*), cuModuleLoad);
    use_current_device();
    CUmodule mod = nullptr;
    nb::gil_scoped_release release;
    dr(cuModuleLoad(&mod, filename.c_str()));
    return as_int(mod);
      },
      nb::arg("filename"));
  d.def(
      "moduleLoadData",
      [](nb::bytes image) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUmodule*, const void*), cuModuleLoadData);
    use_current_device();
    // A PTX image must end in NUL; a copy with one appended serves cubins and fatbins as well.
    std::string copy(image.c_str(), image.size());
    CUmodule mod = nullptr;
    nb::gil_scoped_release release;
    dr(cuModuleLoadData(&mod, copy.c_str()));
    return as_int(mod);
      },
      nb::arg("image"));
  d.def(
      "moduleUnload",
      [](std::intptr_t mod) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUmodule), cuModuleUnload);
    dr(cuModuleUnload(reinterpret_cast<CUmodule>(mod)));
      },
      nb::arg("module"));
  d.def(
      "moduleGetFunction",
      [](std::intptr_t mod, const std::string& name) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUfunction*, CUmodule, const char*), cuModuleGetFunction);
    CUfunction f = nullptr;
    dr(cuModuleGetFunction(&f, reinterpret_cast<CUmodule>(mod), name.c_str()));
    return as_int(f);
      },
      nb::arg("module"), nb::arg("funcname"));
  d.def(
      "moduleGetGlobal",
      [](std::intptr_t mod, const std::string& name) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUdeviceptr*, size_t*, CUmodule, const char*), cuModuleGetGlobal);
    CUdeviceptr p = 0;
    size_t size = 0;
    dr(cuModuleGetGlobal(&p, &size, reinterpret_cast<CUmodule>(mod), name.c_str()));
    return static_cast<std::intptr_t>(p);
      },
      nb::arg("module"), nb::arg("varname"));
  d.def(
      "launchKernel",
      [](std::intptr_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
         std::intptr_t stream, std::intptr_t params, std::intptr_t extra) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  CUstream, void**, void**),
                      cuLaunchKernel);
    nb::gil_scoped_release release;
    dr(cuLaunchKernel(reinterpret_cast<CUfunction>(f), gx, gy, gz, bx, by, bz, shared,
                      reinterpret_cast<CUstream>(stream), reinterpret_cast<void**>(params),
                      reinterpret_cast<void**>(extra)));
      },
      nb::arg("f"), nb::arg("grid_dim_x"), nb::arg("grid_dim_y"), nb::arg("grid_dim_z"), nb::arg("block_dim_x"),
      nb::arg("block_dim_y"), nb::arg("block_dim_z"), nb::arg("shared_mem_bytes"), nb::arg("stream"),
      nb::arg("kernel_params"), nb::arg("extra"));
  d.def(
      "launchCooperativeKernel",
      [](std::intptr_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
         std::intptr_t stream, std::intptr_t params) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  CUstream, void**),
                      cuLaunchCooperativeKernel);
    nb::gil_scoped_release release;
    dr(cuLaunchCooperativeKernel(reinterpret_cast<CUfunction>(f), gx, gy, gz, bx, by, bz, shared,
                                 reinterpret_cast<CUstream>(stream), reinterpret_cast<void**>(params)));
      },
      nb::arg("f"), nb::arg("grid_dim_x"), nb::arg("grid_dim_y"), nb::arg("grid_dim_z"), nb::arg("block_dim_x"),
      nb::arg("block_dim_y"), nb::arg("block_dim_z"), nb::arg("shared_mem_bytes"), nb::arg("stream"),
      nb::arg("kernel_params"));
  // As CuPy's: an attribute the driver does not know reads as -1.
  d.def(
      "funcGetAttribute",
      [](int attribute, std::intptr_t f) {
    CUARRAY_DRIVER_FN(CUresult(*)(int*, CUfunction_attribute, CUfunction), cuFuncGetAttribute);
    int v = 0;
    CUresult r = cuFuncGetAttribute(&v, static_cast<CUfunction_attribute>(attribute), reinterpret_cast<CUfunction>(f));
    if (r == CUDA_ERROR_INVALID_VALUE) return -1;
    dr(r);
    return v;
      },
      nb::arg("attribute"), nb::arg("f"));
  d.def(
      "funcSetAttribute",
      [](std::intptr_t f, int attribute, int value) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUfunction, CUfunction_attribute, int), cuFuncSetAttribute);
    dr(cuFuncSetAttribute(reinterpret_cast<CUfunction>(f), static_cast<CUfunction_attribute>(attribute), value));
      },
      nb::arg("f"), nb::arg("attribute"), nb::arg("value"));
  d.def(
      "occupancyMaxActiveBlocksPerMultiprocessor",
      [](std::intptr_t f, int block_size, std::size_t smem) {
    CUARRAY_DRIVER_FN(CUresult(*)(int*, CUfunction, int, size_t), cuOccupancyMaxActiveBlocksPerMultiprocessor);
    int n = 0;
    dr(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, reinterpret_cast<CUfunction>(f), block_size, smem));
    return n;
      },
      nb::arg("func"), nb::arg("blockSize"), nb::arg("dynamicSMemSize"));
  d.def(
      "occupancyMaxPotentialBlockSize",
      [](std::intptr_t f, std::size_t smem, int limit) {
    CUARRAY_DRIVER_FN(CUresult(*)(int*, int*, CUfunction, CUoccupancyB2DSize, size_t, int),
                      cuOccupancyMaxPotentialBlockSize);
    int grid = 0, block = 0;
    dr(cuOccupancyMaxPotentialBlockSize(&grid, &block, reinterpret_cast<CUfunction>(f), nullptr, smem, limit));
    return std::make_pair(grid, block);
      },
      nb::arg("func"), nb::arg("dynamicSMemSize"), nb::arg("blockSizeLimit"));
  d.def(
      "streamGetCtx",
      [](std::intptr_t stream) {
    CUARRAY_DRIVER_FN(CUresult(*)(CUstream, CUcontext*), cuStreamGetCtx);
    CUcontext c = nullptr;
    dr(cuStreamGetCtx(reinterpret_cast<CUstream>(stream), &c));
    return as_int(c);
      },
      nb::arg("stream"));
  d.def(
      "deviceGetAttribute",
      [](int attribute, int device) {
    CUARRAY_DRIVER_FN(CUresult(*)(int*, CUdevice_attribute, CUdevice), cuDeviceGetAttribute);
    int v = 0;
    dr(cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(attribute), device));
    return v;
      },
      nb::arg("attribute"), nb::arg("device"));
}

// ---------------------------------------------------------------------------------------------------------
// NVTX (header-only v3: without a profiler attached each call returns at once).

constexpr std::uint32_t nvtx_colors[] = {0xFF00FF00, 0xFF007FFF, 0xFF7F00FF, 0xFFFF0000, 0xFF7FFF00,
                                         0xFF00FF7F, 0xFF0000FF, 0xFFFF007F, 0xFFFF7F00, 0xFF7F7F7F};

nvtxEventAttributes_t nvtx_attributes(const std::string& message, std::uint32_t color) {
  nvtxEventAttributes_t a;
  std::memset(&a, 0, sizeof(a));
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.colorType = NVTX_COLOR_ARGB;
  a.color = color;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message.c_str();
  return a;
}

void init_nvtx(nb::module_& n) {
  n.def(
      "MarkC",
      [](const std::string& message, std::uint32_t color) {
    nvtxEventAttributes_t a = nvtx_attributes(message, color);
    nvtxMarkEx(&a);
      },
      nb::arg("message"), nb::arg("color") = 0u);
  n.def(
      "Mark",
      [](const std::string& message, int id_color) {
    if (id_color < 0) {
      nvtxMarkA(message.c_str());
      return;
    }
    nvtxEventAttributes_t a = nvtx_attributes(message, nvtx_colors[id_color % 10]);
    nvtxMarkEx(&a);
      },
      nb::arg("message"), nb::arg("id_color") = -1);
  n.def(
      "RangePushC",
      [](const std::string& message, std::uint32_t color) {
    nvtxEventAttributes_t a = nvtx_attributes(message, color);
    return nvtxRangePushEx(&a);
      },
      nb::arg("message"), nb::arg("color") = 0u);
  n.def(
      "RangePush",
      [](const std::string& message, int id_color) {
    if (id_color < 0) return nvtxRangePushA(message.c_str());
    nvtxEventAttributes_t a = nvtx_attributes(message, nvtx_colors[id_color % 10]);
    return nvtxRangePushEx(&a);
      },
      nb::arg("message"), nb::arg("id_color") = -1);
  n.def("RangePop", [] { return nvtxRangePop(); });
  n.def(
      "RangeStartC",
      [](const std::string& message, std::uint32_t color) {
    nvtxEventAttributes_t a = nvtx_attributes(message, color);
    return static_cast<std::uint64_t>(nvtxRangeStartEx(&a));
      },
      nb::arg("message"), nb::arg("color") = 0u);
  n.def(
      "RangeStart",
      [](const std::string& message, int id_color) {
    if (id_color < 0) return static_cast<std::uint64_t>(nvtxRangeStartA(message.c_str()));
    nvtxEventAttributes_t a = nvtx_attributes(message, nvtx_colors[id_color % 10]);
    return static_cast<std::uint64_t>(nvtxRangeStartEx(&a));
      },
      nb::arg("message"), nb::arg("id_color") = -1);
  n.def(
      "RangeEnd", [](std::uint64_t id) { nvtxRangeEnd(static_cast<nvtxRangeId_t>(id)); }, nb::arg("range_id"));
}

// ---------------------------------------------------------------------------------------------------------
// Memory hooks: the pool's events handed to a Python dispatcher, dispatch(name, **kwargs), which calls the
// hooks registered on the thread (cuarray.cuda.memory_hook).

class python_pool_observer final : public memory_pool_observer {
public:
  explicit python_pool_observer(nb::object dispatch) : dispatch_(std::move(dispatch)) {}
  ~python_pool_observer() override {
    if (!Py_IsInitialized()) {
      (void)dispatch_.release();  // the interpreter is gone: leak rather than touch it
      return;
    }
    nb::gil_scoped_acquire gil;
    dispatch_.reset();
  }

  void malloc_pre(int device, std::size_t size, std::size_t mem_size) override {
    nb::gil_scoped_acquire gil;
    using namespace nb::literals;
    dispatch_("malloc_preprocess", "device_id"_a = device, "size"_a = size, "mem_size"_a = mem_size);
  }
  void malloc_post(int device, std::size_t size, std::size_t mem_size, std::uintptr_t ptr,
                   std::uintptr_t pmem_id) override {
    nb::gil_scoped_acquire gil;
    using namespace nb::literals;
    dispatch_("malloc_postprocess", "device_id"_a = device, "size"_a = size, "mem_size"_a = mem_size, "mem_ptr"_a = ptr,
              "pmem_id"_a = pmem_id);
  }
  void alloc_pre(int device, std::size_t mem_size) override {
    nb::gil_scoped_acquire gil;
    using namespace nb::literals;
    dispatch_("alloc_preprocess", "device_id"_a = device, "mem_size"_a = mem_size);
  }
  void alloc_post(int device, std::size_t mem_size, std::uintptr_t ptr) override {
    nb::gil_scoped_acquire gil;
    using namespace nb::literals;
    dispatch_("alloc_postprocess", "device_id"_a = device, "mem_size"_a = mem_size, "mem_ptr"_a = ptr);
  }
  void free_pre(int device, std::size_t mem_size, std::uintptr_t ptr, std::uintptr_t pmem_id) noexcept override {
    free_event("free_preprocess", device, mem_size, ptr, pmem_id);
  }
  void free_post(int device, std::size_t mem_size, std::uintptr_t ptr, std::uintptr_t pmem_id) noexcept override {
    free_event("free_postprocess", device, mem_size, ptr, pmem_id);
  }

private:
  // A free runs in a destructor, where an exception cannot go anywhere: a failing hook is reported as
  // unraisable, as Python does for errors in __del__.
  void free_event(const char* name, int device, std::size_t mem_size, std::uintptr_t ptr,
                  std::uintptr_t pmem_id) noexcept {
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    try {
      using namespace nb::literals;
      dispatch_(name, "device_id"_a = device, "mem_size"_a = mem_size, "mem_ptr"_a = ptr, "pmem_id"_a = pmem_id);
    } catch (nb::python_error& e) {
      e.discard_as_unraisable(name);
    } catch (...) {
    }
  }

  nb::object dispatch_;
};

}  // namespace

void init_cuda_api(nb::module_& m) {
  nb::module_ r = m.def_submodule("_cuda_runtime", "CUDA runtime functions with CuPy's names");
  init_runtime_api(r);
  nb::module_ d = m.def_submodule("_cuda_driver", "CUDA driver functions with CuPy's names");
  init_driver_api(d);
  nb::module_ n = m.def_submodule("_nvtx", "NVTX markers and ranges");
  init_nvtx(n);

  g_driver_error_type = PyErr_NewExceptionWithDoc("cuarray.cuda.driver.CUDADriverError",
                                                  "A CUDA driver call failed; .status holds the CUresult.",
                                                  PyExc_RuntimeError, nullptr);
  d.attr("CUDADriverError") = nb::handle(g_driver_error_type);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const driver_error& e) {
      PyObject* exc = PyObject_CallFunction(g_driver_error_type, "s", e.what());
      if (!exc) return;
      PyObject* status = PyLong_FromLong(e.status);
      PyObject_SetAttrString(exc, "status", status);
      Py_XDECREF(status);
      PyErr_SetObject(g_driver_error_type, exc);
      Py_DECREF(exc);
    } catch (const device_synchronized_error& e) {
      nb::object cls = nb::module_::import_("cuarray._syncdetect").attr("DeviceSynchronized");
      PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
    }
  });

  m.def(
      "_set_memory_hook_dispatch",
      [](nb::object dispatch) {
    if (dispatch.is_none()) set_memory_pool_observer(nullptr);
    else set_memory_pool_observer(std::make_shared<python_pool_observer>(std::move(dispatch)));
      },
      nb::arg("dispatch").none());
  m.def("_set_synchronize_allowed", &set_synchronize_allowed, nb::arg("allowed"));
  m.def("_synchronize_allowed", &synchronize_allowed);
}

}  // namespace cuarray::py
