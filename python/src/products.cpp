// Bindings of the matrix and tensor products, einsum, trace, linalg's product functions, `@` and TF32 control.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/products.hpp"

namespace cuarray::py {

namespace {

using args::to_array;
using args::to_index;
using args::to_opt_dtype;
using args::to_out;

nb::object result(array r, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

int to_int_axis(nb::handle obj) { return to_c_int_axis(obj); }  // Note [huge axes]

std::vector<int> to_int_list(nb::handle obj) {
  std::vector<int> v;
  if (PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr()) || nb::hasattr(obj, "__len__")) {
    for (nb::handle h : obj) v.push_back(to_int_axis(h));
  } else {
    v.push_back(to_int_axis(obj));  // NumPy's tensordot accepts a lone int per side
  }
  return v;
}

casting to_casting(nb::handle obj) {
  if (!PyUnicode_Check(obj.ptr()))
    throw type_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
  return parse_casting(nb::cast<std::string>(obj));
}

// NumPy's einsum optimize=: False/None, True, 'greedy', 'optimal', ['einsum_path', (0, 1), ...], or
// ('greedy', memory_limit).
einsum_optimize to_optimize(nb::handle obj) {
  if (obj.is_none() || obj.ptr() == Py_False) return einsum_optimize(einsum_optimize::none);
  if (obj.ptr() == Py_True) return einsum_optimize(einsum_optimize::greedy);
  if (PyUnicode_Check(obj.ptr())) return einsum_optimize::parse(nb::cast<std::string>(obj));
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    nb::sequence seq = nb::borrow<nb::sequence>(obj);
    std::size_t n = nb::len(seq);
    if (n > 0 && PyUnicode_Check(seq[0].ptr()) && nb::cast<std::string>(seq[0]) == "einsum_path") {
      einsum_optimize o(einsum_optimize::explicit_path);
      for (std::size_t i = 1; i < n; ++i) o.path.push_back(to_int_list(seq[i]));
      return o;
    }
    if (n == 2 && PyUnicode_Check(seq[0].ptr()) && (PyLong_Check(seq[1].ptr()) || PyFloat_Check(seq[1].ptr()))) {
      einsum_optimize o = einsum_optimize::parse(nb::cast<std::string>(seq[0]));
      o.memory_limit = static_cast<double>(static_cast<long long>(nb::cast<double>(seq[1])));
      return o;
    }
  }
  throw type_error("Did not understand the path: " + nb::cast<std::string>(nb::str(obj)));
}

// einsum's two call forms: (subscripts, *operands) and (op0, sublist0, op1, sublist1, ..., [sublistout]),
// the second turned into the first as NumPy's _parse_einsum_input does.
std::string sublist_to_str(nb::handle sub) {
  static const char* symbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  nb::object ellipsis = nb::borrow(Py_Ellipsis);
  std::string s;
  for (nb::handle h : sub) {
    if (h.is(ellipsis)) {
      s += "...";
      continue;
    }
    PyObject* idx = PyNumber_Index(h.ptr());
    if (!idx) {
      PyErr_Clear();
      throw type_error("For this input type lists must contain either int or Ellipsis");
    }
    long v = PyLong_AsLong(idx);
    Py_DECREF(idx);
    if (v < 0 || v >= 52) throw value_error("subscript is not within the valid range [0, 52)");
    s += symbols[v];
  }
  return s;
}

std::string parse_operands(nb::args args, std::vector<nb::handle>& ops) {
  if (args.size() == 0) throw value_error("No input operands");
  if (PyUnicode_Check(args[0].ptr())) {
    for (std::size_t i = 1; i < args.size(); ++i) ops.push_back(args[i]);
    return nb::cast<std::string>(args[0]);
  }
  std::string subs;
  std::size_t n = args.size(), pairs = n / 2;
  for (std::size_t p = 0; p < pairs; ++p) {
    ops.push_back(args[2 * p]);
    if (p) subs += ",";
    subs += sublist_to_str(args[2 * p + 1]);
  }
  if (n % 2 == 1) subs += "->" + sublist_to_str(args[n - 1]);
  return subs;
}

// The arguments are converted in NumPy's order (Note [ufunc argument order] in ufunc.cpp): dtype=, out=,
// casting=, then the operands; C++ leaves the order of a call's arguments unspecified, hence the locals.
nb::object do_matmul(nb::handle a, nb::handle b, nb::handle out, nb::handle casting_obj, nb::handle dtype_obj) {
  std::optional<dtype> dt = to_opt_dtype(dtype_obj);
  array o = to_out(out);
  casting rule = to_casting(casting_obj);
  array x = to_array(a, "matmul");
  array y = to_array(b, "matmul");
  return result(matmul(x, y, o, dt, rule), out);
}

// `@` with an operand it does not know (a list, a host array) defers to the other operand, as NumPy's
// binary operators do.
bool is_operand(nb::handle x) {
  return is_ndarray(x) || is_python_scalar(x) || nb::hasattr(x, "__cuda_array_interface__");
}

array tensordot_axes(const array& x, const array& y, nb::handle axes) {
  if (PyLong_Check(axes.ptr()) ||
      (!PyTuple_Check(axes.ptr()) && !PyList_Check(axes.ptr()) && !nb::hasattr(axes, "__len__"))) {
    return tensordot(x, y, to_index(axes));
  }
  nb::sequence seq = nb::borrow<nb::sequence>(axes);
  if (nb::len(seq) != 2) throw value_error("Axes must consist of two sequences.");
  return tensordot(x, y, to_int_list(seq[0]), to_int_list(seq[1]));
}

struct tf32_context {
  bool enabled, previous = false;
};

}  // namespace

