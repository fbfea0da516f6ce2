// Raw modules and kernels: NVRTC compilation per architecture, loading per device, and the lean launch path.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/kernel.hpp"
#include "src/cuda/driver.hpp"
#include "src/engine/cache.hpp"
#include "src/engine/kernel.hpp"
#include "src/engine/param_layout.hpp"

namespace cuarray {

namespace detail {

namespace {

constexpr int max_kernel_devices = 64;  // as many as the runtime keeps current streams for

}  // namespace

struct raw_module_state {
  std::string code;   ///< source, or empty for an image
  std::string image;  ///< cubin, fatbin or PTX (NUL-terminated) when there is no source
  std::vector<std::string> options, name_expressions;
  bool cooperative = false;
  std::mutex mutex;
  std::map<int, std::shared_ptr<const jit::compile_result>> compiled;  // by arch
  std::map<int, CUmodule> loaded;                                      // by device

  ~raw_module_state() {
    if (loaded.empty()) return;
    // At exit the driver may be gone already: nothing useful can be done with a failure here.
    try {
      int previous = current_device();
      for (auto& [dev, mod] : loaded) {
        activate_device(dev);
        (void)jit::driver().cuModuleUnload(mod);
      }
      activate_device(previous);
    } catch (...) {
    }
  }

  /// NVRTC output for `device`'s architecture; `mutex` held.
  const jit::compile_result& compile_for(int device) {
    int arch = jit::device_arch(device);
    auto it = compiled.find(arch);
    if (it != compiled.end()) return *it->second;
    jit::compile_request req;
    req.source = code;
    req.name = "raw_module.cu";
    req.options = options;
    req.name_expressions = name_expressions;
    req.arch = arch;
    auto r = jit::compile_cached(req);
    compiled[arch] = r;
    return *r;
  }

  /// The module on `device` (active), loaded on first use.
  CUmodule module_for(int device) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(device);
    if (it != loaded.end()) return it->second;
    const void* data = code.empty() ? static_cast<const void*>(image.data())
                                    : static_cast<const void*>(compile_for(device).cubin.data());
    CUmodule m = nullptr;
    jit::check(jit::driver().cuModuleLoadData(&m, data), "cuModuleLoadData");
    loaded.emplace(device, m);
    return m;
  }

  /// The parameter sizes of kernel `lowered` as the image for `device` declares them (Note [kernel parameters]).
  std::optional<std::vector<std::size_t>> param_sizes(const std::string& lowered, int device) {
    std::lock_guard<std::mutex> lock(mutex);
    if (code.empty()) return jit::kernel_param_sizes(std::string_view(image.data(), image.size() - 1), lowered);
    return jit::kernel_param_sizes(compile_for(device).cubin, lowered);
  }

  std::string lowered(const std::string& name, int device) {
    if (code.empty()) return name;
    for (std::size_t i = 0; i < name_expressions.size(); ++i) {
      if (name_expressions[i] != name) continue;
      std::lock_guard<std::mutex> lock(mutex);
      const jit::compile_result& r = compile_for(device);
      if (i < r.lowered_names.size() && !r.lowered_names[i].empty()) return r.lowered_names[i];
    }
    return name;
  }
};

// Note [raw kernel launch]
// A warm launch reads the CUfunction of the current device from a fixed array (one atomic load), checks the
// argument count and sizes against the parameters the driver reported when the function was first looked
// up, and calls cuLaunchKernel through a cached function pointer: no lock, no map, no allocation.
struct raw_kernel_state {
  std::shared_ptr<raw_module_state> module;
  std::string name;
  bool cooperative = false;
  std::array<std::atomic<CUfunction>, max_kernel_devices> functions{};
  std::mutex mutex;
  // Written once, under `mutex`, before the first function is published (release) in `functions`.
  const jit::driver_api* driver = nullptr;
  int param_count = -1;  ///< -1: unknown (the image does not say; Note [kernel parameters])
  std::vector<std::size_t> param_sizes;

  CUfunction function(int device) {
    if (static_cast<unsigned>(device) < static_cast<unsigned>(max_kernel_devices)) {
      CUfunction f = functions[static_cast<std::size_t>(device)].load(std::memory_order_acquire);
      if (f) return f;
    }
    return resolve(device);
  }

