// Loading compiled code on a device (one module per code object and device) and launching its kernels.
#include "src/engine/kernel.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "cuarray/device.hpp"
#include "cuarray/graph.hpp"
#include "src/cuda/driver.hpp"

namespace cuarray::jit {

namespace {

std::mutex g_mutex;
// Keyed by the code object's address: the code object is kept alive by the map itself.
std::map<std::pair<const compile_result*, int>, std::pair<std::shared_ptr<const compile_result>, CUmodule>>& modules() {
  static auto* m =
      new std::map<std::pair<const compile_result*, int>, std::pair<std::shared_ptr<const compile_result>, CUmodule>>();
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

namespace {

// A device attribute, asked of the runtime once per (device, attribute) for the process.
int cached_attribute(int device, int attribute) {
  static std::mutex m;
  static std::map<std::pair<int, int>, int> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find({device, attribute});
  if (it != cache.end()) return it->second;
  int v = device_attribute(device, attribute);
  cache[{device, attribute}] = v;
  return v;
}

}  // namespace

int device_arch(int device) {
  return cached_attribute(device, 75 /* cudaDevAttrComputeCapabilityMajor */) * 10 +
         cached_attribute(device, 76 /* cudaDevAttrComputeCapabilityMinor */);
}

int device_sm_count(int device) { return cached_attribute(device, 16 /* cudaDevAttrMultiProcessorCount */); }

std::int64_t device_l2_bytes(int device) { return cached_attribute(device, 38 /* cudaDevAttrL2CacheSize */); }

void launch(CUfunction f, unsigned grid, unsigned block, unsigned shared_mem, CUstream stream, void** args) {
  check(driver().cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared_mem, stream, args, nullptr), "cuLaunchKernel");
}

// Note [programmatic dependent launch]
// A kernel launched with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION may be scheduled as soon as every
// block of its predecessor in the stream has run griddepcontrol.launch_dependents (or exited), instead of when
// the predecessor has ended; in a stream capture the edge becomes a programmatic graph edge (CUDA 12.3), which
// is what cuts the per-node cost of a replayed chain of small kernels. The price is on the kernel: it must run
// griddepcontrol.wait (which returns once the predecessor grids have completed and their memory is visible)
// before it reads or writes any global memory. The elementwise generator emits both instructions first thing
// in every kernel, under __CUDA_ARCH__ >= 900 (no-ops on a normal launch), so only its kernels are launched
// this way; every other engine launches normally and so waits for the predecessor to end, as before. Enabled
// on compute capability 9.0+ with a 12.3+ driver that has cuLaunchKernelEx, and by default only while a
// capture begun through cuarray is active (the graph is where it pays; eager launches are unchanged). The
// environment variable CUARRAY_PDL chooses: "0" never, "1" for every elementwise launch (eager too), unset or
// "capture" the default.
namespace {

enum class pdl_mode { off, capture, always };

pdl_mode read_pdl_mode() {
  const char* v = std::getenv("CUARRAY_PDL");
  if (!v || !*v || std::strcmp(v, "capture") == 0) return pdl_mode::capture;
  if (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0) return pdl_mode::off;
  return pdl_mode::always;
}

bool device_supports_pdl(int device) {
  const driver_api& d = driver();
  return d.cuLaunchKernelEx != nullptr && d.driver_version >= 12030 && device_arch(device) >= 90;
}

}  // namespace

bool dependent_launch_enabled(int device) {
  static const pdl_mode mode = read_pdl_mode();
  if (mode == pdl_mode::off) return false;
  if (mode == pdl_mode::capture && detail::active_captures() == 0) return false;
  // Cached per thread (device_arch takes a lock): 0 unknown, 1 no, 2 yes.
  thread_local signed char known[64] = {};
  if (device < 0 || device >= 64) return device_supports_pdl(device);
  signed char& k = known[device];
  if (!k) k = device_supports_pdl(device) ? 2 : 1;
  return k == 2;
}

void launch_dependent(CUfunction f, unsigned grid, unsigned block, unsigned shared_mem, CUstream stream, void** args) {
  const driver_api& d = driver();
  if (!d.cuLaunchKernelEx) return launch(f, grid, block, shared_mem, stream, args);
  CUlaunchAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.gridDimX = grid;
  cfg.gridDimY = 1;
  cfg.gridDimZ = 1;
  cfg.blockDimX = block;
  cfg.blockDimY = 1;
  cfg.blockDimZ = 1;
  cfg.sharedMemBytes = shared_mem;
  cfg.hStream = stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  check(d.cuLaunchKernelEx(&cfg, f, args, nullptr), "cuLaunchKernelEx");
}

void launch_2d(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned block, unsigned shared_mem, CUstream stream,
               void** args) {
  check(driver().cuLaunchKernel(f, grid_x, grid_y, 1, block, 1, 1, shared_mem, stream, args, nullptr),
        "cuLaunchKernel");
}

}  // namespace cuarray::jit
