// Host <-> device copies; large pageable copies are staged through pinned buffers and overlapped.
#include "cuarray/transfer.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/graph.hpp"
#include "cuarray/memory.hpp"
#include "src/cuda/check.hpp"
#include "src/memory/capture_pool.hpp"

namespace cuarray {

// Note [staged transfers]
// A copy between the device and pageable host memory is slow when left to the driver, which stages it
// through a small internal buffer with one thread (CuPy reaches 4.2 GB/s device-to-host on an H200 against
// 55 GB/s pinned). Large copies are cut into chunks that move through a ring of pinned buffers: the DMA
// engine fills (or drains) one buffer while host threads copy the previous one in parallel, so the
// transfer runs at the speed of the parallel host copy, page faults of a fresh destination included.
// Small copies go straight to the driver, which is quicker below a few hundred KiB.

namespace {

constexpr std::size_t staging_threshold = 1u << 20;  // below this the driver's own path is faster
constexpr std::size_t chunk_bytes = 8u << 20;
constexpr int ring_size = 4;
constexpr std::size_t parallel_piece = 1u << 20;  // host copies split into pieces of at least this size

// A small fixed pool of threads for parallel host memcpy, recreated after fork.
class copy_workers {
public:
  static copy_workers& get() {
    static copy_workers* w = new copy_workers();  // never destroyed: threads may outlive static destructors
    if (w->pid_ != getpid()) w = new copy_workers();
    return *w;
  }

  /// Copy `n` bytes, split over the workers and the calling thread.
  void memcpy(void* dst, const void* src, std::size_t n) {
    int pieces = static_cast<int>(std::min<std::size_t>(n / parallel_piece, threads_.size() + 1));
    if (pieces <= 1) {
      std::memcpy(dst, src, n);
      return;
    }
    std::size_t per = (n / static_cast<std::size_t>(pieces) + 4095) & ~static_cast<std::size_t>(4095);
    std::unique_lock<std::mutex> job_lock(job_mutex_);  // one parallel copy at a time
    {
      std::lock_guard<std::mutex> lock(mutex_);
      dst_ = static_cast<char*>(dst);
      src_ = static_cast<const char*>(src);
      n_ = n;
      per_ = per;
      next_ = 1;  // piece 0 is the calling thread's
      pending_ = pieces - 1;
      pieces_ = pieces;
      ++generation_;
    }
    cv_.notify_all();
    std::memcpy(dst, src, std::min(per, n));
    std::unique_lock<std::mutex> lock(mutex_);
    done_cv_.wait(lock, [&] { return pending_ == 0; });
  }

private:
  copy_workers() : pid_(getpid()) {
    unsigned hw = std::thread::hardware_concurrency();
    unsigned n = std::clamp(hw ? hw / 2 : 1u, 1u, 8u);
    for (unsigned i = 0; i < n; ++i) {
      threads_.emplace_back([this] { run(); });
      threads_.back().detach();
    }
  }

  void run() {
    std::uint64_t seen = 0;
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [&] { return generation_ != seen && next_ < pieces_; });
      int piece = next_++;
      if (next_ >= pieces_) seen = generation_;
      char* d = dst_;
      const char* s = src_;
      std::size_t begin = static_cast<std::size_t>(piece) * per_;
      std::size_t len = begin < n_ ? std::min(per_, n_ - begin) : 0;
      lock.unlock();
      if (len) std::memcpy(d + begin, s + begin, len);
      lock.lock();
      if (--pending_ == 0) done_cv_.notify_all();
    }
  }

  pid_t pid_;
  std::vector<std::thread> threads_;
  std::mutex job_mutex_, mutex_;
  std::condition_variable cv_, done_cv_;
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  std::size_t n_ = 0, per_ = 0;
  int next_ = 0, pending_ = 0, pieces_ = 0;
  std::uint64_t generation_ = 0;
};

// Pinned buffers and their "free again" events, one ring per device, used by one transfer at a time.
struct staging_ring {
  std::mutex mutex;
  std::array<void*, ring_size> buffers{};
  std::array<cudaEvent_t, ring_size> events{};
  bool ready = false;

  // Called with the ring's device active (Note [staging rings]): its events are created there.
  void init() {
    if (ready) return;
    for (int i = 0; i < ring_size; ++i) {
      CUARRAY_CUDA_CHECK(cudaHostAlloc(&buffers[static_cast<std::size_t>(i)], chunk_bytes, cudaHostAllocPortable));
      CUARRAY_CUDA_CHECK(cudaEventCreateWithFlags(&events[static_cast<std::size_t>(i)], cudaEventDisableTiming));
    }
    ready = true;
  }
};

