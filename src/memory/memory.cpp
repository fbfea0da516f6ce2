// Device memory pools (pooled, driver-async, plain, managed), the current allocator, and pinned memory.
#include "cuarray/memory.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/cuda/check.hpp"
#include "src/memory/capture_pool.hpp"
#include "src/memory/pool_core.hpp"

namespace cuarray {

namespace {

class external_memory final : public memory {
public:
  external_memory(void* p, std::size_t n, int dev, std::function<void()> release)
      : memory(p, n, dev), release_(std::move(release)) {}
  ~external_memory() override {
    if (release_) release_();
  }

private:
  std::function<void()> release_;
};

// Runs cudaFree-like calls on the right device without disturbing the thread's active device for long.
template <class F> void on_device(int device, F&& f) {
  int previous = current_device();
  activate_device(device);
  f();
  if (previous != device) activate_device(previous);
}

}  // namespace

storage_ptr make_external_storage(void* ptr, std::size_t size, int device, std::function<void()> release) {
  return std::make_shared<external_memory>(ptr, size, device, std::move(release));
}

std::size_t parse_memory_limit(const char* text, std::size_t total_memory) {
  if (!text || !*text) return 0;
  std::string s(text);
  char* end = nullptr;
  if (!s.empty() && s.back() == '%') {
    double pct = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() - 1 || pct < 0) throw value_error("invalid memory limit: " + s);
    return static_cast<std::size_t>(static_cast<double>(total_memory) * pct / 100.0);
  }
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size()) throw value_error("invalid memory limit: " + s);
  return static_cast<std::size_t>(v);
}

// ---------------------------------------------------------------------------------------------------------
// Pooled allocator

namespace {

// Note [memory hooks]: threads with an observer, and the cudaMalloc of the current allocation on this
// thread (recorded under the pool's lock, reported to the observer once the lock is released).
std::atomic<int> g_observed_threads{0};
thread_local std::shared_ptr<memory_pool_observer> tls_observer;
struct raw_alloc_record {
  bool attempted = false;
  std::size_t size = 0;
  void* ptr = nullptr;
};
thread_local raw_alloc_record tls_raw_alloc;

// Note [allocation during capture]: cudaMalloc is an "unsafe" call during a capture in the global and
// thread-local capture modes; it is not a stream operation, so it is made in relaxed mode for its duration
// (cudaThreadExchangeStreamCaptureMode). cudaFree synchronises the device, which a capture forbids: while
// any capture is active the frees wait in a list, given back once the last capture has ended.
struct capture_mode_relaxed {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  bool swapped = false;
  capture_mode_relaxed() {
    if (detail::g_active_captures.load(std::memory_order_relaxed) != 0) {
      swapped = cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess;
      if (!swapped) (void)cudaGetLastError();
    }
  }
  ~capture_mode_relaxed() {
    if (swapped) (void)cudaThreadExchangeStreamCaptureMode(&mode);
  }
  capture_mode_relaxed(const capture_mode_relaxed&) = delete;
  capture_mode_relaxed& operator=(const capture_mode_relaxed&) = delete;
};

std::mutex g_deferred_mutex;
std::vector<std::pair<int, void*>> g_deferred_frees;  // (device, pointer)

class cuda_backend final : public detail::raw_backend {
public:
  explicit cuda_backend(int device) : device_(device) {}
  void* raw_alloc(std::size_t bytes) override {
    void* p = nullptr;
    cudaError_t st = cudaSuccess;
    {
      capture_mode_relaxed relaxed;
      on_device(device_, [&] { st = cudaMalloc(&p, bytes); });
    }
    if (g_observed_threads.load(std::memory_order_relaxed) != 0) [[unlikely]] {
      tls_raw_alloc = raw_alloc_record{true, bytes, st == cudaSuccess ? p : nullptr};
    }
    if (st == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;
    }
    if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaMalloc");
    return p;
  }
  void raw_free(void* ptr, std::size_t) override {
    if (detail::g_active_captures.load(std::memory_order_acquire) != 0) {
      std::lock_guard<std::mutex> lock(g_deferred_mutex);
      // Checked again under the lock that release_deferred_frees takes: a capture ending meanwhile
      // either sees this entry or has already ended, and then the free goes ahead below.
      if (detail::g_active_captures.load(std::memory_order_acquire) != 0) {
        g_deferred_frees.emplace_back(device_, ptr);
        return;
      }
    }
    on_device(device_, [&] { (void)cudaFree(ptr); });
    (void)cudaGetLastError();
  }

private:
  int device_;
};

}  // namespace

