// Bindings of median/quantile/percentile and their nan- forms, average, trapezoid, cov, corrcoef, correlate, convolve.
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "cuarray/statistics.hpp"

namespace cuarray::py {

namespace {

using args::to_array;
using args::to_axes;
using args::to_out;

// An array-like argument that NumPy converts with asarray (q, weights): cuarray arrays as they are, Python and
// NumPy scalars as 0-d arrays, lists, tuples and NumPy arrays copied to the device (they are small).
array to_array_like(nb::handle obj, const char* func) {
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()) ||
      PyObject_IsInstance(obj.ptr(), numpy().attr("ndarray").ptr()) == 1) {
    nb::object host = numpy().attr("asarray")(obj);
    return as_py_array(nb::module_::import_("cuarray").attr("asarray")(host)).a;
  }
  return to_array(obj, func);
}

// q: a Python int or float is weak (NumPy's weak_q: type(q) in (int, float)); anything else is an array.
ufunc_arg to_q(nb::handle obj, const char* func) {
  PyObject* o = obj.ptr();
  if (Py_TYPE(o) == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return ufunc_arg(array(), scalar::from_int(v), true);
    return ufunc_arg(array(), scalar::from_double(PyLong_AsDouble(o)), true);
  }
  if (Py_TYPE(o) == &PyFloat_Type) return ufunc_arg(array(), scalar::from_double(PyFloat_AS_DOUBLE(o)), true);
  return ufunc_arg(to_array_like(obj, func));
}

array opt_array(nb::handle obj, const char* func) { return obj.is_none() ? array() : to_array_like(obj, func); }

std::optional<dtype> opt_dtype(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_dtype(obj);
}

// Results written into out= return that very object.
nb::object result(array r, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

using median_fn = array (*)(const array&, const axis_list&, const array&, bool, bool);
using quantile_fn = array (*)(const array&, const ufunc_arg&, const quantile_options&);

nb::object run_quantile(quantile_fn fn, const char* name, nb::handle a, nb::handle q, nb::handle axis, nb::handle out,
                        bool overwrite_input, const std::string& method, bool keepdims, nb::handle weights) {
  quantile_options o;
  array arr = to_array(a, name);
  ufunc_arg qa = to_q(q, name);
  o.axis = to_axes(axis);
  o.out = to_out(out);
  o.overwrite_input = overwrite_input;
  o.method = method;
  o.keepdims = keepdims;
  o.weights = opt_array(weights, name);
  return result(fn(arr, qa, o), out);
}

// dx of trapezoid: Python numbers weak, NumPy scalars strong, arrays as arrays.
ufunc_arg to_spacing(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (Py_TYPE(o) == &PyLong_Type) return ufunc_arg(array(), scalar::from_int(PyLong_AsLongLong(o)), true);
  if (Py_TYPE(o) == &PyFloat_Type) return ufunc_arg(array(), scalar::from_double(PyFloat_AS_DOUBLE(o)), true);
  if (Py_TYPE(o) == &PyComplex_Type) {
    Py_complex c = PyComplex_AsCComplex(o);
    return ufunc_arg(array(), scalar::from_complex({c.real, c.imag}), true);
  }
  return ufunc_arg(to_array_like(obj, "trapezoid"));
}

// NumPy's correlate/convolve mode: a name, or 0, 1, 2.
std::string to_mode(nb::handle obj) {
  if (PyLong_Check(obj.ptr())) {
    long v = PyLong_AsLong(obj.ptr());
    if (v == 0) return "valid";
    if (v == 1) return "same";
    if (v == 2) return "full";
    throw value_error("integer convolve/correlate mode must be 0, 1, or 2");
  }
  return nb::cast<std::string>(obj);
}

}  // namespace

void init_statistics(nb::module_& m) {
  // zero_division_error has no place among the shared exception types; it is translated here.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const zero_division_error& e) {
      PyErr_SetString(PyExc_ZeroDivisionError, e.what());
    }
  });

