// NVRTC loaded with dlopen on first use through the CUDA library loader (Note [cuda library search order]).
#include "src/cuda/nvrtc.hpp"

#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/cuda/library.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::jit {

namespace {

const detail::library_spec nvrtc_library{"NVRTC (libnvrtc)",
                                         "nvidia-cuda-nvrtc-cu12/cu13",
                                         {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"},
                                         "CUARRAY_NVRTC_PATH"};

std::vector<detail::library_symbol> nvrtc_symbols(nvrtc_api& a) {
  return {
      {"nvrtcVersion", a.version},
      {"nvrtcCreateProgram", a.create_program},
      {"nvrtcCompileProgram", a.compile_program},
      {"nvrtcDestroyProgram", a.destroy_program},
      {"nvrtcGetProgramLogSize", a.get_program_log_size},
      {"nvrtcGetProgramLog", a.get_program_log},
      {"nvrtcGetCUBINSize", a.get_cubin_size},
      {"nvrtcGetCUBIN", a.get_cubin},
      {"nvrtcGetPTXSize", a.get_ptx_size},
      {"nvrtcGetPTX", a.get_ptx},
      {"nvrtcAddNameExpression", a.add_name_expression},
      {"nvrtcGetLoweredName", a.get_lowered_name},
      {"nvrtcGetErrorString", a.get_error_string},
  };
}

/// Note [nvrtc builtins]: NVRTC opens libnvrtc-builtins.so.MAJOR.MINOR by its bare name when it first compiles.
/// Loaded from a pip wheel's directory (not on the loader's path, and the wheel's libnvrtc has no RPATH that
/// names it), that open fails with "failed to open libnvrtc-builtins.so.13.0". Opening the builtins beside the
/// libnvrtc we loaded first lets the loader match NVRTC's later request by soname; the handle stays open.
void preload_builtins(const std::string& nvrtc_path) {
  std::size_t slash = nvrtc_path.rfind('/');
  if (slash == std::string::npos) return;
  std::string dir = nvrtc_path.substr(0, slash);
  std::vector<std::string> found;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string_view name(e->d_name);
      if (name.starts_with("libnvrtc-builtins.so.")) found.emplace_back(name);
    }
    ::closedir(d);
  }
  // The most specific name (libnvrtc-builtins.so.13.0 over .so.13) is the file itself, not a link to it.
  std::sort(found.begin(), found.end(), [](const std::string& x, const std::string& y) { return x.size() > y.size(); });
  for (const std::string& name : found) {
    if (::dlopen((dir + "/" + name).c_str(), RTLD_NOW | RTLD_GLOBAL)) return;
  }
}

nvrtc_api load_nvrtc() {
  nvrtc_api a;
  detail::cuda_library lib = detail::load_library(nvrtc_library, nvrtc_symbols(a));
  a.handle = lib.handle;
  a.path = lib.path;
  a.load_error = lib.error;
  if (a.handle) preload_builtins(a.path);
  return a;
}

}  // namespace

const nvrtc_api& nvrtc() {
  static std::once_flag once;
  static nvrtc_api loaded;
  std::call_once(once, [] { loaded = load_nvrtc(); });
  if (!loaded.handle) throw cuda_error(-1, loaded.load_error);
  return loaded;
}

std::string nvrtc_error_name(const nvrtc_api& a, nvrtc_result r) {
  if (const char* name = detail::status_name(detail::status_source::nvrtc, r)) return name;
  // A code newer than the table: NVRTC's own name for it, if it has one.
  const char* s = a.get_error_string ? a.get_error_string(r) : nullptr;
  return s ? std::string(s) : detail::status_text(detail::status_source::nvrtc, r);
}

void nvrtc_check(const nvrtc_api& a, nvrtc_result r, const char* call) {
  if (r != nvrtc_success) throw cuda_error(-1, nvrtc_error_name(a, r) + " (in " + call + ")");
}

std::pair<int, int> nvrtc_version() {
  const nvrtc_api& a = nvrtc();
  int major = 0, minor = 0;
  nvrtc_check(a, a.version(&major, &minor), "nvrtcVersion");
  return {major, minor};
}

std::string nvrtc_path() { return nvrtc().path; }

}  // namespace cuarray::jit