struct memory_pool::impl {
  struct device_pool {
    explicit device_pool(int device) : backend(device), core(&backend) {
      const char* env = std::getenv("CUARRAY_GPU_MEMORY_LIMIT");
      if (env && *env) core.set_limit(parse_memory_limit(env, mem_info(device).second));
    }
    cuda_backend backend;
    detail::pool_core core;
  };

  static constexpr int max_devices = 64;
  std::mutex mutex;
  std::unique_ptr<device_pool> pools[max_devices];
  // Published once made; every allocation reads it, so the common case takes no lock.
  std::atomic<device_pool*> ready[max_devices] = {};

  detail::pool_core& get(int device) {
    if (device < 0 || device >= max_devices) throw value_error("device " + std::to_string(device) + " out of range");
    if (device_pool* p = ready[device].load(std::memory_order_acquire)) return p->core;
    std::lock_guard<std::mutex> lock(mutex);
    auto& p = pools[device];
    if (!p) p = std::make_unique<device_pool>(device);
    ready[device].store(p.get(), std::memory_order_release);
    return p->core;
  }
};

namespace {

// Note [storage records]: each pooled allocation makes one block holding the shared_ptr control block and
// its pooled_memory record. Freed blocks are kept per thread (up to `records_kept`) and reused, so that an
// allocate/free pair in steady state makes no call to malloc. The kept list is trivially destructible
// thread-local storage; a separate thread-local object frees it at thread exit and stops the keeping.
//
// Note [freed-block stash]: the same per-thread storage keeps the thread's last freed block of the default
// pool (up to `stash_max` bytes) out of the pool, and the thread's next allocation of the same rounded size on
// the same device and stream takes it back. A small call frees its previous result and allocates the next
// one; through the pool that cost its lock (four locked instructions a call), its own bookkeeping (a hash
// lookup on free, the quick list on allocation) and two reference-count updates of the pool's owner: about a
// fifth of a small a.sum()'s host time. The stash costs one atomic exchange on each side. It reuses a block on
// the stream it was freed on, exactly as the pool's quick list does (Note [pool quick list]), so the stream
// ordering is the pool's.
//
// The pool counts a stashed block as used until it comes back, so every query and change of the default pool
// (used_bytes, total_bytes, free_all_blocks, set_limit, ...) and an allocation that runs out of memory first
// take every thread's stashed block back into the pool (return_stashes): the statistics stay exact across
// threads, as CuPy's are (a Python thread's join returns before its C++ thread-locals are destroyed, so
// waiting for its exit would not do). The threads that have stashed are listed under a mutex; the slot is one
// atomic word, the block's address with its device in the low bits (blocks are 256-byte aligned), so another
// thread can take it; the size and stream beside it are read and written by the owner only. Only the default
// pool stashes: it is never destroyed (Note [immortal pool]), so a stashed block can always go home.
constexpr int records_kept = 64;
constexpr std::size_t stash_max = std::size_t{64} << 10;
// Blocks start at multiples of 512 bytes from a cudaMalloc address, which is 256-byte aligned: six low bits
// hold the device (the pools serve 64).
constexpr std::uintptr_t stash_device_mask = 63;
struct record_list {
  void* blocks[records_kept];
  int count;
  bool closed;
  bool closer_made;                   // tls_records_closer constructed on this thread (before the first block is kept)
  bool listed;                        // in stash_threads() (Note [freed-block stash])
  std::size_t size;                   // the one block size kept (0 until the first block is kept)
  std::atomic<std::uintptr_t> stash;  // the block's address | its device; 0: none
  std::size_t stash_size;             // owner only: the block's rounded size
  std::uintptr_t stash_stream;        // owner only: the stream it was freed on
};
thread_local record_list tls_records{};

std::mutex& stash_mutex() {
  static auto* m = new std::mutex();  // never destroyed: threads exit after static destruction
  return *m;
}
std::vector<record_list*>& stash_threads() {  // under stash_mutex()
  static auto* v = new std::vector<record_list*>();
  return *v;
}
// The default pool's pool of each device, for a stashed block's device.
std::atomic<detail::pool_core*> g_default_cores[64] = {};

void return_block(std::uintptr_t w) noexcept {
  const auto device = static_cast<int>(w & stash_device_mask);
  g_default_cores[device].load(std::memory_order_acquire)->deallocate(reinterpret_cast<void*>(w & ~stash_device_mask));
}

// Every thread's stashed block back to the default pool; whether there was one.
bool return_stashes() noexcept {
  bool any = false;
  std::lock_guard<std::mutex> lock(stash_mutex());
  for (record_list* r : stash_threads()) {
    if (std::uintptr_t w = r->stash.exchange(0, std::memory_order_acquire)) {
      return_block(w);
      any = true;
    }
  }
  return any;
}

struct record_list_closer {
  ~record_list_closer() {
    record_list& kept = tls_records;
    kept.closed = true;
    if (kept.listed) {
      std::lock_guard<std::mutex> lock(stash_mutex());
      auto& v = stash_threads();
      v.erase(std::find(v.begin(), v.end(), &kept));
      kept.listed = false;
    }
    if (std::uintptr_t w = kept.stash.exchange(0, std::memory_order_acquire)) return_block(w);
    for (int i = 0; i < kept.count; ++i) ::operator delete(kept.blocks[i]);
    kept.count = 0;
  }
};
thread_local record_list_closer tls_records_closer;

// Whether the thread may keep blocks: only after the closer exists to free them at thread exit. Its odr-use
// goes through the thread-local's initialisation wrapper, so it is made once here rather than touched on
// every call.
bool may_keep(record_list& kept) noexcept {
  if (!kept.closer_made && !kept.closed) {
    (void)&tls_records_closer;
    kept.closer_made = true;
  }
  return !kept.closed;
}

// Whether the thread may stash: it may keep blocks and is listed (listing it once may fail to allocate).
bool may_stash(record_list& kept) noexcept {
  if (!may_keep(kept)) return false;
  if (kept.listed) return true;
  try {
    std::lock_guard<std::mutex> lock(stash_mutex());
    stash_threads().push_back(&kept);
    kept.listed = true;
  } catch (...) {
    return false;
  }
  return true;
}

// One size of block is kept (the first one freed: the control block with its record); others go to the heap.
template <class T> struct record_allocator {
  using value_type = T;
  record_allocator() noexcept = default;
  template <class U> record_allocator(const record_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    record_list& kept = tls_records;
    if (n * sizeof(T) == kept.size && kept.count > 0 && !kept.closed) {
      return static_cast<T*>(kept.blocks[--kept.count]);
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    record_list& kept = tls_records;
    if (kept.size == 0) kept.size = n * sizeof(T);
    if (n * sizeof(T) == kept.size && kept.count < records_kept && may_keep(kept)) {
      kept.blocks[kept.count++] = p;
      return;
    }
    ::operator delete(p);
  }
  template <class U> bool operator==(const record_allocator<U>&) const noexcept { return true; }
};

// Note [immortal pool]: a pooled block keeps its pool alive (a user's MemoryPool may be dropped while its arrays
// live on), and copying that shared_ptr into every block's record cost two locked read-modify-writes per
// small call (the count's increment on allocation, its decrement on free). The default pool is never
// destroyed, so its blocks carry an empty pointer instead.
std::atomic<const memory_pool*> g_default_pool{nullptr};

// Every thread's stashed block back to the default pool before `pool` is queried or changed.
void settle(const memory_pool* pool) noexcept {
  if (pool == g_default_pool.load(std::memory_order_relaxed)) return_stashes();
}

class pooled_memory final : public memory {
public:
  pooled_memory(void* p, std::size_t n, int dev, std::shared_ptr<void> pool, detail::pool_core* core,
                std::uintptr_t stream, bool stashable)
      : memory(p, n, dev), pool_(std::move(pool)), core_(core), stream_(stream), stashable_(stashable) {}
  ~pooled_memory() override {
    if (g_observed_threads.load(std::memory_order_relaxed) != 0) [[unlikely]] {
      if (std::shared_ptr<memory_pool_observer> o = tls_observer) {
        const auto p = reinterpret_cast<std::uintptr_t>(ptr_), id = reinterpret_cast<std::uintptr_t>(this);
        o->free_pre(device_, size_, p, id);
        core_->deallocate(ptr_);
        o->free_post(device_, size_, p, id);
        return;
      }
    }
    if (stashable_) {  // Note [freed-block stash]
      record_list& kept = tls_records;
      if (may_stash(kept)) {
        std::atomic<detail::pool_core*>& home = g_default_cores[device_];
        if (home.load(std::memory_order_relaxed) != core_) home.store(core_, std::memory_order_release);
        kept.stash_size = size_;
        kept.stash_stream = stream_;
        const auto w = reinterpret_cast<std::uintptr_t>(ptr_) | static_cast<std::uintptr_t>(device_);
        if (std::uintptr_t old = kept.stash.exchange(w, std::memory_order_acq_rel)) return_block(old);
        return;
      }
    }
    core_->deallocate(ptr_);
  }

private:
  std::shared_ptr<void> pool_;  // keeps the pool (the device pools, or a capture's pool) alive while its memory is
  detail::pool_core* core_;
  std::uintptr_t stream_;  // the stream it was allocated on
  bool stashable_;         // a block of the default pool, at most stash_max bytes
};

}  // namespace

// Note [capture pools]
// Work captured into a graph runs again at every replay, long after the capture: memory it allocated must
// go to no one else meanwhile. The device pools would hand a block freed during the capture to later eager
// work, which a replay would then overwrite. So each capture begun through begin_capture gets a pool of its
// own. Every allocation on a stream taking part in the capture (found by capture id, so streams forked into
// it count too) comes from that pool; a block freed during the capture returns to it and serves only later
// allocations of the same capture on the same stream, which the graph orders after the block's last use;
// and the pool lives as long as the graph and every array made during the capture. Host data copied to the
// device during the capture goes through pinned copies the pool keeps, so every replay reads them.
// Captures begun elsewhere (runtime.streamBeginCapture, another library) allocate from the device pools,
// as CuPy's do.
namespace {

struct capture_state {
  explicit capture_state(int device) : backend(device), core(&backend) {}
  cuda_backend backend;
  detail::pool_core core;  // destroyed before the backend it gives its segments back to
  std::mutex mutex;
  std::vector<std::shared_ptr<void>> kept;  // pinned host copies and other owners the graph reads
};

struct capture_entry {
  std::uintptr_t stream;
  unsigned long long id;
  int device;
  std::shared_ptr<capture_state> state;
};

std::mutex g_capture_mutex;
std::vector<capture_entry> g_capture_entries;

// The private pool of the active capture `s` takes part in (any device when device < 0).
std::shared_ptr<capture_state> capture_of(stream_ref s, int device) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  cudaError_t st = cudaStreamGetCaptureInfo(s.get(), &status, &id);
  if (st != cudaSuccess) {
    (void)cudaGetLastError();  // e.g. the legacy stream while a blocking stream captures
    return nullptr;
  }
  if (status != cudaStreamCaptureStatusActive) return nullptr;
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  for (const capture_entry& e : g_capture_entries) {
    if (e.id == id && (device < 0 || e.device == device)) return e.state;
  }
  return nullptr;
}

}  // namespace

