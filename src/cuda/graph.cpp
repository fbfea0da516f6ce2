// CUDA graphs by stream capture: begin/end, the instantiated graph, and the capture checks.
#include "cuarray/graph.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/cuda/check.hpp"
#include "src/memory/capture_pool.hpp"

namespace cuarray {

namespace {

std::string stream_name(stream_ref s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(s.ptr()));
  return s.ptr() == 0 ? std::string("the legacy default stream") : "stream " + std::string(buf);
}

bool is_legacy(stream_ref s) { return s.ptr() == 0 || s.get() == cudaStreamLegacy; }

}  // namespace

bool is_capturing(stream_ref s) {
  require_device();
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaError_t st = cudaStreamIsCapturing(s.get(), &status);
  if (st == cudaErrorStreamCaptureImplicit) {
    (void)cudaGetLastError();
    return true;
  }
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaStreamIsCapturing");
  return status != cudaStreamCaptureStatusNone;
}

void require_not_capturing(stream_ref s, const char* what) {
  if (!is_capturing(s)) return;
  std::string msg = std::string("cudaErrorStreamCaptureUnsupported: ") + what +
                    " needs the device's results on the host, which do not exist while " + stream_name(s) +
                    (is_legacy(s) ? " would join a CUDA graph capture" : " captures a CUDA graph") +
                    " (captured work is recorded, not run); the capture is still valid: end it with end_capture()";
  throw cuda_error(static_cast<int>(cudaErrorStreamCaptureUnsupported), msg);
}

namespace detail {
int active_captures() noexcept { return g_active_captures.load(std::memory_order_relaxed); }
}  // namespace detail

// ---------------------------------------------------------------------------------------------------------
// Capture

void begin_capture(stream_ref s, int mode) {
  require_device();
  if (is_legacy(s)) {
    throw cuda_error(static_cast<int>(cudaErrorStreamCaptureUnsupported),
                     "cudaErrorStreamCaptureUnsupported: cannot capture on the default (legacy) stream");
  }
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed) {
    throw value_error("invalid stream capture mode " + std::to_string(mode));
  }
  int device = current_device();
  activate_device(device);
  CUARRAY_CUDA_CHECK(cudaStreamBeginCapture(s.get(), static_cast<cudaStreamCaptureMode>(mode)));
  try {
    detail::capture_pool_open(s, device);
  } catch (...) {
    cudaGraph_t g = nullptr;
    if (cudaStreamEndCapture(s.get(), &g) == cudaSuccess && g) (void)cudaGraphDestroy(g);
    (void)cudaGetLastError();
    throw;
  }
}

graph end_capture(stream_ref s) {
  require_device();
  cudaGraph_t g = nullptr;
  cudaError_t st = cudaStreamEndCapture(s.get(), &g);
  // The capture is over either way: its pool stops serving, and frees held back for it may go ahead.
  std::shared_ptr<void> resources = detail::capture_pool_close(s);
  detail::release_deferred_frees();
  if (st != cudaSuccess) {
    if (g) (void)cudaGraphDestroy(g);
    detail::throw_cuda_error(st, "cudaStreamEndCapture");
  }
  int device = current_device();
  cudaGraphExec_t e = nullptr;
  st = cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess) {
    (void)cudaGraphDestroy(g);
    detail::throw_cuda_error(st, "cudaGraphInstantiate");
  }
  // Uploaded now, on the capturing stream, so that the first launch does not pay for it (nor a timed one).
  st = cudaGraphUpload(e, s.get());
  if (st != cudaSuccess) {
    (void)cudaGraphExecDestroy(e);
    (void)cudaGraphDestroy(g);
    detail::throw_cuda_error(st, "cudaGraphUpload");
  }
  return graph(g, e, std::move(resources), device);
}

// ---------------------------------------------------------------------------------------------------------
// Graph

graph::graph(CUgraph_st* g, CUgraphExec_st* e, std::shared_ptr<void> resources, int device)
    : graph_(g), exec_(e), resources_(std::move(resources)), device_(device) {
  cudaEvent_t ev = nullptr;
  cudaError_t st = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  if (st != cudaSuccess) {
    (void)cudaGraphExecDestroy(e);
    (void)cudaGraphDestroy(g);
    detail::throw_cuda_error(st, "cudaEventCreateWithFlags");
  }
  last_launch_ = ev;
}

graph::graph(graph&& o) noexcept
    : graph_(o.graph_),
      exec_(o.exec_),
      last_launch_(o.last_launch_),
      resources_(std::move(o.resources_)),
      device_(o.device_) {
  o.graph_ = nullptr;
  o.exec_ = nullptr;
  o.last_launch_ = nullptr;
}

graph::~graph() {
  if (!exec_ && !graph_) return;
  // The memory and pinned copies the graph reads go back to their pools: the last launch must be over
  // first (an executable graph destroyed while running is freed when it ends, but its memory is not ours).
  // Waiting on an event from a launch, never one recorded in a capture, is allowed while a capture runs.
  if (last_launch_) {
    (void)cudaEventSynchronize(last_launch_);
    (void)cudaEventDestroy(last_launch_);
  }
  if (exec_) (void)cudaGraphExecDestroy(exec_);
  if (graph_) (void)cudaGraphDestroy(graph_);
  (void)cudaGetLastError();
  resources_.reset();
}

void graph::launch(stream_ref s) {
  activate_device(device_);
  CUARRAY_CUDA_CHECK(cudaGraphLaunch(exec_, s.get()));
  // Inside another capture the launch becomes a child graph; an event recorded there must not be waited on.
  if (!is_capturing(s)) CUARRAY_CUDA_CHECK(cudaEventRecord(last_launch_, s.get()));
}

void graph::upload(stream_ref s) {
  activate_device(device_);
  CUARRAY_CUDA_CHECK(cudaGraphUpload(exec_, s.get()));
}

std::string graph::debug_dot_str(unsigned flags) const {
  // cudaGraphDebugDotPrint writes only to a file.
  char path[] = "/tmp/cuarray-graph-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw cuda_error(-1, "could not create a temporary file for the graph's DOT text");
  close(fd);
  cudaError_t st = cudaGraphDebugDotPrint(graph_, path, flags);
  if (st != cudaSuccess) {
    unlink(path);
    detail::throw_cuda_error(st, "cudaGraphDebugDotPrint");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  unlink(path);
  return text.str();
}

}  // namespace cuarray
