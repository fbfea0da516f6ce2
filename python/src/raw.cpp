// Bindings of user CUDA code: RawModule and RawKernel over cuarray::raw_module / raw_kernel (kernel.hpp).
#include <cuda.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "common.hpp"
#include "cuarray/kernel.hpp"
#include "src/cuda/cuda.hpp"
#include "src/engine/engine.hpp"

namespace cuarray::py {

namespace {

// Note [RawKernel call]
// `kernel(grid, block, args, *, shared_mem=0, stream=None)` is the type's tp_call slot, a C function, so a
// call goes from the interpreter straight to C++ (Python subclasses inherit the slot): no Python method, no
// nanobind overload dispatch. Arguments are packed into a stack buffer, 16 bytes a slot, and handed to
// raw_kernel::launch_params (Note [raw kernel launch]). Errors: Note [C slots] in common.hpp.

PyTypeObject* g_ndarray = nullptr;

std::string type_name_of(PyObject* o) {
  return nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(o))).attr("__name__"));
}

// NumPy scalars of the supported types keep their value right after the object header (NumPy's
// PyArrayScalar_VAL); the table holds the exact types whose layout was checked against tobytes().
struct numpy_scalar_type {
  PyTypeObject* type;
  std::size_t size;
};
std::vector<numpy_scalar_type>& numpy_scalar_types() {
  static std::vector<numpy_scalar_type>* table = [] {
    auto* t = new std::vector<numpy_scalar_type>();
    nb::module_& np = numpy();
    for (const char* code : {"?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q", "e", "f", "d", "F", "D"}) {
      nb::object dt = np.attr("dtype")(code);
      nb::object value = dt.attr("type")(1);
      nb::bytes expected = nb::cast<nb::bytes>(value.attr("tobytes")());
      auto size = static_cast<std::size_t>(expected.size());
      const char* at = reinterpret_cast<const char*>(value.ptr()) + sizeof(PyObject);
      if (size <= 16 && std::memcmp(at, expected.c_str(), size) == 0) {
        t->push_back({Py_TYPE(value.ptr()), size});
      }
    }
    return t;
  }();
  return *table;
}

// A byte count (shared_mem): an int, as CuPy's size_t parameter takes (None is a TypeError there too).
unsigned to_unsigned(PyObject* o, const char* what) {
  unsigned long v;
  if (PyLong_CheckExact(o)) {
    v = PyLong_AsUnsignedLong(o);
  } else {
    PyObject* idx = PyNumber_Index(o);
    if (!idx) {
      PyErr_Clear();
      throw type_error(std::string(what) + " must be an int (a number of bytes), not " + type_name_of(o));
    }
    v = PyLong_AsUnsignedLong(idx);
    Py_DECREF(idx);
  }
  if (v == static_cast<unsigned long>(-1) && PyErr_Occurred()) throw nb::python_error();
  if (v > 0xFFFFFFFFul) throw value_error(std::string(what) + " of " + std::to_string(v) + " bytes is too large");
  return static_cast<unsigned>(v);
}

// One extent of grid or block: an int (TypeError otherwise) of at least 1 (ValueError otherwise, before the
// driver would refuse the launch).
unsigned to_extent(PyObject* o, const char* what) {
  PyObject* idx = PyNumber_Index(o);
  if (!idx) {
    PyErr_Clear();
    throw type_error(std::string(what) + " must be an int or a tuple of ints, not " + type_name_of(o));
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow > 0 || v > 0xFFFFFFFFll) {
    throw value_error(std::string(what) + " extent " + nb::cast<std::string>(nb::str(nb::handle(o))) + " is too large");
  }
  if (overflow < 0 || v < 1) {
    throw value_error(std::string(what) + " extents must be positive, got " +
                      nb::cast<std::string>(nb::str(nb::handle(o))));
  }
  return static_cast<unsigned>(v);
}