namespace detail {

std::atomic<int> g_active_captures{0};

void capture_pool_open(stream_ref s, int device) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  CUARRAY_CUDA_CHECK(cudaStreamGetCaptureInfo(s.get(), &status, &id));
  auto state = std::make_shared<capture_state>(device);
  std::lock_guard<std::mutex> lock(g_capture_mutex);
  g_capture_entries.push_back(capture_entry{s.ptr(), id, device, std::move(state)});
  g_active_captures.fetch_add(1, std::memory_order_acq_rel);
}

std::shared_ptr<void> capture_pool_close(stream_ref s) {
  std::shared_ptr<capture_state> state;
  {
    std::lock_guard<std::mutex> lock(g_capture_mutex);
    for (auto it = g_capture_entries.begin(); it != g_capture_entries.end(); ++it) {
      if (it->stream != s.ptr()) continue;
      state = std::move(it->state);
      g_capture_entries.erase(it);
      g_active_captures.fetch_sub(1, std::memory_order_acq_rel);
      break;
    }
  }
  return state;
}

const void* capture_host_copy(stream_ref s, const void* src, std::size_t bytes) {
  std::shared_ptr<capture_state> c = capture_of(s, -1);
  if (!c) return nullptr;
  pinned_ptr copy;
  {
    capture_mode_relaxed relaxed;  // cudaHostAlloc when the pinned pool grows
    copy = alloc_pinned_memory(bytes);
  }
  std::memcpy(copy->ptr(), src, bytes);
  const void* p = copy->ptr();
  std::lock_guard<std::mutex> lock(c->mutex);
  c->kept.push_back(std::move(copy));
  return p;
}

