// Best-fit device memory pool over a raw allocator: splitting, merging, per-stream free lists, limit.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace cuarray::detail {

/// Source of raw memory for a pool: cudaMalloc/cudaFree in production, a fake in tests.
struct raw_backend {
  virtual ~raw_backend() = default;
  /// Returns nullptr when the memory is exhausted (never throws for that).
  virtual void* raw_alloc(std::size_t bytes) = 0;
  /// Gives back a block obtained from raw_alloc, with the size it was asked for.
  virtual void raw_free(void* ptr, std::size_t bytes) = 0;
};

/// Note [pool lock]: the pool's lock is taken twice by every small call (its result's allocation and free), and
/// std::mutex's calls into libpthread (owner and user bookkeeping, the mutex-kind dispatch) were about 7% of the
/// host time of a small a.sum(). This is the three-state futex lock (0 free, 1 held, 2 held with waiters): one
/// compare-exchange to take it and one exchange to give it back when uncontended, both inline; a waiter spins
/// briefly and then sleeps in std::atomic::wait (a futex), so a thread holding it across cudaMalloc costs the
/// others no CPU. Not recursive, like std::mutex; usable with std::lock_guard.
class pool_mutex {
public:
  void lock() noexcept {
    int expected = 0;
    if (!state_.compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed)) {
      lock_contended();
    }
  }
  void unlock() noexcept {
    // Sequentially consistent, not only release: notify_one then reads the count of sleepers that
    // std::atomic::wait keeps, and that read must not move before this store (the store-load order a weakly
    // ordered CPU may otherwise reverse, losing a wake-up). On x86 the exchange is the same instruction.
    if (state_.exchange(0) == 2) state_.notify_one();
  }

private:
  void lock_contended() noexcept {
    for (int spin = 0; spin < 64; ++spin) {
      int expected = 0;
      if (state_.load(std::memory_order_relaxed) == 0 &&
          state_.compare_exchange_weak(expected, 1, std::memory_order_acquire, std::memory_order_relaxed)) {
        return;
      }
    }
    // Marked contended (2) before sleeping, so the holder's unlock wakes a sleeper; a thread that takes the
    // lock here keeps it marked 2, as there may be other sleepers.
    while (state_.exchange(2, std::memory_order_acquire) != 0) state_.wait(2, std::memory_order_relaxed);
  }
  std::atomic<int> state_{0};
};

/// Thread-safe best-fit pool. Stream handles are opaque integers.
class pool_core {
public:
  static constexpr std::size_t rounding = 512;
  static constexpr std::size_t quick_max_size = std::size_t{1} << 20;  ///< Note [pool quick list]
  static constexpr std::size_t quick_capacity = 32;
  explicit pool_core(raw_backend* backend);  // not owned
  ~pool_core();                              // returns every segment whose chunks are all free to the backend
  pool_core(const pool_core&) = delete;
  pool_core& operator=(const pool_core&) = delete;

  /// bytes > 0, rounded up to `rounding`. Throws cuarray::out_of_memory_error.
  void* allocate(std::size_t bytes, std::uintptr_t stream);
  /// ptr must come from allocate() and not be freed yet; otherwise throw std::invalid_argument.
  void deallocate(void* ptr);
  /// Size (rounded) of a live allocation; 0 if unknown.
  std::size_t allocation_size(const void* ptr) const;
  /// The size of a chunk that allocate(bytes) returns: chunks are split to exactly the rounded request.
  static constexpr std::size_t rounded(std::size_t bytes) { return (bytes + rounding - 1) / rounding * rounding; }

  std::size_t used_bytes() const;               ///< bytes in live allocations (rounded sizes)
  std::size_t total_bytes() const;              ///< bytes held from the backend
  std::size_t free_bytes() const;               ///< total - used
  std::size_t n_free_blocks() const;            ///< number of free chunks (all streams)
  std::size_t n_segments() const;               ///< number of raw allocations held from the backend
  void free_all_blocks();                       ///< give back segments that are entirely free (any stream)
  void free_all_blocks(std::uintptr_t stream);  ///< only segments of that stream
  void set_limit(std::size_t bytes);            ///< 0 = no limit; limit on total_bytes()
  std::size_t get_limit() const;

  /// Walks every segment and cross-checks all bookkeeping; "" when consistent, else what is wrong.
  std::string check_invariants() const;

private:
  /// A piece of a segment; neighbours are linked in address order and never across segments.
  struct chunk {
    std::uintptr_t addr;
    std::size_t size;
    std::uintptr_t stream;
    chunk* prev;
    chunk* next;
    bool free;
    bool cached = false;  ///< freed, waiting unmerged in quick_ (Note [pool quick list]); still in live_
  };

  /// Free-set entry; size first so that lower_bound gives the best fit, address breaks ties.
  struct free_key {
    std::size_t size;
    std::uintptr_t addr;
    chunk* c;
    bool operator<(const free_key& o) const noexcept { return size != o.size ? size < o.size : addr < o.addr; }
  };
  using free_set = std::set<free_key>;

  static free_key key_of(chunk* c) noexcept { return free_key{c->size, c->addr, c}; }

  chunk* new_chunk();
  void recycle(chunk* c) noexcept;
  void trim_spares() noexcept;
  bool over_limit(std::size_t size) const noexcept;
  void* take_free_chunk(free_set& set, free_set::iterator it, std::size_t size);
  void* take_new_segment(std::size_t size, std::uintptr_t stream);
  void release_chunk(chunk* c);  // a freed chunk into its stream's free set, merged with free neighbours
  void flush_quick();            // every cached chunk through release_chunk
  void flush_quick() const { const_cast<pool_core*>(this)->flush_quick(); }  // observers see merged state
  void release_free_segments(const std::uintptr_t* only_stream);

  raw_backend* backend_;
  mutable pool_mutex mutex_;  // Note [pool lock]
  using live_map = std::unordered_map<std::uintptr_t, chunk*>;
  void track_live(chunk* c);  // live_.emplace without a heap allocation when a spare node is at hand

  live_map live_;                                 // by address
  std::vector<live_map::node_type> spare_nodes_;  // erased nodes of live_, reused (capacity fixed)
  // Free sets by stream: a few streams at most in practice, so a linear search beats hashing.
  std::vector<std::pair<std::uintptr_t, free_set>> free_;
  free_set* find_free(std::uintptr_t stream) noexcept;
  const free_set* find_free(std::uintptr_t stream) const noexcept;
  free_set& free_of(std::uintptr_t stream);  // made on first use (may throw bad_alloc then)
  chunk* spare_ = nullptr;                   // recycled chunk records, linked through `next`
  std::vector<chunk*> quick_;                // Note [pool quick list]; capacity reserved
  std::size_t used_ = 0;
  std::size_t total_ = 0;
  std::size_t n_free_ = 0;
  std::size_t n_segments_ = 0;
  std::size_t limit_ = 0;
};

}  // namespace cuarray::detail
