// Device and pinned memory: the storage an array owns, the allocator interface, and the pools behind it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "cuarray/stream.hpp"

namespace cuarray {

/// A block of device (or managed) memory. Destroying the last reference gives the bytes back to whatever
/// produced them (a pool, cudaFree, or the owner of an imported buffer).
class memory {
public:
  memory(void* ptr, std::size_t size, int device) : ptr_(ptr), size_(size), device_(device) {}
  virtual ~memory() = default;
  memory(const memory&) = delete;
  memory& operator=(const memory&) = delete;

  void* ptr() const { return ptr_; }
  std::size_t size() const { return size_; }
  int device() const { return device_; }

protected:
  void* ptr_;
  std::size_t size_;
  int device_;
};

using storage_ptr = std::shared_ptr<memory>;

/// Wrap memory owned elsewhere; `release` runs when the last reference goes (may be empty).
storage_ptr make_external_storage(void* ptr, std::size_t size, int device, std::function<void()> release);

/// Something that hands out device memory. Freeing happens when the returned storage is destroyed, so
/// that bytes always go back to the allocator (and the stream) they came from.
class allocator {
public:
  virtual ~allocator() = default;
  /// `bytes` may be 0 (returns a storage with a null pointer). Throws out_of_memory_error.
  virtual storage_ptr allocate(std::size_t bytes, int device, stream_ref stream) = 0;
};

/// Pooled allocator over cudaMalloc (see Note [memory pool] in src/memory/pool_core.hpp), one pool per device.
class memory_pool : public allocator, public std::enable_shared_from_this<memory_pool> {
public:
  memory_pool();
  ~memory_pool() override;
  storage_ptr allocate(std::size_t bytes, int device, stream_ref stream) override;

  std::size_t used_bytes() const;      ///< current device
  std::size_t total_bytes() const;     ///< current device
  std::size_t free_bytes() const;      ///< current device
  std::size_t n_free_blocks() const;   ///< current device
  void free_all_blocks();              ///< current device, all streams
  void free_all_blocks(stream_ref s);  ///< current device, one stream
  /// Limit of bytes held on the current device; 0 for none.
  void set_limit(std::size_t bytes);
  std::size_t get_limit() const;

