// Bindings of cumsum/cumprod and their variants, diff, ediff1d, gradient and ndarray.cumsum/.cumprod.
#include <nanobind/stl/string.h>

#include <algorithm>

#include "args.hpp"

namespace cuarray::py {

namespace {

using namespace args;

using scan_fn = array (*)(const array&, std::optional<int>, std::optional<dtype>, const array&);

nb::object run_scan(scan_fn fn, nb::handle a, nb::handle axis, nb::handle dt, nb::handle out, const char* name) {
  array r = fn(to_array(a, name), to_opt_int_axis(axis), to_opt_dtype(dt), to_out(out));
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

using cumulative_fn = array (*)(const array&, std::optional<int>, std::optional<dtype>, const array&, bool);

nb::object run_cumulative(cumulative_fn fn, nb::handle x, nb::handle axis, nb::handle dt, nb::handle out,
                          bool include_initial, const char* name) {
  // NumPy's cumulative_sum/prod run ufunc.accumulate on atleast_1d(x), which also takes a 1-tuple.
  array a = to_array(x, name);
  std::optional<int> ax = PyTuple_Check(axis.ptr()) ? single_axis_of_tuple(axis, std::max(a.ndim(), 1), "accumulate")
                                                    : to_opt_int_axis(axis);
  array r = fn(a, ax, to_opt_dtype(dt), to_out(out), include_initial);
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

// The default of diff's prepend/append that tells "not given" from None, as NumPy's _NoValue.
nb::handle no_value() {
  static nb::object* sentinel = new nb::object(nb::module_::import_("builtins").attr("object")());
  return *sentinel;
}

gradient_spacing to_spacing(nb::handle obj) {
  if (is_ndarray(obj)) {
    const array& a = as_py_array(obj).a;
    if (a.ndim() == 0) return gradient_spacing(nb::cast<double>(obj.attr("item")()));
    return gradient_spacing(a);
  }
  if (is_python_scalar(obj)) {
    PyObject* o = obj.ptr();
    if (PyComplex_Check(o)) throw type_error("gradient: complex spacing is not supported");
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return gradient_spacing(v);
  }
  return gradient_spacing(to_array(obj, "gradient"));
}

}  // namespace

void init_scan(nb::module_& m) {
#define CUARRAY_SCAN_DEF(NAME, DOC)                                                                                    \
  m.def(                                                                                                               \
      #NAME,                                                                                                           \
      [](nb::handle a, nb::handle axis, nb::handle dt, nb::handle out) {                                               \
    return run_scan(&NAME, a, axis, dt, out, #NAME);                                                                   \
      },                                                                                                               \
      nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::arg("dtype").none() = nb::none(),                         \
      nb::arg("out").none() = nb::none(), DOC)
  CUARRAY_SCAN_DEF(cumsum, "Cumulative sum along an axis (the flattened array when axis is None).");
  CUARRAY_SCAN_DEF(cumprod, "Cumulative product along an axis (the flattened array when axis is None).");
  CUARRAY_SCAN_DEF(nancumsum, "Cumulative sum treating NaN as zero.");
  CUARRAY_SCAN_DEF(nancumprod, "Cumulative product treating NaN as one.");
#undef CUARRAY_SCAN_DEF
  m.def(
      "cumulative_sum",
      [](nb::handle x, nb::handle axis, nb::handle dt, nb::handle out, bool include_initial) {
    return run_cumulative(&cumulative_sum, x, axis, dt, out, include_initial, "cumulative_sum");
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
      nb::arg("out").none() = nb::none(), nb::arg("include_initial") = false,
      "Array-API cumulative sum (axis required beyond one dimension; include_initial prepends 0).");
  m.def(
      "cumulative_prod",
      [](nb::handle x, nb::handle axis, nb::handle dt, nb::handle out, bool include_initial) {
    return run_cumulative(&cumulative_prod, x, axis, dt, out, include_initial, "cumulative_prod");
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
      nb::arg("out").none() = nb::none(), nb::arg("include_initial") = false,
      "Array-API cumulative product (axis required beyond one dimension; include_initial prepends 1).");

  nb::object nv = nb::borrow(no_value());
  m.def(
      "diff",
      [](nb::handle a, nb::handle n, nb::handle axis, nb::handle prepend, nb::handle append) -> nb::object {
        std::int64_t order = to_index(n);
        array arr = to_array(a, "diff");
        std::optional<int> ax = to_axis(axis);
        if (!ax) throw type_error("'NoneType' object cannot be interpreted as an integer");
        std::optional<array> pre, app;
        if (!prepend.is(no_value())) pre = to_array(prepend, "diff");
        if (!append.is(no_value())) app = to_array(append, "diff");
        array r = diff(arr, order, *ax, pre, app);
        if (order == 0 && is_ndarray(a)) return nb::borrow(a);
        return wrap(std::move(r));
      },
      nb::arg("a"), nb::arg("n") = 1, nb::arg("axis") = -1, nb::arg("prepend").none() = nv,
      nb::arg("append").none() = nv, "The n-th discrete difference along an axis.");
  m.def(
      "ediff1d",
      [](nb::handle ary, nb::handle to_end, nb::handle to_begin) {
    std::optional<array> e, b;
    if (!to_end.is_none()) e = to_array(to_end, "ediff1d");
    if (!to_begin.is_none()) b = to_array(to_begin, "ediff1d");
    return wrap(ediff1d(to_array(ary, "ediff1d"), e, b));
      },
      nb::arg("ary"), nb::arg("to_end").none() = nb::none(), nb::arg("to_begin").none() = nb::none(),
      "Differences between consecutive elements of the flattened array.");
  m.def(
      "gradient",
      [](nb::handle f, nb::args varargs, nb::kwargs kwargs) -> nb::object {
        nb::handle axis = nb::none();
        int edge_order = 1;
        for (auto [key, value] : kwargs) {
          std::string k = nb::cast<std::string>(key);
          if (k == "axis") axis = value;
          // Clamped, not truncated: 2**32 + 1 must stay "greater than 2".
          else if (k == "edge_order") edge_order = static_cast<int>(std::clamp<std::int64_t>(to_index(value), -1, 3));
          else throw type_error("gradient() got an unexpected keyword argument '" + k + "'");
        }
        std::optional<std::vector<int>> axes;
        if (!axis.is_none()) {
          std::vector<int> v;
          if (PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr())) {
            for (nb::handle h : axis) v.push_back(*to_axis(h));
          } else {
            v.push_back(*to_axis(axis));
          }
          axes = v;
        }
        std::vector<gradient_spacing> spacing;
        for (nb::handle h : varargs) spacing.push_back(to_spacing(h));
        std::vector<array> r = gradient(to_array(f, "gradient"), spacing, axes, edge_order);
        if (r.size() == 1) return wrap(std::move(r[0]));
        return to_py_tuple(std::move(r));
      },
      nb::arg("f"), nb::arg("varargs"), nb::arg("kwargs"),
      nb::sig("def gradient(f, *varargs, axis=None, edge_order=1)"),  // the keywords it reads from kwargs
      "The gradient by central differences inside and one-sided differences at the boundaries.");

  nb::handle cls = ndarray_type();
  nb::setattr(cls, "cumsum",
              nb::cpp_function([](nb::handle self, nb::handle axis, nb::handle dt,
                                  nb::handle out) { return run_scan(&cumsum, self, axis, dt, out, "cumsum"); },
                               nb::is_method(), nb::name("cumsum"), nb::arg("axis").none() = nb::none(),
                               nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none()));
  nb::setattr(cls, "cumprod",
              nb::cpp_function([](nb::handle self, nb::handle axis, nb::handle dt,
                                  nb::handle out) { return run_scan(&cumprod, self, axis, dt, out, "cumprod"); },
                               nb::is_method(), nb::name("cumprod"), nb::arg("axis").none() = nb::none(),
                               nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none()));
}

}  // namespace cuarray::py