// Note [staging rings]: one ring per device, that of the stream the copy runs on, which callers make the active
// device (a default-stream handle names the active device's stream). An event can only be recorded on a stream of
// the device it was created on. The current device is not it: get() of a device-1 array under device 0 copies on
// device 1's stream.
int active_device() {
  int device = 0;
  CUARRAY_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

staging_ring& ring_for(int device) {
  static std::mutex m;
  static std::vector<staging_ring*> rings;  // never destroyed, like the pools
  std::lock_guard<std::mutex> lock(m);
  if (rings.size() <= static_cast<std::size_t>(device)) rings.resize(static_cast<std::size_t>(device) + 1, nullptr);
  auto& r = rings[static_cast<std::size_t>(device)];
  if (!r) r = new staging_ring();
  return *r;
}

void d2h_staged(char* dst, const char* src, std::size_t bytes, cudaStream_t s) {
  staging_ring& ring = ring_for(active_device());
  std::lock_guard<std::mutex> lock(ring.mutex);
  ring.init();
  std::size_t nchunks = (bytes + chunk_bytes - 1) / chunk_bytes;
  auto enqueue = [&](std::size_t i) {
    std::size_t b = i % ring_size, off = i * chunk_bytes, len = std::min(chunk_bytes, bytes - off);
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(ring.buffers[b], src + off, len, cudaMemcpyDeviceToHost, s));
    CUARRAY_CUDA_CHECK(cudaEventRecord(ring.events[b], s));
  };
  for (std::size_t i = 0; i < std::min<std::size_t>(ring_size, nchunks); ++i) enqueue(i);
  for (std::size_t i = 0; i < nchunks; ++i) {
    std::size_t b = i % ring_size, off = i * chunk_bytes, len = std::min(chunk_bytes, bytes - off);
    CUARRAY_CUDA_CHECK(cudaEventSynchronize(ring.events[b]));
    copy_workers::get().memcpy(dst + off, ring.buffers[b], len);
    if (i + ring_size < nchunks) enqueue(i + ring_size);
  }
}

void h2d_staged(char* dst, const char* src, std::size_t bytes, cudaStream_t s) {
  staging_ring& ring = ring_for(active_device());
  std::lock_guard<std::mutex> lock(ring.mutex);
  ring.init();
  std::size_t nchunks = (bytes + chunk_bytes - 1) / chunk_bytes;
  for (std::size_t i = 0; i < nchunks; ++i) {
    std::size_t b = i % ring_size, off = i * chunk_bytes, len = std::min(chunk_bytes, bytes - off);
    // The buffer is free once the copy that last read it has finished (the event of a never-recorded
    // event counts as complete).
    CUARRAY_CUDA_CHECK(cudaEventSynchronize(ring.events[b]));
    copy_workers::get().memcpy(ring.buffers[b], src + off, len);
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst + off, ring.buffers[b], len, cudaMemcpyHostToDevice, s));
    CUARRAY_CUDA_CHECK(cudaEventRecord(ring.events[b], s));
  }
}

}  // namespace

namespace {
thread_local bool tls_synchronize_allowed = true;
}  // namespace

bool set_synchronize_allowed(bool allowed) {
  bool previous = tls_synchronize_allowed;
  tls_synchronize_allowed = allowed;
  return previous;
}

bool synchronize_allowed() { return tls_synchronize_allowed; }

void memcpy_device_to_host(void* dst, const void* src, std::size_t bytes, stream_ref s) {
  if (bytes == 0) return;
  if (!tls_synchronize_allowed)
    throw device_synchronized_error("Device synchronization was detected while disallowed.");
  require_device();
  require_not_capturing(s,
                        "A copy from the device to the host (get(), item(), bool(), printing, or a result whose size "
                        "depends on the data)");
  if (bytes >= staging_threshold && !is_pinned(dst)) {
    d2h_staged(static_cast<char*>(dst), static_cast<const char*>(src), bytes, s.get());
    return;
  }
  CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s.get()));
  CUARRAY_CUDA_CHECK(cudaStreamSynchronize(s.get()));
}

void memcpy_host_to_device(void* dst, const void* src, std::size_t bytes, stream_ref s) {
  if (bytes == 0) return;
  require_device();
  if (is_capturing(s)) [[unlikely]] {
    // The graph copies at every replay: from a pinned copy of the data as it is now, kept with the graph
    // (Note [capture pools]), never from the caller's buffer, which may be gone by then.
    const void* kept = detail::capture_host_copy(s, src, bytes);
    if (!kept) {
      throw cuda_error(static_cast<int>(cudaErrorStreamCaptureUnsupported),
                       "cudaErrorStreamCaptureUnsupported: a copy from host memory to the device cannot be captured "
                       "on a stream whose capture was not begun by cuarray (Stream.begin_capture)");
    }
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, kept, bytes, cudaMemcpyHostToDevice, s.get()));
    return;
  }
  if (bytes >= staging_threshold) {
    if (is_pinned(src)) {
      CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.get()));
      // The caller may reuse `src` when this returns.
      CUARRAY_CUDA_CHECK(cudaStreamSynchronize(s.get()));
      return;
    }
    h2d_staged(static_cast<char*>(dst), static_cast<const char*>(src), bytes, s.get());
    return;
  }
  // cudaMemcpyAsync from pageable memory returns once the source has been consumed (it is staged by the
  // driver), so the caller may reuse `src` at once.
  CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.get()));
}

void memcpy_device_to_host_async(void* dst, const void* src, std::size_t bytes, stream_ref s) {
  if (bytes == 0) return;
  require_device();
  CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s.get()));
}

void memcpy_host_to_device_async(void* dst, const void* src, std::size_t bytes, stream_ref s) {
  if (bytes == 0) return;
  require_device();
  CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.get()));
}

void memcpy_device_to_device(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                             stream_ref s) {
  if (bytes == 0) return;
  require_device();
  if (dst_device == src_device) {
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s.get()));
  } else {
    CUARRAY_CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, s.get()));
  }
}

}  // namespace cuarray