  CUfunction resolve(int device) {
    if (static_cast<unsigned>(device) >= static_cast<unsigned>(max_kernel_devices)) {
      throw value_error("device " + std::to_string(device) + " is out of range for raw kernels");
    }
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = functions[static_cast<std::size_t>(device)];
    if (CUfunction f = slot.load(std::memory_order_acquire)) return f;
    activate_device(device);
    CUmodule m = module->module_for(device);
    CUfunction f = nullptr;
    std::string lowered = module->lowered(name, device);
    CUresult r = jit::driver().cuModuleGetFunction(&f, m, lowered.c_str());
    if (r == CUDA_ERROR_NOT_FOUND) {
      throw value_error("no kernel named '" + name + "' in the module" +
                        (lowered != name ? " (lowered name '" + lowered + "')" : std::string()) +
                        "; a C++ kernel needs extern \"C\" or a name expression");
    }
    jit::check(r, "cuModuleGetFunction");
    if (!driver) {
      driver = &jit::driver();
      if (auto sizes = module->param_sizes(lowered, device)) {
        param_sizes = std::move(*sizes);
        param_count = static_cast<int>(param_sizes.size());
      }
    }
    slot.store(f, std::memory_order_release);
    return f;
  }

  void check_args(const std::size_t* sizes, std::size_t count) const {
    if (param_count < 0) return;
    if (count != static_cast<std::size_t>(param_count)) {
      throw type_error("kernel '" + name + "' takes " + std::to_string(param_count) + " argument" +
                       (param_count == 1 ? "" : "s") + " but " + std::to_string(count) + " were given");
    }
    if (!sizes) return;
    for (std::size_t k = 0; k < count; ++k) {
      // A larger value is read from its first bytes (a Python int for an int parameter); a smaller one would
      // make the driver read past it.
      if (sizes[k] < param_sizes[k]) {
        throw value_error("argument " + std::to_string(k) + " of kernel '" + name + "' has " +
                          std::to_string(sizes[k]) + " byte" + (sizes[k] == 1 ? "" : "s") +
                          " but the parameter takes " + std::to_string(param_sizes[k]));
      }
    }
  }
};

}  // namespace detail

// ---------------------------------------------------------------------------------------------------------
// raw_module

namespace {

detail::raw_module_state& checked(const std::shared_ptr<detail::raw_module_state>& s) {
  if (!s) throw value_error("the raw module is empty (default-constructed)");
  return *s;
}

}  // namespace

raw_module raw_module::from_source(std::string code, std::vector<std::string> options,
                                   std::vector<std::string> name_expressions, bool enable_cooperative_groups) {
  if (code.empty()) throw value_error("raw module source is empty");
  auto s = std::make_shared<detail::raw_module_state>();
  s->code = std::move(code);
  s->options = std::move(options);
  s->name_expressions = std::move(name_expressions);
  s->cooperative = enable_cooperative_groups;
  return raw_module(std::move(s));
}

raw_module raw_module::from_file(const std::string& path, bool enable_cooperative_groups) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw value_error("cannot read the module file '" + path + "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw value_error("cannot read the module file '" + path + "'");
  return from_image(ss.str(), enable_cooperative_groups);
}

raw_module raw_module::from_image(std::string image, bool enable_cooperative_groups) {
  if (image.empty()) throw value_error("raw module image is empty");
  auto s = std::make_shared<detail::raw_module_state>();
  s->image = std::move(image);
  s->image.push_back('\0');  // PTX text must be terminated; binaries do not mind
  s->cooperative = enable_cooperative_groups;
  return raw_module(std::move(s));
}

raw_kernel raw_module::get_function(const std::string& name) const { return raw_kernel(*this, name); }

std::pair<void*, std::size_t> raw_module::get_global(const std::string& name) const {
  detail::raw_module_state& s = checked(state_);
  int dev = current_device();
  activate_device(dev);
  CUmodule m = s.module_for(dev);
  CUdeviceptr p = 0;
  std::size_t bytes = 0;
  std::string lowered = s.lowered(name, dev);
  CUresult r = jit::driver().cuModuleGetGlobal(&p, &bytes, m, lowered.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) throw value_error("no global named '" + name + "' in the module");
  jit::check(r, "cuModuleGetGlobal");
  return {reinterpret_cast<void*>(p), bytes};
}

void raw_module::compile() const {
  detail::raw_module_state& s = checked(state_);
  int dev = current_device();
  activate_device(dev);
  (void)s.module_for(dev);
}

std::string raw_module::lowered_name(const std::string& name) const {
  return checked(state_).lowered(name, current_device());
}

const std::string& raw_module::code() const { return checked(state_).code; }
const std::vector<std::string>& raw_module::options() const { return checked(state_).options; }
const std::vector<std::string>& raw_module::name_expressions() const { return checked(state_).name_expressions; }

