// The Python ndarray: attributes, views, basic indexing, fills, casts and host transfers.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common.hpp"
#include "src/ops/indexing_internal.hpp"

namespace cuarray::py {

namespace {

nb::handle g_ndarray_type;

// as_py_array: an exact type test instead of nanobind's typeid lookup, on every method call and view.
py_array& self_of(nb::handle h) { return as_py_array(h); }

// ndarray(shape, dtype, memptr, strides): every byte the view can reach must lie in memptr's memory block, so
// no shape or strides from Python can make a kernel read or write outside it (CuPy does not check).
void check_view_in_memory(const py_memory_pointer& mp, const shape_t& shape, const strides_t& strides,
                          std::size_t item) {
  for (std::int64_t n : shape) {
    if (n == 0) return;  // reaches nothing
  }
  __int128 low = 0, high = static_cast<__int128>(item);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    __int128 span = static_cast<__int128>(shape[i] - 1) * strides[i];  // int64 * int64 fits in 128 bits
    if (span < 0) low += span;
    else high += span;
    if (high > (static_cast<__int128>(1) << 100) || low < -(static_cast<__int128>(1) << 100)) break;  // out already
  }
  __int128 size = mp.mem ? static_cast<__int128>(mp.mem->size()) : 0;
  if (mp.offset + low < 0 || mp.offset + high > size) {
    constexpr std::int64_t lo_limit = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t hi_limit = std::numeric_limits<std::int64_t>::max();
    auto text = [](__int128 v) { return std::to_string(static_cast<long long>(v)); };
    throw value_error(
        "ndarray: a view of shape " + shape_to_string(shape) + " and strides " + shape_to_string(strides) +
        " reaches bytes [" + text(std::max<__int128>(mp.offset + low, lo_limit)) + ", " +
        text(std::min<__int128>(mp.offset + high, hi_limit)) + ") of a memory block of " + text(size) + " bytes");
  }
}

// A host-side NumPy array of the same shape and dtype, without data transfer: lets NumPy raise its own
// exception for operations like int(a) on arrays of more than one element.
nb::object host_stand_in(const array& a) { return numpy().attr("empty")(to_tuple(a.shape()), numpy_dtype(a.type())); }

struct scoped_stream {
  explicit scoped_stream(nb::handle stream) : previous(current_stream()) {
    if (!stream.is_none()) {
      set_current_stream(stream_ref(reinterpret_cast<CUstream_st*>(nb::cast<std::uintptr_t>(stream.attr("ptr")))));
      active = true;
    }
  }
  ~scoped_stream() {
    if (active) set_current_stream(previous);
  }
  stream_ref previous;
  bool active = false;
};

struct host_buffer {
  Py_buffer view{};
  bool ok = false;
  host_buffer(nb::handle obj, bool writable) {
    int flags = PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj.ptr(), &view, flags) != 0) throw nb::python_error();
    ok = true;
  }
  ~host_buffer() {
    if (ok) PyBuffer_Release(&view);
  }
  bool c_contiguous() const { return PyBuffer_IsContiguous(&view, 'C'); }
  bool f_contiguous() const { return PyBuffer_IsContiguous(&view, 'F'); }
};

// --------------------------------------------------------------------------------------------------------
// Index keys: Python's index objects to cuarray::index_key (the C++ getitem/setitem apply them).

