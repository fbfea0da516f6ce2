// The engines' in-memory kernel cache: a packed POD key to a loaded CUfunction, per-thread fronts over one map.
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace cuarray::jit {

// Note [kernel lookup]
// Every engine (elementwise, reduction) finds its ready kernels through one kernel_cache<Key>: the key is a
// packed POD holding every input of the engine's code generator (or an id standing for them) and the
// device, so a warm call hashes a few words and compares them with memcmp; no string is built. Three levels:
//  1. a per-thread direct-mapped table of `front_slots` entries: one hash, one key comparison;
//  2. a per-thread hash map of every kernel this thread has used;
//  3. one process-wide map under a mutex, filled on a miss.
// A miss compiles outside the lock (through compile_cached, whose memory and disk levels sit below this
// cache, Note [kernel cache]); two threads missing the same key at once may both compile, and the first
// function stored wins: both are loads of the same code, so either is correct. Entries are never evicted
// (a loaded module stays loaded for the process). The source text is generated only on a miss, so the key
// must determine it completely: each engine lists its generator's inputs next to its key struct.

/// Hash of a POD key a 64-bit word at a time. Keys are zero-filled (memset) before they are set, so any
/// tail bytes are zero and two equal keys hash and compare equal.
template <class Key> struct pod_hash {
  static_assert(sizeof(Key) % 8 == 0, "a kernel key is hashed a word at a time");
  static_assert(std::is_trivially_copyable_v<Key>, "a kernel key is a POD");
  std::size_t operator()(const Key& k) const noexcept {
    std::uint64_t w[sizeof(Key) / 8];
    std::memcpy(w, &k, sizeof(Key));
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (std::uint64_t x : w) h = (h ^ x) * 0xff51afd7ed558ccdull, h ^= h >> 32;
    return static_cast<std::size_t>(h);
  }
};

/// Byte equality of two POD keys.
template <class Key> struct pod_equal {
  bool operator()(const Key& a, const Key& b) const noexcept { return std::memcmp(&a, &b, sizeof(Key)) == 0; }
};

/// Counts since the process started: lookups answered from memory, and lookups that compiled or loaded.
struct kernel_cache_stats {
  std::size_t hits = 0, misses = 0;
};

/// One engine's kernel cache (Note [kernel lookup]). The per-thread levels belong to the type, so each
/// (Key, Tag) pair must have a single instance: give each engine its own key type or tag.
template <class Key, class Tag = Key> class kernel_cache {
public:
  kernel_cache() = default;
  kernel_cache(const kernel_cache&) = delete;
  kernel_cache& operator=(const kernel_cache&) = delete;

  /// The function for `key`; on a miss, `make()` (returning a CUfunction) generates, compiles and loads it.
  template <class Make> CUfunction get(const Key& key, Make&& make) {
    const std::size_t h = pod_hash<Key>{}(key);
    front_entry& front = front_[h % front_slots];
    if (front.f && pod_equal<Key>{}(front.key, key)) {
      count_hit();
      return front.f;
    }
    return get_slow(key, front, std::forward<Make>(make));
  }

  kernel_cache_stats stats() const { return kernel_cache_stats{hits_.load(), misses_.load()}; }

private:
  using map_t = std::unordered_map<Key, CUfunction, pod_hash<Key>, pod_equal<Key>>;
  struct front_entry {
    Key key;
    CUfunction f;  ///< null: an empty slot
  };
  static constexpr std::size_t front_slots = 32;

  // Zero-initialised and trivially constructible: a thread's first access needs no initialisation guard.
  inline static thread_local front_entry front_[front_slots] = {};

  static map_t& local_map() {
    thread_local map_t m;
    return m;
  }

  void count_hit() {
    // Statistics only: a plain relaxed increment, not a locked read-modify-write on every launch (a count
    // may be lost when threads race).
    hits_.store(hits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  template <class Make> CUfunction get_slow(const Key& key, front_entry& front, Make&& make) {
    map_t& local = local_map();
    auto it = local.find(key);
    if (it != local.end()) {
      count_hit();
      front = front_entry{key, it->second};
      return it->second;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto git = shared_.find(key);
      if (git != shared_.end()) {
        hits_.fetch_add(1, std::memory_order_relaxed);
        local.emplace(key, git->second);
        front = front_entry{key, git->second};
        return git->second;
      }
    }
    misses_.fetch_add(1, std::memory_order_relaxed);
    CUfunction f = make();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      f = shared_.emplace(key, f).first->second;  // a racing thread's equal function may already be there
    }
    local.emplace(key, f);
    front = front_entry{key, f};
    return f;
  }

  std::mutex mutex_;
  map_t shared_;
  std::atomic<std::size_t> hits_{0}, misses_{0};
};

}  // namespace cuarray::jit
