// Bindings of user CUDA code: RawModule (source or a .cubin/.ptx/.fatbin file) and RawKernel.
#include <cuda.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "common.hpp"
#include "src/core/internal.hpp"
#include "src/jit/cache.hpp"
#include "src/jit/driver.hpp"
#include "src/jit/kernel.hpp"

namespace cuarray::py {

namespace {

// One user module: compiled per device architecture on first use, loaded per device, unloaded with it.
struct raw_module {
  std::string code;         ///< source, or empty when loaded from a file
  std::string binary;       ///< file contents (cubin, fatbin or PTX) when loaded from a file
  std::vector<std::string> options;
  std::vector<std::string> name_expressions;
  std::map<int, std::shared_ptr<const jit::compile_result>> compiled;  // by arch
  std::map<int, CUmodule> loaded;                                       // by device

  ~raw_module() {
    for (auto& [dev, mod] : loaded) {
      try {
        activate_device(dev);
        (void)jit::driver().cuModuleUnload(mod);
      } catch (...) {
      }
    }
  }

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

  CUmodule module_for(int device) {
    auto it = loaded.find(device);
    if (it != loaded.end()) return it->second;
    activate_device(device);
    CUmodule m;
    if (code.empty()) {
      jit::check(jit::driver().cuModuleLoadData(&m, binary.c_str()), "cuModuleLoadData");
    } else {
      jit::check(jit::driver().cuModuleLoadData(&m, compile_for(device).cubin.data()), "cuModuleLoadData");
    }
    loaded[device] = m;
    return m;
  }

  std::string lowered(const std::string& name) {
    if (code.empty()) return name;
    for (std::size_t i = 0; i < name_expressions.size(); ++i) {
      if (name_expressions[i] == name) return compile_for(current_device()).lowered_names.at(i);
    }
    return name;
  }
};

struct raw_kernel {
  std::shared_ptr<raw_module> module;
  std::string name;
  bool cooperative = false;
  std::map<int, CUfunction> functions;

  CUfunction function() {
    int dev = current_device();
    auto it = functions.find(dev);
    if (it != functions.end()) return it->second;
    CUmodule m = module->module_for(dev);
    CUfunction f;
    jit::check(jit::driver().cuModuleGetFunction(&f, m, module->lowered(name).c_str()), "cuModuleGetFunction");
    functions[dev] = f;
    return f;
  }

  int attribute(CUfunction_attribute a) {
    int v = 0;
    jit::check(jit::driver().cuFuncGetAttribute(&v, a, function()), "cuFuncGetAttribute");
    return v;
  }
};

std::vector<std::string> to_strings(nb::handle seq) {
  std::vector<std::string> out;
  if (seq.is_none()) return out;
  for (nb::handle h : seq) out.push_back(nb::cast<std::string>(h));
  return out;
}

unsigned dim_of(nb::handle h, int i) {
  if (PyLong_Check(h.ptr())) return i == 0 ? nb::cast<unsigned>(h) : 1u;
  nb::tuple t = nb::cast<nb::tuple>(h);
  return static_cast<std::size_t>(i) < t.size() ? nb::cast<unsigned>(t[static_cast<std::size_t>(i)]) : 1u;
}

// Kernel arguments: arrays pass their data pointer; NumPy scalars their bytes; Python int as int64, float as
// double, bool as bool, complex as complex128 (CuPy's conventions).
void launch(raw_kernel& k, nb::handle grid, nb::handle block, nb::handle args, unsigned shared_mem, nb::handle stream) {
  std::vector<std::vector<unsigned char>> storage;
  std::vector<void*> ptrs;
  static nb::object generic = numpy().attr("generic");
  for (nb::handle a : args) {
    std::vector<unsigned char> bytes;
    PyObject* o = a.ptr();
    if (is_ndarray(a)) {
      void* p = as_py_array(a).a.data();
      bytes.resize(sizeof(void*));
      std::memcpy(bytes.data(), &p, sizeof(void*));
    } else if (PyBool_Check(o)) {
      bytes.push_back(o == Py_True ? 1 : 0);
    } else if (PyLong_Check(o)) {
      long long v = PyLong_AsLongLong(o);
      if (v == -1 && PyErr_Occurred()) throw nb::python_error();
      bytes.resize(8);
      std::memcpy(bytes.data(), &v, 8);
    } else if (PyFloat_Check(o)) {
      double v = PyFloat_AS_DOUBLE(o);
      bytes.resize(8);
      std::memcpy(bytes.data(), &v, 8);
    } else if (PyComplex_Check(o)) {
      Py_complex c = PyComplex_AsCComplex(o);
      bytes.resize(16);
      std::memcpy(bytes.data(), &c, 16);
    } else if (PyObject_IsInstance(o, generic.ptr()) == 1) {
      nb::bytes raw = nb::cast<nb::bytes>(a.attr("tobytes")());
      bytes.assign(raw.c_str(), raw.c_str() + raw.size());
    } else if (nb::hasattr(a, "ptr")) {  // MemoryPointer and friends
      auto p = nb::cast<std::uintptr_t>(a.attr("ptr"));
      bytes.resize(sizeof(p));
      std::memcpy(bytes.data(), &p, sizeof(p));
    } else {
      throw type_error("Unsupported kernel argument type " +
                       nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(o))).attr("__name__")));
    }
    storage.push_back(std::move(bytes));
  }
  for (auto& b : storage) ptrs.push_back(b.data());
  CUfunction f = k.function();
  std::uintptr_t sp = stream.is_none() ? current_stream().ptr() : nb::cast<std::uintptr_t>(stream.attr("ptr"));
  activate_device(current_device());
  auto s = reinterpret_cast<CUstream>(sp);
  unsigned gx = dim_of(grid, 0), gy = dim_of(grid, 1), gz = dim_of(grid, 2);
  unsigned bx = dim_of(block, 0), by = dim_of(block, 1), bz = dim_of(block, 2);
  if (k.cooperative) {
    jit::check(jit::driver().cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shared_mem, s, ptrs.data()),
               "cuLaunchCooperativeKernel");
  } else {
    jit::check(jit::driver().cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared_mem, s, ptrs.data(), nullptr),
               "cuLaunchKernel");
  }
}

