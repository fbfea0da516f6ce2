// Conversions between Python objects and the C++ API's dtypes, shapes, orders and scalars.
#include "common.hpp"

#include <nanobind/stl/string.h>

#include <array>
#include <climits>
#include <cstring>
#include <string>

namespace cuarray::py {

nb::module_& numpy() {
  static nb::module_* np = new nb::module_(nb::module_::import_("numpy"));
  return *np;
}

namespace {

std::array<nb::object, num_dtypes>& dtype_objects() {
  static auto* objs = [] {
    auto* a = new std::array<nb::object, num_dtypes>();
    for (int i = 0; i < num_dtypes; ++i) {
      (*a)[static_cast<std::size_t>(i)] = numpy().attr("dtype")(std::string(name(static_cast<dtype>(i))));
    }
    return a;
  }();
  return *objs;
}

// dtype-like objects seen before (types, dtype instances, strings) -> dtype index; saves numpy.dtype().
nb::dict& dtype_cache() {
  static nb::dict* d = new nb::dict();
  return *d;
}

dtype from_numpy_dtype(nb::handle np_dtype, nb::handle original) {
  std::string byteorder = nb::cast<std::string>(np_dtype.attr("byteorder"));
  std::string ch = nb::cast<std::string>(np_dtype.attr("char"));
  dtype t;
  bool known = ch.size() == 1 && (ch != "S" && ch != "U" && ch != "O" && ch != "V");
  // 'l' and 'q' (and 'L', 'Q') are both 64-bit on the platforms cuarray supports.
  if (known) {
    if (ch == "q") ch = "l";
    if (ch == "Q") ch = "L";
    known = parse_dtype(ch, t);
  }
  if (!known || byteorder == ">") {
    std::string repr = nb::cast<std::string>(nb::repr(original));
    throw type_error("cuarray does not support dtype " + nb::cast<std::string>(nb::str(np_dtype)) + " (from " + repr +
                     ")");
  }
  return t;
}

}  // namespace

nb::object numpy_dtype(dtype t) { return dtype_objects()[static_cast<std::size_t>(t)]; }

dtype to_dtype(nb::handle obj, dtype if_none) {
  if (obj.is_none()) return if_none;
  return to_dtype(obj);
}

dtype to_dtype(nb::handle obj) {
  if (obj.is_none()) return float64;  // numpy.dtype(None) is float64
  nb::dict& cache = dtype_cache();
  PyObject* hit = PyDict_GetItemWithError(cache.ptr(), obj.ptr());
  if (hit) return static_cast<dtype>(PyLong_AsLong(hit));
  if (PyErr_Occurred()) PyErr_Clear();  // unhashable: no caching
  nb::object d;
  try {
    d = numpy().attr("dtype")(obj);
  } catch (nb::python_error& e) {
    throw type_error("data type " + nb::cast<std::string>(nb::repr(obj)) + " not understood");
  }
  dtype t = from_numpy_dtype(d, obj);
  if (PyObject_Hash(obj.ptr()) != -1) {
    if (cache.size() < 4096) PyDict_SetItem(cache.ptr(), obj.ptr(), PyLong_FromLong(static_cast<long>(t)));
  } else {
    PyErr_Clear();
  }
  return t;
}

void check_dims(const shape_t& s) {
  for (auto d : s) {
    if (d < 0) throw value_error("negative dimensions are not allowed");
  }
}

shape_t to_shape(nb::handle obj, bool check_sign) {
  shape_t s;
  // NumPy's PyArray_IntpConverter: a bool is no dimension (TypeError), and an integer beyond intp either way
  // is "Maximum allowed dimension exceeded" (ValueError), before any check of the sign.
  auto as_int = [](PyObject* o) -> std::int64_t {
    if (PyBool_Check(o)) throw type_error("an integer is required");
    PyObject* idx = PyNumber_Index(o);
    if (!idx) throw nb::python_error();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
    Py_DECREF(idx);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow != 0) throw value_error("Maximum allowed dimension exceeded");
    return v;
  };
  if (PyBool_Check(obj.ptr())) {
    throw type_error(std::string("expected a sequence of integers or a single integer, got '") +
                     (obj.ptr() == Py_True ? "True'" : "False'"));
  }
  if (PyLong_Check(obj.ptr())) {
    s.push_back(as_int(obj.ptr()));
  } else if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr())) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj.ptr());
    PyObject** items = PySequence_Fast_ITEMS(obj.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) s.push_back(as_int(items[i]));
  } else if (PyObject_HasAttrString(obj.ptr(), "__index__")) {
    s.push_back(as_int(obj.ptr()));
  } else {
    nb::object seq = nb::steal(PySequence_Tuple(obj.ptr()));
    if (!seq.is_valid()) {
      PyErr_Clear();
      throw type_error("'" + nb::cast<std::string>(nb::handle((PyObject*)Py_TYPE(obj.ptr())).attr("__name__")) +
                       "' object cannot be interpreted as an integer");
    }
    return to_shape(seq, check_sign);
  }
  if (check_sign) check_dims(s);
  return s;
}