// grid and block: an int or a tuple of 1 to 3 ints (CuPy takes tuples; a list is a TypeError there too).
kernel_dim to_dim(PyObject* o, const char* what) {
  if (PyTuple_Check(o)) {
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    if (n < 1 || n > 3) throw value_error(std::string(what) + " must have 1 to 3 extents, got " + std::to_string(n));
    return kernel_dim(to_extent(PyTuple_GET_ITEM(o, 0), what), n > 1 ? to_extent(PyTuple_GET_ITEM(o, 1), what) : 1u,
                      n > 2 ? to_extent(PyTuple_GET_ITEM(o, 2), what) : 1u);
  }
  if (PyLong_Check(o) || PyObject_HasAttrString(o, "__index__")) return kernel_dim(to_extent(o, what));
  throw type_error(std::string(what) + " must be an int or a tuple of ints, not " + type_name_of(o));
}

/// Kernel arguments as the driver wants them, in a stack buffer (a heap one past `inline_args`).
struct arg_pack {
  static constexpr std::size_t inline_args = 32;
  alignas(16) unsigned char bytes[inline_args][16];
  void* params_buf[inline_args];
  std::size_t sizes_buf[inline_args];
  std::vector<std::string> big;  // values of more than 16 bytes (structured NumPy scalars)
  std::vector<void*> params_heap;
  std::vector<std::size_t> sizes_heap;
  std::vector<std::array<unsigned char, 16>> bytes_heap;
  void** params = params_buf;
  std::size_t* sizes = sizes_buf;
  unsigned char (*slots)[16] = bytes;

  explicit arg_pack(std::size_t n) {
    if (n > inline_args) {
      params_heap.resize(n);
      sizes_heap.resize(n);
      bytes_heap.resize(n);
      params = params_heap.data();
      sizes = sizes_heap.data();
      slots = reinterpret_cast<unsigned char(*)[16]>(bytes_heap.data());
    }
  }
  template <class T> void put(std::size_t k, const T& v) {
    std::memcpy(slots[k], &v, sizeof(T));
    params[k] = slots[k];
    sizes[k] = sizeof(T);
  }
  void put_bytes(std::size_t k, const void* p, std::size_t n) {
    if (n <= 16) {
      std::memcpy(slots[k], p, n);
      params[k] = slots[k];
    } else {
      big.emplace_back(static_cast<const char*>(p), n);
      params[k] = big.back().data();
    }
    sizes[k] = n;
  }
};

// Everything but the common exact types: subclasses, complex, NumPy scalars of other layouts, pointers.
void put_slow(arg_pack& pack, std::size_t k, PyObject* o) {
  if (is_ndarray(nb::handle(o))) {
    pack.put(k, as_py_array(nb::handle(o)).a.data());
  } else if (PyBool_Check(o)) {
    pack.put(k, static_cast<unsigned char>(o == Py_True));
  } else if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw nb::python_error();
      pack.put(k, u);
      return;
    }
    if (overflow < 0) throw overflow_error("kernel argument " + std::to_string(k) + " is out of range for int64");
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    pack.put(k, v);
  } else if (PyFloat_Check(o)) {
    pack.put(k, PyFloat_AS_DOUBLE(o));
  } else if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    double v[2] = {c.real, c.imag};
    pack.put_bytes(k, v, sizeof(v));
  } else {
    nb::handle h(o);
    static nb::object generic = numpy().attr("generic");
    static nb::object host_array = numpy().attr("ndarray");
    if (PyObject_IsInstance(o, generic.ptr()) == 1) {
      nb::bytes raw = nb::cast<nb::bytes>(h.attr("tobytes")());
      pack.put_bytes(k, raw.c_str(), raw.size());
    } else if (PyObject_IsInstance(o, host_array.ptr()) == 1) {
      throw type_error("kernel argument " + std::to_string(k) +
                       " is a numpy.ndarray in host memory: move it to the device with cuarray.asarray()");
    } else if (nb::hasattr(h, "ptr")) {  // MemoryPointer and friends
      pack.put(k, static_cast<std::uintptr_t>(nb::cast<std::uintptr_t>(h.attr("ptr"))));
    } else if (nb::hasattr(h, "__cuda_array_interface__")) {
      nb::object data = h.attr("__cuda_array_interface__")["data"];
      pack.put(k, static_cast<std::uintptr_t>(nb::cast<std::uintptr_t>(data[0])));
    } else {
      throw type_error("Unsupported kernel argument type " + type_name_of(o));
    }
  }
}

