// Bindings of the creation functions; Python-side argument defaults follow NumPy's signatures.
#include <nanobind/stl/complex.h>
#include <nanobind/stl/string.h>

#include "common.hpp"
#include "device_arg.hpp"

namespace cuarray::py {

namespace {

order creation_order(nb::handle o) {
  order r = to_order(o, order::C);
  if (r != order::C && r != order::F) throw value_error("only 'C' or 'F' order is permitted");
  return r;
}

// The `_like` functions: dtype, order and shape overrides of NumPy's signature.
array like(const array& proto, nb::handle dt, nb::handle ord, nb::handle shape) {
  dtype t = dt.is_none() ? proto.type() : to_dtype(dt);
  order o = to_order(ord, order::K);
  if (!shape.is_none()) {
    shape_t s = to_shape(shape);
    if (o == order::K && s.size() == proto.ndim()) {
      // Same number of dimensions: keep the prototype's axis order, as NumPy does.
      return empty_like(array(proto.storage(), descriptor{proto.type(), s, proto.strides(), proto.offset()}), t, o);
    }
    if (o == order::K || o == order::A) {
      o = (proto.is_f_contiguous() && !proto.is_c_contiguous() && s.size() == proto.ndim()) ? order::F : order::C;
    }
    return empty(s, t, o == order::F ? order::F : order::C);
  }
  return empty_like(proto, t, o);
}

// full()'s dtype for a Python or NumPy scalar without dtype=: NumPy's numpy.asarray(value).dtype, in which a
// Python int is int64 where it fits, uint64 up to 2**64-1 and object (which cuarray lacks) beyond. (Ufunc
// operands follow NEP 50 instead: scalar_dtype and args::scalar_operand.)
dtype fill_dtype(nb::handle value) {
  PyObject* o = value.ptr();
  if (PyLong_Check(o) && !PyBool_Check(o)) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return int64;
    if (overflow > 0) {
      PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) return uint64;
      PyErr_Clear();
    }
    throw type_error("cuarray does not support dtype object (NumPy's dtype for the Python int " +
                     nb::cast<std::string>(nb::str(value)) + ")");
  }
  return scalar_dtype(value);
}

// full()'s and full_like()'s fill value as NumPy's copyto(casting='unsafe') takes it: to_scalar's cast, except
// that a Python int beyond int64 into bool is NumPy's OverflowError there (element assignment makes it True).
scalar fill_scalar(nb::handle value, dtype t) {
  if (t == bool_ && PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow != 0) throw overflow_error("Python int too large to convert to C long");
  }
  return to_scalar(value, t, false);
}

// full() and full_like() into an empty result with a fill value that is no Python number (None, a str, a list):
// NumPy's copyto(out, value, casting='unsafe') converts no element there, so only the value's shape must
// broadcast (full((0, 3), None, dtype=int) is an empty array; full((0,), [1, 2]) NumPy's ValueError).
void fill_empty(array& out, nb::handle host) {
  out.assign(zeros(shape_t{}, out.type()).broadcast_to(to_shape(host.attr("shape"))));
}

// eye's and identity's N and M: dimensions, with to_shape's rules (a bool is a TypeError, an integer beyond
// int64 a ValueError, as NumPy's zeros((N, M)) has them).
std::int64_t to_dim(nb::handle v, bool check_sign = true) { return to_shape(nb::make_tuple(v), check_sign)[0]; }

std::complex<double> as_complex(nb::handle v) {
  PyObject* o = v.ptr();
  Py_complex c = PyComplex_AsCComplex(o);
  if (c.real == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return {c.real, c.imag};
}

}  // namespace

