// Loading the CUDA toolkit's shared libraries (NVRTC, cuBLAS, cuSOLVER, cuFFT...) with dlopen on first use.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cuarray::detail {

/// One library found by load_cuda_library: `handle` is null when none loaded, and `error` says why.
struct cuda_library {
  void* handle = nullptr;
  std::string path;   // the file actually loaded, symlinks resolved
  std::string error;  // when handle is null: what was searched and what failed
};

/// Loads the first of `sonames` (e.g. {"libcufft.so.12", "libcufft.so.11", "libcufft.so"}) that loads and
/// passes `missing_symbols` (which returns the names it could not resolve, empty when all are there), searching
/// the places of Note [cuda library search order]. `override_var` names an environment variable holding a
/// full path to try first. The handle is never closed: kernels and plans may use it until the process exits.
/// `what` names the library in the error, e.g. "cuFFT (libcufft)"; `wheel` is the pip wheel to suggest.
cuda_library load_cuda_library(const std::string& what, const std::string& wheel, const std::vector<std::string>& sonames,
                               const char* override_var, const std::function<std::string(void*)>& missing_symbols);

/// dlsym that records a missing name in `missing` (comma separated) instead of failing at once.
template <class F>
bool resolve_symbol(void* handle, const char* symbol, F& fn, std::string& missing);

void* raw_symbol(void* handle, const char* symbol);

/// (what, path) of every library load_cuda_library has loaded, in load order: which copy a process uses.
std::vector<std::pair<std::string, std::string>> loaded_cuda_libraries();

template <class F>
bool resolve_symbol(void* handle, const char* symbol, F& fn, std::string& missing) {
  fn = reinterpret_cast<F>(raw_symbol(handle, symbol));
  if (!fn) missing += missing.empty() ? symbol : std::string(", ") + symbol;
  return fn != nullptr;
}

}  // namespace cuarray::detail