[[noreturn]] void invalid_index() {
  throw index_error("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                    "arrays are valid indices");
}

std::int64_t index_value(PyObject* o) {
  PyObject* idx = PyNumber_Index(o);
  if (!idx) {
    PyErr_Clear();
    invalid_index();
  }
  long long i = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (i == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw index_error("cannot fit index into an index-sized integer");
  }
  return i;
}

nb::object from_numpy(nb::handle host, nb::handle order_obj, bool packed);

// A host sequence or NumPy array/scalar as an index entry: integers and bools as such when 0-d, else a device
// array (an empty list is an empty integer index, as NumPy).
index_item host_index(nb::handle o) {
  nb::object host = numpy().attr("asarray")(o);
  std::string kind = nb::cast<std::string>(host.attr("dtype").attr("kind"));
  int ndim = nb::cast<int>(host.attr("ndim"));
  if (kind == "b") {
    if (ndim == 0) return index_item::boolean(nb::cast<bool>(host.attr("item")()));
  } else if (kind == "i" || kind == "u") {
    if (ndim == 0) return index_item::at(index_value(host.ptr()));
  } else if (nb::cast<std::int64_t>(host.attr("size")) == 0 && !PyObject_HasAttrString(o.ptr(), "dtype")) {
    host = host.attr("astype")(numpy().attr("intp"));
  } else {
    if (kind == "f" || kind == "c" || kind == "O") {
      if (ndim == 0 && kind != "O") invalid_index();
      throw index_error("arrays used as indices must be of integer (or boolean) type");
    }
    invalid_index();
  }
  return index_item::of(as_py_array(from_numpy(host, nb::none(), false)).a);
}

// A slice whose parts Python refuses (a zero step, a start that is no integer) sets `slice_error` (when given)
// and stands as a full slice: NumPy reports the key's index errors first (Note [slice errors last]).
index_item to_index_item(nb::handle h, std::optional<nb::python_error>* slice_error = nullptr) {
  PyObject* o = h.ptr();
  if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(o, &start, &stop, &step) < 0) {
      if (slice_error == nullptr) throw nb::python_error();
      if (!*slice_error) slice_error->emplace();  // takes the Python error
      else PyErr_Clear();
      return index_item::slice();
    }
    return index_item::slice(start, stop, step);
  }
  if (PyLong_CheckExact(o)) return index_item::at(index_value(o));
  if (o == Py_None) return index_item::newaxis();
  if (o == Py_Ellipsis) return index_item::ellipsis();
  if (PyBool_Check(o)) return index_item::boolean(o == Py_True);
  if (is_ndarray(h)) {
    const array& a = as_py_array(h).a;
    // 0-d integer arrays index like integers (NumPy's rule): one read of the value.
    if (a.ndim() == 0 && is_integer(a.type())) return index_item::at(nb::cast<std::int64_t>(h.attr("item")()));
    if (a.type() != bool_ && !is_integer(a.type())) {
      throw index_error("arrays used as indices must be of integer (or boolean) type");
    }
    return index_item::of(a);
  }
  if (PyLong_Check(o)) return index_item::at(index_value(o));
  if (PyList_Check(o) || PyTuple_Check(o) || PyObject_HasAttrString(o, "__array_interface__")) return host_index(h);
  if (PyObject_HasAttrString(o, "__cuda_array_interface__")) {
    return to_index_item(nb::module_::import_("cuarray").attr("asarray")(h));
  }
  if (PyObject_HasAttrString(o, "__index__")) return index_item::at(index_value(o));
  invalid_index();
}

// Note [slice errors last]: NumPy parses the whole key (a second ellipsis, too many indices, a float index, a
// boolean index of the wrong shape) before it computes any slice, so `x0d[6::0]` is "too many indices" and
// not "slice step cannot be zero"; then it takes the items left to right, so an integer out of range before
// the refused slice wins and one after it does not. A slice Python refuses waits while the key is checked
// against `a`, the integers after it standing as full slices, and is raised after.
index_key to_index_key(nb::handle key, const array& a) {
  index_key k;
  std::optional<nb::python_error> slice_error;
  std::size_t refused = 0;  // the position of the first refused slice
  if (PyTuple_Check(key.ptr())) {
    Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    k.reserve(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      k.push_back(to_index_item(PyTuple_GET_ITEM(key.ptr(), i), &slice_error));
      if (!slice_error) refused = k.size();
    }
  } else {
    k.push_back(to_index_item(key, &slice_error));
  }
  if (slice_error) {
    index_key checked = k;
    for (std::size_t i = refused + 1; i < checked.size(); ++i) {
      if (checked[i].k == index_item::kind::integer) checked[i] = index_item::slice();
    }
    cuarray::detail::check_index_key(a, checked);
    throw std::move(*slice_error);
  }
  return k;
}

bool is_basic(const index_key& key) {
  for (const index_item& it : key) {
    if (it.k == index_item::kind::array || it.k == index_item::kind::boolean) return false;
  }
  return true;
}

// --------------------------------------------------------------------------------------------------------
// Host transfers.