bool capture_keep(stream_ref s, std::shared_ptr<void> owner) {
  std::shared_ptr<capture_state> c = capture_of(s, -1);
  if (!c) return false;
  std::lock_guard<std::mutex> lock(c->mutex);
  c->kept.push_back(std::move(owner));
  return true;
}

void release_deferred_frees() {
  std::vector<std::pair<int, void*>> frees;
  {
    std::lock_guard<std::mutex> lock(g_deferred_mutex);
    if (g_active_captures.load(std::memory_order_acquire) != 0) return;
    frees.swap(g_deferred_frees);
  }
  for (auto [device, ptr] : frees) on_device(device, [&] { (void)cudaFree(ptr); });
  (void)cudaGetLastError();
}

}  // namespace detail

memory_pool::memory_pool() : impl_(std::make_shared<impl>()) {}
memory_pool::~memory_pool() = default;

namespace {

// memory_pool::allocate with the calling thread's observer told of it (Note [memory hooks]).
template <class Allocate>
storage_ptr allocate_observed(memory_pool_observer& o, std::size_t bytes, int device, Allocate&& allocate) {
  const std::size_t mem_size = detail::pool_core::rounded(bytes);
  o.malloc_pre(device, bytes, mem_size);
  tls_raw_alloc = raw_alloc_record{};
  storage_ptr s;
  try {
    s = allocate();
  } catch (...) {
    raw_alloc_record r = tls_raw_alloc;
    tls_raw_alloc = raw_alloc_record{};
    if (r.attempted) {
      o.alloc_pre(device, r.size);
      o.alloc_post(device, r.size, reinterpret_cast<std::uintptr_t>(r.ptr));
    }
    o.malloc_post(device, bytes, mem_size, 0, 0);
    throw;
  }
  raw_alloc_record r = tls_raw_alloc;
  tls_raw_alloc = raw_alloc_record{};
  if (r.attempted) {
    o.alloc_pre(device, r.size);
    o.alloc_post(device, r.size, reinterpret_cast<std::uintptr_t>(r.ptr));
  }
  o.malloc_post(device, bytes, mem_size, reinterpret_cast<std::uintptr_t>(s->ptr()),
                reinterpret_cast<std::uintptr_t>(s.get()));
  return s;
}

}  // namespace

