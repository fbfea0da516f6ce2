// Argument conversion shared by the bindings of NumPy-level functions: arrays, axes, dtypes, out=.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common.hpp"

namespace cuarray::py::args {

inline std::string type_name_of(nb::handle obj) {
  return nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr()))).attr("__name__"));
}

/// A cuarray array; a Python or NumPy scalar as a 0-d array of NumPy's dtype for it; an object with
/// __cuda_array_interface__ through cuarray.asarray. Host arrays are refused, as CuPy does.
inline array to_array(nb::handle obj, const char* func) {
  if (is_ndarray(obj)) return as_py_array(obj).a;
  if (is_python_scalar(obj)) {
    dtype t = scalar_dtype(obj);
    return full(shape_t{}, to_scalar(obj, t, false), t);
  }
  if (nb::hasattr(obj, "__cuda_array_interface__")) {
    return as_py_array(nb::module_::import_("cuarray").attr("asarray")(obj)).a;
  }
  throw type_error("Unsupported type " + type_name_of(obj) + " for cuarray." + func +
                   "(): pass cuarray arrays or scalars (move host data with cuarray.asarray())");
}

inline bool is_numpy_scalar(nb::handle obj) {
  static nb::object generic = numpy().attr("generic");
  return PyObject_IsInstance(obj.ptr(), generic.ptr()) == 1;
}

/// Whether the Python int `o` fits neither int64 nor uint64 (NumPy holds such an int as an object).
inline bool beyond_64_bits(PyObject* o) {
  int overflow = 0;
  PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow > 0) {
    PyLong_AsUnsignedLongLong(o);
    if (!PyErr_Occurred()) return false;
    PyErr_Clear();
  }
  return overflow != 0;
}

/// A Python or NumPy scalar as a ufunc operand under NEP 50: Python int/float/complex are weak, bool and NumPy
/// scalars strong (numpy.float64 and numpy.complex128 subclass float and complex, so they are tested first).
/// nullopt for anything else. A Python int beyond uint64 raises OverflowError, or becomes a weak float64 when
/// `big_int_as_float` (where the callee reports the range error itself).
inline std::optional<ufunc_arg> scalar_operand(nb::handle obj, bool big_int_as_float = false) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return ufunc_arg(scalar::from_bool(o == Py_True));
  if (is_numpy_scalar(obj)) return ufunc_arg(to_scalar(obj, to_dtype(obj.attr("dtype")), false));
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return ufunc_arg(array(), scalar::from_int(v), true);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) return ufunc_arg(array(), scalar::from_uint(u), true);
      PyErr_Clear();
    }
    if (big_int_as_float) return ufunc_arg(array(), scalar::from_double(PyLong_AsDouble(o)), true);
    throw overflow_error("Python int too large to convert to C long");
  }
  if (PyFloat_Check(o)) return ufunc_arg(array(), scalar::from_double(PyFloat_AS_DOUBLE(o)), true);
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    return ufunc_arg(array(), scalar::from_complex({c.real, c.imag}), true);
  }
  return std::nullopt;
}

/// An optional axis: None or an integer (TypeError for anything else, as operator.index). One beyond C int is
/// AxisOverflowError (an AxisError and an OverflowError, Note [huge axes]); one within C int is returned as is, so
/// normalize_axis's AxisError names the number given.
inline std::optional<int> to_axis(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_c_int_axis(obj);
}

/// One axis as NumPy's C functions take it (PyArray_PyIntAsInt): an integer other than a bool. A bool is a
/// TypeError ("an integer is required"), anything else operator.index's TypeError ("'list' object cannot
/// be interpreted as an integer").
inline int to_int_axis(nb::handle obj) {
  // (numpy.bool_ has no __index__: operator.index refuses it already.)
  if (PyBool_Check(obj.ptr()) || obj.is_none()) throw type_error("an integer is required for the axis");
  return *to_axis(obj);
}

/// None or to_int_axis (argmax, cumsum, argsort, take...: NumPy's C functions with one optional axis).
inline std::optional<int> to_opt_int_axis(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_int_axis(obj);
}

/// A tuple axis of ufunc.accumulate/reduceat (and so of cumulative_sum/prod): each entry an integer within
/// `ndim` (AxisError), then exactly one of them (ValueError "<method> does not allow multiple axes").
inline int single_axis_of_tuple(nb::handle tuple, int ndim, const char* method) {
  std::vector<int> v;
  for (nb::handle h : tuple) v.push_back(normalize_axis(to_int_axis(h), ndim));
  if (v.size() != 1) throw value_error(std::string(method) + " does not allow multiple axes");
  return v[0];
}

/// Note [reduction axes]: the axis of a reduction as NumPy's ufunc.reduce (and so sum, max, any, mean,
/// count_nonzero, ...) takes it: None, an integer, or a tuple of integers. A list is a TypeError ("'list'
/// object cannot be interpreted as an integer"), so is a bool or a float, as in NumPy; the functions
/// NumPy writes in Python over normalize_axis_tuple (median, quantile, average...) take lists and use
/// to_axes instead. With `scalar_axis_ok`, a single integer axis of a 0-d array may be 0 or -1 (NumPy's
/// C reductions treat a 0-d array as 1-d there; a tuple gets no such leave): it reduces over nothing, as
/// axis=None does, and nullopt comes back.
inline axis_list to_reduce_axes(nb::handle obj, int ndim = -1, bool scalar_axis_ok = false) {
  if (obj.is_none()) return std::nullopt;
  std::vector<int> v;
  if (PyTuple_Check(obj.ptr())) {
    for (nb::handle h : obj) v.push_back(to_int_axis(h));
    return v;
  }
  int ax = to_int_axis(obj);
  if (scalar_axis_ok && ndim == 0 && (ax == 0 || ax == -1)) return std::nullopt;
  v.push_back(ax);
  return v;
}

/// None, an int, or a tuple/list of ints (NumPy's normalize_axis_tuple, as median and average take it).
inline axis_list to_axes(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  std::vector<int> v;
  if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr())) {
    for (nb::handle h : obj) v.push_back(*to_axis(h));
  } else {
    v.push_back(*to_axis(obj));
  }
  return v;
}

/// operator.index(obj) as int64 (TypeError for non-integers, OverflowError beyond int64).
inline std::int64_t to_index(nb::handle obj) {
  PyObject* idx = PyNumber_Index(obj.ptr());
  if (!idx) throw nb::python_error();
  long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

inline std::optional<dtype> to_opt_dtype(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_dtype(obj);
}

inline array to_out(nb::handle out) {
  if (out.is_none()) return array();
  if (!is_ndarray(out)) throw type_error("return arrays must be of ArrayType");
  return as_py_array(out).a;
}

inline nb::tuple to_py_tuple(std::vector<array> arrays) {
  nb::list l;
  for (auto& a : arrays) l.append(wrap(std::move(a)));
  return nb::tuple(l);
}

}  // namespace cuarray::py::args
