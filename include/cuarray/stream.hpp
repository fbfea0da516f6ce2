// Streams: a non-owning reference, an owning stream, and the per-thread, per-device current stream.
#pragma once

#include <cstdint>

struct CUstream_st;
struct CUevent_st;

namespace cuarray {

class event;

/// Non-owning reference to a CUDA stream (cudaStream_t); the null handle is the legacy default stream.
class stream_ref {
public:
  constexpr stream_ref() = default;
  constexpr explicit stream_ref(CUstream_st* handle) : handle_(handle) {}
  constexpr CUstream_st* get() const { return handle_; }
  std::uintptr_t ptr() const { return reinterpret_cast<std::uintptr_t>(handle_); }

  void synchronize() const;
  /// True when all work enqueued so far has finished.
  bool query() const;
  /// Make later work on this stream wait for the event.
  void wait(const event& e) const;

  friend bool operator==(stream_ref a, stream_ref b) { return a.handle_ == b.handle_; }

private:
  CUstream_st* handle_ = nullptr;
};

/// The legacy default stream (handle 0) and the per-thread default stream (cudaStreamPerThread).
inline stream_ref legacy_default_stream() { return stream_ref(); }
inline stream_ref per_thread_default_stream() { return stream_ref(reinterpret_cast<CUstream_st*>(0x2)); }

/// Owning CUDA stream, created on the current device.
class stream {
public:
  explicit stream(bool non_blocking = false, int priority = 0);
  ~stream();
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  stream(stream&& o) noexcept : handle_(o.handle_), device_(o.device_) { o.handle_ = nullptr; }

  stream_ref ref() const { return stream_ref(handle_); }
  operator stream_ref() const { return ref(); }
  int device() const { return device_; }

private:
  CUstream_st* handle_ = nullptr;
  int device_ = 0;
};

/// The calling thread's current stream on the current device (legacy default stream until set).
stream_ref current_stream();
stream_ref current_stream(int device);

/// Set the calling thread's current stream for the current device.
void set_current_stream(stream_ref s);

/// Range of priorities the device allows: (least, greatest), e.g. (0, -5).
void stream_priority_range(int& least, int& greatest);

}  // namespace cuarray