std::shared_ptr<raw_module> make_module(nb::handle code, nb::handle path, nb::handle options, nb::handle name_expressions,
                                        bool cooperative) {
  auto m = std::make_shared<raw_module>();
  if (!code.is_none()) {
    m->code = nb::cast<std::string>(code);
  } else if (!path.is_none()) {
    std::string p = nb::cast<std::string>(nb::str(path));
    std::ifstream f(p, std::ios::binary);
    if (!f) throw value_error("cannot read " + p);
    std::ostringstream ss;
    ss << f.rdbuf();
    m->binary = ss.str();
    m->binary.push_back('\0');  // PTX text must be terminated
  } else {
    throw type_error("RawModule needs code or path");
  }
  m->options = to_strings(options);
  if (cooperative) m->options.push_back("-rdc=true");
  m->name_expressions = to_strings(name_expressions);
  return m;
}

}  // namespace

void init_raw(nb::module_& m) {
  nb::class_<raw_module>(m, "_RawModule")
      .def("__init__", [](raw_module* self, nb::handle code, nb::handle path, nb::handle options, nb::handle names) {
        auto made = make_module(code, path, options, names, false);
        new (self) raw_module();
        self->code = std::move(made->code);
        self->binary = std::move(made->binary);
        self->options = std::move(made->options);
        self->name_expressions = std::move(made->name_expressions);
      })
      .def("compile", [](raw_module& mod) { (void)mod.module_for(current_device()); });

  nb::class_<raw_kernel>(m, "_RawKernel")
      .def("__init__", [](raw_kernel* self, nb::handle code, const std::string& name, nb::handle options, bool cooperative) {
        new (self) raw_kernel{make_module(code, nb::none(), options, nb::none(), false), name, cooperative, {}};
      })
      .def("__call__", &launch, nb::arg("grid"), nb::arg("block"), nb::arg("args"), nb::arg("shared_mem") = 0,
           nb::arg("stream") = nb::none())
      .def("compile", [](raw_kernel& k) { (void)k.function(); })
      .def_prop_ro("max_threads_per_block", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK); })
      .def_prop_ro("shared_size_bytes", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES); })
      .def_prop_ro("const_size_bytes", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES); })
      .def_prop_ro("local_size_bytes", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES); })
      .def_prop_ro("num_regs", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS); })
      .def_prop_ro("ptx_version", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_PTX_VERSION); })
      .def_prop_ro("binary_version", [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_BINARY_VERSION); })
      .def_prop_rw("max_dynamic_shared_size_bytes",
                   [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); },
                   [](raw_kernel& k, int v) {
                     jit::check(jit::driver().cuFuncSetAttribute(k.function(), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, v),
                                "cuFuncSetAttribute");
                   })
      .def_prop_rw("preferred_shared_memory_carveout",
                   [](raw_kernel& k) { return k.attribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT); },
                   [](raw_kernel& k, int v) {
                     jit::check(jit::driver().cuFuncSetAttribute(k.function(), CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, v),
                                "cuFuncSetAttribute");
                   });

  // The launch floor of the benchmarks: `n` launches of an empty kernel from a C++ loop, then the time per
  // launch in microseconds (host clock, no synchronisation inside the loop).
  m.def("_launch_floor_us", [](int n) {
    static std::shared_ptr<raw_module> mod;
    static CUfunction f = nullptr;
    if (!f) {
      mod = make_module(nb::str("extern \"C\" __global__ void ca_empty_kernel() {}"), nb::none(), nb::none(), nb::none(), false);
      raw_kernel k{mod, "ca_empty_kernel", false, {}};
      f = k.function();
    }
    activate_device(current_device());
    auto s = reinterpret_cast<CUstream>(current_stream().ptr());
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) jit::check(jit::driver().cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, nullptr, nullptr), "cuLaunchKernel");
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
  });
  m.def("compile_to_ptx", [](const std::string& code, const std::string& name) {
    jit::compile_request req;
    req.source = code;
    req.name = name;
    req.ptx = true;
    req.arch = jit::device_arch(current_device());
    return jit::compile(req).cubin;
  });
  m.def("_module_get_function", [](std::shared_ptr<raw_module> mod, const std::string& name) {
    return raw_kernel{std::move(mod), name, false, {}};
  });
  m.def("_module_get_global", [](raw_module& mod, const std::string& name) {
    int dev = current_device();
    CUmodule cm = mod.module_for(dev);
    CUdeviceptr p = 0;
    size_t bytes = 0;
    jit::check(jit::driver().cuModuleGetGlobal(&p, &bytes, cm, mod.lowered(name).c_str()), "cuModuleGetGlobal");
    return py_memory_pointer{make_external_storage(reinterpret_cast<void*>(p), bytes, dev, {}), 0};
  });
}

}  // namespace cuarray::py
