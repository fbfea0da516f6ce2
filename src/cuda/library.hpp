// The one loader of CUDA's run-time loaded libraries: a declarative table per library (where to find it,
// which functions it must export) resolved into that library's function-pointer struct.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cuarray::detail {

/// Where to find one library: the places of Note [cuda library search order] are tried for each soname.
struct library_spec {
  const char* what;                  ///< the library in messages, e.g. "cuFFT (libcufft)"
  const char* wheel;                 ///< the pip wheel to suggest, e.g. "nvidia-cufft-cu12/cu13"
  std::vector<std::string> sonames;  ///< tried in order at each place, e.g. {"libcufft.so.12", "libcufft.so"}
  const char* override_var;          ///< environment variable holding a full path to try first, or null
  const char* system = nullptr;      ///< what to install instead of the wheel; null: "the CUDA toolkit"
};

/// One exported function of a library table: its name and the function pointer it is stored into.
/// A required function missing makes the file unusable (the search goes on); an optional one is left null.
struct library_symbol {
  enum need { required, optional };

  template <class F>
  library_symbol(const char* symbol, F& fn, need n = required)
      : name(symbol),
        slot(&fn),
        store([](void* s, void* p) { *static_cast<F*>(s) = reinterpret_cast<F>(p); }),
        is_required(n == required) {}

  const char* name;
  void* slot;
  void (*store)(void* slot, void* fn);  // writes a resolved address (or null) as the slot's pointer type
  bool is_required;
};

/// One library found by load_library: `handle` is null when none loaded, and `error` says why.
struct cuda_library {
  void* handle = nullptr;
  std::string path;   // the file actually loaded, symlinks resolved
  std::string error;  // when handle is null: what was searched and what failed
};

/// Stores `lookup(name)` into every slot of `symbols`; returns the required names that resolved to null,
/// comma separated (empty when all are there). The one symbol-resolution routine: dlsym'd libraries and the
/// driver's entry-point query both go through it.
std::string resolve_symbols(std::span<const library_symbol> symbols, const std::function<void*(const char*)>& lookup);

/// resolve_symbols with dlsym on `handle`.
std::string resolve_symbols(void* handle, std::span<const library_symbol> symbols);

/// Loads the first file of `spec` that opens and exports every required function of `symbols`, searching the
/// places of Note [cuda library search order], and leaves the functions in their slots (all null on failure).
/// The handle is never closed: kernels and plans may use it until the process exits.
cuda_library load_library(const library_spec& spec, std::span<const library_symbol> symbols);

/// (what, path) of every library load_library has loaded, in load order: which copy a process uses.
std::vector<std::pair<std::string, std::string>> loaded_cuda_libraries();

}  // namespace cuarray::detail