nb::tuple to_tuple(const dim_vector& v) {
  PyObject* t = PyTuple_New(v.size());
  for (int i = 0; i < v.size(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(v[i]));
  return nb::steal<nb::tuple>(t);
}

std::string str_or_bytes(nb::handle obj, const char* what) {
  if (PyUnicode_Check(obj.ptr())) return nb::cast<std::string>(obj);
  if (PyBytes_Check(obj.ptr())) {
    return std::string(PyBytes_AS_STRING(obj.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(obj.ptr())));
  }
  throw type_error(std::string(what) + " must be str, not " +
                   nb::cast<std::string>(nb::handle((PyObject*)Py_TYPE(obj.ptr())).attr("__name__")));
}

order to_order(nb::handle obj, order if_none) {
  if (obj.is_none()) return if_none;
  std::string s = str_or_bytes(obj, "order");
  if (s.size() != 1) throw value_error("order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
  return parse_order(s[0]);
}

// Note [huge axes]: NumPy reads an axis into a C int, and one that does not fit is an OverflowError in most of
// its functions (flip, moveaxis, expand_dims, stack, roll...), a ValueError in others ("integer won't fit into
// a C int": sum, take, concatenate), an IndexError in split and an AxisError in rollaxis. cuarray raises one
// type for all of them, AxisOverflowError: a numpy.exceptions.AxisError (so a ValueError and an IndexError)
// that is also an OverflowError, which whatever handler NumPy code has catches. Casting the value to int
// instead would make axis=2**32 act on axis 0.
int to_c_int_axis(nb::handle obj) {
  nb::object idx = nb::steal(PyNumber_Index(obj.ptr()));
  if (!idx.is_valid()) throw nb::python_error();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (overflow == 0 && v >= INT_MIN && v <= INT_MAX) return static_cast<int>(v);
  static PyObject* type = [] {
    nb::object axis_error = nb::module_::import_("numpy.exceptions").attr("AxisError");
    nb::object bases = nb::steal(PyTuple_Pack(2, axis_error.ptr(), PyExc_OverflowError));
    return PyErr_NewExceptionWithDoc("cuarray.AxisOverflowError",
                                     "An axis beyond the range of a C int (Note [huge axes]).", bases.ptr(), nullptr);
  }();
  std::string text = nb::cast<std::string>(nb::str(idx));
  PyErr_SetString(type, ("axis " + text + " is out of bounds: it does not fit a C int").c_str());
  throw nb::python_error();
}

bool is_python_scalar(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o)) return true;
  static nb::object generic = numpy().attr("generic");
  return PyObject_IsInstance(o, generic.ptr()) == 1;
}

dtype scalar_dtype(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyBool_Check(o)) return bool_;
  if (PyLong_Check(o)) return int64;
  if (PyFloat_Check(o)) return float64;
  if (PyComplex_Check(o)) return complex128;
  return to_dtype(obj.attr("dtype"));
}

nb::object as_numeric_host(nb::handle host, dtype t) {
  nb::object dt = host.attr("dtype");
  char k = nb::cast<std::string>(dt.attr("kind"))[0];
  if (k != 'U' && k != 'S' && k != 'O' && k != 'V') {
    // Non-native byte order ('>i4' on x86) becomes native on the host before any transfer, as CuPy does.
    if (!nb::cast<bool>(dt.attr("isnative"))) return host.attr("astype")(dt.attr("newbyteorder")("="));
    return nb::borrow(host);
  }
  return numpy().attr("asarray")(host, numpy_dtype(t));
}

void warn_complex_cast(dtype from, dtype to) {
  if (!is_complex(from) || is_complex(to) || to == bool_) return;
  static nb::object cls = nb::module_::import_("numpy.exceptions").attr("ComplexWarning");
  if (PyErr_WarnEx(cls.ptr(), "Casting complex values to real discards the imaginary part", 1) < 0) {
    throw nb::python_error();
  }
}

