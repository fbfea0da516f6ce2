// Bindings of the creation functions; Python-side argument defaults follow NumPy's signatures.
#include <nanobind/stl/complex.h>
#include <nanobind/stl/string.h>

#include "common.hpp"

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

std::complex<double> as_complex(nb::handle v) {
  PyObject* o = v.ptr();
  Py_complex c = PyComplex_AsCComplex(o);
  if (c.real == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return {c.real, c.imag};
}

}  // namespace

void init_creation(nb::module_& m) {
  m.def("empty", [](nb::handle shape, nb::handle dt, nb::handle ord) {
    return wrap(empty(to_shape(shape), to_dtype(dt, float64), creation_order(ord)));
  }, nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("order") = "C");
  m.def("zeros", [](nb::handle shape, nb::handle dt, nb::handle ord) {
    return wrap(zeros(to_shape(shape), to_dtype(dt, float64), creation_order(ord)));
  }, nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("order") = "C");
  m.def("ones", [](nb::handle shape, nb::handle dt, nb::handle ord) {
    return wrap(ones(to_shape(shape), to_dtype(dt, float64), creation_order(ord)));
  }, nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("order") = "C");
  m.def("full", [](nb::handle shape, nb::handle value, nb::handle dt, nb::handle ord) {
    shape_t s = to_shape(shape);
    order o = creation_order(ord);
    if (is_ndarray(value)) {
      const array& v = as_py_array(value).a;
      array out = empty(s, dt.is_none() ? v.type() : to_dtype(dt), o);
      out.assign(v);
      return wrap(std::move(out));
    }
    if (!is_python_scalar(value)) {
      // Array-like fill values broadcast, as in NumPy.
      nb::object host = numpy().attr("asarray")(value);
      dtype t = dt.is_none() ? to_dtype(host.attr("dtype")) : to_dtype(dt);
      array out = empty(s, t, o);
      assign_from_python(out, host);
      return wrap(std::move(out));
    }
    dtype t = dt.is_none() ? scalar_dtype(value) : to_dtype(dt);
    return wrap(full(s, to_scalar(value, t, false), t, o));
  }, nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(), nb::arg("order") = "C");

  m.def("empty_like", [](const py_array& a, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape) {
    (void)subok;
    return wrap(like(a.a, dt, ord, shape));
  }, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = "K", nb::arg("subok") = nb::none(),
     nb::arg("shape") = nb::none());
  m.def("zeros_like", [](const py_array& a, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape) {
    (void)subok;
    array out = like(a.a, dt, ord, shape);
    out.fill(scalar::from_int(0, out.type()));
    return wrap(std::move(out));
  }, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = "K", nb::arg("subok") = nb::none(),
     nb::arg("shape") = nb::none());
  m.def("ones_like", [](const py_array& a, nb::handle dt, nb::handle ord, nb::handle subok, nb::handle shape) {
    (void)subok;
    array out = like(a.a, dt, ord, shape);
    out.fill(scalar::from_int(1, out.type()));
    return wrap(std::move(out));
  }, nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("order") = "K", nb::arg("subok") = nb::none(),
     nb::arg("shape") = nb::none());
  m.def("full_like", [](const py_array& a, nb::handle value, nb::handle dt, nb::handle ord, nb::handle subok,
                        nb::handle shape) {
    (void)subok;
    array out = like(a.a, dt, ord, shape);
    if (is_ndarray(value)) {
      out.assign(as_py_array(value).a);
    } else if (is_python_scalar(value)) {
      out.fill(to_scalar(value, out.type(), false));
    } else {
      assign_from_python(out, numpy().attr("asarray")(value));
    }
    return wrap(std::move(out));
  }, nb::arg("a"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(), nb::arg("order") = "K",
     nb::arg("subok") = nb::none(), nb::arg("shape") = nb::none());

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
  m.def("logspace", [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, nb::handle base, nb::handle dt) {
    return wrap(logspace(as_complex(start), as_complex(stop), num, endpoint, as_complex(base), to_dtype(dt)));
  });
  m.def("geomspace", [](nb::handle start, nb::handle stop, std::int64_t num, bool endpoint, nb::handle dt) {
    return wrap(geomspace(as_complex(start), as_complex(stop), num, endpoint, to_dtype(dt)));
  });
  m.def("eye", [](std::int64_t n, nb::handle mm, std::int64_t k, nb::handle dt, nb::handle ord) {
    std::int64_t cols = mm.is_none() ? n : nb::cast<std::int64_t>(mm);
    return wrap(eye(n, cols, k, to_dtype(dt, float64), creation_order(ord)));
  }, nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(), nb::arg("order") = "C");
  m.def("identity", [](std::int64_t n, nb::handle dt) { return wrap(identity(n, to_dtype(dt, float64))); },
        nb::arg("n"), nb::arg("dtype") = nb::none());
  m.def("to_device", [](const py_array& a, int device) { return wrap(to_device(a.a, device)); });
  m.def("copy_array", [](const py_array& a, nb::handle ord) { return wrap(a.a.copy(to_order(ord, order::K))); });
  m.def("astype_array", [](const py_array& a, nb::handle dt, nb::handle ord, bool copy) {
    return wrap(a.a.astype(to_dtype(dt), to_order(ord, order::K), copy));
  });
}

}  // namespace cuarray::py
