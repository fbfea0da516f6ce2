// Two-level cache of NVRTC results: a process-wide map in memory over atomically written files on disk.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "src/engine/compile.hpp"

namespace cuarray::jit {

/// 128-bit non-cryptographic hash of `data` as 32 lower-case hex chars; stable across runs and machines.
/// It is built to behave like a random function, so accidental collisions among n inputs should be about
/// n^2 / 2^129 (n = 10^6 kernels: ~10^-27); even if its two 64-bit lanes were fully correlated, n^2 / 2^65
/// (~3 * 10^-8). Not cryptographic: a collision can be built on purpose, so a cache folder that others can
/// write is trusted as much as they are.
std::string hash128(std::string_view data);

/// The on-disk cache folder: $CUARRAY_CACHE_DIR, else $HOME/.cache/cuarray/kernels; empty (no disk cache)
/// when neither is set. Read on every call, so a change of the environment takes effect at once.
std::string cache_dir();

/// The cache key of `req` (32 hex chars): hash of source, name, effective options, headers, name
/// expressions, NVRTC version, arch, ptx flag and the file format version. Loads NVRTC for its version.
std::string cache_key(const compile_request& req);

/// Compile through the caches (memory, then <cache_dir()>/<key>.cubin, then NVRTC); see Note [kernel cache].
/// Throws what compile() throws; disk errors are ignored.
std::shared_ptr<const compile_result> compile_cached(const compile_request& req);

/// Statistics for tests and benchmarks (counts since the process started).
struct cache_stats {
  std::size_t memory_hits, disk_hits, compiles;
};

/// A snapshot of the counters.
cache_stats get_cache_stats();

/// Empty the memory cache (for tests); the disk cache is left alone.
void clear_memory_cache();

}  // namespace cuarray::jit
