// Finding and loading the CUDA toolkit's shared libraries at run time (Note [cuda library search order]).
#include "src/cuda/library.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <utility>

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

bool flag_set(const char* var) {
  std::string v = env(var);
  return !v.empty() && v != "0";
}

/// The toolkit's and the system's places, after the wheels.
void system_dirs(const std::vector<std::string>& sonames, std::vector<std::string>& out) {
  std::vector<std::string> dirs;
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
}

/// Every file to try, in the order of Note [cuda library search order].
std::vector<std::string> candidate_paths(const std::vector<std::string>& sonames, const char* override_var) {
  // Note [cuda library search order]: an explicit override first, then the pip wheels (python/cuarray/
  // _libpaths.py points CUARRAY_NVIDIA_LIB_DIRS at every site-packages/nvidia/cu13/lib and nvidia/*/lib on
  // sys.path, since C++ cannot know site-packages), then CUDA_PATH, the toolkit beside the nvcc found on PATH,
  // /usr/local/cuda, and last whatever the dynamic loader finds by itself (LD_LIBRARY_PATH, ld.so.cache).
  // CUARRAY_NO_SYSTEM_CUDA=1 stops after the wheels: CI proves with it that the wheels alone suffice on a
  // machine whose toolkit cannot be removed.
  std::vector<std::string> out;
  if (std::string p = env(override_var); !p.empty()) out.push_back(p);
  for (const std::string& d : split_paths(env("CUARRAY_NVIDIA_LIB_DIRS"))) {
    for (const std::string& n : sonames) out.push_back(d + "/" + n);
  }
  if (!flag_set("CUARRAY_NO_SYSTEM_CUDA")) system_dirs(sonames, out);
  std::vector<std::string> unique;
  for (std::string& p : out) {
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(std::move(p));
  }
  return unique;
}

/// The library a failed dlopen could not find ("libcublas.so.12: cannot open shared object file..."), or "".
std::string missing_dependency(const char* why) {
  if (!why) return {};
  std::string_view text(why);
  std::size_t end = text.find(": cannot open shared object file");
  if (end == std::string_view::npos || end == 0) return {};
  std::size_t start = text.rfind(": ", end - 1);
  start = start == std::string_view::npos ? 0 : start + 2;
  std::string name(text.substr(start, end - start));
  return name.find('/') == std::string::npos ? name : std::string();
}

/// dlopen of `path`; on failure `why` gets dlerror's text. CUDA 12's wheels put each library in its own
/// nvidia/<lib>/lib with RPATH $ORIGIN only, so libcusolver cannot find libcublas or libnvJitLink by itself:
/// a dependency the loader reports missing is loaded from the wheel directories first (the loader then
/// matches it by soname, whatever the scope), and the library retried.
void* open_library(const std::string& path, const std::vector<std::string>& wheel_dirs, std::string& why,
                   int depth = 0) {
  for (int tries = 0; tries < 8; ++tries) {
    if (void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    const char* err = ::dlerror();
    why = err ? err : "dlopen failed";
    std::string dep = missing_dependency(err);
    if (dep.empty() || depth > 4) return nullptr;
    void* dep_handle = nullptr;
    for (const std::string& d : wheel_dirs) {
      std::string candidate = d + "/" + dep, ignored;
      if (::access(candidate.c_str(), F_OK) != 0) continue;
      dep_handle = open_library(candidate, wheel_dirs, ignored, depth + 1);  // kept open: the library needs it
      if (dep_handle) break;
    }
    if (!dep_handle) return nullptr;
  }
  return nullptr;
}

std::mutex g_loaded_mutex;
std::vector<std::pair<std::string, std::string>> g_loaded;  // (what, path) of each library loaded

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

std::string resolve_symbols(std::span<const library_symbol> symbols, const std::function<void*(const char*)>& lookup) {
  std::string missing;
  for (const library_symbol& s : symbols) {
    void* fn = lookup(s.name);
    s.store(s.slot, fn);
    if (!fn && s.is_required) missing += missing.empty() ? s.name : std::string(", ") + s.name;
  }
  return missing;
}

std::string resolve_symbols(void* handle, std::span<const library_symbol> symbols) {
  return resolve_symbols(symbols, [handle](const char* name) { return ::dlsym(handle, name); });
}

std::vector<std::pair<std::string, std::string>> loaded_cuda_libraries() {
  std::lock_guard<std::mutex> lock(g_loaded_mutex);
  return g_loaded;
}

cuda_library load_library(const library_spec& spec, std::span<const library_symbol> symbols) {
  const std::string what = spec.what, wheel = spec.wheel;
  const std::vector<std::string>& sonames = spec.sonames;
  const char* override_var = spec.override_var;
  cuda_library lib;
  std::string searched, failures;
  std::vector<std::string> wheel_dirs = split_paths(env("CUARRAY_NVIDIA_LIB_DIRS"));
  for (const std::string& path : candidate_paths(sonames, override_var)) {
    searched += "\n  " + path;
    bool bare_name = path.find('/') == std::string::npos;
    std::string why;
    void* h = open_library(path, wheel_dirs, why);
    if (!h) {
      // A file that exists but will not load (wrong architecture, missing dependency) is worth telling.
      if (bare_name || ::access(path.c_str(), F_OK) == 0) failures += "\n  " + why;
      continue;
    }
    if (std::string missing = resolve_symbols(h, symbols); !missing.empty()) {
      failures += "\n  " + path + " lacks " + missing;
      resolve_symbols(symbols, [](const char*) { return nullptr; });  // no pointer into a closed file
      ::dlclose(h);
      continue;
    }
    lib.handle = h;
    lib.path = loaded_path(h, path);
    std::lock_guard<std::mutex> lock(g_loaded_mutex);
    g_loaded.emplace_back(what, lib.path);
    return lib;
  }
  // Callers name the wheels "nvidia-X-cu12/cu13"; CUDA 13's wheel has no suffix on PyPI.
  std::string wheels = "the " + wheel + " wheel";
  if (constexpr std::string_view both = "-cu12/cu13"; wheel.size() > both.size() && wheel.ends_with(both)) {
    std::string base = wheel.substr(0, wheel.size() - both.size());
    wheels = "NVIDIA's wheel (CUDA 13: " + base + ", or every library cuarray uses with `pip install cuarray[cu13]`;" +
             " CUDA 12: " + base + "-cu12)";
  }
  lib.error = what + " could not be loaded; install " + wheels + " or " +
              (spec.system ? spec.system : "the CUDA toolkit");
  if (override_var) lib.error += std::string(", or set ") + override_var + " to the library";
  if (flag_set("CUARRAY_NO_SYSTEM_CUDA"))
    lib.error += " (CUARRAY_NO_SYSTEM_CUDA is set: only the wheels were searched)";
  lib.error += ". Searched:" + (searched.empty() ? std::string(" nothing (no wheel directory was found)") : searched);
  if (!failures.empty()) lib.error += "\nfailures:" + failures;
  return lib;
}

}  // namespace cuarray::detail