nb::object to_host(nb::handle self, nb::handle stream, nb::handle order_obj, nb::handle out, bool blocking) {
  const array& a = self_of(self).a;
  scoped_stream guard(stream);
  if (out.is_none()) {
    order o = to_order(order_obj, order::C);
    if (o == order::A || o == order::K) o = (a.is_f_contiguous() && !a.is_c_contiguous()) ? order::F : order::C;
    nb::object result = numpy().attr("empty")(to_tuple(a.shape()), numpy_dtype(a.type()), o == order::F ? "F" : "C");
    if (a.size() > 0) {
      host_buffer buf(result, true);
      nb::gil_scoped_release release;
      a.copy_to_host(buf.view.buf, static_cast<std::size_t>(buf.view.len), o);
    }
    return result;
  }
  // Into a caller's array: same shape and dtype, contiguous.
  nb::object out_shape = out.attr("shape");
  if (!out_shape.equal(to_tuple(a.shape()))) {
    throw value_error("Shape mismatch. Old shape: " + shape_to_string(a.shape()) +
                      ", new shape: " + nb::cast<std::string>(nb::str(out_shape)));
  }
  if (to_dtype(out.attr("dtype")) != a.type()) {
    throw type_error("dtype mismatch: " + std::string(name(a.type())) +
                     " != " + nb::cast<std::string>(nb::str(nb::object(out.attr("dtype")))));
  }
  host_buffer buf(out, true);
  order o;
  if (buf.c_contiguous()) o = order::C;
  else if (buf.f_contiguous()) o = order::F;
  else throw value_error("`out` cannot be specified when copying to non-contiguous ndarray");
  if (a.size() == 0) return nb::borrow(out);
  if (!blocking && is_pinned(buf.view.buf)) {
    // Asynchronous copy into pinned memory: the source (or its packed copy) and `out` stay alive until the
    // copy has finished.
    array src = (o == order::C ? a.is_c_contiguous() : a.is_f_contiguous()) ? a : a.copy(o);
    activate_device(src.device());
    stream_ref s = current_stream(src.device());
    memcpy_device_to_host_async(buf.view.buf, src.data(), src.nbytes(), s);
    auto keep_src = std::make_shared<array>(src);
    default_pinned_memory_pool()->keep_until(s, keep_src);
    PyObject* raw = nb::borrow(out).release().ptr();
    default_pinned_memory_pool()->keep_until(s, std::shared_ptr<void>(raw, [](void* p) {
                                               if (!Py_IsInitialized()) return;
                                               PyGILState_STATE st = PyGILState_Ensure();
                                               Py_DECREF(static_cast<PyObject*>(p));
                                               PyGILState_Release(st);
                                             }));
    return nb::borrow(out);
  }
  {
    nb::gil_scoped_release release;
    a.copy_to_host(buf.view.buf, static_cast<std::size_t>(buf.view.len), o);
  }
  return nb::borrow(out);
}

void from_host_into(array& dst, nb::handle host) {
  host_buffer* buf = new host_buffer(host, false);
  std::unique_ptr<host_buffer> owner(buf);
  if (!buf->c_contiguous() && !buf->f_contiguous()) {
    nb::object packed = numpy().attr("ascontiguousarray")(host);
    owner.reset();
    from_host_into(dst, packed);
    return;
  }
  order o = buf->c_contiguous() ? order::C : order::F;
  nb::gil_scoped_release release;
  dst.copy_from_host(buf->view.buf, static_cast<std::size_t>(buf->view.len), o);
}

void set_from_host(nb::handle self, nb::handle arr, nb::handle stream) {
  array& a = self_of(self).a;
  scoped_stream guard(stream);
  nb::object shape = arr.attr("shape");
  if (!shape.equal(to_tuple(a.shape()))) {
    throw value_error("Shape mismatch. Old shape: " + shape_to_string(a.shape()) +
                      ", new shape: " + nb::cast<std::string>(nb::str(shape)));
  }
  if (to_dtype(arr.attr("dtype")) != a.type()) {
    throw type_error("dtype mismatch: old dtype: " + std::string(name(a.type())) +
                     ", new dtype: " + nb::cast<std::string>(nb::str(nb::object(arr.attr("dtype")))));
  }
  if (a.size() == 0) return;
  from_host_into(a, arr);
}

// Whether a host layout is packed: positive strides that are a permutation of some contiguous layout, so
// the bytes can move as one block and keep their strides on the device.
bool is_dense(const Py_buffer& v) {
  std::vector<std::pair<std::int64_t, std::int64_t>> axes;  // (stride, extent)
  for (int i = 0; i < v.ndim; ++i) {
    if (v.shape[i] == 0) return true;  // empty: any strides (NumPy may give 0) will do
  }
  for (int i = 0; i < v.ndim; ++i) {
    if (v.shape[i] == 1) continue;
    if (v.strides[i] <= 0) return false;
    axes.emplace_back(v.strides[i], v.shape[i]);
  }
  std::sort(axes.begin(), axes.end());
  std::int64_t expected = v.itemsize;
  for (auto& [stride, extent] : axes) {
    if (stride != expected) return false;
    expected *= extent;
  }
  return true;
}

// A NumPy array (native byte order, supported dtype) to a new device array. Packed host layouts (C, F or
// any permutation) keep their strides under order 'K'/'A'/None; 'C' and 'F' are produced on the device.
nb::object from_numpy(nb::handle host, nb::handle order_obj, bool packed) {
  nb::object host_dtype = host.attr("dtype");
  if (!nb::cast<bool>(host_dtype.attr("isnative"))) {
    // '>i4' and the like: swapped to native bytes on the host, so the device holds native values (CuPy's rule).
    return from_numpy(host.attr("astype")(host_dtype.attr("newbyteorder")("=")), order_obj, packed);
  }
  dtype t = to_dtype(host_dtype);
  shape_t shape = to_shape(host.attr("shape"));
  order want = to_order(order_obj, order::K);
  host_buffer buf(host, false);
  if (!is_dense(buf.view)) {
    // A packed copy keeps the axis order (order 'K'); should NumPy ever not pack it, C order surely does.
    nb::object copy = packed ? numpy().attr("ascontiguousarray")(host)
                             : numpy().attr("array")(
                                   host, nb::arg("order") = want == order::F ? "F" : (want == order::C ? "C" : "K"));
    return from_numpy(copy, order_obj, true);
  }
  strides_t host_strides;
  for (int i = 0; i < buf.view.ndim; ++i) host_strides.push_back(buf.view.strides[i]);
  // Unit and empty dimensions carry arbitrary strides on the host: normalise through the flags.
  bool c = buf.c_contiguous(), f = buf.f_contiguous();
  if (c) host_strides = contiguous_strides(shape, itemsize(t), order::C);
  else if (f) host_strides = contiguous_strides(shape, itemsize(t), order::F);
  array raw = empty_like_strides(shape, host_strides, t);
  if (raw.size() > 0) {
    nb::gil_scoped_release release;
    activate_device(raw.device());
    memcpy_host_to_device(raw.data(), buf.view.buf, raw.nbytes(), current_stream(raw.device()));
  }
  bool ok = want == order::K || want == order::A || (want == order::C && raw.is_c_contiguous()) ||
            (want == order::F && raw.is_f_contiguous());
  if (ok) return wrap(std::move(raw));
  array out = empty(shape, t, want);
  out.assign(raw);
  return wrap(std::move(out));
}