void set_memory_pool_observer(std::shared_ptr<memory_pool_observer> observer) {
  if (observer && !tls_observer) g_observed_threads.fetch_add(1, std::memory_order_relaxed);
  if (!observer && tls_observer) g_observed_threads.fetch_sub(1, std::memory_order_relaxed);
  tls_observer = std::move(observer);
}

storage_ptr memory_pool::allocate(std::size_t bytes, int device, stream_ref stream) {
  require_device();
  if (bytes == 0) return std::make_shared<memory>(nullptr, 0, device);
  if (g_observed_threads.load(std::memory_order_relaxed) != 0) [[unlikely]] {
    if (std::shared_ptr<memory_pool_observer> o = tls_observer) {
      return allocate_observed(*o, bytes, device, [&] { return allocate_unobserved(bytes, device, stream); });
    }
  }
  return allocate_unobserved(bytes, device, stream);
}

storage_ptr memory_pool::allocate_unobserved(std::size_t bytes, int device, stream_ref stream) {
  if (detail::g_active_captures.load(std::memory_order_acquire) != 0) [[unlikely]] {
    if (std::shared_ptr<capture_state> c = capture_of(stream, device)) {
      void* p = c->core.allocate(bytes, stream.ptr());
      try {
        return std::allocate_shared<pooled_memory>(record_allocator<pooled_memory>(), p,
                                                   detail::pool_core::rounded(bytes), device, c, &c->core, stream.ptr(),
                                                   false);
      } catch (...) {
        c->core.deallocate(p);
        throw;
      }
    }
  }
  detail::pool_core& core = impl_->get(device);
  const bool immortal = this == g_default_pool.load(std::memory_order_relaxed);  // Note [immortal pool]
  const bool stashable = immortal && bytes <= stash_max;
  const std::size_t size = detail::pool_core::rounded(bytes);
  void* p = nullptr;
  if (stashable) {  // Note [freed-block stash]
    record_list& kept = tls_records;
    const std::uintptr_t w = kept.stash.load(std::memory_order_relaxed);
    if (w != 0 && (w & stash_device_mask) == static_cast<std::uintptr_t>(device) && kept.stash_size == size &&
        kept.stash_stream == stream.ptr() && kept.stash.exchange(0, std::memory_order_acquire) == w) {
      p = reinterpret_cast<void*>(w & ~stash_device_mask);  // (another thread may have taken it back meanwhile)
    }
  }
  if (p == nullptr) {
    try {
      p = core.allocate(bytes, stream.ptr());
    } catch (const out_of_memory_error&) {
      if (!immortal || !return_stashes()) throw;
      p = core.allocate(bytes, stream.ptr());
    }
  }
  try {
    std::shared_ptr<void> keep;
    if (!immortal) keep = impl_;
    return std::allocate_shared<pooled_memory>(record_allocator<pooled_memory>(), p, size, device, std::move(keep),
                                               &core, stream.ptr(), stashable);
  } catch (...) {
    core.deallocate(p);
    throw;
  }
}

