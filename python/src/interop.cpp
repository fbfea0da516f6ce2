// Zero-copy exchange with other libraries: __cuda_array_interface__ (v3) and DLPack (0.x and 1.x capsules).
#include <cuda_runtime_api.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "src/cuda/cuda.hpp"

namespace cuarray::py {

namespace {

// DLPack ABI (https://dmlc.github.io/dlpack/latest/c_api.html), declared here from the specification.
enum dl_device_type : std::int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum dl_type_code : std::uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };
struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};
struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

// The exported tensor owns a reference to the array's storage and its extents.
struct export_ctx {
  array a;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor legacy{};
  DLManagedTensorVersioned versioned{};
};

DLDataType dl_type(dtype t) {
  auto bits = static_cast<std::uint8_t>(itemsize(t) * 8);
  switch (kind(t)) {
    case 'b': return {kDLBool, 8, 1};
    case 'i': return {kDLInt, bits, 1};
    case 'u': return {kDLUInt, bits, 1};
    case 'f': return {kDLFloat, bits, 1};
    default: return {kDLComplex, bits, 1};
  }
}

dtype from_dl_type(DLDataType d) {
  if (d.lanes != 1) throw type_error("DLPack: vector types (lanes != 1) are not supported");
  switch (d.code) {
    case kDLBool:
      if (d.bits == 8) return bool_;
      break;
    case kDLInt:
      if (d.bits == 8) return int8;
      if (d.bits == 16) return int16;
      if (d.bits == 32) return int32;
      if (d.bits == 64) return int64;
      break;
    case kDLUInt:
      if (d.bits == 8) return uint8;
      if (d.bits == 16) return uint16;
      if (d.bits == 32) return uint32;
      if (d.bits == 64) return uint64;
      break;
    case kDLFloat:
      if (d.bits == 16) return float16;
      if (d.bits == 32) return float32;
      if (d.bits == 64) return float64;
      break;
    case kDLComplex:
      if (d.bits == 64) return complex64;
      if (d.bits == 128) return complex128;
      break;
    default: break;
  }
  throw type_error("DLPack: unsupported data type (code " + std::to_string(d.code) + ", " + std::to_string(d.bits) +
                   " bits)");
}

void fill_tensor(DLTensor& t, export_ctx* ctx) {
  const array& a = ctx->a;
  t.data = a.storage() ? a.storage()->ptr() : nullptr;
  t.byte_offset = static_cast<std::uint64_t>(a.offset());
  if (!t.data) {
    t.data = nullptr;
    t.byte_offset = 0;
  }
  t.device = {kDLCUDA, a.device()};
  t.ndim = a.ndim();
  t.dtype = dl_type(a.type());
  ctx->shape.assign(a.shape().begin(), a.shape().end());
  for (int i = 0; i < a.ndim(); ++i) ctx->strides.push_back(a.strides()[i] / static_cast<std::int64_t>(a.itemsize()));
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
}

void legacy_deleter(DLManagedTensor* self) { delete static_cast<export_ctx*>(self->manager_ctx); }
void versioned_deleter(DLManagedTensorVersioned* self) { delete static_cast<export_ctx*>(self->manager_ctx); }

// A capsule still named "dltensor" was never consumed: its destructor must free the tensor.
void legacy_capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (t && t->deleter) t->deleter(t);
  } else {
    PyErr_Clear();
  }
}
void versioned_capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
    auto* t = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, "dltensor_versioned"));
    if (t && t->deleter) t->deleter(t);
  } else {
    PyErr_Clear();
  }
}

cudaStream_t stream_from_protocol(std::int64_t v) {
  // CAI and DLPack: 1 is the legacy default stream, 2 the per-thread default stream.
  if (v == 1) return nullptr;
  if (v == 2) return cudaStreamPerThread;
  return reinterpret_cast<cudaStream_t>(static_cast<std::intptr_t>(v));
}

