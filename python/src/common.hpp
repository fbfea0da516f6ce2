// Shared pieces of the Python bindings: the ndarray wrapper, dtype and shape conversion, scalars.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>

#include "cuarray/cuarray.hpp"

namespace nb = nanobind;

namespace cuarray::py {

/// The Python ndarray: a C++ array plus the Python object it is a view of (None when it owns its data).
struct py_array {
  array a;
  nb::object base;
};

/// CuPy's MemoryPointer: a block plus a byte offset into it.
struct py_memory_pointer {
  storage_ptr mem;
  std::int64_t offset = 0;
  nb::object mem_object;  ///< the Memory object `.mem` returns, when made from one (null: a plain Memory)
  std::uintptr_t ptr() const {
    return mem && mem->ptr() ? reinterpret_cast<std::uintptr_t>(mem->ptr()) + static_cast<std::uintptr_t>(offset) : 0;
  }
};

/// Python dtype-like (numpy.dtype, type, string, None) to a cuarray dtype; TypeError when unsupported.
dtype to_dtype(nb::handle obj);
dtype to_dtype(nb::handle obj, dtype if_none);
/// The numpy.dtype object of a cuarray dtype (cached).
nb::object numpy_dtype(dtype t);
/// The numpy module (imported once).
nb::module_& numpy();

/// An int or a sequence of ints (anything with __index__) as a shape; TypeError / ValueError as NumPy.
shape_t to_shape(nb::handle obj, bool check_sign = true);
/// NumPy's "negative dimensions are not allowed" (ValueError), which it checks after the dtype and order
/// arguments: creation functions parse with to_shape(obj, false), convert those, then call this.
void check_dims(const shape_t& s);
nb::tuple to_tuple(const dim_vector& v);
/// A sequence of possibly negative ints (strides).
shape_t to_shape_signed(nb::handle obj);

/// A str or bytes argument as text (NumPy's converters take both); anything else: TypeError naming `what`.
std::string str_or_bytes(nb::handle obj, const char* what);
/// 'C', 'F', 'A', 'K' or None (-> `if_none`).
order to_order(nb::handle obj, order if_none);
/// An axis argument (operator.index) as a C int; beyond C int's range, AxisOverflowError (Note [huge axes]).
int to_c_int_axis(nb::handle obj);

/// A Python or NumPy scalar (or 0-d NumPy array) converted for storing into an array of dtype `t`,
/// with NumPy 2's rules (OverflowError for out-of-range Python ints). `strict` is the element-assignment
/// rule of fill() and __setitem__: a Python float goes to an integer dtype through int() (ValueError for
/// NaN, OverflowError for inf and out-of-range values) and a Python complex refuses to become real. Without
/// it (full(), copyto), Python floats and complexes are cast like arrays ('unsafe').
scalar to_scalar(nb::handle value, dtype t, bool strict = true);
/// Any Python object converted as NumPy's element setter does for `a[i, j] = value` (Note [element assignment]):
/// NumPy's values and exceptions ("setting an array element with a sequence.", int()'s TypeError...).
scalar numpy_element(nb::handle value, dtype t);
/// A NumPy array of strings, bytes or objects converted to dtype `t` by NumPy's own rules (its
/// exceptions included: ValueError for 'x' into a number, TypeError for None into an integer); any other
/// NumPy array as it is.
nb::object as_numeric_host(nb::handle host, dtype t);
/// Whether `obj` is a Python or NumPy scalar (bool, int, float, complex, numpy.generic).
bool is_python_scalar(nb::handle obj);
/// NumPy's ComplexWarning when values of dtype `from` are stored as `to`: a complex to an integer or floating
/// dtype (not bool, which NumPy takes silently). Throws nb::python_error where warnings are errors.
void warn_complex_cast(dtype from, dtype to);
/// Default dtype NumPy gives a Python scalar (or the NumPy scalar's own dtype).
dtype scalar_dtype(nb::handle obj);

/// Store a Python value (ndarray, scalar, NumPy array, nested list) into `dst`, broadcasting and casting.
void assign_from_python(array& dst, nb::handle value);
/// Note [assigned values]: the value of an array-valued assignment (an advanced-index __setitem__, put,
/// place, putmask, put_along_axis) for a target of dtype `t`, as NumPy's PyArray_FromAny(value, t, FORCECAST)
/// makes it: a Python scalar converted as to_scalar (OverflowError for an out-of-range int, int()'s errors for
/// a float or complex into an integer dtype), a NumPy scalar cast, a list or string converted straight into
/// `t` by NumPy (so [-1] into uint8 is an OverflowError, 'x' into a number int()'s ValueError), a device or
/// NumPy array as it is (the callee casts). A scalar comes back in `s` (with `is_scalar`), anything else in
/// `arr`.
struct assigned_value {
  array arr;
  scalar s;
  bool is_scalar = false;
  /// The value as an array (a 0-d one of dtype `t` for a scalar).
  array as_array(dtype t) const;
};
assigned_value to_assigned_value(nb::handle value, dtype t);

/// Wrap a new array as a Python ndarray. The array is moved (or copied) once, into the Python object.
nb::object wrap(array&& a, nb::object base = nb::none());
nb::object wrap(const array& a, nb::object base = nb::none());
/// `v` wrapped as a view of `owner`'s data: its base is the owner of the data (NumPy collapses chains of views);
/// a plain new array when `owner` is not a cuarray array.
nb::object view_of(nb::handle owner, array v);
/// The Python ndarray type object.
nb::handle ndarray_type();
bool is_ndarray(nb::handle obj);
py_array& as_py_array(nb::handle obj);
/// A new ndarray whose array is built in place by `make()`, a function returning an array by value: the
/// result is constructed straight into the Python object (no descriptor moves), for the small-call path.
template <class F> nb::object wrap_made(F&& make) {
  nb::object o = nb::inst_alloc(ndarray_type());
  new (nb::inst_ptr<py_array>(o)) py_array{make(), nb::none()};
  nb::inst_mark_ready(o);
  return o;
}

// Note [C slots]: a type slot (tp_call, vectorcall, the number slots) is entered from the interpreter with no
// nanobind frame around it, so a C++ exception must not escape it. `guarded` runs a slot's body and turns an
// exception into Python's error protocol (null with the error set): a Python error is restored as is; any
// other exception is handed to a nanobind function that throws it again inside nanobind's dispatch, where
// the translators of errors.cpp give it NumPy's or CuPy's exception type.
PyObject* raise_pending() noexcept;

template <class F> PyObject* guarded(F&& f) noexcept {
  try {
    return f().release().ptr();
  } catch (const nb::python_error& e) {
    const_cast<nb::python_error&>(e).restore();
    return nullptr;
  } catch (...) {
    return raise_pending();
  }
}

// Area initialisers, one per binding file.
void init_errors(nb::module_& m);
void init_runtime(nb::module_& m);
void init_memory(nb::module_& m);
void init_ndarray(nb::module_& m);
void init_creation(nb::module_& m);
void init_interop(nb::module_& m);
void init_ufunc(nb::module_& m);
void init_elementwise_kernel(nb::module_& m);
void init_reduction(nb::module_& m);
void init_raw(nb::module_& m);
void init_elementwise_funcs(nb::module_& m);
void init_scan(nb::module_& m);
void init_select(nb::module_& m);
void init_counting(nb::module_& m);
void init_sorting(nb::module_& m);
void init_statistics(nb::module_& m);
void init_manipulation(nb::module_& m);
void init_fft(nb::module_& m);
void init_index_funcs(nb::module_& m);
void init_random(nb::module_& m);
void init_indexing(nb::module_& m);
void init_products(nb::module_& m);
void init_linalg(nb::module_& m);
void init_scipy_linalg(nb::module_& m);
void init_sparse(nb::module_& m);
void init_cuda_api(nb::module_& m);
void init_texture(nb::module_& m);
void init_cufft_plan(nb::module_& m);
void init_nccl(nb::module_& m);
void init_device_handles(nb::module_& m);

}  // namespace cuarray::py
