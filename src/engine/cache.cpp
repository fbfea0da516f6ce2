// Kernel cache: 128-bit keys, a mutex-guarded map in memory, checksummed cubin files written atomically.
#include "src/engine/cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace cuarray::jit {

// Note [kernel cache]
// ~~~~~~~~~~~~~~~~~~~
// The key hashes everything that decides NVRTC's output (source, file name, the options NVRTC really gets,
// headers, name expressions, NVRTC's version, arch, ptx) plus `format_version`, which must be bumped when
// the key material or the file layout changes. The memory level maps key -> shared_ptr<const result>: a
// hit is one hash and one locked lookup. NVRTC runs outside the lock, so two threads may compile the same
// key at once; the first to insert wins and the other returns the winner's result, so every caller of one
// key sees the same object. The disk level is one file per key, <dir>/<key>.cubin:
//
//   offset 0   "CUARRAYK"           magic
//          8   u32 format_version
//         12   u32 0                reserved
//         16   u64 payload length   must equal file size - 32
//         24   u64 checksum         first word of hash128 of the payload
//         32   payload: str key, str cubin, str log, u64 count, count x str lowered name
//                       (str = u64 length + bytes; all integers little-endian)
//
// A file is written to a mkstemp temp file in the same folder and renamed over the final name, so a
// reader sees the old file, the new file or none, never a partial one, even with several processes. Any
// file that fails a check (short, bad magic, other version, bad length or checksum, a key that is not its
// own name) counts as a miss and is replaced. Every disk failure is swallowed: the cache is an
// optimisation, and a read-only or full disk must not stop a kernel from running.

namespace {

constexpr std::uint32_t format_version = 1;
constexpr char magic[8] = {'C', 'U', 'A', 'R', 'R', 'A', 'Y', 'K'};
constexpr std::size_t header_size = 32;
constexpr std::size_t max_file_size = std::size_t(1) << 30;  // larger files are not ours: skip them

// ---------------------------------------------------------------------------------------------------------
// Hashing

constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xC2B2AE3D27D4EB4Full;
constexpr std::uint64_t k3 = 0x165667B19E3779F9ull, k4 = 0xD6E8FEB86659FD93ull;

inline std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// A bijective 64-bit finaliser with full avalanche (xor-shift / odd-multiply rounds).
inline std::uint64_t avalanche(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

inline std::uint64_t load_le64(const unsigned char* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

// Two 64-bit lanes with different seeds, multipliers and rotations each absorb every 8-byte word, so a
// change anywhere disturbs both; each round is a bijection of its lane for a fixed word, so no state is
// lost on the way. The length is mixed in at the end (the tail is zero-padded), and the final step is a
// bijection of the 128-bit state that makes each output word depend on both lanes.
std::pair<std::uint64_t, std::uint64_t> hash_words(std::string_view data) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t n = data.size(), i = 0;
  std::uint64_t a = 0x243F6A8885A308D3ull, b = 0x13198A2E03707344ull;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w = load_le64(p + i, 8);
    a = rotl(a + w * k2, 31) * k1;
    b = rotl(b ^ (w * k4), 27) * k3 + k1;
  }
  if (i < n) {
    std::uint64_t w = load_le64(p + i, n - i);
    a = rotl(a + w * k2, 31) * k1;
    b = rotl(b ^ (w * k4), 27) * k3 + k1;
  }
  a ^= std::uint64_t(n) * k3;
  b += std::uint64_t(n) * k1;
  std::uint64_t h0 = avalanche(a ^ rotl(b, 23));
  std::uint64_t h1 = avalanche(b + h0);
  return {h0, h1};
}

std::uint64_t checksum64(std::string_view data) { return hash_words(data).first; }

// ---------------------------------------------------------------------------------------------------------
// Serialisation

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void put_str(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out.append(s);
}

/// Bounds-checked reader over untrusted bytes: every get fails rather than read past the end.
struct reader {
  std::string_view data;
  std::size_t pos = 0;

