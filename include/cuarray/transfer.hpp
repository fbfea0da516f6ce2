// Host <-> device transfers: staged through pinned buffers in chunks so that both sides overlap.
#pragma once

#include <cstddef>

#include "cuarray/stream.hpp"

namespace cuarray {

/// CuPy's allow_synchronize for the calling thread: while false, a copy that waits for the device
/// (memcpy_device_to_host) throws device_synchronized_error instead. Returns the previous setting.
bool set_synchronize_allowed(bool allowed);
bool synchronize_allowed();

/// Copy device bytes to pageable or pinned host memory; returns when `dst` holds the data.
/// Large copies into pageable memory are pipelined through a ring of pinned buffers, with the host-side
/// copies spread over worker threads (see Note [staged transfers] in src/core/transfer.cpp).
void memcpy_device_to_host(void* dst, const void* src, std::size_t bytes, stream_ref s);

/// Copy host bytes to the device, enqueued on `s`; `src` may be reused as soon as this returns.
void memcpy_host_to_device(void* dst, const void* src, std::size_t bytes, stream_ref s);

/// Asynchronous copy into pinned host memory (no staging, returns at once).
void memcpy_device_to_host_async(void* dst, const void* src, std::size_t bytes, stream_ref s);

/// Asynchronous copy from pinned host memory.
void memcpy_host_to_device_async(void* dst, const void* src, std::size_t bytes, stream_ref s);

/// Device-to-device copy, possibly between devices, enqueued on `s`.
void memcpy_device_to_device(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                             stream_ref s);

}  // namespace cuarray