void put_arg(arg_pack& pack, std::size_t k, PyObject* o) {
  PyTypeObject* t = Py_TYPE(o);
  if (t == g_ndarray) {
    pack.put(k, nb::inst_ptr<py_array>(o)->a.data());
    return;
  }
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0 && !(v == -1 && PyErr_Occurred())) {
      pack.put(k, v);
      return;
    }
    PyErr_Clear();
  } else if (t == &PyFloat_Type) {
    pack.put(k, PyFloat_AS_DOUBLE(o));
    return;
  } else {
    for (const numpy_scalar_type& n : numpy_scalar_types()) {
      if (n.type == t) {
        pack.put_bytes(k, reinterpret_cast<const char*>(o) + sizeof(PyObject), n.size);
        return;
      }
    }
  }
  put_slow(pack, k, o);
}

stream_ref stream_of(PyObject* s) {
  if (s == Py_None) return current_stream();
  nb::handle h(s);
  if (PyLong_Check(s)) return stream_ref(reinterpret_cast<CUstream_st*>(nb::cast<std::uintptr_t>(h)));
  if (!nb::hasattr(h, "ptr")) throw type_error("stream must be a cuarray.cuda.Stream, not " + type_name_of(s));
  return stream_ref(reinterpret_cast<CUstream_st*>(nb::cast<std::uintptr_t>(h.attr("ptr"))));
}

PyObject* raw_kernel_call(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  return guarded([&]() -> nb::object {
    if (!nb::inst_ready(nb::handle(self))) throw type_error("RawKernel is not initialised: call RawKernel.__init__");
    const raw_kernel& k = *nb::inst_ptr<raw_kernel>(self);
    // CuPy's RawKernel.__call__(grid, block, args, *, shared_mem=0, stream=None): the first three by position
    // or by keyword.
    Py_ssize_t npos = PyTuple_GET_SIZE(args);
    if (npos > 3) {
      throw type_error("RawKernel.__call__() takes 3 positional arguments (grid, block, args) but " +
                       std::to_string(npos) + " were given");
    }
    static const char* const names[3] = {"grid", "block", "args"};
    PyObject* given[3] = {nullptr, nullptr, nullptr};
    for (Py_ssize_t i = 0; i < npos; ++i) given[i] = PyTuple_GET_ITEM(args, i);
    unsigned shared_mem = 0;
    PyObject* stream = Py_None;
    // Keywords are checked before grid and block, as CuPy's call signature converts shared_mem (a size_t) before
    // its body looks at grid and block: shared_mem=None with a bad grid is a TypeError in both.
    if (kwargs) {
      Py_ssize_t pos = 0;
      PyObject *key, *value;
      while (PyDict_Next(kwargs, &pos, &key, &value)) {
        if (PyUnicode_CompareWithASCIIString(key, "shared_mem") == 0) {
          shared_mem = to_unsigned(value, "shared_mem");
          continue;
        }
        if (PyUnicode_CompareWithASCIIString(key, "stream") == 0) {
          stream = value;
          continue;
        }
        int slot = -1;
        for (int i = 0; i < 3; ++i) {
          if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) slot = i;
        }
        if (slot < 0) {
          throw type_error("RawKernel.__call__() got an unexpected keyword argument '" +
                           nb::cast<std::string>(nb::handle(key)) + "'");
        }
        if (given[slot]) {
          throw type_error(std::string("RawKernel.__call__() got multiple values for argument '") + names[slot] + "'");
        }
        given[slot] = value;
      }
    }
    for (int i = 0; i < 3; ++i) {
      if (!given[i]) {
        throw type_error(std::string("RawKernel.__call__() missing required argument '") + names[i] + "'");
      }
    }
    kernel_dim grid = to_dim(given[0], "grid");
    kernel_dim block = to_dim(given[1], "block");
    PyObject* list = given[2];
    // CuPy's `args` is a tuple; a list is refused as there rather than taken silently.
    if (!PyTuple_Check(list)) throw type_error("kernel arguments must be given as a tuple, not " + type_name_of(list));
    auto n = static_cast<std::size_t>(PyTuple_GET_SIZE(list));
    PyObject** items = &PyTuple_GET_ITEM(list, 0);
    arg_pack pack(n);
    for (std::size_t i = 0; i < n; ++i) put_arg(pack, i, items[i]);
    k.launch_params(grid, block, pack.params, pack.sizes, n, shared_mem, stream_of(stream));
    return nb::none();
  });
}