#define CUARRAY_MEDIAN_DEF(NAME, DOC)                                                                                  \
  m.def(                                                                                                               \
      #NAME,                                                                                                           \
      [](nb::handle a, nb::handle axis, nb::handle out, bool overwrite_input, bool keepdims) {                         \
    return result(NAME(to_array(a, #NAME), to_axes(axis), to_out(out), overwrite_input, keepdims), out);               \
      },                                                                                                               \
      nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(),                           \
      nb::arg("overwrite_input") = false, nb::arg("keepdims") = false, DOC)
  CUARRAY_MEDIAN_DEF(median, "Median along the axes (NaN where a slice contains NaN).");
  CUARRAY_MEDIAN_DEF(nanmedian, "Median along the axes, ignoring NaN.");
#undef CUARRAY_MEDIAN_DEF

#define CUARRAY_QUANTILE_DEF(NAME, DOC)                                                                                \
  m.def(                                                                                                               \
      #NAME,                                                                                                           \
      [](nb::handle a, nb::handle q, nb::handle axis, nb::handle out, bool overwrite_input, const std::string& method, \
         bool keepdims, nb::handle weights) {                                                                          \
    return run_quantile(&NAME, #NAME, a, q, axis, out, overwrite_input, method, keepdims, weights);                    \
      },                                                                                                               \
      nb::arg("a"), nb::arg("q"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(),             \
      nb::arg("overwrite_input") = false, nb::arg("method") = "linear", nb::arg("keepdims") = false, nb::kw_only(),    \
      nb::arg("weights").none() = nb::none(), DOC)
  CUARRAY_QUANTILE_DEF(quantile, "Quantiles (q in [0, 1]) along the axes, by one of NumPy's 13 methods.");
  CUARRAY_QUANTILE_DEF(percentile, "Percentiles (q in [0, 100]) along the axes, by one of NumPy's 13 methods.");
  CUARRAY_QUANTILE_DEF(nanquantile, "Quantiles ignoring NaN.");
  CUARRAY_QUANTILE_DEF(nanpercentile, "Percentiles ignoring NaN.");
#undef CUARRAY_QUANTILE_DEF

  m.def(
      "average",
      [](nb::handle a, nb::handle axis, nb::handle weights, bool returned, bool keepdims) -> nb::object {
        array arr = to_array(a, "average");
        array w = opt_array(weights, "average");
        if (!returned) return wrap(average(arr, to_axes(axis), w, keepdims));
        auto [avg, scl] = average_returned(arr, to_axes(axis), w, keepdims);
        return nb::make_tuple(wrap(std::move(avg)), wrap(std::move(scl)));
      },
      nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::arg("weights").none() = nb::none(),
      nb::arg("returned") = false, nb::kw_only(), nb::arg("keepdims") = false,
      "Weighted average along the axes (with returned=True, also the sum of the weights).");

  m.def(
      "trapezoid",
      [](nb::handle y, nb::handle x, nb::handle dx, nb::handle axis) {
    return wrap(trapezoid(to_array(y, "trapezoid"), opt_array(x, "trapezoid"), to_spacing(dx),
                          to_c_int_axis(axis)));  // Note [huge axes]
      },
      nb::arg("y"), nb::arg("x").none() = nb::none(), nb::arg("dx") = 1.0, nb::arg("axis") = -1,
      "Integral along an axis by the trapezoidal rule.");

  m.def(
      "cov",
      [](nb::handle mm, nb::handle y, bool rowvar, bool bias, nb::handle ddof, nb::handle fweights, nb::handle aweights,
         nb::handle dt) {
    std::optional<double> d;
    if (!ddof.is_none()) {
      d = PyFloat_AsDouble(ddof.ptr());
      if (*d == -1.0 && PyErr_Occurred()) throw nb::python_error();
    }
    return wrap(cov(to_array(mm, "cov"), opt_array(y, "cov"), rowvar, bias, d, opt_array(fweights, "cov"),
                    opt_array(aweights, "cov"), opt_dtype(dt)));
      },
      nb::arg("m"), nb::arg("y").none() = nb::none(), nb::arg("rowvar") = true, nb::arg("bias") = false,
      nb::arg("ddof").none() = nb::none(), nb::arg("fweights").none() = nb::none(),
      nb::arg("aweights").none() = nb::none(), nb::kw_only(), nb::arg("dtype").none() = nb::none(),
      "Covariance matrix of the variables (rows unless rowvar is False).");

  m.def(
      "corrcoef",
      [](nb::handle x, nb::handle y, bool rowvar, nb::handle dt) {
    return wrap(corrcoef(to_array(x, "corrcoef"), opt_array(y, "corrcoef"), rowvar, opt_dtype(dt)));
      },
      nb::arg("x"), nb::arg("y").none() = nb::none(), nb::arg("rowvar") = true, nb::kw_only(),
      nb::arg("dtype").none() = nb::none(), "Pearson correlation coefficients.");

  m.def(
      "correlate",
      [](nb::handle a, nb::handle v, nb::handle mode) {
    return wrap(correlate(to_array(a, "correlate"), to_array(v, "correlate"), to_mode(mode)));
      },
      nb::arg("a"), nb::arg("v"), nb::arg("mode") = "valid", "Cross-correlation of two 1-D arrays.");
  m.def(
      "convolve",
      [](nb::handle a, nb::handle v, nb::handle mode) {
    return wrap(convolve(to_array(a, "convolve"), to_array(v, "convolve"), to_mode(mode)));
      },
      nb::arg("a"), nb::arg("v"), nb::arg("mode") = "full", "Discrete linear convolution of two 1-D arrays.");

  m.def(
      "_statistics_kernels",
      [] {
    nb::list l;
    for (const auto& k : detail::statistics_kernels()) l.append(nb::make_tuple(k.name, k.body, k.preamble));
    return l;
      },
      "The statistics kernels (name, body, preamble), for tests that compile them.");
  m.def(
      "_quantile_types",
      [](nb::handle a, nb::handle q, bool weak, const std::string& method) {
    auto [vt, rt] = detail::quantile_types(to_dtype(a), to_dtype(q), weak, parse_quantile_method(method), false);
    return nb::make_tuple(numpy_dtype(vt), numpy_dtype(rt));
      },
      "(index dtype, result dtype) of a quantile, for tests.");
}

}  // namespace cuarray::py