// --------------------------------------------------------------------------------------------------------

nb::object getitem(nb::handle self, nb::handle key) {
  const array& a = self_of(self).a;
  index_key k = to_index_key(key, a);
  if (is_basic(k)) return view_of(self, cuarray::getitem(a, k));
  return wrap(cuarray::getitem(a, k));
}

void assign_value(array& dst, nb::handle value) {
  if (is_ndarray(value)) {
    warn_complex_cast(as_py_array(value).a.type(), dst.type());
    dst.assign(as_py_array(value).a);
  } else if (is_python_scalar(value)) {
    dst.fill(to_scalar(value, dst.type()));
  } else {
    // A list converts straight into the target dtype, as NumPy's assignment does (Note [assigned values]):
    // [-1] into uint8 is an OverflowError, [1j] into an integer int()'s TypeError.
    nb::object host = PyObject_HasAttrString(value.ptr(), "__array_interface__")
                          ? numpy().attr("asarray")(value)
                          : numpy().attr("asarray")(value, numpy_dtype(dst.type()));
    if (nb::cast<int>(host.attr("ndim")) == 0) {
      if (nb::cast<std::string>(host.attr("dtype").attr("kind")) == "c") warn_complex_cast(complex128, dst.type());
      dst.fill(to_scalar(host, dst.type()));
      return;
    }
    host = as_numeric_host(host, dst.type());  // strings, None...: NumPy's conversion and exceptions
    dtype t = to_dtype(host.attr("dtype"));
    warn_complex_cast(t, dst.type());
    shape_t shape = to_shape(host.attr("shape"));
    if (t == dst.type() && shape == dst.shape()) {
      from_host_into(dst, host);
    } else {
      nb::object tmp = from_numpy(host, nb::str("C"), false);
      dst.assign(as_py_array(tmp).a);
    }
  }
}

}  // namespace

array assigned_value::as_array(dtype t) const {
  if (!is_scalar) return arr;
  return full(shape_t{}, s, t);
}

assigned_value to_assigned_value(nb::handle value, dtype t) {
  assigned_value r;
  PyObject* o = value.ptr();
  if (is_ndarray(value)) {
    r.arr = as_py_array(value).a;
    warn_complex_cast(r.arr.type(), t);
    return r;
  }
  // Scalars first: they are the common value, and a failed attribute lookup costs more than the check.
  if (is_python_scalar(value)) {
    r.is_scalar = true;
    // A NumPy scalar is cast ('unsafe', FORCECAST); a Python one converts as int()/float() would.
    static nb::object generic = numpy().attr("generic");
    bool numpy_scalar = PyObject_IsInstance(o, generic.ptr()) == 1;
    static nb::object complex_type = numpy().attr("complexfloating");
    if (numpy_scalar && PyObject_IsInstance(o, complex_type.ptr()) == 1) warn_complex_cast(complex128, t);
    r.s = to_scalar(value, t, !numpy_scalar);
    return r;
  }
  if (PyObject_HasAttrString(o, "__cuda_array_interface__")) {
    r.arr = as_py_array(nb::module_::import_("cuarray").attr("asarray")(value)).a;
    warn_complex_cast(r.arr.type(), t);
    return r;
  }
  nb::object host = PyObject_HasAttrString(o, "__array_interface__")
                        ? as_numeric_host(numpy().attr("asarray")(value), t)
                        : numpy().attr("asarray")(value, numpy_dtype(t));  // lists, strings, None: NumPy's conversion
  if (nb::cast<int>(host.attr("ndim")) == 0) {
    r.is_scalar = true;
    r.s = to_scalar(host, t, false);
    return r;
  }
  r.arr = as_py_array(from_numpy(host, nb::none(), false)).a;
  warn_complex_cast(r.arr.type(), t);
  return r;
}

