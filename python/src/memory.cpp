// Bindings of device memory, the pools, the current allocator, and pinned host memory.
#include <cuda_runtime_api.h>
#include <nanobind/stl/shared_ptr.h>

#include <cstring>
#include <string>

#include "common.hpp"
#include "src/cuda/cuda.hpp"

namespace cuarray::py {

namespace {

/// CuPy's Memory: the block itself.
struct py_memory {
  storage_ptr mem;
};
/// CuPy's ManagedMemory (cudaMallocManaged) and UnownedMemory (a block owned by another object).
struct py_managed_memory : py_memory {};
struct py_unowned_memory : py_memory {};

// The device whose memory `ptr` is; the current device for host or unregistered pointers (as CuPy's
// UnownedMemory does without device_id).
int device_of_pointer(std::uintptr_t ptr) {
  if (ptr == 0) return current_device();
  cudaPointerAttributes attr{};
  cudaError_t st = detail::cudart().cudaPointerGetAttributes(&attr, reinterpret_cast<const void*>(ptr));
  if (st != cudaSuccess) {
    (void)detail::cudart().cudaGetLastError();
    throw cuda_error(static_cast<int>(st), detail::runtime_status_message(st));
  }
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) return attr.device;
  return current_device();
}

struct py_pinned_pointer {
  pinned_ptr mem;
  std::int64_t offset = 0;
  std::size_t size() const { return mem ? mem->size() - static_cast<std::size_t>(offset) : 0; }
  void* ptr() const { return mem ? static_cast<char*>(mem->ptr()) + offset : nullptr; }
};

int pinned_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  py_pinned_pointer* p = nb::inst_ptr<py_pinned_pointer>(self);
  return PyBuffer_FillInfo(view, self, p->ptr(), static_cast<Py_ssize_t>(p->size()), 0, flags);
}

PyType_Slot pinned_slots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(pinned_getbuffer)}, {0, nullptr}};

// Holds a Python object; drops it with the GIL held, from whichever thread releases the memory.
std::shared_ptr<void> hold_python(nb::object obj) {
  PyObject* raw = obj.release().ptr();
  return std::shared_ptr<void>(raw, [](void* p) {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE st = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(p));
    PyGILState_Release(st);
  });
}

/// An allocator that calls a Python function (CuPy's set_allocator(func) with func(size) -> MemoryPointer).
class python_allocator final : public allocator {
public:
  explicit python_allocator(nb::object func) : func_(std::move(func)) {}
  storage_ptr allocate(std::size_t bytes, int device, stream_ref) override {
    nb::gil_scoped_acquire gil;
    nb::object r = func_(bytes);
    if (nb::isinstance<py_memory_pointer>(r)) {
      auto& p = nb::cast<py_memory_pointer&>(r);
      if (p.offset == 0) return p.mem;
    }
    std::uintptr_t ptr = nb::cast<std::uintptr_t>(r.attr("ptr"));
    auto keep = hold_python(r);
    return make_external_storage(reinterpret_cast<void*>(ptr), bytes, device, [keep]() mutable { keep.reset(); });
  }

private:
  nb::object func_;
};

py_memory_pointer pointer_to(storage_ptr s) { return py_memory_pointer{std::move(s), 0, {}}; }

std::size_t limit_from(nb::handle size, nb::handle fraction) {
  if (!size.is_none() && !fraction.is_none()) throw value_error("size and fraction cannot be specified at one time");
  if (!fraction.is_none()) {
    double f = nb::cast<double>(fraction);
    if (f < 0 || f > 1) throw value_error("memory limit fraction out of range");
    return static_cast<std::size_t>(f * static_cast<double>(mem_info(current_device()).second));
  }
  if (size.is_none()) return 0;
  long long v = nb::cast<long long>(size);
  if (v < 0) throw value_error("memory limit size must be non-negative");
  return static_cast<std::size_t>(v);
}

}  // namespace