  struct impl;

private:
  storage_ptr allocate_unobserved(std::size_t bytes, int device, stream_ref stream);
  std::shared_ptr<impl> impl_;
};

/// Stream-ordered allocator of the CUDA driver (cudaMallocAsync on the device's default memory pool).
class async_memory_pool : public allocator, public std::enable_shared_from_this<async_memory_pool> {
public:
  async_memory_pool();
  storage_ptr allocate(std::size_t bytes, int device, stream_ref stream) override;
  std::size_t used_bytes() const;
  std::size_t total_bytes() const;
  std::size_t free_bytes() const;
  void free_all_blocks();
  void set_limit(std::size_t bytes);
  std::size_t get_limit() const;

private:
  std::size_t limit_ = 0;
};

/// cudaMalloc / cudaFree with no pooling.
class plain_allocator : public allocator {
public:
  storage_ptr allocate(std::size_t bytes, int device, stream_ref stream) override;
};

/// Managed (unified) memory from cudaMallocManaged.
storage_ptr malloc_managed(std::size_t bytes, int device);

/// Note [memory hooks]: CuPy's memory hooks. An observer set on a thread hears of that thread's requests to a
/// memory_pool (malloc), the pool's new segments from cudaMalloc (alloc) and blocks returned to a pool (free).
/// With no observer on any thread, the pool pays one relaxed load of a global counter per allocation and
/// free. The pool's lock is never held while an observer runs; alloc events are reported after the pool's
/// allocation returns (pre and post together), since cudaMalloc runs under that lock.
class memory_pool_observer {
public:
  virtual ~memory_pool_observer() = default;
  virtual void malloc_pre(int device, std::size_t size, std::size_t mem_size) = 0;
  /// `ptr` and `pmem_id` (the block's identity) are 0 when the allocation failed.
  virtual void malloc_post(int device, std::size_t size, std::size_t mem_size, std::uintptr_t ptr,
                           std::uintptr_t pmem_id) = 0;
  virtual void alloc_pre(int device, std::size_t mem_size) = 0;
  /// `ptr` is 0 when cudaMalloc failed.
  virtual void alloc_post(int device, std::size_t mem_size, std::uintptr_t ptr) = 0;
  /// Runs in the destructor of the block: must not throw.
  virtual void free_pre(int device, std::size_t mem_size, std::uintptr_t ptr, std::uintptr_t pmem_id) noexcept = 0;
  virtual void free_post(int device, std::size_t mem_size, std::uintptr_t ptr, std::uintptr_t pmem_id) noexcept = 0;
};

/// Set the calling thread's observer of memory pools; nullptr removes it.
void set_memory_pool_observer(std::shared_ptr<memory_pool_observer> observer);

/// The process-wide default pool (never destroyed).
const std::shared_ptr<memory_pool>& default_memory_pool();

/// The allocator new arrays use: a thread's override if set, else the process-wide one.
allocator& current_allocator();
std::shared_ptr<allocator> get_allocator();
/// Set the process-wide allocator; nullptr restores the default pool.
void set_allocator(std::shared_ptr<allocator> a);
/// Per-thread override (for `using_allocator`); nullptr clears it.
void set_thread_allocator(std::shared_ptr<allocator> a);
std::shared_ptr<allocator> get_thread_allocator();

/// Allocate device memory with the current allocator on the current device and stream.
storage_ptr allocate(std::size_t bytes);

/// Parse CUARRAY_GPU_MEMORY_LIMIT-style text ("1000000", "50%") against a device's total memory.
std::size_t parse_memory_limit(const char* text, std::size_t total_memory);

// ---------------------------------------------------------------------------------------------------------
// Pinned (page-locked) host memory.

/// A block of pinned host memory; returns to its pool when the last reference goes, but not before the
/// asynchronous copies registered on it with `pinned_memory_pool::keep_until` have finished.
class pinned_memory {
public:
  pinned_memory(void* ptr, std::size_t size) : ptr_(ptr), size_(size) {}
  virtual ~pinned_memory() = default;
  pinned_memory(const pinned_memory&) = delete;
  pinned_memory& operator=(const pinned_memory&) = delete;
  void* ptr() const { return ptr_; }
  std::size_t size() const { return size_; }

protected:
  void* ptr_;
  std::size_t size_;
};

using pinned_ptr = std::shared_ptr<pinned_memory>;

/// Pool of pinned host buffers (cudaHostAlloc, portable), reused by rounded size.
class pinned_memory_pool : public std::enable_shared_from_this<pinned_memory_pool> {
public:
  pinned_memory_pool();
  ~pinned_memory_pool();
  pinned_ptr allocate(std::size_t bytes);
  std::size_t n_free_blocks() const;
  void free_all_blocks();
  /// Keep `owner` alive until the work enqueued on `s` so far has finished (polled on later calls).
  void keep_until(stream_ref s, std::shared_ptr<void> owner);
  /// Drop the kept objects whose work has finished.
  void poll();

  struct impl;

private:
  std::shared_ptr<impl> impl_;
};

const std::shared_ptr<pinned_memory_pool>& default_pinned_memory_pool();
/// Pinned memory from the default pinned pool.
pinned_ptr alloc_pinned_memory(std::size_t bytes);

/// Release what asynchronous copies were keeping alive once their work has finished (called after every
/// stream, event or device synchronisation, and on pinned allocations).
void poll_pending_copies();

/// Whether a host pointer lies in page-locked memory known to CUDA.
bool is_pinned(const void* host_ptr);

}  // namespace cuarray
