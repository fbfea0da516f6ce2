// Finding and loading the CUDA toolkit's shared libraries at run time (Note [cuda library search order]).
#include "src/core/cuda_library.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace cuarray::detail {

namespace {

std::string env(const char* var) {
  const char* v = var ? std::getenv(var) : nullptr;
  return v ? std::string(v) : std::string();
}

std::vector<std::string> split_paths(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

/// Every file to try, in the order of Note [cuda library search order].
std::vector<std::string> candidate_paths(const std::vector<std::string>& sonames, const char* override_var) {
  // Note [cuda library search order]: an explicit override first, then the pip wheels (the Python package
  // points CUARRAY_NVIDIA_LIB_DIRS at site-packages/nvidia/*/lib, since C++ cannot know site-packages), then
  // CUDA_PATH, the toolkit beside the nvcc found on PATH, /usr/local/cuda, and last whatever the dynamic
  // loader finds by itself (LD_LIBRARY_PATH, ld.so.cache).
  std::vector<std::string> dirs, out;
  if (std::string p = env(override_var); !p.empty()) out.push_back(p);
  for (const std::string& d : split_paths(env("CUARRAY_NVIDIA_LIB_DIRS"))) dirs.push_back(d);
  if (std::string cuda = env("CUDA_PATH"); !cuda.empty()) {
    dirs.push_back(cuda + "/lib64");
    dirs.push_back(cuda + "/lib");
  }
  for (const std::string& d : split_paths(env("PATH"))) {
    std::string nvcc = d + "/nvcc";
    if (::access(nvcc.c_str(), X_OK) == 0) {
      dirs.push_back(d + "/../lib64");
      break;  // the nvcc a shell would run
    }
  }
  dirs.push_back("/usr/local/cuda/lib64");
  for (const std::string& d : dirs) {
    for (const std::string& n : sonames) out.push_back(d + "/" + n);
  }
  for (const std::string& n : sonames) out.push_back(n);
  std::vector<std::string> unique;
  for (std::string& p : out) {
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(std::move(p));
  }
  return unique;
}

std::string loaded_path(void* handle, const std::string& fallback) {
  link_map* map = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) {
    char* real = ::realpath(map->l_name, nullptr);
    std::string path = real ? real : map->l_name;
    std::free(real);
    return path;
  }
  return fallback;
}

}  // namespace

void* raw_symbol(void* handle, const char* symbol) { return ::dlsym(handle, symbol); }

cuda_library load_cuda_library(const std::string& what, const std::string& wheel, const std::vector<std::string>& sonames,
                               const char* override_var, const std::function<std::string(void*)>& missing_symbols) {
  cuda_library lib;
  std::string searched, failures;
  for (const std::string& path : candidate_paths(sonames, override_var)) {
    searched += "\n  " + path;
    bool bare_name = path.find('/') == std::string::npos;
    void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      // A file that exists but will not load (wrong architecture, missing dependency) is worth telling.
      const char* why = ::dlerror();
      if (why && (bare_name || ::access(path.c_str(), F_OK) == 0)) failures += "\n  " + std::string(why);
      continue;
    }
    if (std::string missing = missing_symbols(h); !missing.empty()) {
      failures += "\n  " + path + " lacks " + missing;
      ::dlclose(h);
      continue;
    }
    lib.handle = h;
    lib.path = loaded_path(h, path);
    return lib;
  }
  lib.error = what + " could not be loaded; install the " + wheel + " wheel or the CUDA toolkit";
  if (override_var) lib.error += std::string(", or set ") + override_var + " to the library";
  lib.error += ". Searched:" + searched;
  if (!failures.empty()) lib.error += "\nfailures:" + failures;
  return lib;
}

}  // namespace cuarray::detail