  bool get_u64(std::uint64_t& v) {
    if (data.size() - pos < 8) return false;
    v = load_le64(reinterpret_cast<const unsigned char*>(data.data()) + pos, 8);
    pos += 8;
    return true;
  }
  bool get_u32(std::uint32_t& v) {
    if (data.size() - pos < 4) return false;
    v = static_cast<std::uint32_t>(load_le64(reinterpret_cast<const unsigned char*>(data.data()) + pos, 4));
    pos += 4;
    return true;
  }
  bool get_str(std::string& s) {
    std::uint64_t len = 0;
    if (!get_u64(len) || len > data.size() - pos) return false;
    s.assign(data.data() + pos, static_cast<std::size_t>(len));
    pos += static_cast<std::size_t>(len);
    return true;
  }
};

std::string encode_file(const std::string& key, const compile_result& r) {
  std::string payload;
  put_str(payload, key);
  put_str(payload, r.cubin);
  put_str(payload, r.log);
  put_u64(payload, r.lowered_names.size());
  for (const std::string& n : r.lowered_names) put_str(payload, n);
  std::string file(magic, sizeof(magic));
  put_u32(file, format_version);
  put_u32(file, 0);
  put_u64(file, payload.size());
  put_u64(file, checksum64(payload));
  file += payload;
  return file;
}

/// Parses a cache file; false for anything that is not a complete, current file for `key`.
bool decode_file(std::string_view file, const std::string& key, compile_result& r) {
  if (file.size() < header_size || std::memcmp(file.data(), magic, sizeof(magic)) != 0) return false;
  reader h{file.substr(0, header_size), sizeof(magic)};
  std::uint32_t version = 0, reserved = 0;
  std::uint64_t length = 0, checksum = 0;
  if (!h.get_u32(version) || !h.get_u32(reserved) || !h.get_u64(length) || !h.get_u64(checksum)) return false;
  if (version != format_version || length != file.size() - header_size) return false;
  std::string_view payload = file.substr(header_size);
  if (checksum64(payload) != checksum) return false;

  reader p{payload};
  std::string stored_key;
  std::uint64_t count = 0;
  if (!p.get_str(stored_key) || stored_key != key) return false;
  if (!p.get_str(r.cubin) || !p.get_str(r.log) || !p.get_u64(count)) return false;
  if (count > payload.size()) return false;  // each name takes at least 8 bytes: guards the reserve below
  r.lowered_names.clear();
  r.lowered_names.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string name;
    if (!p.get_str(name)) return false;
    r.lowered_names.push_back(std::move(name));
  }
  return p.pos == payload.size() && !r.cubin.empty();
}

// ---------------------------------------------------------------------------------------------------------
// Files

bool read_file(const std::string& path, std::string& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
            static_cast<std::uint64_t>(st.st_size) <= max_file_size;
  if (ok) {
    out.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // shorter than fstat said: another writer's rename does not do this, but be safe
      done += static_cast<std::size_t>(n);
    }
    out.resize(done);
  }
  ::close(fd);
  return ok;
}

/// Writes `data` to `dir`/`name` so that readers never see a partial file; false on any failure.
bool write_file_atomically(const std::string& dir, const std::string& name, std::string_view data) {
  std::string tmp = dir + "/" + name + ".tmp.XXXXXX";
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = true;
  std::size_t done = 0;
  while (ok && done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ok = false;
    else done += static_cast<std::size_t>(n);
  }
  // mkstemp makes the file 0600; a cache folder shared by a team should be readable by it (umask aside).
  if (ok) (void)::fchmod(fd, 0644);
  if (::close(fd) != 0) ok = false;  // on NFS a full disk may show only here
  if (ok && ::rename(tmp.c_str(), (dir + "/" + name).c_str()) != 0) ok = false;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

bool env_flag(const char* var) {
  const char* v = std::getenv(var);
  return v && *v && std::strcmp(v, "0") != 0;
}

// ---------------------------------------------------------------------------------------------------------
// Memory level

struct memory_cache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const compile_result>> map;
  std::atomic<std::size_t> memory_hits{0}, disk_hits{0}, compiles{0};
};