namespace {

// NumPy's "full integer index": one integer (Python, NumPy or 0-d integer array) per dimension and nothing
// else; `()` on a 0-d array. Its value is one element's (Note [element assignment]).
bool is_element_key(const index_key& k, int ndim) {
  if (static_cast<int>(k.size()) != ndim) return false;
  for (const index_item& it : k) {
    if (it.k != index_item::kind::integer) return false;
  }
  return true;
}

// `a[i, j] = value` for a full integer index: the value is one element, converted by NumPy's element setter.
// A device array of ndim > 0 gets the exception NumPy's setter gives an array of its shape and dtype (tried on a
// zero-byte broadcast stand-in): "setting an array element with a sequence.", or a TypeError for a complex
// target; bool takes a size-1 array.
void assign_element(array& view, nb::handle value) {
  if (is_ndarray(value)) {
    const array& v = as_py_array(value).a;
    if (v.ndim() > 0) {
      nb::object stand_in = numpy().attr("broadcast_to")(numpy().attr("zeros")(nb::tuple(), numpy_dtype(v.type())),
                                                         to_tuple(v.shape()));
      numpy_element(stand_in, view.type());
      view.assign(v.reshape(shape_t{}));
      return;
    }
    warn_complex_cast(v.type(), view.type());
    view.assign(v);
    return;
  }
  PyObject* o = value.ptr();
  bool python_scalar = PyBool_Check(o) || PyLong_CheckExact(o) || PyFloat_CheckExact(o) || PyComplex_CheckExact(o);
  view.fill(python_scalar ? to_scalar(value, view.type(), true) : numpy_element(value, view.type()));
}

// Whether the assigned value `o` nests sequences deeper than `remaining` more dimensions: a list or tuple where
// none may remain, or an array with more dimensions than remain. NumPy discovers the shape of a value assigned
// to a view with the view's ndim as its limit, and refuses a deeper one before it converts any element (a
// value array, by contrast, may carry leading unit dimensions). Strings are not sequences here.
bool nests_deeper(PyObject* o, int remaining) {
  // Python numbers and strings first: a long list of them must not pay an attribute lookup per item.
  if (PyFloat_Check(o) || PyLong_Check(o) || PyComplex_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o)) {
    return false;
  }
  if (PyList_Check(o) || PyTuple_Check(o)) {
    if (remaining == 0) return true;
    for (Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(o); i < n; ++i) {
      if (nests_deeper(PySequence_Fast_GET_ITEM(o, i), remaining - 1)) return true;
    }
    return false;
  }
  if (is_ndarray(o)) return as_py_array(o).a.ndim() > remaining;
  if (PyObject_HasAttrString(o, "__array_interface__") || PyObject_HasAttrString(o, "__cuda_array_interface__") ||
      PyObject_HasAttrString(o, "__array__")) {
    nb::object ndim = nb::steal(PyObject_GetAttrString(o, "ndim"));
    if (!ndim.is_valid()) {
      PyErr_Clear();
      return false;
    }
    return PyLong_Check(ndim.ptr()) && nb::cast<int>(ndim) > remaining;
  }
  return remaining == 0 && !PyDict_Check(o) && PySequence_Check(o);
}

void setitem(nb::handle self, nb::handle key, nb::handle value) {
  const array& a = self_of(self).a;
  index_key k = to_index_key(key, a);
  if (is_basic(k)) {
    array view = cuarray::getitem(a, k);
    if (is_element_key(k, a.ndim())) {
      assign_element(view, value);
      return;
    }
    if ((PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) && nests_deeper(value.ptr(), view.ndim())) {
      throw value_error("setting an array element with a sequence. The requested array would exceed the maximum "
                        "number of dimension of " +
                        std::to_string(view.ndim()) + ".");
    }
    assign_value(view, value);
    return;
  }
  assigned_value v;
  try {
    v = to_assigned_value(value, a.type());
  } catch (...) {
    // NumPy parses the key (too many indices, a boolean index of the wrong shape, an integer out of range)
    // before it converts the value: such a key error wins. Whether the index arrays broadcast together, and
    // their values, it checks after: the value's error wins over those. This path only runs for a bad value.
    cuarray::detail::check_index_key(a, k);
    throw;
  }
  if (v.is_scalar) cuarray::setitem(a, k, v.s);
  else cuarray::setitem(a, k, v.arr);
}

