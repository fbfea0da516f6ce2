// Tests of the best-fit pool algorithm over a fake raw allocator that hands out addresses never touched.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/memory/pool_core.hpp"

namespace {

using cuarray::out_of_memory_error;
using cuarray::detail::pool_core;
using cuarray::detail::raw_backend;

constexpr std::uintptr_t stream_a = 1;
constexpr std::uintptr_t stream_b = 2;

/// Fake allocator: disjoint fake addresses, a capacity, and a record of every call to catch bad frees.
class fake_backend : public raw_backend {
public:
  explicit fake_backend(std::size_t capacity = std::numeric_limits<std::size_t>::max()) : capacity_(capacity) {}

  ~fake_backend() override { EXPECT_EQ(bad_frees_, 0u) << first_error_; }

  void* raw_alloc(std::size_t bytes) override {
    std::lock_guard lock(mutex_);
    ++n_alloc_calls_;
    if (bytes > capacity_ - in_use_) {
      ++n_failed_allocs_;
      return nullptr;
    }
    const std::uintptr_t addr = next_addr_;
    // A gap between segments keeps a merge across segments from ever looking contiguous.
    next_addr_ += bytes + 4096;
    segments_.emplace(addr, bytes);
    in_use_ += bytes;
    last_addr_ = addr;
    return reinterpret_cast<void*>(addr);
  }

  void raw_free(void* ptr, std::size_t bytes) override {
    std::lock_guard lock(mutex_);
    ++n_free_calls_;
    auto it = segments_.find(reinterpret_cast<std::uintptr_t>(ptr));
    if (it == segments_.end() || it->second != bytes) {
      if (bad_frees_++ == 0)
        first_error_ = "bad raw_free of " + std::to_string(reinterpret_cast<std::uintptr_t>(ptr)) + " (" +
                       std::to_string(bytes) + " bytes)";
      return;
    }
    in_use_ -= bytes;
    segments_.erase(it);
  }