// Never destroyed: a kernel may be compiled from another static's destructor at exit.
memory_cache& cache() {
  static memory_cache* c = new memory_cache;
  return *c;
}

std::shared_ptr<const compile_result> find(const std::string& key) {
  memory_cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.map.find(key);
  return it == c.map.end() ? nullptr : it->second;
}

/// Inserts `r` unless a result for `key` arrived meanwhile; returns the one that is in the map.
std::shared_ptr<const compile_result> insert(const std::string& key, std::shared_ptr<const compile_result> r) {
  memory_cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.map.try_emplace(key, std::move(r)).first->second;
}

}  // namespace

std::string hash128(std::string_view data) {
  static constexpr char hex[] = "0123456789abcdef";
  auto [h0, h1] = hash_words(data);
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[15 - i] = hex[(h0 >> (4 * i)) & 0xF];
    out[31 - i] = hex[(h1 >> (4 * i)) & 0xF];
  }
  return out;
}

std::string cache_dir() {
  if (const char* d = std::getenv("CUARRAY_CACHE_DIR"); d && *d) return d;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/cuarray/kernels";
  return {};
}

std::string cache_key(const compile_request& req) {
  // Every field is length-prefixed, so no two different requests serialise to the same bytes.
  auto [major, minor] = nvrtc_version();
  std::string m;
  m.reserve(req.source.size() + 256);
  put_str(m, "cuarray kernel");
  put_u32(m, format_version);
  put_u32(m, static_cast<std::uint32_t>(major));
  put_u32(m, static_cast<std::uint32_t>(minor));
  put_u32(m, static_cast<std::uint32_t>(req.arch));
  put_u32(m, req.ptx ? 1 : 0);
  put_str(m, req.name);
  put_str(m, req.source);
  std::vector<std::string> opts = effective_options(req);
  put_u64(m, opts.size());
  for (const std::string& o : opts) put_str(m, o);
  put_u64(m, req.headers.size());
  for (const auto& [name, contents] : req.headers) {
    put_str(m, name);
    put_str(m, contents);
  }
  put_u64(m, req.name_expressions.size());
  for (const std::string& e : req.name_expressions) put_str(m, e);
  return hash128(m);
}

std::shared_ptr<const compile_result> compile_cached(const compile_request& req) {
  memory_cache& c = cache();
  const std::string key = cache_key(req);
  if (auto hit = find(key)) {
    c.memory_hits.fetch_add(1, std::memory_order_relaxed);
    return hit;
  }

  const std::string dir = cache_dir();
  const std::string file_name = key + ".cubin";
  const bool save_source = !dir.empty() && env_flag("CUARRAY_CACHE_SAVE_SOURCE");
  auto write_source = [&] { (void)write_file_atomically(dir, key + ".cu", req.source); };

  if (!dir.empty()) {
    std::string bytes;
    auto from_disk = std::make_shared<compile_result>();
    if (read_file(dir + "/" + file_name, bytes) && decode_file(bytes, key, *from_disk)) {
      c.disk_hits.fetch_add(1, std::memory_order_relaxed);
      // Turning the variable on later must still show the source of kernels compiled earlier.
      if (save_source && ::access((dir + "/" + key + ".cu").c_str(), F_OK) != 0) write_source();
      return insert(key, std::move(from_disk));
    }
  }

  auto compiled = std::make_shared<compile_result>(compile(req));
  c.compiles.fetch_add(1, std::memory_order_relaxed);
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);  // a failure shows again in the write, which is ignored
    (void)write_file_atomically(dir, file_name, encode_file(key, *compiled));
    if (save_source) write_source();
  }
  return insert(key, std::move(compiled));
}

cache_stats get_cache_stats() {
  memory_cache& c = cache();
  return {c.memory_hits.load(std::memory_order_relaxed), c.disk_hits.load(std::memory_order_relaxed),
          c.compiles.load(std::memory_order_relaxed)};
}

void clear_memory_cache() {
  memory_cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.map.clear();
}

}  // namespace cuarray::jit