// ---------------------------------------------------------------------------------------------------------
// raw_kernel

namespace {

detail::raw_kernel_state& checked(const std::shared_ptr<detail::raw_kernel_state>& s) {
  if (!s) throw value_error("the raw kernel is empty (default-constructed)");
  return *s;
}

}  // namespace

raw_kernel::raw_kernel(std::string code, std::string name, std::vector<std::string> options,
                       bool enable_cooperative_groups)
    : raw_kernel(raw_module::from_source(std::move(code), std::move(options), {}, enable_cooperative_groups),
                 std::move(name)) {}

raw_kernel::raw_kernel(const raw_module& module, std::string name) {
  auto s = std::make_shared<detail::raw_kernel_state>();
  s->module = module.state_;
  checked(s->module);
  if (name.empty()) throw value_error("kernel name is empty");
  s->name = std::move(name);
  s->cooperative = s->module->cooperative;
  state_ = std::move(s);
}

void raw_kernel::launch_params(kernel_dim grid, kernel_dim block, void** params, const std::size_t* sizes,
                               std::size_t count, unsigned shared_mem, stream_ref stream) const {
  detail::raw_kernel_state& s = checked(state_);
  int dev = current_device();
  activate_device(dev);
  CUfunction f = s.function(dev);
  s.check_args(sizes, count);
  auto* cs = reinterpret_cast<CUstream>(stream.get());
  CUresult r = s.cooperative ? s.driver->cuLaunchCooperativeKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                                                   shared_mem, cs, count ? params : nullptr)
                             : s.driver->cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                                        shared_mem, cs, count ? params : nullptr, nullptr);
  if (r != CUDA_SUCCESS) jit::check(r, s.cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel");
}

void raw_kernel::launch(kernel_dim grid, kernel_dim block, std::span<const kernel_arg> args,
                        const launch_options& options) const {
  constexpr std::size_t inline_args = 32;
  void* params_buf[inline_args];
  std::size_t sizes_buf[inline_args];
  std::vector<void*> params_heap;
  std::vector<std::size_t> sizes_heap;
  void** params = params_buf;
  std::size_t* sizes = sizes_buf;
  if (args.size() > inline_args) {
    params_heap.resize(args.size());
    sizes_heap.resize(args.size());
    params = params_heap.data();
    sizes = sizes_heap.data();
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    params[k] = const_cast<void*>(args[k].ptr);
    sizes[k] = args[k].size;
  }
  launch_params(grid, block, params, sizes, args.size(), options.shared_mem,
                options.stream ? *options.stream : current_stream());
}

CUfunc_st* raw_kernel::handle() const {
  detail::raw_kernel_state& s = checked(state_);
  int dev = current_device();
  activate_device(dev);
  return s.function(dev);
}

void raw_kernel::compile() const { (void)handle(); }

int raw_kernel::attribute(int attribute) const {
  CUfunction f = handle();
  int v = 0;
  jit::check(jit::driver().cuFuncGetAttribute(&v, static_cast<CUfunction_attribute>(attribute), f),
             "cuFuncGetAttribute");
  return v;
}

void raw_kernel::set_attribute(int attribute, int value) const {
  CUfunction f = handle();
  jit::check(jit::driver().cuFuncSetAttribute(f, static_cast<CUfunction_attribute>(attribute), value),
             "cuFuncSetAttribute");
}

kernel_attributes raw_kernel::attributes() const {
  kernel_attributes a;
  a.max_threads_per_block = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  a.shared_size_bytes = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  a.const_size_bytes = attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
  a.local_size_bytes = attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  a.num_regs = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS);
  a.ptx_version = attribute(CU_FUNC_ATTRIBUTE_PTX_VERSION);
  a.binary_version = attribute(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  a.max_dynamic_shared_size_bytes = attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  a.preferred_shared_memory_carveout = attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
  return a;
}

int raw_kernel::max_dynamic_shared_size_bytes() const {
  return attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
}

void raw_kernel::set_max_dynamic_shared_size_bytes(int bytes) const {
  set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

int raw_kernel::preferred_shared_memory_carveout() const {
  return attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
}

void raw_kernel::set_preferred_shared_memory_carveout(int percent) const {
  set_attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, percent);
}

const std::string& raw_kernel::name() const { return checked(state_).name; }
raw_module raw_kernel::module() const { return raw_module(checked(state_).module); }
bool raw_kernel::cooperative() const { return checked(state_).cooperative; }

}  // namespace cuarray