PyType_Slot raw_kernel_slots[] = {{Py_tp_call, reinterpret_cast<void*>(raw_kernel_call)}, {0, nullptr}};

// Note [jit launch]
// A cuarray.jit kernel takes an array argument as its pointer, size, ndim extents and ndim byte strides
// (int64s; transpile() in jit/_compile.py) and a scalar in the type its signature fixed. The warm launch
// (jit/_interface.py) is one call of `_jit_call(cache, grid, block, args, shared_mem, stream, numpy_mode)`:
// it builds a bytes key of the arguments' compile-time types (4 bytes a argument, after the current
// device), finds (RawKernel, codes) in the kernel's dict and packs the arguments straight from the objects,
// so a launch makes no Python object but the key. It returns None once launched; on a miss the key, or False
// when an argument has no fast key (subclasses, unsupported types: Python's arg_type decides). `codes` has
// one byte a argument: 'A' an array as above, 'i' / 'f' / 'F' an int / float / complex converted to int32 /
// float32 / complex64 (CuPy's 'cuda' mode typing of Python scalars), '.' packed as RawKernel packs it.

PyTypeObject* g_raw_kernel_type = nullptr;

std::size_t jit_slot_count(PyObject* const* items, std::size_t n, const char* codes) {
  std::size_t slots = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (codes[i] == 'A' && is_ndarray(nb::handle(items[i]))) {
      slots += 2 + 2 * static_cast<std::size_t>(as_py_array(nb::handle(items[i])).a.ndim());
    } else {
      slots += 1;
    }
  }
  return slots;
}

void put_jit_args(arg_pack& pack, PyObject* const* items, std::size_t n, const char* codes) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* o = items[i];
    switch (codes[i]) {
      case 'A': {
        if (!is_ndarray(nb::handle(o))) {
          throw type_error("kernel argument " + std::to_string(i) + " must be a cuarray.ndarray, not " +
                           type_name_of(o) + " (a numpy.ndarray is in host memory: move it to the device with " +
                           "cuarray.asarray())");
        }
        const array& a = as_py_array(nb::handle(o)).a;
        pack.put(k++, a.data());
        pack.put(k++, static_cast<long long>(a.size()));
        for (int d = 0; d < a.ndim(); ++d) pack.put(k++, static_cast<long long>(a.shape()[d]));
        for (int d = 0; d < a.ndim(); ++d) pack.put(k++, static_cast<long long>(a.strides()[d]));
        break;
      }
      // A NumPy int32 / float32 / complex64 scalar (the only ones these codes meet besides Python's) is
      // copied as it is by put_arg.
      case 'i': {
        if (!PyLong_Check(o)) {
          put_arg(pack, k++, o);
          break;
        }
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) throw nb::python_error();
        if (v < INT32_MIN || v > INT32_MAX) {
          throw overflow_error("kernel argument " + std::to_string(i) + " is out of range for int32");
        }
        pack.put(k++, static_cast<std::int32_t>(v));
        break;
      }
      case 'f': {
        if (!PyFloat_Check(o)) {
          put_arg(pack, k++, o);
          break;
        }
        double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        pack.put(k++, static_cast<float>(v));
        break;
      }
      case 'F': {
        if (!PyComplex_Check(o)) {
          put_arg(pack, k++, o);
          break;
        }
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred()) throw nb::python_error();
        float v[2] = {static_cast<float>(c.real), static_cast<float>(c.imag)};
        pack.put_bytes(k++, v, sizeof(v));
        break;
      }
      default: put_arg(pack, k++, o);
    }
  }
}

// The kernel and codes of a (RawKernel, codes) entry; TypeError for anything else.
const raw_kernel& jit_entry(PyObject* kern, PyObject* codes, std::size_t nargs, const char** code_bytes) {
  if (!PyObject_TypeCheck(kern, g_raw_kernel_type) || !nb::inst_ready(nb::handle(kern))) {
    throw type_error("cuarray.jit: the kernel cache holds " + type_name_of(kern) + ", not a RawKernel");
  }
  if (!PyBytes_Check(codes) || static_cast<std::size_t>(PyBytes_GET_SIZE(codes)) != nargs) {
    throw type_error("cuarray.jit: the argument codes do not match the " + std::to_string(nargs) + " arguments");
  }
  *code_bytes = PyBytes_AS_STRING(codes);
  return *nb::inst_ptr<raw_kernel>(kern);
}

