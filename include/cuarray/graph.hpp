// CUDA graphs made by stream capture, and the checks that keep cuarray's operations capturable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cuarray/stream.hpp"

struct CUgraph_st;
struct CUgraphExec_st;

namespace cuarray {

/// Whether `s` is capturing work into a CUDA graph. An invalidated capture counts, and so does the legacy
/// stream while a blocking stream captures (work on it would join that capture implicitly).
bool is_capturing(stream_ref s);

/// Throws cuda_error (cudaErrorStreamCaptureUnsupported) naming `what` when `s` captures: an operation that
/// needs a host value waits for the device, which a capture cannot do. Nothing is enqueued before the
/// throw, so the capture stays valid and can still be ended.
void require_not_capturing(stream_ref s, const char* what);

/// An instantiated CUDA graph made by end_capture. It keeps the memory its captured work allocated
/// (Note [capture pools] in src/memory/memory.cpp) until it and every array made during the capture are gone.
class graph {
public:
  graph(graph&& o) noexcept;
  graph& operator=(graph&&) = delete;
  graph(const graph&) = delete;
  ~graph();

  /// Enqueue one run of the whole graph on `s`.
  void launch(stream_ref s);
  /// Prepare the graph's device resources on `s` ahead of its first launch.
  void upload(stream_ref s);
  /// Graphviz DOT text of the captured graph (cudaGraphDebugDotPrint flags).
  std::string debug_dot_str(unsigned flags) const;
  std::uintptr_t graph_handle() const { return reinterpret_cast<std::uintptr_t>(graph_); }
  std::uintptr_t exec_handle() const { return reinterpret_cast<std::uintptr_t>(exec_); }

private:
  friend graph end_capture(stream_ref s);
  graph(CUgraph_st* g, CUgraphExec_st* e, std::shared_ptr<void> resources, int device);
  CUgraph_st* graph_ = nullptr;
  CUgraphExec_st* exec_ = nullptr;
  CUevent_st* last_launch_ = nullptr;  ///< recorded after each launch: the resources outlive the last run
  std::shared_ptr<void> resources_;
  int device_ = 0;
};

/// Begin capturing the work enqueued on `s` (not the legacy stream) with a cudaStreamCaptureMode. Until
/// end_capture, cuarray's allocations on `s` come from a pool private to this capture.
void begin_capture(stream_ref s, int mode);

/// End the capture begun on `s` and instantiate it. Throws cuda_error when the capture was invalidated.
graph end_capture(stream_ref s);

namespace detail {
/// Captures begun through begin_capture and not yet ended, over all threads; 0 keeps every check cheap.
int active_captures() noexcept;
}  // namespace detail

}  // namespace cuarray