void init_creation(nb::module_& m) {
  // empty/zeros/ones: NumPy's order of checks is the shape's type, dtype=, order=, then the sign of the dimensions.
  auto def_filled = [&](const char* name, array (*make)(const shape_t&, dtype, order)) {
    m.def(
        name,
        [make](nb::handle shape, nb::handle dt, nb::handle ord, nb::handle device) {
      shape_t s = to_shape(shape, false);
      dtype t = to_dtype(dt, float64);
      order o = creation_order(ord);
      check_dims(s);
      device_arg_scope on(device);
      return wrap(make(s, t, o));
        },
        nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C", nb::kw_only(),
        nb::arg("device").none() = nb::none());
  };
  def_filled("empty", [](const shape_t& s, dtype t, order o) { return empty(s, t, o); });
  def_filled("zeros", [](const shape_t& s, dtype t, order o) { return zeros(s, t, o); });
  def_filled("ones", [](const shape_t& s, dtype t, order o) { return ones(s, t, o); });
  m.def(
      "full",
      [](nb::handle shape, nb::handle value, nb::handle dt, nb::handle ord, nb::handle device) {
    shape_t s = to_shape(shape);
    order o = creation_order(ord);
    device_arg_scope on(device);
    if (is_ndarray(value)) {
      const array& v = as_py_array(value).a;
      array out = empty(s, dt.is_none() ? v.type() : to_dtype(dt), o);
      out.assign(v);
      return wrap(std::move(out));
    }
    if (!is_python_scalar(value)) {
      // Array-like fill values broadcast, as in NumPy. None, strings and other objects are converted to the
      // dtype by NumPy (nan for None into a float, its exceptions otherwise) before any device use.
      nb::object host = numpy().attr("asarray")(value);
      dtype t = dt.is_none() ? to_dtype(host.attr("dtype")) : to_dtype(dt);
      if (shape_size(s) == 0) {
        array out = empty(s, t, o);
        fill_empty(out, host);
        return wrap(std::move(out));
      }
      if (nb::cast<int>(host.attr("ndim")) == 0) return wrap(full(s, to_scalar(host, t, false), t, o));
      host = as_numeric_host(host, t);
      array out = empty(s, t, o);
      assign_from_python(out, host);
      return wrap(std::move(out));
    }
    dtype t = dt.is_none() ? fill_dtype(value) : to_dtype(dt);
    return wrap(full(s, fill_scalar(value, t), t, o));
      },
      nb::arg("shape"), nb::arg("fill_value").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "C",
      nb::kw_only(), nb::arg("device").none() = nb::none());

  m.def(
      "empty_like",
      [](const py_array& a, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape, nb::handle device) {
    (void)subok;
    device_arg_scope on(device);
    return wrap(like(a.a, dt, ord, shape));
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K", nb::arg("subok").none() = true,
      nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device").none() = nb::none());
  m.def(
      "zeros_like",
      [](const py_array& a, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape, nb::handle device) {
    (void)subok;
    device_arg_scope on(device);
    array out = like(a.a, dt, ord, shape);
    out.fill(scalar::from_int(0, out.type()));
    return wrap(std::move(out));
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K", nb::arg("subok").none() = true,
      nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device").none() = nb::none());
  m.def(
      "ones_like",
      [](const py_array& a, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape, nb::handle device) {
    (void)subok;
    device_arg_scope on(device);
    array out = like(a.a, dt, ord, shape);
    out.fill(scalar::from_int(1, out.type()));
    return wrap(std::move(out));
      },
      nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K", nb::arg("subok").none() = true,
      nb::arg("shape") = nb::none(), nb::kw_only(), nb::arg("device").none() = nb::none());
  m.def(
      "full_like",
      [](const py_array& a, nb::handle value, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape,
         nb::handle device) {
    (void)subok;
    device_arg_scope on(device);
    if (is_ndarray(value)) {
      array out = like(a.a, dt, ord, shape);
      out.assign(as_py_array(value).a);
      return wrap(std::move(out));
    }
    // Host values' range and conversion errors (None, strings...) come before any device use, after the
    // shape's and order's as in NumPy.
    if (!shape.is_none()) to_shape(shape);
    to_order(ord, order::K);
    dtype t = dt.is_none() ? a.a.type() : to_dtype(dt);
    nb::object host = is_python_scalar(value) ? nb::borrow(value) : numpy().attr("asarray")(value);
    if (!is_python_scalar(value) && shape_size(shape.is_none() ? a.a.shape() : to_shape(shape)) == 0) {
      array out = like(a.a, dt, ord, shape);
      fill_empty(out, host);
      return wrap(std::move(out));
    }
    if (is_python_scalar(value) || nb::cast<int>(host.attr("ndim")) == 0) {
      scalar v = fill_scalar(host, t);
      array out = like(a.a, dt, ord, shape);
      out.fill(v);
      return wrap(std::move(out));
    }
    host = as_numeric_host(host, t);
    array out = like(a.a, dt, ord, shape);
    assign_from_python(out, host);
    return wrap(std::move(out));
      },
      nb::arg("a"), nb::arg("fill_value").none(), nb::arg("dtype") = nb::none(), nb::arg("order").none() = "K",
      nb::arg("subok").none() = true, nb::arg("shape") = nb::none(), nb::kw_only(),
      nb::arg("device").none() = nb::none());

  m.def("arange_n", [](std::int64_t n, nb::handle start, nb::handle step, nb::handle dt) {
    dtype t = to_dtype(dt);
    // Start and step are taken at full precision (complex128 / int64 / uint64 / float64) and cast inside.
    auto full_precision = [](nb::handle v) {
      PyObject* o = v.ptr();
      if (PyComplex_Check(o)) return to_scalar(v, complex128);
      if (PyFloat_Check(o)) return to_scalar(v, float64);
      if (PyLong_Check(o) || PyBool_Check(o)) {
        int overflow = 0;
        PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow > 0) return to_scalar(v, uint64);
        if (overflow < 0) return to_scalar(v, float64);
        return to_scalar(v, int64);
      }
      dtype own = scalar_dtype(v);
      return to_scalar(v, own);
    };
    return wrap(arange_n(n, full_precision(start), full_precision(step), t));
  });
  m.def("linspace", [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, nb::handle dt) {
    std::complex<double> step;
    array a = linspace(as_complex(start), as_complex(stop), num, endpoint, to_dtype(dt), &step);
    return nb::make_tuple(wrap(std::move(a)), step);
  });
  m.def("logspace",
        [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, nb::handle base, nb::handle dt) {
    return wrap(logspace(as_complex(start), as_complex(stop), num, endpoint, as_complex(base), to_dtype(dt)));
  });
  m.def("geomspace", [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, nb::handle dt) {
    return wrap(geomspace(as_complex(start), as_complex(stop), num, endpoint, to_dtype(dt)));
  });
  m.def(
      "eye",
      [](nb::handle nn, nb::handle mm, nb::handle kk, nb::handle dt, nb::handle ord) {
    // NumPy's order: zeros((N, M), dtype, order), then `k >= M` (no diagonal), then operator.index(k).
    std::int64_t n = to_dim(nn, false);
    std::int64_t cols = mm.is_none() ? n : to_dim(mm, false);
    dtype t = to_dtype(dt, float64);
    order o = creation_order(ord);
    check_dims({n, cols});
    long long k = cols;  // any k >= M, int64 or not, gives no diagonal
    nb::object m_obj = nb::int_(cols);
    int beyond = PyObject_RichCompareBool(kk.ptr(), m_obj.ptr(), Py_GE);
    if (beyond < 0) throw nb::python_error();
    if (!beyond) {
      nb::object k_index = nb::steal(PyNumber_Index(kk.ptr()));
      if (!k_index.is_valid()) throw nb::python_error();
      int overflow = 0;
      k = PyLong_AsLongLongAndOverflow(k_index.ptr(), &overflow);
      if (k == -1 && PyErr_Occurred()) throw nb::python_error();
      k = overflow < 0 || k < -n ? -n : k;  // as far below as it may be: no diagonal either
    }
    return wrap(eye(n, cols, k, t, o));
      },
      nb::arg("N"), nb::arg("M").none() = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(),
      nb::arg("order").none() = "C");
  m.def(
      "identity", [](nb::handle n, nb::handle dt) { return wrap(identity(to_dim(n), to_dtype(dt, float64))); },
      nb::arg("n"), nb::arg("dtype") = nb::none());
  m.def("to_device", [](const py_array& a, int device) { return wrap(to_device(a.a, device)); });
  m.def("device_arg", &device_arg, nb::arg("device").none(),
        "The CUDA device id an Array API `device=` argument names (-1 for None); ValueError for others.");
  m.def("copy_array", [](const py_array& a, nb::handle ord) { return wrap(a.a.copy(to_order(ord, order::K))); });
  m.def("astype_array", [](const py_array& a, nb::handle dt, nb::handle ord, bool copy) {
    return wrap(a.a.astype(to_dtype(dt), to_order(ord, order::K), copy));
  });
}

}  // namespace cuarray::py