void jit_launch(const raw_kernel& k, const char* codes, PyObject* args, PyObject* grid, PyObject* block,
                PyObject* shared_mem, PyObject* stream) {
  kernel_dim g = to_dim(grid, "grid");
  kernel_dim b = to_dim(block, "block");
  unsigned smem = to_unsigned(shared_mem, "shared_mem");
  auto n = static_cast<std::size_t>(PyTuple_GET_SIZE(args));
  PyObject* const* items = &PyTuple_GET_ITEM(args, 0);
  std::size_t slots = jit_slot_count(items, n, codes);
  arg_pack pack(slots);
  put_jit_args(pack, items, n, codes);
  k.launch_params(g, b, pack.params, pack.sizes, slots, smem, stream_of(stream));
}

// The key of Note [jit launch]: false when an argument's type has no 4-byte form here.
bool jit_key(PyObject* args, bool numpy_mode, std::string& key) {
  auto n = static_cast<std::size_t>(PyTuple_GET_SIZE(args));
  key.resize(4 + 4 * n);
  auto dev = static_cast<std::int32_t>(current_device());
  std::memcpy(key.data(), &dev, 4);
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* o = PyTuple_GET_ITEM(args, i);
    PyTypeObject* t = Py_TYPE(o);
    char* r = key.data() + 4 + 4 * i;
    r[1] = r[2] = r[3] = 0;
    if (t == g_ndarray) {
      const array& a = nb::inst_ptr<py_array>(o)->a;
      r[0] = 'A';
      r[1] = static_cast<char>(a.type());
      r[2] = static_cast<char>(a.ndim());
      r[3] = static_cast<char>(a.is_c_contiguous());
    } else if (t == &PyLong_Type) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      if (overflow < 0) return false;  // out of range: arg_type raises OverflowError
      if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
          PyErr_Clear();
          return false;
        }
        r[0] = 'L';
      } else {
        r[0] = !numpy_mode && v >= INT32_MIN && v <= INT32_MAX ? 'i' : 'l';
      }
    } else if (t == &PyFloat_Type) {
      r[0] = 'f';
    } else if (t == &PyBool_Type) {
      r[0] = '?';
    } else if (t == &PyComplex_Type) {
      r[0] = 'c';
    } else {
      const auto& table = numpy_scalar_types();
      std::size_t j = 0;
      while (j < table.size() && table[j].type != t) ++j;
      if (j == table.size()) return false;
      r[0] = 'n';
      r[1] = static_cast<char>(j);
    }
  }
  return true;
}

// _jit_call(cache, grid, block, args, shared_mem, stream, numpy_mode): Note [jit launch].
PyObject* jit_call(PyObject*, PyObject* const* argv, Py_ssize_t argc) noexcept {
  return guarded([&]() -> nb::object {
    if (argc != 7) throw type_error("_jit_call takes 7 arguments");
    PyObject* cache = argv[0];
    PyObject* args = argv[3];
    if (!PyDict_Check(cache) || !PyTuple_Check(args)) return nb::borrow(Py_False);
    thread_local std::string key;
    if (!jit_key(args, argv[6] == Py_True, key)) return nb::borrow(Py_False);
    nb::object k = nb::steal(PyBytes_FromStringAndSize(key.data(), static_cast<Py_ssize_t>(key.size())));
    if (!k) throw nb::python_error();
    PyObject* entry = PyDict_GetItemWithError(cache, k.ptr());  // borrowed
    if (!entry) {
      if (PyErr_Occurred()) throw nb::python_error();
      return k;
    }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) throw type_error("cuarray.jit: bad kernel cache entry");
    auto n = static_cast<std::size_t>(PyTuple_GET_SIZE(args));
    const char* codes = nullptr;
    const raw_kernel& kern = jit_entry(PyTuple_GET_ITEM(entry, 0), PyTuple_GET_ITEM(entry, 1), n, &codes);
    jit_launch(kern, codes, args, argv[1], argv[2], argv[4], argv[5]);
    return nb::none();
  });
}