namespace {
// The current device's pool after every thread's stashed block is back in it (Note [freed-block stash]): what
// every query and change of a pool's blocks looks at. The limit is a setting, not a state, so get_limit reads it
// as it is.
detail::pool_core& settled(const memory_pool* pool, memory_pool::impl& impl) {
  settle(pool);
  return impl.get(current_device());
}
}  // namespace

std::size_t memory_pool::used_bytes() const { return settled(this, *impl_).used_bytes(); }
std::size_t memory_pool::total_bytes() const { return settled(this, *impl_).total_bytes(); }
std::size_t memory_pool::free_bytes() const { return settled(this, *impl_).free_bytes(); }
std::size_t memory_pool::n_free_blocks() const { return settled(this, *impl_).n_free_blocks(); }
void memory_pool::free_all_blocks() { settled(this, *impl_).free_all_blocks(); }
void memory_pool::free_all_blocks(stream_ref s) { settled(this, *impl_).free_all_blocks(s.ptr()); }
void memory_pool::set_limit(std::size_t bytes) { settled(this, *impl_).set_limit(bytes); }
std::size_t memory_pool::get_limit() const { return impl_->get(current_device()).get_limit(); }

// ---------------------------------------------------------------------------------------------------------
// Driver's stream-ordered allocator

namespace {

class async_memory final : public memory {
public:
  async_memory(void* p, std::size_t n, int dev) : memory(p, n, dev) {}
  ~async_memory() override {
    // Freed in the order of the stream current at release, as CuPy does: work already enqueued there that
    // reads this memory finishes first.
    on_device(device_, [&] { (void)cudaFreeAsync(ptr_, current_stream(device_).get()); });
    (void)cudaGetLastError();
  }
};

cudaMemPool_t device_mempool(int device) {
  cudaMemPool_t pool = nullptr;
  CUARRAY_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  return pool;
}

std::size_t mempool_attr(int device, cudaMemPoolAttr attr) {
  std::uint64_t v = 0;
  CUARRAY_CUDA_CHECK(cudaMemPoolGetAttribute(device_mempool(device), attr, &v));
  return static_cast<std::size_t>(v);
}

}  // namespace

async_memory_pool::async_memory_pool() {
  require_device();
  if (!device_attribute(current_device(), cudaDevAttrMemoryPoolsSupported)) {
    throw cuda_error(static_cast<int>(cudaErrorNotSupported),
                     "cudaErrorNotSupported: this device does not support cudaMallocAsync");
  }
}

storage_ptr async_memory_pool::allocate(std::size_t bytes, int device, stream_ref stream) {
  require_device();
  if (bytes == 0) return std::make_shared<memory>(nullptr, 0, device);
  std::size_t used = mempool_attr(device, cudaMemPoolAttrUsedMemCurrent);
  if (limit_ && used + bytes > limit_) {
    throw out_of_memory_error(bytes, used, mempool_attr(device, cudaMemPoolAttrReservedMemCurrent), limit_);
  }
  void* p = nullptr;
  cudaError_t st = cudaSuccess;
  on_device(device, [&] { st = cudaMallocAsync(&p, bytes, stream.get()); });
  if (st == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    on_device(device, [&] {
      (void)cudaStreamSynchronize(stream.get());
      (void)cudaMemPoolTrimTo(device_mempool(device), 0);
      st = cudaMallocAsync(&p, bytes, stream.get());
    });
    if (st == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw out_of_memory_error(bytes, mempool_attr(device, cudaMemPoolAttrUsedMemCurrent),
                                mempool_attr(device, cudaMemPoolAttrReservedMemCurrent), limit_);
    }
  }
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaMallocAsync");
  return std::make_shared<async_memory>(p, bytes, device);
}