  void set_capacity(std::size_t c) {
    std::lock_guard lock(mutex_);
    capacity_ = c;
  }
  std::size_t in_use() const {
    std::lock_guard lock(mutex_);
    return in_use_;
  }
  std::size_t n_segments() const {
    std::lock_guard lock(mutex_);
    return segments_.size();
  }
  std::size_t n_alloc_calls() const { return n_alloc_calls_; }
  std::size_t n_successful_allocs() const { return n_alloc_calls_ - n_failed_allocs_; }
  std::size_t n_failed_allocs() const { return n_failed_allocs_; }
  std::size_t n_free_calls() const { return n_free_calls_; }
  std::uintptr_t last_addr() const { return last_addr_; }
  /// Whether [addr, addr + size) lies inside one segment currently handed out; its base in *base.
  bool contains(std::uintptr_t addr, std::size_t size, std::uintptr_t* base = nullptr) const {
    std::lock_guard lock(mutex_);
    auto it = segments_.upper_bound(addr);
    if (it == segments_.begin()) return false;
    --it;
    if (base != nullptr) *base = it->first;
    return addr + size <= it->first + it->second;
  }

private:
  mutable std::mutex mutex_;
  std::size_t capacity_;
  std::size_t in_use_ = 0;
  std::uintptr_t next_addr_ = 0x10000000;
  std::uintptr_t last_addr_ = 0;
  std::map<std::uintptr_t, std::size_t> segments_;
  std::atomic<std::size_t> n_alloc_calls_{0}, n_failed_allocs_{0}, n_free_calls_{0};
  std::size_t bad_frees_ = 0;
  std::string first_error_;
};

std::uintptr_t addr_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// memory_pool sizes its storage with rounded() instead of asking the pool (one lock less per allocation).
TEST(PoolCore, ChunkSizeIsTheRoundedRequestAfterSplitsAndReuse) {
  fake_backend backend;
  pool_core pool(&backend);
  void* big = pool.allocate(8192, stream_a);
  pool.deallocate(big);
  std::vector<void*> live;
  for (std::size_t n : {1u, 511u, 512u, 513u, 1500u, 3000u}) {
    live.push_back(pool.allocate(n, stream_a));  // carved out of the freed 8 KiB segment where it fits
    EXPECT_EQ(pool.allocation_size(live.back()), pool_core::rounded(n)) << n;
  }
  EXPECT_EQ(pool_core::rounded(1), 512u);
  EXPECT_EQ(pool_core::rounded(1024), 1024u);
  for (void* p : live) pool.deallocate(p);
  pool.free_all_blocks();
  EXPECT_EQ(backend.in_use(), 0u);
}

TEST(PoolCore, RoundsRequestsUpTo512) {
  fake_backend backend;
  pool_core pool(&backend);
  void* a = pool.allocate(1, stream_a);
  void* b = pool.allocate(512, stream_a);
  void* c = pool.allocate(513, stream_a);
  EXPECT_EQ(pool.allocation_size(a), 512u);
  EXPECT_EQ(pool.allocation_size(b), 512u);
  EXPECT_EQ(pool.allocation_size(c), 1024u);
  EXPECT_EQ(addr_of(a) % pool_core::rounding, 0u);
  EXPECT_EQ(pool.used_bytes(), 2048u);
  EXPECT_EQ(pool.total_bytes(), 2048u);
  EXPECT_EQ(backend.in_use(), 2048u);
  for (void* p : {a, b, c}) pool.deallocate(p);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, AllocateZeroBytesThrowsInvalidArgument) {
  fake_backend backend;
  pool_core pool(&backend);
  EXPECT_THROW(pool.allocate(0, stream_a), std::invalid_argument);
  EXPECT_EQ(backend.n_alloc_calls(), 0u);
}

TEST(PoolCore, HugeRequestThrowsOutOfMemoryInsteadOfOverflowing) {
  fake_backend backend;
  pool_core pool(&backend);
  EXPECT_THROW(pool.allocate(std::numeric_limits<std::size_t>::max() - 10, stream_a), out_of_memory_error);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, ReusesFreedChunkOnSameStream) {
  fake_backend backend;
  pool_core pool(&backend);
  void* p = pool.allocate(1000, stream_a);
  pool.deallocate(p);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  void* q = pool.allocate(1000, stream_a);
  EXPECT_EQ(q, p);
  pool.deallocate(q);
  void* r = pool.allocate(600, stream_a);  // a different request with the same rounded size
  EXPECT_EQ(r, p);
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  pool.deallocate(r);
}

TEST(PoolCore, DoesNotReuseAcrossStreams) {
  fake_backend backend;
  pool_core pool(&backend);
  void* p = pool.allocate(1024, stream_a);
  pool.deallocate(p);
  void* q = pool.allocate(1024, stream_b);
  EXPECT_NE(q, p);
  EXPECT_EQ(backend.n_alloc_calls(), 2u);
  EXPECT_EQ(pool.total_bytes(), 2048u);
  EXPECT_EQ(pool.used_bytes(), 1024u);
  pool.deallocate(q);
  // Each stream gets its own block back.
  EXPECT_EQ(pool.allocate(1024, stream_a), p);
  EXPECT_EQ(pool.allocate(1024, stream_b), q);
  EXPECT_EQ(backend.n_alloc_calls(), 2u);
  pool.deallocate(p);
  pool.deallocate(q);
}

TEST(PoolCore, BestFitChoosesSmallestSufficientChunk) {
  fake_backend backend;
  pool_core pool(&backend);
  void* big = pool.allocate(4096, stream_a);
  void* small = pool.allocate(1024, stream_a);
  void* mid = pool.allocate(2048, stream_a);
  for (void* p : {big, small, mid}) pool.deallocate(p);
  ASSERT_EQ(pool.n_free_blocks(), 3u);
  // 1536 bytes: the 2048 chunk is the smallest that fits (not the first freed, not the largest).
  EXPECT_EQ(pool.allocate(1500, stream_a), mid);
  // 900 -> 1024: the 512 left of the 2048 chunk is too small, the 1024 chunk fits exactly.
  EXPECT_EQ(pool.allocate(900, stream_a), small);
  EXPECT_EQ(pool.allocate(3000, stream_a), big);
  EXPECT_EQ(backend.n_alloc_calls(), 3u);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, EqualSizeFreeChunksAreChosenByLowestAddress) {
  fake_backend backend;
  pool_core pool(&backend);
  void* a = pool.allocate(1024, stream_a);
  void* b = pool.allocate(1024, stream_a);
  pool.deallocate(b);
  pool.deallocate(a);
  EXPECT_EQ(pool.allocate(1024, stream_a), std::min(a, b, [](void* x, void* y) { return addr_of(x) < addr_of(y); }));
}

TEST(PoolCore, SplitsLargeChunkWithoutNewRawAllocation) {
  fake_backend backend;
  pool_core pool(&backend);
  void* p = pool.allocate(4096, stream_a);
  pool.deallocate(p);
  void* a = pool.allocate(1024, stream_a);
  void* b = pool.allocate(512, stream_a);
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  EXPECT_EQ(a, p);  // the front of the chunk is handed out, the tail stays free
  EXPECT_EQ(addr_of(b), addr_of(p) + 1024);
  for (void* x : {a, b}) {
    EXPECT_GE(addr_of(x), addr_of(p));
    EXPECT_LE(addr_of(x) + pool.allocation_size(x), addr_of(p) + 4096);
  }
  EXPECT_EQ(pool.allocation_size(a), 1024u);
  EXPECT_EQ(pool.allocation_size(b), 512u);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.free_bytes(), 4096u - 1536u);
  EXPECT_EQ(pool.total_bytes(), 4096u);
  EXPECT_EQ(pool.check_invariants(), "");
  pool.deallocate(a);
  pool.deallocate(b);
}