// Make `consumer` wait for the work enqueued so far on `producer`.
void order_streams(cudaStream_t producer, cudaStream_t consumer) {
  if (producer == consumer) return;
  cudaEvent_t e;
  CUARRAY_CUDA_CHECK(detail::cudart().cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  cudaError_t st = detail::cudart().cudaEventRecord(e, producer);
  if (st == cudaSuccess) st = detail::cudart().cudaStreamWaitEvent(consumer, e, 0);
  (void)detail::cudart().cudaEventDestroy(e);
  if (st != cudaSuccess) detail::throw_cuda_error(st, "stream ordering for array exchange");
}

std::int64_t current_stream_protocol_value() {
  std::uintptr_t p = current_stream().ptr();
  return p == 0 ? 1 : static_cast<std::int64_t>(p);
}

nb::object dlpack(nb::handle self, nb::handle stream, nb::handle max_version, nb::handle dl_device, nb::handle copy) {
  const array& src = as_py_array(self).a;
  if (!dl_device.is_none()) {
    auto dev = nb::cast<nb::tuple>(dl_device);
    int type = nb::cast<int>(dev[0]), id = nb::cast<int>(dev[1]);
    if (type != kDLCUDA || id != src.device()) {
      PyErr_SetString(PyExc_BufferError, "cuarray: __dlpack__ can only export to the array's own CUDA device");
      throw nb::python_error();
    }
  }
  bool do_copy = !copy.is_none() && nb::cast<bool>(copy);
  if (!stream.is_none()) {
    std::int64_t s = nb::cast<std::int64_t>(stream);
    if (s == 0) throw value_error("stream 0 is not allowed by the DLPack protocol for CUDA (use 1 or 2)");
    if (s != -1) {
      activate_device(src.device());
      order_streams(current_stream(src.device()).get(), stream_from_protocol(s));
    }
  }
  auto* ctx = new export_ctx{do_copy ? src.copy(order::K) : src, {}, {}, {}, {}};
  bool versioned = false;
  if (!max_version.is_none()) {
    auto v = nb::cast<nb::tuple>(max_version);
    versioned = nb::cast<int>(v[0]) >= 1;
  }
  if (versioned) {
    ctx->versioned.version = {1, 0};
    ctx->versioned.manager_ctx = ctx;
    ctx->versioned.deleter = versioned_deleter;
    ctx->versioned.flags = do_copy ? 2u : 0u;
    fill_tensor(ctx->versioned.dl_tensor, ctx);
    return nb::steal(PyCapsule_New(&ctx->versioned, "dltensor_versioned", versioned_capsule_destructor));
  }
  ctx->legacy.manager_ctx = ctx;
  ctx->legacy.deleter = legacy_deleter;
  fill_tensor(ctx->legacy.dl_tensor, ctx);
  return nb::steal(PyCapsule_New(&ctx->legacy, "dltensor", legacy_capsule_destructor));
}

int pointer_device(const void* ptr) {
  if (!ptr) return current_device();
  cudaPointerAttributes attr{};
  cudaError_t st = detail::cudart().cudaPointerGetAttributes(&attr, ptr);
  if (st != cudaSuccess) {
    (void)detail::cudart().cudaGetLastError();
    return current_device();
  }
  return attr.device >= 0 ? attr.device : current_device();
}

array array_from_tensor(const DLTensor& t, std::function<void()> release) {
  if (t.device.device_type != kDLCUDA && t.device.device_type != kDLCUDAManaged) {
    release();
    throw value_error("from_dlpack: the tensor is not in CUDA device memory");
  }
  dtype type;
  try {
    type = from_dl_type(t.dtype);
  } catch (...) {
    release();
    throw;
  }
  shape_t shape(t.shape, t.shape + t.ndim);
  strides_t strides;
  std::size_t isz = itemsize(type);
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i] * static_cast<std::int64_t>(isz));
  } else {
    strides = contiguous_strides(shape, isz);
  }
  char* base = static_cast<char*>(t.data);
  int device = t.device.device_type == kDLCUDA ? t.device.device_id : pointer_device(base);
  std::int64_t lo, hi;
  byte_extent(shape, strides, isz, lo, hi);
  auto mem = make_external_storage(
      base, static_cast<std::size_t>(std::max<std::int64_t>(0, hi) + static_cast<std::int64_t>(t.byte_offset)), device,
      std::move(release));
  return array(mem, descriptor{type, shape, strides, static_cast<std::int64_t>(t.byte_offset)});
}

// Release a consumed DLPack tensor with the GIL held (producers' deleters may touch Python objects).
template <class T> std::function<void()> gil_deleter(T* t) {
  return [t] {
    if (!t->deleter) return;
    if (!Py_IsInitialized()) return;
    PyGILState_STATE st = PyGILState_Ensure();
    t->deleter(t);
    PyGILState_Release(st);
  };
}

nb::object from_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, "dltensor_versioned")) {
    auto* t = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
    if (t->version.major > 1) throw value_error("from_dlpack: unsupported DLPack major version");
    PyCapsule_SetName(c, "used_dltensor_versioned");
    return wrap(array_from_tensor(t->dl_tensor, gil_deleter(t)));
  }
  if (PyCapsule_IsValid(c, "dltensor")) {
    auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
    PyCapsule_SetName(c, "used_dltensor");
    return wrap(array_from_tensor(t->dl_tensor, gil_deleter(t)));
  }
  PyErr_Clear();
  throw value_error("from_dlpack: expected a DLPack capsule named 'dltensor' or 'dltensor_versioned'");
}