// ndarray.item(*args): no argument for a size-1 array, a flat index, or one index per dimension.
nb::object item(nb::handle self, nb::args args) {
  const array& a = self_of(self).a;
  array element;
  if (args.size() == 0) {
    if (a.size() != 1) throw value_error("can only convert an array of size 1 to a Python scalar");
    element = a;
  } else if (args.size() == 1 && !PyTuple_Check(args[0].ptr())) {
    std::int64_t i = nb::cast<std::int64_t>(args[0]);
    if (i < -a.size() || i >= a.size()) {
      throw index_error("index " + std::to_string(i) + " is out of bounds for size " + std::to_string(a.size()));
    }
    if (i < 0) i += a.size();
    descriptor d{a.type(), shape_t{}, strides_t{}, a.offset()};
    for (int ax = a.ndim() - 1; ax >= 0; --ax) {
      d.offset += (i % a.shape()[ax]) * a.strides()[ax];
      i /= a.shape()[ax];
    }
    element = array(a.storage(), std::move(d));
  } else {
    nb::tuple key = args.size() == 1 ? nb::borrow<nb::tuple>(args[0]) : nb::tuple(args);
    if (static_cast<int>(key.size()) != a.ndim()) throw value_error("incorrect number of indices for array");
    index_key k = to_index_key(key, a);
    if (!is_basic(k)) invalid_index();
    element = cuarray::getitem(a, k);
  }
  std::vector<unsigned char> bytes(element.itemsize());
  {
    nb::gil_scoped_release release;
    element.copy_to_host(bytes.data(), bytes.size());
  }
  nb::object host = numpy().attr("frombuffer")(nb::bytes(bytes.data(), bytes.size()), numpy_dtype(a.type()));
  return host.attr("item")(0);
}

// int(a), float(a), bool(a)...: NumPy decides, on a host copy when the array holds one element, else on a
// data-less stand-in, so that the exception is exactly NumPy's.
nb::object host_scalar_op(nb::handle self, const char* op) {
  const array& a = self_of(self).a;
  nb::object builtins = nb::module_::import_("builtins");
  nb::object host = a.size() == 1 ? to_host(self, nb::none(), nb::none(), nb::none(), true) : host_stand_in(a);
  if (std::strcmp(op, "index") == 0) return nb::module_::import_("operator").attr("index")(host);
  return builtins.attr(op)(host);
}

std::vector<int> parse_axes(nb::args args, int ndim) {
  std::vector<int> axes;
  if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) {
    for (int i = ndim - 1; i >= 0; --i) axes.push_back(i);
    return axes;
  }
  nb::handle src = args;
  if (args.size() == 1 && (PyTuple_Check(args[0].ptr()) || PyList_Check(args[0].ptr()))) src = args[0];
  for (nb::handle h : src) axes.push_back(to_c_int_axis(h));  // Note [huge axes]
  return axes;
}

shape_t parse_shape_args(nb::args args) {
  if (args.size() == 1) return to_shape(args[0]);
  return to_shape(args);
}

nb::object flags_of(nb::handle self) {
  // Note [Python statics]: no C++ static guard around Python code. Importing runs bytecode and reads files,
  // so the GIL passes to other threads meanwhile; a second thread reaching a guarded static initialiser would
  // then wait on the guard while holding the GIL, and the first could never finish (a dask.array compute that
  // first reads `.flags` from several threads hung this way). The GIL guards this pointer instead: two threads
  // may both import, and the first to finish wins.
  static PyObject* flags_type = nullptr;
  if (!flags_type) {
    nb::object t = nb::module_::import_("cuarray._flags").attr("Flags");
    if (!flags_type) flags_type = t.release().ptr();
  }
  const py_array& s = self_of(self);
  return nb::handle(flags_type)(s.a.is_c_contiguous(), s.a.is_f_contiguous(), s.base.is_none());
}

}  // namespace

nb::object view_of(nb::handle owner, array v) {
  if (!is_ndarray(owner)) return wrap(std::move(v));
  const py_array& s = as_py_array(owner);
  return wrap(std::move(v), s.base.is_none() ? nb::borrow(owner) : s.base);
}

void assign_from_python(array& dst, nb::handle value) { assign_value(dst, value); }

nb::handle ndarray_type() { return g_ndarray_type; }
// The per-call paths (operators, ufuncs) test, unwrap and create ndarrays on every call: an exact type
// check, and instances built in place, skip nanobind's lookup of the C++ type by typeid.
bool is_ndarray(nb::handle obj) {
  PyTypeObject* t = Py_TYPE(obj.ptr());
  auto* nd = reinterpret_cast<PyTypeObject*>(g_ndarray_type.ptr());
  return t == nd || PyType_IsSubtype(t, nd);
}
py_array& as_py_array(nb::handle obj) {
  if (!is_ndarray(obj)) return nb::cast<py_array&>(obj);  // raises nanobind's cast error
  return *nb::inst_ptr<py_array>(obj);
}

nb::object wrap(array&& a, nb::object base) {
  nb::object o = nb::inst_alloc(g_ndarray_type);
  new (nb::inst_ptr<py_array>(o)) py_array{std::move(a), std::move(base)};
  nb::inst_mark_ready(o);
  return o;
}

nb::object wrap(const array& a, nb::object base) {
  nb::object o = nb::inst_alloc(g_ndarray_type);
  new (nb::inst_ptr<py_array>(o)) py_array{a, std::move(base)};
  nb::inst_mark_ready(o);
  return o;
}