TEST(PoolCore, MergesFreedNeighboursBackIntoOneChunk) {
  fake_backend backend;
  pool_core pool(&backend);
  void* p = pool.allocate(4096, stream_a);
  pool.deallocate(p);
  void* a = pool.allocate(1024, stream_a);
  void* b = pool.allocate(1024, stream_a);
  void* c = pool.allocate(1024, stream_a);
  void* d = pool.allocate(1024, stream_a);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  pool.deallocate(a);
  pool.deallocate(c);
  EXPECT_EQ(pool.n_free_blocks(), 2u);  // a and c are not adjacent
  pool.deallocate(b);                   // joins a, b and c
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.check_invariants(), "");
  // The merged 3072 chunk serves a 3072 request without splitting.
  void* e = pool.allocate(3072, stream_a);
  EXPECT_EQ(e, p);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  pool.deallocate(e);
  pool.deallocate(d);  // merges with its free predecessor
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  void* whole = pool.allocate(4096, stream_a);
  EXPECT_EQ(whole, p);
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  pool.deallocate(whole);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, MergesWithFollowingNeighbourOnly) {
  fake_backend backend;
  pool_core pool(&backend);
  void* p = pool.allocate(2048, stream_a);
  pool.deallocate(p);
  void* a = pool.allocate(1024, stream_a);
  void* b = pool.allocate(1024, stream_a);
  pool.deallocate(b);
  pool.deallocate(a);  // a's successor is free
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.allocate(2048, stream_a), p);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, StatisticsFollowVariedWorkloadAndReturnToBaseline) {
  fake_backend backend;
  pool_core pool(&backend);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(pool.free_bytes(), 0u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);

  void* a = pool.allocate(10000, stream_a);  // 10240
  void* b = pool.allocate(100, stream_a);    // 512
  void* c = pool.allocate(3000, stream_b);   // 3072
  EXPECT_EQ(pool.used_bytes(), 10240u + 512u + 3072u);
  EXPECT_EQ(pool.total_bytes(), 10240u + 512u + 3072u);
  EXPECT_EQ(pool.free_bytes(), 0u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);

  pool.deallocate(a);
  EXPECT_EQ(pool.used_bytes(), 512u + 3072u);
  EXPECT_EQ(pool.free_bytes(), 10240u);
  EXPECT_EQ(pool.n_free_blocks(), 1u);

  void* d = pool.allocate(2048, stream_a);  // split from a's chunk
  void* e = pool.allocate(2048, stream_a);
  EXPECT_EQ(pool.used_bytes(), 512u + 3072u + 4096u);
  EXPECT_EQ(pool.total_bytes(), 10240u + 512u + 3072u);
  EXPECT_EQ(pool.free_bytes(), 10240u - 4096u);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.used_bytes() + pool.free_bytes(), pool.total_bytes());
  EXPECT_EQ(pool.check_invariants(), "");

  pool.deallocate(d);
  EXPECT_EQ(pool.n_free_blocks(), 2u);  // d is not next to the tail (e is between)
  for (void* p : {b, c, e}) pool.deallocate(p);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.free_bytes(), pool.total_bytes());
  EXPECT_EQ(pool.n_free_blocks(), 3u);  // one whole chunk per segment
  EXPECT_EQ(pool.n_segments(), 3u);
  EXPECT_EQ(pool.total_bytes(), backend.in_use());
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(backend.in_use(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, FreeAllBlocksReleasesOnlyWhollyFreeSegments) {
  fake_backend backend;
  pool_core pool(&backend);
  void* seg1 = pool.allocate(4096, stream_a);
  void* seg2 = pool.allocate(2048, stream_a);
  pool.deallocate(seg1);
  pool.deallocate(seg2);
  void* keep = pool.allocate(3072, stream_a);  // only seg1 fits, and is now only partly free
  EXPECT_EQ(keep, seg1);
  pool.free_all_blocks();
  EXPECT_EQ(backend.n_free_calls(), 1u);
  EXPECT_EQ(pool.total_bytes(), 4096u);
  EXPECT_EQ(backend.in_use(), 4096u);
  EXPECT_EQ(pool.n_free_blocks(), 1u);  // the tail of seg1 stays cached
  EXPECT_FALSE(backend.contains(addr_of(seg2), 2048));
  EXPECT_EQ(pool.check_invariants(), "");
  pool.deallocate(keep);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(backend.in_use(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, FreeAllBlocksForStreamReleasesOnlyThatStream) {
  fake_backend backend;
  pool_core pool(&backend);
  void* a = pool.allocate(2048, stream_a);
  void* b = pool.allocate(1024, stream_b);
  void* a_live = pool.allocate(512, stream_a);
  pool.deallocate(a);
  pool.deallocate(b);
  pool.free_all_blocks(stream_a);
  EXPECT_EQ(pool.total_bytes(), 1024u + 512u);  // stream b's block and stream a's live one remain
  EXPECT_TRUE(backend.contains(addr_of(b), 1024));
  EXPECT_FALSE(backend.contains(addr_of(a), 2048));
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  pool.free_all_blocks(3);  // a stream the pool has never seen
  EXPECT_EQ(pool.total_bytes(), 1024u + 512u);
  pool.free_all_blocks(stream_b);
  EXPECT_EQ(pool.total_bytes(), 512u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
  pool.deallocate(a_live);
}

TEST(PoolCore, AllocationOverLimitThrowsWithFieldsAndPoolStaysConsistent) {
  fake_backend backend;
  pool_core pool(&backend);
  pool.set_limit(8192);
  EXPECT_EQ(pool.get_limit(), 8192u);
  void* live = pool.allocate(4096, stream_a);
  void* cached = pool.allocate(2048, stream_b);
  pool.deallocate(cached);
  try {
    pool.allocate(6000, stream_a);  // 6144: over the limit even after dropping the cached 2048
    FAIL() << "expected out_of_memory_error";
  } catch (const out_of_memory_error& e) {
    EXPECT_EQ(e.requested, 6144u);
    EXPECT_EQ(e.used, 4096u);
    EXPECT_EQ(e.total, 4096u);  // the cached block was given back before giving up
    EXPECT_EQ(e.limit, 8192u);
    EXPECT_NE(std::string(e.what()).find("6,144"), std::string::npos);
  }
  EXPECT_EQ(pool.check_invariants(), "");
  EXPECT_EQ(pool.used_bytes(), 4096u);
  EXPECT_EQ(pool.total_bytes(), backend.in_use());
  EXPECT_EQ(pool.allocation_size(live), 4096u);
  void* fits = pool.allocate(4096, stream_a);  // exactly up to the limit
  EXPECT_EQ(pool.total_bytes(), 8192u);
  pool.deallocate(fits);
  pool.deallocate(live);
  pool.set_limit(0);
  EXPECT_EQ(pool.get_limit(), 0u);
  void* unlimited = pool.allocate(1 << 20, stream_a);
  pool.deallocate(unlimited);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCore, LimitReleasesCachedBlocksBeforeFailing) {
  fake_backend backend;
  pool_core pool(&backend);
  pool.set_limit(8192);
  void* live = pool.allocate(4096, stream_a);
  void* cached = pool.allocate(2048, stream_b);
  pool.deallocate(cached);
  void* p = pool.allocate(4096, stream_a);  // needs the cached stream-b block to go back
  EXPECT_EQ(pool.total_bytes(), 8192u);
  EXPECT_EQ(backend.in_use(), 8192u);
  EXPECT_FALSE(backend.contains(addr_of(cached), 2048));
  pool.deallocate(p);
  pool.deallocate(live);
}

TEST(PoolCore, BackendExhaustionRetriesAfterFreeingCachedBlocks) {
  fake_backend backend(8192);
  pool_core pool(&backend);
  void* live = pool.allocate(4096, stream_a);
  void* cached = pool.allocate(4096, stream_b);
  pool.deallocate(cached);
  // Stream a cannot reuse stream b's block, and the device is full until that block is given back.
  void* p = pool.allocate(4096, stream_a);
  EXPECT_EQ(backend.n_failed_allocs(), 1u);
  EXPECT_EQ(backend.n_free_calls(), 1u);
  EXPECT_EQ(pool.total_bytes(), 8192u);
  EXPECT_EQ(pool.used_bytes(), 8192u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
  pool.deallocate(p);
  pool.deallocate(live);
}

TEST(PoolCore, BackendExhaustionThrowsWhenNothingCanBeFreed) {
  fake_backend backend(4096);
  pool_core pool(&backend);
  void* live = pool.allocate(4096, stream_a);
  try {
    pool.allocate(100, stream_b);
    FAIL() << "expected out_of_memory_error";
  } catch (const out_of_memory_error& e) {
    EXPECT_EQ(e.requested, 512u);
    EXPECT_EQ(e.used, 4096u);
    EXPECT_EQ(e.total, 4096u);
    EXPECT_EQ(e.limit, 0u);
  }
  EXPECT_EQ(backend.n_failed_allocs(), 2u);  // first try and the retry
  EXPECT_EQ(pool.check_invariants(), "");
  EXPECT_EQ(pool.used_bytes(), 4096u);
  pool.deallocate(live);
  void* p = pool.allocate(100, stream_a);  // reuses the freed segment by splitting it
  EXPECT_EQ(p, live);
  pool.deallocate(p);
}

TEST(PoolCore, DeallocateOfUnknownPointerThrowsInvalidArgument) {
  fake_backend backend;
  pool_core pool(&backend);
  int not_from_pool = 0;
  EXPECT_THROW(pool.deallocate(&not_from_pool), std::invalid_argument);
  EXPECT_THROW(pool.deallocate(nullptr), std::invalid_argument);
  void* p = pool.allocate(4096, stream_a);
  // An interior pointer is not an allocation.
  EXPECT_THROW(pool.deallocate(static_cast<char*>(p) + 512), std::invalid_argument);
  pool.deallocate(p);
  EXPECT_THROW(pool.deallocate(p), std::invalid_argument);  // double free
  void* a = pool.allocate(1024, stream_a);
  void* free_tail = static_cast<char*>(a) + 1024;  // start of a free chunk, still not an allocation
  EXPECT_THROW(pool.deallocate(free_tail), std::invalid_argument);
  EXPECT_EQ(pool.allocation_size(free_tail), 0u);
  EXPECT_EQ(pool.allocation_size(&not_from_pool), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
  EXPECT_EQ(pool.used_bytes(), 1024u);
  pool.deallocate(a);
}

TEST(PoolCore, DestructorReturnsOnlyWhollyFreeSegments) {
  fake_backend backend;
  {
    pool_core pool(&backend);
    void* free_seg = pool.allocate(2048, stream_a);
    pool.allocate(1024, stream_b);  // never freed: its segment must stay with the backend
    void* split_seg = pool.allocate(4096, stream_a);
    pool.deallocate(free_seg);
    pool.deallocate(split_seg);
    pool.allocate(3072, stream_a);  // only split_seg fits: it stays partly in use
  }
  EXPECT_EQ(backend.n_segments(), 2u);
  EXPECT_EQ(backend.in_use(), 1024u + 4096u);
}

TEST(PoolCore, ConcurrentStreamsStressEndsWithNoBytesInUse) {
  fake_backend backend;
  pool_core pool(&backend);
  constexpr int n_threads = 4;
  constexpr int n_ops = 5000;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < n_threads; ++t) {
    threads.emplace_back([&pool, &failures, t] {
      const auto stream = static_cast<std::uintptr_t>(100 + t);
      std::mt19937_64 rng(1234 + t);
      std::vector<std::pair<void*, std::size_t>> live;
      for (int i = 0; i < n_ops; ++i) {
        const bool do_alloc = live.empty() || (live.size() < 64 && rng() % 100 < 55);
        if (do_alloc) {
          // Mostly small requests with an occasional large one, as array workloads look.
          const std::size_t bytes = rng() % 10 == 0 ? 1 + rng() % (1 << 20) : 1 + rng() % 8192;
          void* p = pool.allocate(bytes, stream);
          const std::size_t rounded = (bytes + 511) / 512 * 512;
          if (pool.allocation_size(p) != rounded) ++failures;
          live.emplace_back(p, rounded);
        } else {
          const std::size_t k = rng() % live.size();
          if (pool.allocation_size(live[k].first) != live[k].second) ++failures;
          pool.deallocate(live[k].first);
          live[k] = live.back();
          live.pop_back();
        }
        if (i % 1000 == 999 && t == 0) pool.free_all_blocks(stream);
        if (i % 1500 == 1499 && t == 1) pool.free_all_blocks();
      }
      for (auto& [p, size] : live) pool.deallocate(p);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.total_bytes(), backend.in_use());
  EXPECT_EQ(pool.free_bytes(), pool.total_bytes());
  EXPECT_EQ(pool.n_free_blocks(), pool.n_segments());  // every segment merged back into one chunk
  EXPECT_EQ(pool.check_invariants(), "");
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(backend.in_use(), 0u);
}

// Note [pool lock]: the pool's own lock. Increments of a plain counter under it from several threads must all
// land (mutual exclusion), and threads that found it held long enough to sleep must all be woken.
TEST(PoolMutex, ExcludesAndWakesSleepingWaiters) {
  cuarray::detail::pool_mutex m;
  long counter = 0;  // not atomic: only the lock orders the increments
  constexpr int n_threads = 6;
  constexpr int n_ops = 20000;
  {
    std::vector<std::thread> threads;
    for (int t = 0; t < n_threads; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < n_ops; ++i) {
          std::lock_guard<cuarray::detail::pool_mutex> lock(m);
          ++counter;
        }
      });
    }
    for (auto& th : threads) th.join();
  }
  EXPECT_EQ(counter, long{n_threads} * n_ops);

  // Held for a while: the waiters spin out and sleep in the futex; the release must wake each of them in turn.
  std::atomic<int> done{0};
  m.lock();
  std::vector<std::thread> waiters;
  for (int t = 0; t < n_threads; ++t) {
    waiters.emplace_back([&] {
      std::lock_guard<cuarray::detail::pool_mutex> lock(m);
      ++counter;
      done.fetch_add(1);
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(done.load(), 0);
  m.unlock();
  for (auto& th : waiters) th.join();
  EXPECT_EQ(done.load(), n_threads);
  EXPECT_EQ(counter, long{n_threads} * n_ops + n_threads);
}

TEST(PoolCore, RandomizedOperationsMatchReferenceModel) {
  fake_backend backend(4 << 20);  // small enough that exhaustion and the retry path are hit
  pool_core pool(&backend);
  struct live_alloc {
    std::size_t size;
    std::uintptr_t stream;
  };
  std::map<std::uintptr_t, live_alloc> model;              // live allocations by address
  std::map<std::uintptr_t, std::uintptr_t> segment_owner;  // segment base -> stream that created it
  std::size_t model_used = 0;
  std::size_t n_oom = 0;
  std::mt19937_64 rng(42);

  for (int i = 0; i < 20000; ++i) {
    const unsigned op = rng() % 100;
    if (op < 50 || model.empty()) {
      const std::uintptr_t stream = rng() % 3;
      const std::size_t bytes = rng() % 8 == 0 ? 1 + rng() % (1 << 20) : 1 + rng() % 16384;
      const std::size_t rounded = (bytes + 511) / 512 * 512;
      const std::size_t segments_before = backend.n_successful_allocs();
      void* p = nullptr;
      try {
        p = pool.allocate(bytes, stream);
      } catch (const out_of_memory_error& e) {
        ++n_oom;
        EXPECT_EQ(e.requested, rounded);
        EXPECT_EQ(e.used, model_used);
        EXPECT_EQ(pool.used_bytes(), model_used);
        ASSERT_EQ(pool.check_invariants(), "") << "after OOM at op " << i;
        continue;
      }
      const auto addr = addr_of(p);
      if (backend.n_successful_allocs() != segments_before) segment_owner[backend.last_addr()] = stream;
      ASSERT_EQ(addr % 512, 0u);
      ASSERT_EQ(pool.allocation_size(p), rounded);
      std::uintptr_t base = 0;
      ASSERT_TRUE(backend.contains(addr, rounded, &base)) << "allocation outside any held segment";
      ASSERT_EQ(segment_owner.at(base), stream) << "chunk reused across streams";
      // No overlap with the live neighbours on either side.
      auto next = model.lower_bound(addr);
      if (next != model.end()) {
        ASSERT_LE(addr + rounded, next->first);
      }
      if (next != model.begin()) {
        auto prev = std::prev(next);
        ASSERT_LE(prev->first + prev->second.size, addr);
      }
      model.emplace(addr, live_alloc{rounded, stream});
      model_used += rounded;
    } else if (op < 95) {
      auto it = std::next(model.begin(), static_cast<long>(rng() % model.size()));
      ASSERT_EQ(pool.allocation_size(reinterpret_cast<void*>(it->first)), it->second.size);
      pool.deallocate(reinterpret_cast<void*>(it->first));
      model_used -= it->second.size;
      model.erase(it);
    } else if (op < 97) {
      pool.free_all_blocks(rng() % 3);
    } else if (op < 98) {
      pool.free_all_blocks();
    } else {
      pool.set_limit(rng() % 2 == 0 ? 0 : (2 + rng() % 4) << 20);
    }
    // Forget owners of segments the pool gave back, so a reused base address is learned afresh.
    for (auto it = segment_owner.begin(); it != segment_owner.end();)
      it = backend.contains(it->first, 1) ? std::next(it) : segment_owner.erase(it);
    ASSERT_EQ(pool.used_bytes(), model_used) << "op " << i;
    ASSERT_EQ(pool.total_bytes(), backend.in_use()) << "op " << i;
    ASSERT_EQ(pool.free_bytes(), pool.total_bytes() - model_used);
    if (i % 97 == 0) {
      ASSERT_EQ(pool.check_invariants(), "") << "op " << i;
    }
  }
  EXPECT_GT(n_oom, 0u) << "the workload should have exercised out-of-memory";
  for (auto& [addr, a] : model) pool.deallocate(reinterpret_cast<void*>(addr));
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
  pool.free_all_blocks();
  EXPECT_EQ(backend.in_use(), 0u);
}

}  // namespace

namespace {

// Note [pool quick list]: freed small chunks are parked unmerged and taken back by an allocation of their
// exact size on their stream; every observer sees the merged state.
TEST(PoolCoreQuickList, SameSizeOnSameStreamGetsTheParkedChunkBack) {
  fake_backend backend;
  pool_core pool(&backend);
  void* a = pool.allocate(1000, stream_a);
  void* b = pool.allocate(1000, stream_a);
  pool.deallocate(a);
  EXPECT_EQ(pool.used_bytes(), 1024u);
  EXPECT_EQ(pool.free_bytes(), 1024u);
  EXPECT_EQ(pool.allocation_size(a), 0u);                   // freed, though parked
  EXPECT_THROW(pool.deallocate(a), std::invalid_argument);  // a double free is still caught
  void* again = pool.allocate(1024, stream_a);
  EXPECT_EQ(again, a);
  EXPECT_EQ(pool.used_bytes(), 2048u);
  EXPECT_EQ(pool.allocation_size(again), 1024u);
  EXPECT_EQ(backend.n_alloc_calls(), 2u);
  EXPECT_EQ(pool.check_invariants(), "");
  pool.deallocate(again);
  pool.deallocate(b);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCoreQuickList, OtherStreamsAndSizesDoNotTakeAParkedChunk) {
  fake_backend backend;
  pool_core pool(&backend);
  void* a = pool.allocate(512, stream_a);
  pool.deallocate(a);
  void* b = pool.allocate(512, stream_b);  // not stream_a's block: a new segment
  EXPECT_NE(b, a);
  EXPECT_EQ(backend.n_alloc_calls(), 2u);
  pool.deallocate(b);
  void* c = pool.allocate(1024, stream_a);  // no parked chunk of this size; nothing free fits: a new segment
  EXPECT_EQ(backend.n_alloc_calls(), 3u);
  EXPECT_EQ(pool.n_free_blocks(), 2u);  // a and b, released into their free sets
  pool.deallocate(c);
  EXPECT_EQ(pool.check_invariants(), "");
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(backend.n_free_calls(), 3u);
}

TEST(PoolCoreQuickList, ParkedChunksMergeBeforeANewSegmentIsTaken) {
  fake_backend backend;
  pool_core pool(&backend);
  void* whole = pool.allocate(8192, stream_a);
  pool.deallocate(whole);
  void* a = pool.allocate(4096, stream_a);  // the parked 8 KiB chunk is released and split: no new segment
  void* b = pool.allocate(4096, stream_a);
  EXPECT_EQ(a, whole);
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  pool.deallocate(a);
  pool.deallocate(b);                   // both parked, unmerged
  EXPECT_EQ(pool.n_free_blocks(), 1u);  // the observer sees them merged back into one chunk
  void* again = pool.allocate(8192, stream_a);
  EXPECT_EQ(again, whole);
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  pool.deallocate(again);
  EXPECT_EQ(pool.check_invariants(), "");
}

TEST(PoolCoreQuickList, LargeChunksAndOverflowTakeTheOrdinaryPath) {
  fake_backend backend;
  pool_core pool(&backend);
  void* big = pool.allocate(pool_core::quick_max_size + pool_core::rounding, stream_a);
  pool.deallocate(big);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  std::vector<void*> live;
  for (std::size_t k = 0; k < pool_core::quick_capacity + 8; ++k) live.push_back(pool.allocate(512, stream_a));
  for (void* p : live) pool.deallocate(p);  // the first quick_capacity park, the rest are freed at once
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.check_invariants(), "");
  EXPECT_EQ(pool.n_free_blocks(), 1u);  // everything merged back into the one segment
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
}

TEST(PoolCoreQuickList, LimitCountsParkedChunksAsFree) {
  fake_backend backend;
  pool_core pool(&backend);
  pool.set_limit(4096);
  void* a = pool.allocate(4096, stream_a);
  pool.deallocate(a);                       // parked
  void* b = pool.allocate(2048, stream_a);  // within the limit: served from the parked segment
  void* c = pool.allocate(2048, stream_a);
  EXPECT_EQ(backend.n_alloc_calls(), 1u);
  EXPECT_THROW(pool.allocate(512, stream_a), out_of_memory_error);
  pool.deallocate(b);
  pool.deallocate(c);
  EXPECT_EQ(pool.check_invariants(), "");
}

}  // namespace