void init_products(nb::module_& m) {
  m.def("matmul", &do_matmul, nb::arg("x1"), nb::arg("x2"), nb::arg("out").none() = nb::none(), nb::kw_only(),
        nb::arg("casting") = "same_kind", nb::arg("dtype").none() = nb::none(),
        "Matrix product of stacks of matrices, with NumPy's 1-D promotion and batch broadcasting.");
  m.def(
      "dot",
      [](nb::handle a, nb::handle b, nb::handle out) {
    return result(dot(to_array(a, "dot"), to_array(b, "dot"), to_out(out)), out);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("out").none() = nb::none(), "NumPy's dot product.");
  m.def(
      "vdot", [](nb::handle a, nb::handle b) { return wrap(vdot(to_array(a, "vdot"), to_array(b, "vdot"))); },
      nb::arg("a"), nb::arg("b"), "Dot product of flattened arrays, conjugating the first.");
  m.def(
      "inner", [](nb::handle a, nb::handle b) { return wrap(inner(to_array(a, "inner"), to_array(b, "inner"))); },
      nb::arg("a"), nb::arg("b"), "Sum product over the last axes.");
  m.def(
      "outer",
      [](nb::handle a, nb::handle b, nb::handle out) {
    return result(outer(to_array(a, "outer"), to_array(b, "outer"), to_out(out)), out);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("out").none() = nb::none(), "Outer product of flattened arrays.");
  m.def(
      "vecdot",
      [](nb::handle a, nb::handle b, nb::handle out, nb::handle axis) {
    return result(vecdot(to_array(a, "vecdot"), to_array(b, "vecdot"), to_int_axis(axis), to_out(out)), out);
      },
      nb::arg("x1"), nb::arg("x2"), nb::arg("out").none() = nb::none(), nb::kw_only(), nb::arg("axis") = -1,
      "Vector dot product along an axis, conjugating the first operand.");
  m.def(
      "tensordot",
      [](nb::handle a, nb::handle b, nb::handle axes) {
    return wrap(tensordot_axes(to_array(a, "tensordot"), to_array(b, "tensordot"), axes));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axes") = 2, "Tensor dot product over the given axes.");
  m.def(
      "kron", [](nb::handle a, nb::handle b) { return wrap(kron(to_array(a, "kron"), to_array(b, "kron"))); },
      nb::arg("a"), nb::arg("b"), "Kronecker product.");
  m.def(
      "cross",
      [](nb::handle a, nb::handle b, nb::handle axisa, nb::handle axisb, nb::handle axisc, nb::handle axis) {
    std::optional<int> ax;
    if (!axis.is_none()) ax = to_int_axis(axis);
    array x = to_array(a, "cross");  // Note [argument order] (manipulation.cpp)
    array y = to_array(b, "cross");
    int aa = to_int_axis(axisa);
    int ab = to_int_axis(axisb);
    int ac = to_int_axis(axisc);
    return wrap(cross(x, y, aa, ab, ac, ax));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axisa") = -1, nb::arg("axisb") = -1, nb::arg("axisc") = -1,
      nb::arg("axis").none() = nb::none(), "Cross product of 3-element vectors.");
  auto trace_fn =
      [](nb::handle a, nb::handle offset, nb::handle axis1, nb::handle axis2, nb::handle dt, nb::handle out) {
    return result(trace(to_array(a, "trace"), to_index(offset), to_int_axis(axis1), to_int_axis(axis2),
                        to_opt_dtype(dt), to_out(out)),
                  out);
  };
  m.def("trace", trace_fn, nb::arg("a"), nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1,
        nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none(), "Sum along diagonals.");

  m.def(
      "einsum",
      [](nb::args args, nb::handle out, nb::handle dt, nb::handle order_obj, nb::handle casting_obj,
         nb::handle optimize) {
    std::vector<nb::handle> ops;
    std::string subs = parse_operands(args, ops);
    std::vector<array> operands;
    for (nb::handle h : ops) operands.push_back(to_array(h, "einsum"));
    einsum_options o;
    o.out = to_out(out);
    o.dtype_ = to_opt_dtype(dt);
    o.out_order = to_order(order_obj, order::K);
    o.rule = to_casting(casting_obj);
    o.optimize = to_optimize(optimize);
    return result(einsum(subs, operands, o), out);
      },
      nb::arg("operands"), nb::kw_only(), nb::arg("out").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
      nb::arg("order") = "K", nb::arg("casting") = "safe", nb::arg("optimize").none() = false,
      "Einstein summation (NumPy's einsum), contracted pairwise through batched GEMMs.");
  m.def(
      "einsum_path",
      [](nb::args args, nb::handle optimize, bool einsum_call) {
    if (einsum_call) throw value_error("einsum_path: einsum_call=True is not supported");
    std::vector<nb::handle> ops;
    std::string subs = parse_operands(args, ops);
    std::vector<shape_t> shapes;
    for (nb::handle h : ops) {
      if (is_ndarray(h)) shapes.push_back(as_py_array(h).a.shape());
      else shapes.push_back(to_shape(numpy().attr("shape")(h)));
    }
    einsum_optimize opt = optimize.ptr() == Py_False ? einsum_optimize(einsum_optimize::none) : to_optimize(optimize);
    auto [path, report] = einsum_path(subs, shapes, opt);
    nb::list p;
    p.append(nb::str("einsum_path"));
    for (const auto& step : path) {
      nb::list t;
      for (int i : step) t.append(i);
      p.append(nb::tuple(t));
    }
    return nb::make_tuple(p, nb::str(report.c_str()));
      },
      nb::arg("operands"), nb::kw_only(), nb::arg("optimize").none() = "greedy", nb::arg("einsum_call") = false,
      "NumPy's einsum_path: the contraction path and a printed report.");

  // numpy.linalg's product functions, in the submodule _core.linalg that cuarray.linalg re-exports.
  nb::module_ l = m.def_submodule("linalg", "Linear algebra over cuSOLVER and cuBLAS");
  l.def(
      "matrix_power",
      [](nb::handle a_obj, nb::handle n_obj) -> nb::object {
        array a = to_array(a_obj, "linalg.matrix_power");
        PyObject* idx = PyNumber_Index(n_obj.ptr());
        if (!idx) {
          PyErr_Clear();
          throw type_error("exponent must be an integer");
        }
        long long n = PyLong_AsLongLong(idx);
        Py_DECREF(idx);
        if (n == -1 && PyErr_Occurred()) throw nb::python_error();
        array r = linalg::matrix_power(a, n);
        // NumPy returns the very input for n == 1.
        if (n == 1 && is_ndarray(a_obj)) return nb::borrow(a_obj);
        return wrap(std::move(r));
      },
      nb::arg("a"), nb::arg("n"), "A square matrix (or stack) to an integer power.");
  l.def(
      "multi_dot",
      [](nb::handle arrays, nb::handle out) {
    std::vector<array> v;
    for (nb::handle h : arrays) v.push_back(to_array(h, "linalg.multi_dot"));
    return result(linalg::multi_dot(v, to_out(out)), out);
      },
      nb::arg("arrays"), nb::kw_only(), nb::arg("out").none() = nb::none(),
      "Chained dot products in the cheapest order.");
  l.def(
      "matmul",
      [](nb::handle a, nb::handle b) {
    return wrap(linalg::matmul(to_array(a, "linalg.matmul"), to_array(b, "linalg.matmul")));
      },
      nb::arg("x1"), nb::arg("x2"), "numpy.linalg.matmul.");
  l.def(
      "outer",
      [](nb::handle a, nb::handle b) {
    return wrap(linalg::outer(to_array(a, "linalg.outer"), to_array(b, "linalg.outer")));
      },
      nb::arg("x1"), nb::arg("x2"), "numpy.linalg.outer: outer product of two 1-D arrays.");
  l.def(
      "tensordot",
      [](nb::handle a, nb::handle b, nb::handle axes) {
    return wrap(tensordot_axes(to_array(a, "linalg.tensordot"), to_array(b, "linalg.tensordot"), axes));
      },
      nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axes") = 2, "numpy.linalg.tensordot.");
  l.def(
      "vecdot",
      [](nb::handle a, nb::handle b, nb::handle axis) {
    return wrap(linalg::vecdot(to_array(a, "linalg.vecdot"), to_array(b, "linalg.vecdot"), to_int_axis(axis)));
      },
      nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axis") = -1, "numpy.linalg.vecdot.");
  l.def(
      "cross",
      [](nb::handle a, nb::handle b, nb::handle axis) {
    return wrap(linalg::cross(to_array(a, "linalg.cross"), to_array(b, "linalg.cross"), to_int_axis(axis)));
      },
      nb::arg("x1"), nb::arg("x2"), nb::kw_only(), nb::arg("axis") = -1, "numpy.linalg.cross: 3-element vectors.");
  l.def(
      "diagonal",
      [](nb::handle x, nb::handle offset) -> nb::object {
        array r = linalg::diagonal(to_array(x, "linalg.diagonal"), to_index(offset));
        if (!is_ndarray(x)) return wrap(std::move(r));
        const py_array& s = as_py_array(x);
        return wrap(std::move(r), s.base.is_none() ? nb::borrow(x) : s.base);
      },
      nb::arg("x"), nb::kw_only(), nb::arg("offset") = 0,
      "numpy.linalg.diagonal: a view of the last two axes' diagonals.");
  l.def(
      "trace",
      [](nb::handle x, nb::handle offset, nb::handle dt) {
    return wrap(linalg::trace(to_array(x, "linalg.trace"), to_index(offset), to_opt_dtype(dt)));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("offset") = 0, nb::arg("dtype").none() = nb::none(),
      "numpy.linalg.trace: sums of the last two axes' diagonals.");

  // Note [tf32]: the switch, a setter returning the previous state, and a context manager.
  m.def(
      "tf32_enabled", [] { return tf32_enabled(); }, "Whether float32 products may use TF32 on this thread.");
  m.def(
      "set_tf32_enabled", [](bool on) { return set_tf32_enabled(on); }, nb::arg("enabled"),
      "Allow or forbid TF32 for float32 products on this thread; returns the previous setting.");
  nb::class_<tf32_context>(m, "_TF32Context")
      .def(
          "__enter__",
          [](tf32_context& c) {
    c.previous = set_tf32_enabled(c.enabled);
    return c.enabled;
          })
      .def(
          "__exit__",
          [](tf32_context& c, nb::handle, nb::handle, nb::handle) {
    set_tf32_enabled(c.previous);
    return false;
          },
          nb::arg("exc_type").none(), nb::arg("exc").none(), nb::arg("tb").none());
  m.def(
      "tf32", [](bool on) { return tf32_context{on}; }, nb::arg("enabled") = true,
      "Context manager: float32 products in the block use TF32 tensor cores (or not).");

  // ndarray members: `@`, dot and trace.
  nb::handle cls = ndarray_type();
  nb::setattr(cls, "__matmul__",
              nb::cpp_function(
                  [](nb::handle self, nb::handle other) -> nb::object {
                    if (!is_operand(other)) return nb::borrow(Py_NotImplemented);
                    return wrap(matmul(as_py_array(self).a, to_array(other, "matmul")));
                  },
                  nb::is_method(), nb::name("__matmul__")));
  nb::setattr(cls, "__rmatmul__",
              nb::cpp_function(
                  [](nb::handle self, nb::handle other) -> nb::object {
                    if (!is_operand(other)) return nb::borrow(Py_NotImplemented);
                    return wrap(matmul(to_array(other, "matmul"), as_py_array(self).a));
                  },
                  nb::is_method(), nb::name("__rmatmul__")));
  nb::setattr(cls, "__imatmul__",
              nb::cpp_function(
                  [](nb::handle self, nb::handle other) -> nb::object {
                    if (!is_operand(other)) return nb::borrow(Py_NotImplemented);
                    const array& a = as_py_array(self).a;
                    matmul(a, to_array(other, "matmul"), a, std::nullopt, casting::same_kind);
                    return nb::borrow(self);
                  },
                  nb::is_method(), nb::name("__imatmul__")));
  nb::setattr(cls, "dot",
              nb::cpp_function(
                  [](nb::handle self, nb::handle b, nb::handle out) {
    return result(dot(as_py_array(self).a, to_array(b, "dot"), to_out(out)), out);
                  },
                  nb::is_method(), nb::name("dot"), nb::arg("b"), nb::arg("out").none() = nb::none()));
  nb::setattr(
      cls, "trace",
      nb::cpp_function([trace_fn](nb::handle self, nb::handle offset, nb::handle axis1, nb::handle axis2, nb::handle dt,
                                  nb::handle out) { return trace_fn(self, offset, axis1, axis2, dt, out); },
                       nb::is_method(), nb::name("trace"), nb::arg("offset") = 0, nb::arg("axis1") = 0,
                       nb::arg("axis2") = 1, nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none()));
}

}  // namespace cuarray::py