void init_ndarray(nb::module_& m) {
  // Pooled: a dropped ndarray's Python object is kept for the next one (no allocation, no registration in
  // nanobind's instance map), which is most of the cost of creating a result of a small call.
  nb::class_<py_array> cls(m, "ndarray", nb::pooled(256));
  g_ndarray_type = cls;
  cls.def(
         "__init__",
         [](py_array* self, nb::handle shape, nb::handle dt, nb::handle memptr, nb::handle strides, nb::handle ord) {
    dtype t = to_dtype(dt, float64);
    shape_t s = to_shape(shape);
    order o = to_order(ord, order::C);
    if (memptr.is_none()) {
      new (self) py_array{empty(s, t, o == order::F ? order::F : order::C), nb::none()};
      return;
    }
    auto& mp = nb::cast<py_memory_pointer&>(memptr);
    // Strides may be negative or zero (as_strided's views walk backwards or repeat elements).
    strides_t st = strides.is_none() ? contiguous_strides(s, itemsize(t), o == order::F ? order::F : order::C)
                                     : to_shape(strides, false);
    if (st.size() != s.size()) throw value_error("strides, if given, must be the same length as shape");
    check_view_in_memory(mp, s, st, itemsize(t));
    new (self) py_array{array(mp.mem, descriptor{t, s, st, mp.offset}), nb::none()};
         },
         nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("memptr") = nb::none(),
         nb::arg("strides") = nb::none(), nb::arg("order") = "C")
      .def_prop_ro("shape", [](const py_array& s) { return to_tuple(s.a.shape()); })
      .def_prop_ro("strides", [](const py_array& s) { return to_tuple(s.a.strides()); })
      .def_prop_ro("ndim", [](const py_array& s) { return s.a.ndim(); })
      .def_prop_ro("size", [](const py_array& s) { return s.a.size(); })
      .def_prop_ro("itemsize", [](const py_array& s) { return s.a.itemsize(); })
      .def_prop_ro("nbytes", [](const py_array& s) { return s.a.nbytes(); })
      .def_prop_ro("dtype", [](const py_array& s) { return numpy_dtype(s.a.type()); })
      .def_prop_ro("base", [](const py_array& s) { return s.base; })
      .def_prop_ro("flags", [](nb::handle self) { return flags_of(self); })
      .def_prop_ro(
          "data",
          [](const py_array& s) {
    return py_memory_pointer{s.a.storage(), s.a.offset()};
          })
      .def_prop_ro("_device_id", [](const py_array& s) { return s.a.device(); })
      .def_prop_ro("T", [](nb::handle self) { return view_of(self, self_of(self).a.transpose()); })
      .def(
          "transpose",
          [](nb::handle self, nb::args args) {
    const array& a = self_of(self).a;
    return view_of(self, a.transpose(parse_axes(args, a.ndim())));
          },
          nb::sig("def transpose(self, /, *axes)"))
      .def(
          "reshape",
          [](nb::handle self, nb::args args, nb::kwargs kwargs) {
    const array& a = self_of(self).a;
    order o = kwargs.contains("order") ? to_order(kwargs["order"], order::C) : order::C;
    array r = a.reshape(parse_shape_args(args), o);
    if (r.storage() == a.storage()) return view_of(self, std::move(r));
    return wrap(std::move(r));
          })
      .def(
          "ravel",
          [](nb::handle self, nb::handle ord) {
    const array& a = self_of(self).a;
    array r = a.reshape(shape_t{-1}, to_order(ord, order::C));
    if (r.storage() == a.storage()) return view_of(self, std::move(r));
    return wrap(std::move(r));
          },
          nb::arg("order") = "C")
      .def(
          "flatten",
          [](const py_array& s, nb::handle ord) {
    order o = to_order(ord, order::C);
    array c = s.a.copy(o == order::F ? order::F : order::C);
    return wrap(c.reshape(shape_t{-1}, o == order::F ? order::F : order::C));
          },
          nb::arg("order") = "C")
      .def(
          "__len__",
          [](const py_array& s) {
    if (s.a.ndim() == 0) throw type_error("len() of unsized object");
    return s.a.shape()[0];
          })
      .def("__getitem__", &getitem, nb::arg("key").none())
      .def("__setitem__", &setitem, nb::arg("key").none(), nb::arg("value").none())
      .def(
          "copy",
          [](const py_array& s, nb::handle ord) {
    order o = to_order(ord, order::C);
    // CuPy's copy lands on the current device; the same-device path stays one int compare.
    int dev = current_device();
    if (s.a.device() == dev) return wrap(s.a.copy(o));
    array out = to_device(s.a, dev);  // contiguous: C-packed unless the source was contiguous already
    if ((o == order::C && !out.is_c_contiguous()) || (o == order::F && !out.is_f_contiguous())) out = out.copy(o);
    return wrap(std::move(out));
          },
          nb::arg("order") = "C")
      .def("__copy__", [](const py_array& s) { return wrap(s.a.copy(order::K)); })
      .def("__deepcopy__", [](const py_array& s, nb::handle) { return wrap(s.a.copy(order::K)); })
      .def(
          "view",
          [](nb::handle self, nb::handle dt) {
    const array& a = self_of(self).a;
    if (dt.is_none()) return view_of(self, a);
    return view_of(self, a.view(to_dtype(dt)));
          },
          nb::arg("dtype") = nb::none())
      .def(
          "fill",
          [](py_array& s, nb::handle value) {
    if (is_ndarray(value)) {
      const array& v = as_py_array(value).a;
      if (v.size() != 1) throw value_error("fill value must be a scalar or a size-1 array");
      s.a.assign(v.reshape(shape_t{}));
      return;
    }
    s.a.fill(to_scalar(value, s.a.type()));  // None too: NaN for floats, TypeError for integers (NumPy's)
          },
          nb::arg("value").none())
      .def(
          "astype",
          [](nb::handle self, nb::handle dt, nb::handle ord, nb::handle casting, nb::handle subok, bool copy) {
    (void)subok;
    const array& a = self_of(self).a;
    dtype t = to_dtype(dt);
    // The default 'unsafe' allows every cast: no string conversion on the common call.
    if (!casting.is_none() &&
        !(PyUnicode_Check(casting.ptr()) && PyUnicode_CompareWithASCIIString(casting.ptr(), "unsafe") == 0)) {
      std::string c = nb::cast<std::string>(casting);
      bool allowed =
          c == "unsafe" || c == "same_value" || t == a.type() || (c == "safe" && can_cast_safely(a.type(), t)) ||
          (c == "same_kind" &&
           (can_cast_safely(a.type(), t) || kind(a.type()) == kind(t) || (is_integer(a.type()) && is_inexact(t)) ||
            (is_floating(a.type()) && is_complex(t)) || (is_signed_integer(t) && is_integer(a.type()))));
      if (c != "unsafe" && c != "safe" && c != "same_kind" && c != "equiv" && c != "no" && c != "same_value") {
        throw value_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
      }
      if (!allowed) {
        throw type_error("Cannot cast array data from dtype('" + std::string(name(a.type())) + "') to dtype('" +
                         std::string(name(t)) + "') according to the rule '" + c + "'");
      }
    }
    warn_complex_cast(a.type(), t);
    array r = a.astype(t, to_order(ord, order::K), copy);
    if (r.storage() == a.storage() && r.data() == a.data()) return nb::borrow(self);
    // CuPy: a new array lands on the current device (Note [peer operands] in src/cuda/runtime.cpp).
    if (int dev = current_device(); r.device() != dev) {
      require_peer_access(dev, r.device());
      r = to_device(r, dev);  // keeps the requested C/F layout: r is contiguous
    }
    return wrap(std::move(r));
          },
          nb::arg("dtype"), nb::arg("order") = "K", nb::arg("casting").none() = "unsafe",
          nb::arg("subok").none() = true, nb::arg("copy") = true)
      .def("get", &to_host, nb::arg("stream") = nb::none(), nb::arg("order") = "C", nb::arg("out") = nb::none(),
           nb::arg("blocking") = true)
      .def("set", &set_from_host, nb::arg("arr"), nb::arg("stream") = nb::none())
      .def("item", &item)
      .def("tolist",
           [](nb::handle self) { return to_host(self, nb::none(), nb::none(), nb::none(), true).attr("tolist")(); })
      .def("__bool__", [](nb::handle self) { return host_scalar_op(self, "bool"); })
      .def("__int__", [](nb::handle self) { return host_scalar_op(self, "int"); })
      .def("__float__", [](nb::handle self) { return host_scalar_op(self, "float"); })
      .def("__complex__", [](nb::handle self) { return host_scalar_op(self, "complex"); })
      .def("__index__", [](nb::handle self) { return host_scalar_op(self, "index"); })
      .def("__repr__",
           [](nb::handle self) { return nb::repr(to_host(self, nb::none(), nb::none(), nb::none(), true)); })
      .def("__str__", [](nb::handle self) { return nb::str(to_host(self, nb::none(), nb::none(), nb::none(), true)); })
      .def("__array__",
           [](nb::handle, nb::args, nb::kwargs) -> nb::object {
             throw type_error(
                 "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array "
                 "explicitly.");
           })
      .def("_same_storage", [](const py_array& s, const py_array& o) { return s.a.storage() == o.a.storage(); });

  m.def(
      "from_numpy", [](nb::handle host, nb::handle order_obj) { return from_numpy(host, order_obj, false); },
      nb::arg("host"), nb::arg("order") = nb::none());
  m.def("assign", [](py_array& dst, nb::handle value) { assign_value(dst.a, value); });
}

}  // namespace cuarray::py
