// Memory for work captured into CUDA graphs: the capture-private pools (Note [capture pools] in memory.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "cuarray/stream.hpp"

namespace cuarray::detail {

/// Captures begun through begin_capture and not yet ended (all threads).
extern std::atomic<int> g_active_captures;

/// Opens the private pool of the capture that has just begun on `s` (device `device`).
void capture_pool_open(stream_ref s, int device);

/// Closes the private pool of the capture begun on `s`; the result keeps its memory (the graph holds it).
/// Empty when the capture was not begun through begin_capture.
std::shared_ptr<void> capture_pool_close(stream_ref s);

/// A pinned copy of `bytes` host bytes that lives as long as the graph being captured on `s`, so that a
/// captured host-to-device copy reads the values of capture time at every replay. nullptr when `s`
/// captures without a private pool (a capture begun outside cuarray).
const void* capture_host_copy(stream_ref s, const void* src, std::size_t bytes);

/// Keeps `owner` alive as long as the graph being captured on `s`; false when `s` has no private pool.
bool capture_keep(stream_ref s, std::shared_ptr<void> owner);

/// Gives back the device memory whose cudaFree had to wait for every capture to end.
void release_deferred_frees();

}  // namespace cuarray::detail