// Note [element assignment]: NumPy converts the value of `a[i, j] = v` (a full integer index), of fill() and of a
// basic-index assignment of a scalar through the dtype's element setter, whose rules depend on the value's
// type: a Python int is range-checked, a NumPy integer or float goes through int() (np.int64(300) into int8
// and np.uint64(2**63) into int8 raise OverflowError), a NumPy complex is cast, a list is int()'s TypeError for
// an integer dtype but "setting an array element with a sequence." for a float one, a size-1 array is fine
// for bool only... Python scalars, by far the common case, are converted here (to_scalar); everything else
// goes through NumPy's own setter on a 0-d array of the target dtype, so that both the values and the
// exceptions are NumPy's by construction.
scalar numpy_element(nb::handle value, dtype t) {
  nb::object tmp = numpy().attr("empty")(nb::tuple(), numpy_dtype(t));
  tmp[nb::tuple()] = value;
  nb::bytes raw = nb::cast<nb::bytes>(tmp.attr("tobytes")());
  scalar s;
  s.type = t;
  std::memcpy(s.bytes, raw.c_str(), itemsize(t));
  return s;
}

scalar to_scalar(nb::handle value, dtype t, bool strict) {
  PyObject* o = value.ptr();
  if (strict && !PyBool_Check(o) && !PyLong_CheckExact(o) && !PyFloat_CheckExact(o) && !PyComplex_CheckExact(o)) {
    static nb::object generic = numpy().attr("generic");
    if (PyObject_IsInstance(o, generic.ptr()) == 1) return numpy_element(value, t);  // Note [element assignment]
  }
  if (strict && (is_integer(t) || is_floating(t)) && PyComplex_Check(o)) {
    PyErr_Format(PyExc_TypeError, "%s() argument must be a string%s or a real number, not 'complex'",
                 is_integer(t) ? "int" : "float", is_integer(t) ? ", a bytes-like object" : "");
    throw nb::python_error();
  }
  if (strict && is_integer(t) && PyFloat_Check(o)) {
    nb::object as_int = nb::steal(PyNumber_Long(o));  // int(): ValueError for NaN, OverflowError for inf
    if (!as_int.is_valid()) throw nb::python_error();
    return to_scalar(as_int, t, strict);
  }
  if (PyBool_Check(o)) return scalar::from_bool(o == Py_True).cast(t);
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (is_integer(t)) {
      // NumPy 2 refuses to store a Python int that the integer dtype cannot represent.
      bool ok = overflow == 0;
      unsigned long long uv = 0;
      if (overflow > 0 && t == uint64) {
        uv = PyLong_AsUnsignedLongLong(o);
        if (PyErr_Occurred()) PyErr_Clear();
        else ok = true;
      }
      if (ok && overflow == 0) {
        switch (t) {
          case int8: ok = v >= -128 && v <= 127; break;
          case int16: ok = v >= -32768 && v <= 32767; break;
          case int32: ok = v >= INT32_MIN && v <= INT32_MAX; break;
          case uint8: ok = v >= 0 && v <= 255; break;
          case uint16: ok = v >= 0 && v <= 65535; break;
          case uint32: ok = v >= 0 && v <= static_cast<long long>(UINT32_MAX); break;
          case uint64: ok = v >= 0; break;
          default: break;
        }
      }
      if (!ok) {
        std::string text = nb::cast<std::string>(nb::str(value));
        PyErr_Format(PyExc_OverflowError, "Python integer %s out of bounds for %s", text.c_str(),
                     std::string(name(t)).c_str());
        throw nb::python_error();
      }
      if (overflow > 0) return scalar::from_uint(uv, t);
      return scalar::from_int(v, t);
    }
    if (overflow != 0) {
      double d = PyLong_AsDouble(o);
      if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
      return scalar::from_double(d, t);
    }
    return scalar::from_int(v, t);
  }
  if (PyFloat_Check(o)) return scalar::from_double(PyFloat_AS_DOUBLE(o), t);
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    return scalar::from_complex({c.real, c.imag}, t);
  }
  // NumPy scalars and 0-d arrays: read their bytes in their own dtype, then cast as NumPy does ('unsafe').
  nb::object arr = numpy().attr("asarray")(value);
  if (nb::cast<int>(arr.attr("ndim")) != 0) {
    throw value_error("setting an array element with a sequence.");
  }
  // A string, bytes, None or another object has no dtype of ours: NumPy's own conversion to the target
  // decides (ValueError for 'x' into a number, TypeError for None into an integer, NaN for None into a
  // float, the truth of the object for bool).
  arr = as_numeric_host(arr, t);
  dtype src = to_dtype(arr.attr("dtype"));
  nb::bytes raw = nb::cast<nb::bytes>(arr.attr("tobytes")());
  scalar s;
  s.type = src;
  std::memcpy(s.bytes, raw.c_str(), itemsize(src));
  return s.cast(t);
}

}  // namespace cuarray::py