std::size_t async_memory_pool::used_bytes() const {
  return mempool_attr(current_device(), cudaMemPoolAttrUsedMemCurrent);
}
std::size_t async_memory_pool::total_bytes() const {
  return mempool_attr(current_device(), cudaMemPoolAttrReservedMemCurrent);
}
std::size_t async_memory_pool::free_bytes() const { return total_bytes() - used_bytes(); }
void async_memory_pool::free_all_blocks() {
  device_synchronize(current_device());
  CUARRAY_CUDA_CHECK(cudaMemPoolTrimTo(device_mempool(current_device()), 0));
}
void async_memory_pool::set_limit(std::size_t bytes) { limit_ = bytes; }
std::size_t async_memory_pool::get_limit() const { return limit_; }

// ---------------------------------------------------------------------------------------------------------
// Plain and managed allocations

namespace {

class plain_memory final : public memory {
public:
  plain_memory(void* p, std::size_t n, int dev) : memory(p, n, dev) {}
  ~plain_memory() override {
    on_device(device_, [&] { (void)cudaFree(ptr_); });
    (void)cudaGetLastError();
  }
};

}  // namespace

storage_ptr plain_allocator::allocate(std::size_t bytes, int device, stream_ref) {
  require_device();
  if (bytes == 0) return std::make_shared<memory>(nullptr, 0, device);
  void* p = nullptr;
  cudaError_t st = cudaSuccess;
  on_device(device, [&] { st = cudaMalloc(&p, bytes); });
  if (st == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw out_of_memory_error(bytes, 0, 0, 0);
  }
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaMalloc");
  return std::make_shared<plain_memory>(p, bytes, device);
}

storage_ptr malloc_managed(std::size_t bytes, int device) {
  require_device();
  if (bytes == 0) return std::make_shared<memory>(nullptr, 0, device);
  void* p = nullptr;
  cudaError_t st = cudaSuccess;
  on_device(device, [&] { st = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal); });
  if (st == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw out_of_memory_error(bytes, 0, 0, 0);
  }
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaMallocManaged");
  return std::make_shared<plain_memory>(p, bytes, device);
}

// ---------------------------------------------------------------------------------------------------------
// The current allocator

namespace {

std::mutex g_allocator_mutex;
std::atomic<allocator*> g_allocator{nullptr};
std::shared_ptr<allocator> g_allocator_owner;
// Allocators once made current stay alive: another thread may still be inside one after a switch.
std::vector<std::shared_ptr<allocator>>& retired_allocators() {
  static auto* v = new std::vector<std::shared_ptr<allocator>>();
  return *v;
}
thread_local std::shared_ptr<allocator> tls_allocator;

}  // namespace

const std::shared_ptr<memory_pool>& default_memory_pool() {
  // Never destroyed (threads may free at exit), so its memory need not keep it alive: Note [immortal pool].
  static auto* pool = [] {
    auto* p = new std::shared_ptr<memory_pool>(std::make_shared<memory_pool>());
    g_default_pool.store(p->get(), std::memory_order_relaxed);
    return p;
  }();
  return *pool;
}

allocator& current_allocator() {
  if (tls_allocator) return *tls_allocator;
  allocator* a = g_allocator.load(std::memory_order_acquire);
  return a ? *a : *default_memory_pool();
}

std::shared_ptr<allocator> get_allocator() {
  if (tls_allocator) return tls_allocator;
  std::lock_guard<std::mutex> lock(g_allocator_mutex);
  return g_allocator_owner ? g_allocator_owner : std::shared_ptr<allocator>(default_memory_pool());
}

void set_allocator(std::shared_ptr<allocator> a) {
  std::lock_guard<std::mutex> lock(g_allocator_mutex);
  if (g_allocator_owner) retired_allocators().push_back(g_allocator_owner);
  g_allocator_owner = std::move(a);
  g_allocator.store(g_allocator_owner.get(), std::memory_order_release);
}

void set_thread_allocator(std::shared_ptr<allocator> a) { tls_allocator = std::move(a); }
std::shared_ptr<allocator> get_thread_allocator() { return tls_allocator; }

storage_ptr allocate(std::size_t bytes) {
  int dev = current_device();
  return current_allocator().allocate(bytes, dev, current_stream(dev));
}

// ---------------------------------------------------------------------------------------------------------
// Pinned memory

struct pinned_memory_pool::impl {
  std::mutex mutex;
  std::map<std::size_t, std::vector<void*>> free_blocks;  // by rounded size
  struct kept {
    cudaEvent_t event;
    std::shared_ptr<void> owner;
  };
  std::vector<kept> kept_alive;

