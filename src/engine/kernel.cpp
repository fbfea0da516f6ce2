// Loading compiled code on a device (one module per code object and device) and launching its kernels.
#include "src/engine/kernel.hpp"

#include <map>
#include <mutex>
#include <tuple>

#include "cuarray/device.hpp"
#include "src/cuda/driver.hpp"

namespace cuarray::jit {

namespace {

std::mutex g_mutex;
// Keyed by the code object's address: the code object is kept alive by the map itself.
std::map<std::pair<const compile_result*, int>, std::pair<std::shared_ptr<const compile_result>, CUmodule>>& modules() {
  static auto* m = new std::map<std::pair<const compile_result*, int>,
                                std::pair<std::shared_ptr<const compile_result>, CUmodule>>();
  return *m;
}
std::map<std::tuple<CUmodule, std::string>, CUfunction>& functions() {
  static auto* m = new std::map<std::tuple<CUmodule, std::string>, CUfunction>();
  return *m;
}

}  // namespace

CUfunction get_function(const std::shared_ptr<const compile_result>& code, const std::string& name, int device) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto key = std::make_pair(code.get(), device);
  auto it = modules().find(key);
  CUmodule mod;
  if (it == modules().end()) {
    check(driver().cuModuleLoadData(&mod, code->cubin.data()), "cuModuleLoadData");
    modules().emplace(key, std::make_pair(code, mod));
  } else {
    mod = it->second.second;
  }
  auto fk = std::make_tuple(mod, name);
  auto fit = functions().find(fk);
  if (fit != functions().end()) return fit->second;
  CUfunction f;
  check(driver().cuModuleGetFunction(&f, mod, name.c_str()), "cuModuleGetFunction");
  functions().emplace(fk, f);
  return f;
}

int device_arch(int device) {
  static std::mutex m;
  static std::map<int, int> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(device);
  if (it != cache.end()) return it->second;
  int major = device_attribute(device, 75 /* cudaDevAttrComputeCapabilityMajor */);
  int minor = device_attribute(device, 76 /* cudaDevAttrComputeCapabilityMinor */);
  int arch = major * 10 + minor;
  cache[device] = arch;
  return arch;
}

int device_sm_count(int device) {
  static std::mutex m;
  static std::map<int, int> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(device);
  if (it != cache.end()) return it->second;
  int n = device_attribute(device, 16 /* cudaDevAttrMultiProcessorCount */);
  cache[device] = n;
  return n;
}

void launch(CUfunction f, unsigned grid, unsigned block, unsigned shared_mem, CUstream stream, void** args) {
  check(driver().cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared_mem, stream, args, nullptr), "cuLaunchKernel");
}

void launch_2d(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned block, unsigned shared_mem, CUstream stream,
               void** args) {
  check(driver().cuLaunchKernel(f, grid_x, grid_y, 1, block, 1, 1, shared_mem, stream, args, nullptr), "cuLaunchKernel");
}

}  // namespace cuarray::jit