PyMethodDef jit_call_def = {"_jit_call", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(jit_call)),
                            METH_FASTCALL, "cuarray.jit's warm launch (Note [jit launch] in python/src/raw.cpp)."};

std::vector<std::string> to_strings(nb::handle seq) {
  std::vector<std::string> out;
  if (seq.is_none()) return out;
  for (nb::handle h : seq) out.push_back(nb::cast<std::string>(h));
  return out;
}

nb::dict attributes_dict(const raw_kernel& k) {
  kernel_attributes a = k.attributes();
  nb::dict d;
  d["max_threads_per_block"] = a.max_threads_per_block;
  d["shared_size_bytes"] = a.shared_size_bytes;
  d["const_size_bytes"] = a.const_size_bytes;
  d["local_size_bytes"] = a.local_size_bytes;
  d["num_regs"] = a.num_regs;
  d["ptx_version"] = a.ptx_version;
  d["binary_version"] = a.binary_version;
  d["max_dynamic_shared_size_bytes"] = a.max_dynamic_shared_size_bytes;
  d["preferred_shared_memory_carveout"] = a.preferred_shared_memory_carveout;
  return d;
}

template <int A> int get_attr(const raw_kernel& k) { return k.attribute(A); }

}  // namespace

void init_raw(nb::module_& m) {
  g_ndarray = reinterpret_cast<PyTypeObject*>(ndarray_type().ptr());

  nb::class_<raw_module>(m, "_RawModule")
      .def(
          "__init__",
          [](raw_module* self, nb::handle code, nb::handle path, nb::handle options, nb::handle names,
             bool cooperative) {
    if (!code.is_none()) {
      new (self) raw_module(
          raw_module::from_source(nb::cast<std::string>(code), to_strings(options), to_strings(names), cooperative));
    } else if (!path.is_none()) {
      new (self) raw_module(raw_module::from_file(nb::cast<std::string>(nb::str(path)), cooperative));
    } else {
      throw type_error("RawModule needs code or path");
    }
          },
          nb::arg("code").none(), nb::arg("path").none(), nb::arg("options").none(), nb::arg("name_expressions").none(),
          nb::arg("enable_cooperative_groups") = false)
      .def("compile", &raw_module::compile)
      .def("lowered_name", &raw_module::lowered_name)
      .def("get_global", [](const raw_module& mod, const std::string& name) {
        auto [p, bytes] = mod.get_global(name);
        return py_memory_pointer{make_external_storage(p, bytes, current_device(), {}), 0};
      });

  nb::class_<raw_kernel>(m, "_RawKernel", nb::type_slots(raw_kernel_slots))
      .def(
          "__init__",
          [](raw_kernel* self, const std::string& code, const std::string& name, nb::handle options, bool cooperative) {
    new (self) raw_kernel(code, name, to_strings(options), cooperative);
          },
          nb::arg("code"), nb::arg("name"), nb::arg("options").none(), nb::arg("enable_cooperative_groups") = false)
      .def(
          "__init__",
          [](raw_kernel* self, const raw_module& mod, const std::string& name) { new (self) raw_kernel(mod, name); },
          nb::arg("module"), nb::arg("name"))
      .def("compile", &raw_kernel::compile)
      .def_prop_ro("attributes", &attributes_dict)
      .def_prop_ro("max_threads_per_block", &get_attr<CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK>)
      .def_prop_ro("shared_size_bytes", &get_attr<CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES>)
      .def_prop_ro("const_size_bytes", &get_attr<CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES>)
      .def_prop_ro("local_size_bytes", &get_attr<CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES>)
      .def_prop_ro("num_regs", &get_attr<CU_FUNC_ATTRIBUTE_NUM_REGS>)
      .def_prop_ro("ptx_version", &get_attr<CU_FUNC_ATTRIBUTE_PTX_VERSION>)
      .def_prop_ro("binary_version", &get_attr<CU_FUNC_ATTRIBUTE_BINARY_VERSION>)
      .def_prop_rw("max_dynamic_shared_size_bytes", &raw_kernel::max_dynamic_shared_size_bytes,
                   &raw_kernel::set_max_dynamic_shared_size_bytes)
      .def_prop_rw("preferred_shared_memory_carveout", &raw_kernel::preferred_shared_memory_carveout,
                   &raw_kernel::set_preferred_shared_memory_carveout)
      .def_prop_ro("cooperative", &raw_kernel::cooperative);

  // The launch floor of the benchmarks: `n` launches of an empty kernel from a C++ loop, then the time per
  // launch in microseconds (host clock, no synchronisation inside the loop).
  m.def("_launch_floor_us", [](int n) {
    static const raw_kernel* k = new raw_kernel("extern \"C\" __global__ void ca_empty_kernel() {}", "ca_empty_kernel");
    CUfunction f = k->handle();
    auto s = reinterpret_cast<CUstream>(current_stream().get());
    const jit::driver_api& d = jit::driver();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
      jit::check(d.cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, nullptr, nullptr), "cuLaunchKernel");
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
  });
  m.def("_dry_launches", &jit::set_dry_launches, nb::arg("on"));  // diagnostics: jit::set_dry_launches
  g_raw_kernel_type = reinterpret_cast<PyTypeObject*>(nb::type<raw_kernel>().ptr());
  m.attr("_jit_call") = nb::steal(PyCFunction_NewEx(&jit_call_def, nullptr, nullptr));
  // The cold launch of Note [jit launch] (the entry's kernel and codes given), and its packing alone (tests).
  m.def(
      "_jit_launch",
      [](nb::handle kern, nb::handle codes, nb::handle grid, nb::handle block, nb::handle args, nb::handle shared_mem,
         nb::handle stream) {
    if (!PyTuple_Check(args.ptr())) throw type_error("kernel arguments must be given as a tuple");
    const char* c = nullptr;
    auto n = static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr()));
    const raw_kernel& k = jit_entry(kern.ptr(), codes.ptr(), n, &c);
    jit_launch(k, c, args.ptr(), grid.ptr(), block.ptr(), shared_mem.ptr(), stream.ptr());
      },
      nb::arg("kernel"), nb::arg("codes"), nb::arg("grid"), nb::arg("block"), nb::arg("args"),
      nb::arg("shared_mem").none(), nb::arg("stream").none());  // nanobind refuses None unless told
  m.def("_jit_pack", [](nb::bytes codes, nb::tuple args) {
    auto n = static_cast<std::size_t>(args.size());
    if (static_cast<std::size_t>(codes.size()) != n) throw value_error("one code per argument");
    PyObject* const* items = &PyTuple_GET_ITEM(args.ptr(), 0);
    std::size_t slots = jit_slot_count(items, n, codes.c_str());
    arg_pack pack(slots);
    put_jit_args(pack, items, n, codes.c_str());
    nb::list out;
    for (std::size_t i = 0; i < slots; ++i) {
      out.append(nb::bytes(static_cast<const char*>(pack.params[i]), pack.sizes[i]));
    }
    return out;
  });
  // Diagnostics of the driver's share (benchmarks only): `n` launches of a kernel with three pointer and
  // one int parameters (an elementwise add's signature), passed as kernelParams (mode 0) or as one packed
  // buffer through `extra` (mode 1). Host microseconds per launch, no synchronisation inside the loop.
  m.def("_launch_params_us", [](int n, int mode, nb::handle a) {
    static const raw_kernel* k = new raw_kernel(
        "extern \"C\" __global__ void ca_params_kernel(const float* a, const float* b, float* c, int n) {"
        " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }",
        "ca_params_kernel");
    CUfunction f = k->handle();
    auto s = reinterpret_cast<CUstream>(current_stream().get());
    const jit::driver_api& d = jit::driver();
    void* p = as_py_array(a).a.data();
    int one = 1;
    void* params[4] = {&p, &p, &p, &one};
    struct {
      void* a;
      void* b;
      void* c;
      int n;
    } packed{p, p, p, 1};
    std::size_t size = offsetof(decltype(packed), n) + sizeof(int);  // the parameters' size, without tail padding
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      if (mode == 0) jit::check(d.cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, s, params, nullptr), "cuLaunchKernel");
      else jit::check(d.cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, s, nullptr, extra), "cuLaunchKernel");
    }
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
}

}  // namespace cuarray::py