nb::object from_dlpack(nb::handle obj) {
  if (PyCapsule_CheckExact(obj.ptr())) return from_capsule(obj);
  if (!nb::hasattr(obj, "__dlpack__")) throw type_error("from_dlpack: the object does not implement __dlpack__");
  std::int64_t stream = current_stream_protocol_value();
  nb::object capsule;
  try {
    capsule = obj.attr("__dlpack__")(nb::arg("stream") = stream, nb::arg("max_version") = nb::make_tuple(1, 0));
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    capsule = obj.attr("__dlpack__")(nb::arg("stream") = stream);  // producer predating DLPack 1.0
  }
  return from_capsule(capsule);
}

nb::dict cuda_array_interface(nb::handle self) {
  const array& a = as_py_array(self).a;
  nb::dict d;
  d["shape"] = to_tuple(a.shape());
  char order_char = itemsize(a.type()) == 1 ? '|' : '<';
  std::string typestr = std::string(1, order_char) + (is_bool(a.type()) ? 'b' : kind(a.type())) +
                        std::to_string(itemsize(a.type()));
  d["typestr"] = typestr;
  nb::list descr;
  descr.append(nb::make_tuple("", typestr));
  d["descr"] = descr;
  std::uintptr_t ptr = a.size() > 0 ? reinterpret_cast<std::uintptr_t>(a.data()) : 0;
  d["data"] = nb::make_tuple(ptr, false);
  d["version"] = 3;
  d["strides"] = a.is_c_contiguous() ? nb::none() : nb::object(to_tuple(a.strides()));
  d["stream"] = current_stream_protocol_value();
  return d;
}

nb::object from_cuda_array_interface(nb::handle obj) {
  nb::dict cai = nb::cast<nb::dict>(obj.attr("__cuda_array_interface__"));
  if (cai.contains("mask") && !cai["mask"].is_none()) throw value_error("masked CUDA arrays are not supported");
  shape_t shape = to_shape(cai["shape"]);
  dtype t = to_dtype(cai["typestr"]);
  nb::tuple data = nb::cast<nb::tuple>(cai["data"]);
  auto ptr = reinterpret_cast<void*>(nb::cast<std::uintptr_t>(data[0]));
  strides_t strides = (cai.contains("strides") && !cai["strides"].is_none()) ? to_shape_signed(cai["strides"])
                                                                             : contiguous_strides(shape, itemsize(t));
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    std::int64_t s = nb::cast<std::int64_t>(cai["stream"]);
    if (s == 0) throw value_error("CUDA Array Interface: stream 0 is not allowed");
    order_streams(stream_from_protocol(s), current_stream().get());
  }
  int device = pointer_device(ptr);
  std::int64_t lo, hi;
  byte_extent(shape, strides, itemsize(t), lo, hi);
  PyObject* owner = nb::borrow(obj).release().ptr();
  auto mem = make_external_storage(static_cast<char*>(ptr) + lo, static_cast<std::size_t>(hi - lo), device, [owner] {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE st = PyGILState_Ensure();
    Py_DECREF(owner);
    PyGILState_Release(st);
  });
  return wrap(array(mem, descriptor{t, shape, strides, -lo}));
}

}  // namespace

shape_t to_shape_signed(nb::handle obj) {
  shape_t s;
  for (nb::handle h : obj) s.push_back(nb::cast<std::int64_t>(h));
  return s;
}

void init_interop(nb::module_& m) {
  nb::handle cls = ndarray_type();
  nb::setattr(cls, "__dlpack__",
              nb::cpp_function(&dlpack, nb::is_method(), nb::arg("stream") = nb::none(),
                               nb::arg("max_version") = nb::none(), nb::arg("dl_device") = nb::none(),
                               nb::arg("copy") = nb::none()));
  nb::setattr(cls, "__dlpack_device__",
              nb::cpp_function(
                  [](nb::handle self) {
    return nb::make_tuple(static_cast<int>(kDLCUDA), as_py_array(self).a.device());
                  },
                  nb::is_method()));
  nb::object property = nb::module_::import_("builtins").attr("property");
  nb::setattr(cls, "__cuda_array_interface__", property(nb::cpp_function(&cuda_array_interface)));
  m.def("from_dlpack", &from_dlpack);
  m.def("from_cuda_array_interface", &from_cuda_array_interface);
}

}  // namespace cuarray::py
