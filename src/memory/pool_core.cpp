// Best-fit memory pool algorithm: segments split into chunks, merged on free, cached per stream.
#include "src/memory/pool_core.hpp"

#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/errors.hpp"

namespace cuarray::detail {

namespace {
constexpr std::size_t max_spare_nodes = 64;
}

pool_core::pool_core(raw_backend* backend) : backend_(backend) {
  if (backend_ == nullptr) throw std::invalid_argument("pool_core: null backend");
  spare_nodes_.reserve(max_spare_nodes);
  quick_.reserve(quick_capacity);
}

// Note [pool quick list]: freeing a small chunk and allocating the same size again on the same stream is
// the steady state of small calls (`a + b` in a loop): a best-fit free costs a set insertion and merges
// with the neighbours, and the next allocation splits them again. Instead a freed chunk of up to
// quick_max_size bytes is parked, unmerged, in `quick_` (at most quick_capacity of them; it stays in the
// live map, marked `cached`, and its bytes no longer count as used), and an allocation of exactly its size
// on its stream takes it back: no set, no map, no heap. Anything that looks at the free structure first
// releases every parked chunk through the ordinary path (flush_quick): the statistics (n_free_blocks),
// free_all_blocks, check_invariants, and an allocation that finds no free chunk, before it would take a new
// segment. So the pool never grows, and never reports a state, because of parked chunks.

// Note [pool nodes]: an allocation and its free each cost a node of the live map; erased nodes are kept
// (up to max_spare_nodes, in a vector whose capacity is reserved, so keeping one never allocates) and
// reused, so that the steady state of allocate/free pairs touches the heap not at all.
pool_core::free_set* pool_core::find_free(std::uintptr_t stream) noexcept {
  for (auto& [s, set] : free_) {
    if (s == stream) return &set;
  }
  return nullptr;
}

const pool_core::free_set* pool_core::find_free(std::uintptr_t stream) const noexcept {
  return const_cast<pool_core*>(this)->find_free(stream);
}

pool_core::free_set& pool_core::free_of(std::uintptr_t stream) {
  if (free_set* set = find_free(stream)) return *set;
  return free_.emplace_back(stream, free_set()).second;
}

void pool_core::track_live(chunk* c) {
  if (spare_nodes_.empty()) {
    live_.emplace(c->addr, c);
    return;
  }
  live_map::node_type& node = spare_nodes_.back();
  node.key() = c->addr;
  node.mapped() = c;
  live_.insert(std::move(node));  // may throw on rehash; the node then stays with the handle
  spare_nodes_.pop_back();
}

pool_core::~pool_core() {
  // A failing raw_free must not escape a destructor; the segments it could not return are lost either way.
  try {
    flush_quick();
    release_free_segments(nullptr);
  } catch (...) {
  }
  // Live chunks' segments stay with the backend (their owners may still use them); only records go.
  for (auto& [addr, c] : live_) delete c;
  for (auto& [stream, set] : free_)
    for (const free_key& k : set) delete k.c;
  trim_spares();
}

pool_core::chunk* pool_core::new_chunk() {
  if (spare_ == nullptr) return new chunk{};
  chunk* c = spare_;
  spare_ = c->next;
  return c;
}

// Records are kept instead of deleted so that splitting on the hot path rarely touches the heap.
void pool_core::recycle(chunk* c) noexcept {
  c->next = spare_;
  spare_ = c;
}

void pool_core::trim_spares() noexcept {
  while (spare_ != nullptr) {
    chunk* c = spare_;
    spare_ = c->next;
    delete c;
  }
}

bool pool_core::over_limit(std::size_t size) const noexcept {
  // Written without total_ + size so that it cannot overflow.
  return limit_ != 0 && (total_ > limit_ || size > limit_ - total_);
}

void* pool_core::allocate(std::size_t bytes, std::uintptr_t stream) {
  if (bytes == 0) throw std::invalid_argument("pool_core::allocate: 0 bytes");
  std::lock_guard lock(mutex_);
  if (bytes > std::numeric_limits<std::size_t>::max() - (rounding - 1))
    throw out_of_memory_error(bytes, used_, total_, limit_);
  const std::size_t size = (bytes + rounding - 1) / rounding * rounding;
  if (size <= quick_max_size) {
    for (std::size_t k = quick_.size(); k-- > 0;) {  // the most recently freed first
      chunk* c = quick_[k];
      if (c->size != size || c->stream != stream) continue;
      quick_.erase(quick_.begin() + static_cast<std::ptrdiff_t>(k));
      c->cached = false;
      used_ += size;
      return reinterpret_cast<void*>(c->addr);
    }
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (free_set* found = find_free(stream)) {
      free_set& set = *found;
      auto it = set.lower_bound(free_key{size, 0, nullptr});
      if (it != set.end()) return take_free_chunk(set, it, size);
    }
    if (quick_.empty()) break;
    flush_quick();  // parked chunks may merge into a fit: look again before taking a new segment
  }
  return take_new_segment(size, stream);
}

void* pool_core::take_free_chunk(free_set& set, free_set::iterator it, std::size_t size) {
  chunk* c = it->c;
  // Everything that can throw comes before the first change, so a bad_alloc leaves the pool as it was.
  chunk* rest = c->size > size ? new_chunk() : nullptr;
  try {
    track_live(c);
  } catch (...) {
    if (rest != nullptr) recycle(rest);
    throw;
  }
  auto node = set.extract(it);
  c->free = false;
  if (rest != nullptr) {
    *rest = chunk{c->addr + size, c->size - size, c->stream, c, c->next, true};
    if (c->next != nullptr) c->next->prev = rest;
    c->next = rest;
    c->size = size;
    // The extracted node carries the remainder back in, so splitting allocates no set node.
    node.value() = key_of(rest);
    set.insert(std::move(node));
  } else {
    --n_free_;
  }
  used_ += size;
  return reinterpret_cast<void*>(c->addr);
}

void* pool_core::take_new_segment(std::size_t size, std::uintptr_t stream) {
  if (over_limit(size)) {
    release_free_segments(nullptr);
    if (over_limit(size)) throw out_of_memory_error(size, used_, total_, limit_);
  }
  void* p = backend_->raw_alloc(size);
  if (p == nullptr) {
    // Cached blocks of other streams may be what fills the device; give them back and try once more.
    release_free_segments(nullptr);
    p = backend_->raw_alloc(size);
    if (p == nullptr) throw out_of_memory_error(size, used_, total_, limit_);
  }
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  chunk* c = nullptr;
  try {
    c = new_chunk();
    *c = chunk{addr, size, stream, nullptr, nullptr, false};
    track_live(c);
  } catch (...) {
    if (c != nullptr) recycle(c);
    backend_->raw_free(p, size);
    throw;
  }
  total_ += size;
  used_ += size;
  ++n_segments_;
  return p;
}

void pool_core::deallocate(void* ptr) {
  std::lock_guard lock(mutex_);
  auto lit = live_.find(reinterpret_cast<std::uintptr_t>(ptr));
  if (lit == live_.end() || lit->second->cached)
    throw std::invalid_argument("pool_core::deallocate: pointer was not allocated by this pool or is already freed");
  chunk* c = lit->second;
  if (c->size <= quick_max_size && quick_.size() < quick_capacity) {
    quick_.push_back(c);  // within the reserved capacity: cannot throw
    c->cached = true;
    used_ -= c->size;
    return;
  }
  const std::size_t size = c->size;  // (merging may recycle c's record)
  release_chunk(c);
  used_ -= size;
}

void pool_core::flush_quick() {
  while (!quick_.empty()) {
    chunk* c = quick_.front();
    release_chunk(c);  // may throw bad_alloc before any change: c then stays parked
    quick_.erase(quick_.begin());
  }
}

void pool_core::release_chunk(chunk* c) {
  auto lit = live_.find(c->addr);
  free_set& set = free_of(c->stream);  // can allocate only on a stream's first free, before any change
  chunk* prev = c->prev != nullptr && c->prev->free ? c->prev : nullptr;
  chunk* next = c->next != nullptr && c->next->free ? c->next : nullptr;
  // Without a free neighbour a fresh set node is needed; insert it first so a bad_alloc changes nothing.
  if (prev == nullptr && next == nullptr) set.insert(key_of(c));
  if (spare_nodes_.size() < max_spare_nodes) {
    spare_nodes_.push_back(live_.extract(lit));  // within the reserved capacity: cannot throw
  } else {
    live_.erase(lit);
  }
  c->cached = false;
  c->free = true;
  if (prev == nullptr && next == nullptr) {
    ++n_free_;
    return;
  }
  free_set::node_type node;
  if (next != nullptr) {
    node = set.extract(key_of(next));
    c->size += next->size;
    c->next = next->next;
    if (c->next != nullptr) c->next->prev = c;
    recycle(next);
  }
  if (prev != nullptr) {
    auto prev_node = set.extract(key_of(prev));
    if (node.empty()) node = std::move(prev_node);
    prev->size += c->size;
    prev->next = c->next;
    if (prev->next != nullptr) prev->next->prev = prev;
    recycle(c);
    c = prev;
  }
  if (prev != nullptr && next != nullptr) --n_free_;  // three free chunks became one
  node.value() = key_of(c);
  set.insert(std::move(node));
}

std::size_t pool_core::allocation_size(const void* ptr) const {
  std::lock_guard lock(mutex_);
  auto it = live_.find(reinterpret_cast<std::uintptr_t>(ptr));
  return it == live_.end() || it->second->cached ? 0 : it->second->size;
}

void pool_core::release_free_segments(const std::uintptr_t* only_stream) {
  for (auto sit = free_.begin(); sit != free_.end();) {
    if (only_stream != nullptr && sit->first != *only_stream) {
      ++sit;
      continue;
    }
    free_set& set = sit->second;
    for (auto it = set.begin(); it != set.end();) {
      chunk* c = it->c;
      if (c->prev != nullptr || c->next != nullptr) {  // part of a segment that is still in use
        ++it;
        continue;
      }
      it = set.erase(it);
      void* p = reinterpret_cast<void*>(c->addr);
      const std::size_t size = c->size;
      total_ -= size;
      --n_free_;
      --n_segments_;
      recycle(c);
      // Bookkeeping is done first so that a throwing raw_free leaves the pool consistent (segment leaked).
      backend_->raw_free(p, size);
    }
    sit = set.empty() ? free_.erase(sit) : std::next(sit);  // (a vector: later entries move up)
  }
}

std::size_t pool_core::used_bytes() const {
  std::lock_guard lock(mutex_);
  return used_;
}

std::size_t pool_core::total_bytes() const {
  std::lock_guard lock(mutex_);
  return total_;
}

std::size_t pool_core::free_bytes() const {
  std::lock_guard lock(mutex_);
  return total_ - used_;
}

std::size_t pool_core::n_free_blocks() const {
  std::lock_guard lock(mutex_);
  flush_quick();
  return n_free_;
}

std::size_t pool_core::n_segments() const {
  std::lock_guard lock(mutex_);
  return n_segments_;
}

void pool_core::free_all_blocks() {
  std::lock_guard lock(mutex_);
  flush_quick();
  release_free_segments(nullptr);
  trim_spares();
}

void pool_core::free_all_blocks(std::uintptr_t stream) {
  std::lock_guard lock(mutex_);
  flush_quick();
  release_free_segments(&stream);
  trim_spares();
}

void pool_core::set_limit(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  limit_ = bytes;
}

std::size_t pool_core::get_limit() const {
  std::lock_guard lock(mutex_);
  return limit_;
}

std::string pool_core::check_invariants() const {
  std::lock_guard lock(mutex_);
  auto hex = [](std::uintptr_t a) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    do {
      s.insert(s.begin(), digits[a % 16]);
      a /= 16;
    } while (a != 0);
    return "0x" + s;
  };
  // Parked chunks first (Note [pool quick list]), then the merged state they are released into.
  std::size_t parked = 0, n_cached = 0, live_sum = 0;
  for (chunk* c : quick_) {
    auto lit = live_.find(c->addr);
    if (lit == live_.end() || lit->second != c) return "parked chunk missing from the live map at " + hex(c->addr);
    if (!c->cached || c->free) return "parked chunk not marked cached at " + hex(c->addr);
    if (c->size > quick_max_size) return "parked chunk larger than quick_max_size at " + hex(c->addr);
    parked += c->size;
  }
  for (const auto& [addr, c] : live_) {
    live_sum += c->size;
    n_cached += c->cached ? 1 : 0;
  }
  if (n_cached != quick_.size()) return "cached chunks in the live map differ from the quick list";
  if (live_sum != used_ + parked) return "used_bytes mismatch (parked chunks counted as used?)";
  flush_quick();
  std::size_t n_chunks = live_.size(), n_in_sets = 0, free_sum = 0;
  std::vector<chunk*> heads;
  for (const auto& [stream, set] : free_) {
    for (const free_key& k : set) {
      if (k.c->size != k.size || k.c->addr != k.addr) return "free-set key out of date at " + hex(k.addr);
      if (!k.c->free) return "chunk in a free set is not marked free at " + hex(k.addr);
      if (k.c->stream != stream) return "free chunk filed under another stream at " + hex(k.addr);
      if (k.c->prev == nullptr) heads.push_back(k.c);
      free_sum += k.size;
    }
    n_in_sets += set.size();
  }
  n_chunks += n_in_sets;
  std::size_t used_sum = 0;
  for (const auto& [addr, c] : live_) {
    if (c->addr != addr) return "live map key differs from chunk address at " + hex(addr);
    if (c->free) return "live chunk marked free at " + hex(addr);
    if (c->prev == nullptr) heads.push_back(c);
    used_sum += c->size;
  }
  std::size_t walked = 0, seg_sum = 0;
  for (chunk* head : heads) {
    for (chunk* c = head; c != nullptr; c = c->next) {
      ++walked;
      seg_sum += c->size;
      if (c->size == 0 || c->size % rounding != 0) return "chunk size not a positive multiple at " + hex(c->addr);
      if (c->stream != head->stream) return "chunk stream differs from its segment's at " + hex(c->addr);
      if (c->free) {
        const free_set* fs = find_free(c->stream);
        if (fs == nullptr || fs->count(key_of(c)) == 0)
          return "free chunk missing from its free set at " + hex(c->addr);
      } else {
        auto lit = live_.find(c->addr);
        if (lit == live_.end() || lit->second != c) return "used chunk missing from the live map at " + hex(c->addr);
      }
      if (c->next != nullptr) {
        if (c->next->prev != c) return "broken back link after " + hex(c->addr);
        if (c->addr + c->size != c->next->addr) return "chunks not contiguous after " + hex(c->addr);
        if (c->free && c->next->free) return "two adjacent free chunks not merged at " + hex(c->addr);
      }
      if (walked > n_chunks) return "more chunks reachable than recorded (cycle?)";
    }
  }
  if (walked != n_chunks)
    return "chunk count mismatch: walked " + std::to_string(walked) + ", recorded " + std::to_string(n_chunks);
  if (heads.size() != n_segments_) return "segment count mismatch";
  if (used_sum != used_) return "used_bytes mismatch";
  if (seg_sum != total_) return "total_bytes mismatch";
  if (free_sum + used_sum != total_) return "free + used != total";
  if (n_in_sets != n_free_) return "n_free_blocks mismatch";
  return {};
}

}  // namespace cuarray::detail
