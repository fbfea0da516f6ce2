// Events: record on a stream, wait, query, and the elapsed time between two.
#pragma once

#include "cuarray/stream.hpp"

namespace cuarray {

/// Owning CUDA event.
class event {
public:
  explicit event(bool blocking = false, bool disable_timing = false, bool interprocess = false);
  ~event();
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  void record(stream_ref s);
  void record() { record(current_stream()); }
  void synchronize() const;
  bool query() const;
  CUevent_st* get() const { return handle_; }

private:
  CUevent_st* handle_ = nullptr;
};

/// Milliseconds between two recorded events.
float elapsed_time(const event& start, const event& end);

}  // namespace cuarray