  // Moves finished entries into `done`; the caller drops them after unlocking, since an owner may be a
  // Python object whose release takes the GIL.
  void collect_finished_locked(std::vector<kept>& done) {
    auto it = std::stable_partition(kept_alive.begin(), kept_alive.end(), [](const kept& k) {
      cudaError_t st = cudaEventQuery(k.event);
      if (st == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return true;  // still running: keep
      }
      (void)cudaGetLastError();
      return false;
    });
    for (auto i = it; i != kept_alive.end(); ++i) {
      (void)cudaEventDestroy(i->event);
      done.push_back(std::move(*i));
    }
    kept_alive.erase(it, kept_alive.end());
  }

  ~impl() { release_all_locked(); }

  void release_all_locked() {
    for (auto& [size, blocks] : free_blocks) {
      for (void* p : blocks) (void)cudaFreeHost(p);
    }
    free_blocks.clear();
    (void)cudaGetLastError();
  }
};

namespace {

constexpr std::size_t pinned_rounding = 512;

class pooled_pinned final : public pinned_memory {
public:
  pooled_pinned(void* p, std::size_t n, std::shared_ptr<pinned_memory_pool::impl> pool)
      : pinned_memory(p, n), pool_(std::move(pool)) {}
  ~pooled_pinned() override {
    std::lock_guard<std::mutex> lock(pool_->mutex);
    pool_->free_blocks[size_].push_back(ptr_);
  }

private:
  std::shared_ptr<pinned_memory_pool::impl> pool_;
};

}  // namespace

pinned_memory_pool::pinned_memory_pool() : impl_(std::make_shared<impl>()) {}

// Blocks still in use keep the pool's state alive; the last of them frees everything (impl::~impl).
pinned_memory_pool::~pinned_memory_pool() = default;

pinned_ptr pinned_memory_pool::allocate(std::size_t bytes) {
  require_device();
  std::size_t size = std::max<std::size_t>(pinned_rounding,
                                           (bytes + pinned_rounding - 1) / pinned_rounding * pinned_rounding);
  poll();
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto it = impl_->free_blocks.find(size);
    if (it != impl_->free_blocks.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      return std::make_shared<pooled_pinned>(p, size, impl_);
    }
  }
  void* p = nullptr;
  cudaError_t st = cudaHostAlloc(&p, size, cudaHostAllocPortable);
  if (st == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    free_all_blocks();
    st = cudaHostAlloc(&p, size, cudaHostAllocPortable);
    if (st == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw out_of_memory_error(bytes, 0, 0, 0);
    }
  }
  if (st != cudaSuccess) detail::throw_cuda_error(st, "cudaHostAlloc");
  return std::make_shared<pooled_pinned>(p, size, impl_);
}

std::size_t pinned_memory_pool::n_free_blocks() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::size_t n = 0;
  for (auto& [size, blocks] : impl_->free_blocks) n += blocks.size();
  return n;
}

void pinned_memory_pool::free_all_blocks() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->release_all_locked();
}

void pinned_memory_pool::keep_until(stream_ref s, std::shared_ptr<void> owner) {
  // An event recorded during a capture must never be queried (poll would do so): a captured copy's
  // owners live as long as its graph instead (Note [capture pools]).
  if (detail::g_active_captures.load(std::memory_order_acquire) != 0 && detail::capture_keep(s, owner)) return;
  cudaEvent_t e = nullptr;
  CUARRAY_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  cudaError_t st = cudaEventRecord(e, s.get());
  if (st != cudaSuccess) {
    (void)cudaEventDestroy(e);
    detail::throw_cuda_error(st, "cudaEventRecord");
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->kept_alive.push_back({e, std::move(owner)});
}

void pinned_memory_pool::poll() {
  std::vector<impl::kept> done;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (impl_->kept_alive.empty()) return;
    impl_->collect_finished_locked(done);
  }
}

const std::shared_ptr<pinned_memory_pool>& default_pinned_memory_pool() {
  static auto* pool = new std::shared_ptr<pinned_memory_pool>(std::make_shared<pinned_memory_pool>());
  return *pool;
}

pinned_ptr alloc_pinned_memory(std::size_t bytes) { return default_pinned_memory_pool()->allocate(bytes); }

void poll_pending_copies() { default_pinned_memory_pool()->poll(); }

bool is_pinned(const void* host_ptr) {
  if (!is_available()) return false;
  cudaPointerAttributes attr{};
  cudaError_t st = cudaPointerGetAttributes(&attr, host_ptr);
  if (st != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

}  // namespace cuarray