void init_memory(nb::module_& m) {
  nb::class_<py_memory>(m, "Memory")
      .def(
          "__init__",
          [](py_memory* self, std::size_t size) {
    // CuPy's Memory(size): cudaMalloc on the current device, no pool.
    int dev = current_device();
    new (self) py_memory{plain_allocator().allocate(size, dev, current_stream(dev))};
          },
          nb::arg("size"))
      .def_prop_ro("ptr", [](const py_memory& p) { return reinterpret_cast<std::uintptr_t>(p.mem->ptr()); })
      .def_prop_ro("size", [](const py_memory& p) { return p.mem->size(); })
      .def_prop_ro("device_id", [](const py_memory& p) { return p.mem->device(); });

  nb::class_<py_managed_memory, py_memory>(m, "ManagedMemory")
      .def(
          "__init__",
          [](py_managed_memory* self, std::size_t size) {
    new (self) py_managed_memory{{malloc_managed(size, current_device())}};
          },
          nb::arg("size"));

  nb::class_<py_unowned_memory, py_memory>(m, "UnownedMemory")
      .def(
          "__init__",
          [](py_unowned_memory* self, std::uintptr_t ptr, std::size_t size, nb::object owner, nb::handle device_id) {
    int dev = device_id.is_none() ? device_of_pointer(ptr) : nb::cast<int>(device_id);
    auto keep = hold_python(std::move(owner));
    new (self) py_unowned_memory{
        {make_external_storage(reinterpret_cast<void*>(ptr), size, dev, [keep]() mutable { keep.reset(); })}};
          },
          nb::arg("ptr"), nb::arg("size"), nb::arg("owner"), nb::arg("device_id") = nb::none());

  nb::class_<py_memory_pointer>(m, "MemoryPointer")
      .def(
          "__init__",
          [](py_memory_pointer* self, nb::handle mem, std::int64_t offset) {
    if (!nb::isinstance<py_memory>(mem)) {
      throw type_error("MemoryPointer(mem, offset): mem must be a cuarray.cuda.Memory, not " +
                       nb::cast<std::string>(nb::str(mem.type().attr("__name__"))));
    }
    new (self) py_memory_pointer{nb::cast<py_memory&>(mem).mem, offset, nb::borrow(mem)};
          },
          nb::arg("mem"), nb::arg("offset"))
      .def_prop_ro("ptr", &py_memory_pointer::ptr)
      .def_prop_ro("device_id", [](const py_memory_pointer& p) { return p.mem ? p.mem->device() : 0; })
      .def_prop_ro("mem",
                   [](const py_memory_pointer& p) -> nb::object {
                     if (p.mem_object.is_valid()) return p.mem_object;
                     return nb::cast(py_memory{p.mem});
                   })
      .def_prop_ro(
          "size",
          [](const py_memory_pointer& p) { return p.mem ? p.mem->size() - static_cast<std::size_t>(p.offset) : 0; })
      .def("__int__", &py_memory_pointer::ptr)
      .def(
          "__add__",
          [](const py_memory_pointer& p, std::int64_t off) {
    return py_memory_pointer{p.mem, p.offset + off, p.mem_object};
          })
      .def(
          "__radd__",
          [](const py_memory_pointer& p, std::int64_t off) {
    return py_memory_pointer{p.mem, p.offset + off, p.mem_object};
          })
      .def(
          "__iadd__",
          [](const py_memory_pointer& p, std::int64_t off) {
    return py_memory_pointer{p.mem, p.offset + off, p.mem_object};
          })
      .def(
          "__sub__",
          [](const py_memory_pointer& p, std::int64_t off) {
    return py_memory_pointer{p.mem, p.offset - off, p.mem_object};
          })
      .def(
          "__isub__",
          [](const py_memory_pointer& p, std::int64_t off) {
    return py_memory_pointer{p.mem, p.offset - off, p.mem_object};
          })
      .def("__repr__", [](const py_memory_pointer& p) {
        return nb::str("<cuarray.cuda.MemoryPointer 0x{:x} device={}>").format(p.ptr(), p.mem ? p.mem->device() : 0);
      });

  nb::class_<memory_pool>(m, "MemoryPool")
      .def(nb::init<>())
      .def(
          "malloc",
          [](memory_pool& p, std::size_t size) {
    int dev = current_device();
    return pointer_to(p.allocate(size, dev, current_stream(dev)));
          })
      .def("used_bytes", &memory_pool::used_bytes)
      .def("total_bytes", &memory_pool::total_bytes)
      .def("free_bytes", &memory_pool::free_bytes)
      .def("n_free_blocks", &memory_pool::n_free_blocks)
      .def("free_all_free", [](memory_pool& p) { p.free_all_blocks(); })  // CuPy's older name
      .def(
          "free_all_blocks",
          [](memory_pool& p, nb::handle stream) {
    if (stream.is_none()) p.free_all_blocks();
    else p.free_all_blocks(stream_ref(reinterpret_cast<CUstream_st*>(nb::cast<std::uintptr_t>(stream.attr("ptr")))));
          },
          nb::arg("stream") = nb::none())
      .def(
          "set_limit",
          [](memory_pool& p, nb::handle size, nb::handle fraction) { p.set_limit(limit_from(size, fraction)); },
          nb::arg("size") = nb::none(), nb::arg("fraction") = nb::none())
      .def("get_limit", &memory_pool::get_limit);

  nb::class_<async_memory_pool>(m, "MemoryAsyncPool")
      .def(nb::init<>())
      .def(
          "malloc",
          [](async_memory_pool& p, std::size_t size) {
    int dev = current_device();
    return pointer_to(p.allocate(size, dev, current_stream(dev)));
          })
      .def("used_bytes", &async_memory_pool::used_bytes)
      .def("total_bytes", &async_memory_pool::total_bytes)
      .def("free_bytes", &async_memory_pool::free_bytes)
      .def(
          "free_all_blocks", [](async_memory_pool& p, nb::handle) { p.free_all_blocks(); },
          nb::arg("stream") = nb::none())
      .def(
          "set_limit",
          [](async_memory_pool& p, nb::handle size, nb::handle fraction) { p.set_limit(limit_from(size, fraction)); },
          nb::arg("size") = nb::none(), nb::arg("fraction") = nb::none())
      .def("get_limit", &async_memory_pool::get_limit);

  m.def("get_default_memory_pool", [] { return default_memory_pool(); });

  // The current allocator: a pool of ours (no Python in the allocation path), a Python callable, or
  // plain cudaMalloc (None).
  m.def("set_allocator_pool", [](std::shared_ptr<memory_pool> p, bool thread_only) {
    if (thread_only) set_thread_allocator(p);
    else set_allocator(p);
  });
  m.def("set_allocator_async_pool", [](std::shared_ptr<async_memory_pool> p, bool thread_only) {
    if (thread_only) set_thread_allocator(p);
    else set_allocator(p);
  });
  m.def("set_allocator_plain", [](bool thread_only) {
    auto a = std::make_shared<plain_allocator>();
    if (thread_only) set_thread_allocator(a);
    else set_allocator(a);
  });
  m.def("set_allocator_python", [](nb::object func, bool thread_only) {
    auto a = std::make_shared<python_allocator>(std::move(func));
    if (thread_only) set_thread_allocator(a);
    else set_allocator(a);
  });
  m.def("reset_allocator", [](bool thread_only) {
    if (thread_only) set_thread_allocator(nullptr);
    else set_allocator(nullptr);
  });
  m.def("alloc", [](std::size_t size) { return pointer_to(allocate(size)); });
  m.def("malloc_managed", [](std::size_t size) {
    py_managed_memory mem{{malloc_managed(size, current_device())}};
    storage_ptr s = mem.mem;
    return py_memory_pointer{std::move(s), 0, nb::cast(std::move(mem))};
  });

  nb::class_<py_pinned_pointer>(m, "PinnedMemoryPointer", nb::type_slots(pinned_slots))
      .def_prop_ro("ptr", [](const py_pinned_pointer& p) { return reinterpret_cast<std::uintptr_t>(p.ptr()); })
      .def("size", &py_pinned_pointer::size)
      .def("__int__", [](const py_pinned_pointer& p) { return reinterpret_cast<std::uintptr_t>(p.ptr()); })
      .def("__add__", [](const py_pinned_pointer& p, std::int64_t off) {
        return py_pinned_pointer{p.mem, p.offset + off};
      });

  nb::class_<pinned_memory_pool>(m, "PinnedMemoryPool")
      .def(nb::init<>())
      .def(
          "malloc",
          [](pinned_memory_pool& p, std::size_t size) {
    return py_pinned_pointer{p.allocate(size), 0};
          })
      .def("n_free_blocks", &pinned_memory_pool::n_free_blocks)
      .def("free_all_blocks", &pinned_memory_pool::free_all_blocks);
  m.def("get_default_pinned_memory_pool", [] { return default_pinned_memory_pool(); });
  m.def("alloc_pinned_memory_unpooled", [](std::size_t size) {
    auto pool = std::make_shared<pinned_memory_pool>();
    return py_pinned_pointer{pool->allocate(size), 0};
  });
  m.def("is_pinned", [](std::uintptr_t ptr) { return is_pinned(reinterpret_cast<const void*>(ptr)); });
}

}  // namespace cuarray::py
