// Bindings of cuarray.random: the Philox generator engine behind cuarray.random.Generator and RandomState.
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "args.hpp"
#include "common.hpp"

namespace cuarray::py {

namespace {

using random::generator;
using random::size_arg;

using args::is_numpy_scalar;

// A distribution parameter: cuarray arrays as they are; Python and NumPy scalars as scalars (no device
// work); anything else array-like (lists, NumPy arrays) through cuarray.asarray, as NumPy's asarray.
ufunc_arg to_param(nb::handle obj) {
  if (is_ndarray(obj)) return ufunc_arg(as_py_array(obj).a);
  // A Python int just above 2**64 rounds to 2**64 as a double, which integers() takes as the exact 2**64
  // (uint64's exclusive high): send those as the next double up, out of every dtype's bounds.
  if (PyLong_CheckExact(obj.ptr())) {
    static const double two64 = 0x1p64;
    double d = PyLong_AsDouble(obj.ptr());
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
    } else if (d == two64) {
      nb::object exact = nb::int_(1).attr("__lshift__")(64);
      // Only those above 2**64: 2**64 - 1 rounds to 2**64 too, and is uint64's largest value, exact as a uint64.
      int above = PyObject_RichCompareBool(obj.ptr(), exact.ptr(), Py_GT);
      if (above < 0) throw nb::python_error();
      if (above) return ufunc_arg(array(), scalar::from_double(std::nextafter(two64, 0x1p65)), true);
    }
  }
  // Beyond uint64 a Python int has no integer dtype, which integers() reports as NumPy does.
  if (std::optional<ufunc_arg> v = args::scalar_operand(obj, true)) return *v;
  return ufunc_arg(as_py_array(nb::module_::import_("cuarray").attr("asarray")(obj)).a);
}

array to_param_array(nb::handle obj) {
  ufunc_arg v = to_param(obj);
  if (!v.is_scalar()) return v.arr;
  return full(shape_t{}, v.value, v.value.type);
}

// One extent of `size`: operator.index of it, or random::invalid_size_dim when it has none.
std::int64_t size_extent(PyObject* o) {
  if (PyFloat_Check(o)) return random::invalid_size_dim;
  PyObject* idx = PyNumber_Index(o);
  if (!idx) {
    PyErr_Clear();
    return random::invalid_size_dim;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  // Beyond int64: too big, or negative (both ValueError once the generator parses the size, as NumPy's).
  if (overflow) return overflow > 0 ? std::numeric_limits<std::int64_t>::max() : -1;
  return v;
}

// NumPy's message for a `size` that is not a sequence of integers.
std::string size_type_message(nb::handle obj) {
  if (PyFloat_Check(obj.ptr())) {
    return "expected a sequence of integers or a single integer, got '" + nb::cast<std::string>(nb::repr(obj)) + "'";
  }
  PyObject* bad = obj.ptr();
  nb::object seq = nb::steal(PySequence_Tuple(obj.ptr()));
  if (!seq.is_valid()) {
    PyErr_Clear();
  } else if (!PyUnicode_Check(obj.ptr()) && !PyBytes_Check(obj.ptr())) {
    for (nb::handle h : seq) {
      PyObject* idx = PyNumber_Index(h.ptr());
      if (!idx) {
        PyErr_Clear();
        bad = h.ptr();
        break;
      }
      Py_DECREF(idx);
    }
  }
  return "'" + args::type_name_of(bad) + "' object cannot be interpreted as an integer";
}

// `size` unchecked (Note [random size]): the generator raises for negative extents and for a size that is
// not a sequence of integers after it checked the parameters, where NumPy does.
size_arg to_size(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  PyObject* o = obj.ptr();
  if (PyFloat_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o)) return shape_t{random::invalid_size_dim};
  if (PyLong_Check(o) || PyObject_HasAttrString(o, "__index__")) return shape_t{size_extent(o)};
  nb::object seq = nb::steal(PySequence_Tuple(o));
  if (!seq.is_valid()) {
    PyErr_Clear();
    return shape_t{random::invalid_size_dim};
  }
  shape_t s;
  Py_ssize_t n = PyTuple_GET_SIZE(seq.ptr());
  if (n > max_ndim)
    throw value_error("maximum supported dimension for an ndarray is currently " + std::to_string(max_ndim) +
                      ", found " + std::to_string(n));
  for (Py_ssize_t i = 0; i < n; ++i) s.push_back(size_extent(PyTuple_GET_ITEM(seq.ptr(), i)));
  return s;
}

// A draw with `size`: the generator reports a `size` that is not a sequence of integers where NumPy does
// (after the parameters' checks); the message then names the Python object, as NumPy's.
template <class F> nb::object sized(nb::handle size_obj, F&& draw) {
  size_arg s = to_size(size_obj);
  try {
    return wrap(draw(s));
  } catch (const type_error& e) {
    bool invalid = s && std::find(s->begin(), s->end(), random::invalid_size_dim) != s->end();
    if (invalid && std::string_view(e.what()) == random::invalid_size_message) {
      throw type_error(size_type_message(size_obj));
    }
    throw;
  }
}

// NumPy converts an array-like parameter with float64 as the target ('safe' casting): complex is a TypeError.
void require_real(const array& a, const char* what) {
  if (is_complex(a.type())) {
    throw type_error(std::string("Cannot cast array data from dtype('") + std::string(name(a.type())) +
                     "') to dtype('float64') according to the rule 'safe' (" + what + ")");
  }
}

// Drawing enqueues kernels only; reading array parameters back for their checks syncs without the GIL.
struct engine {
  generator g;
  explicit engine(std::uint64_t key, std::uint64_t counter) : g(std::make_shared<random::philox_state>()) {
    g.state()->key = key;
    g.state()->counter = counter;
  }
};

}  // namespace

void init_random(nb::module_& m) {
  using nb::arg;
  nb::class_<engine>(m, "_RandomEngine", "Philox4x32-10 state (key, counter) with NumPy's Generator methods")
      .def(nb::init<std::uint64_t, std::uint64_t>(), arg("key"), arg("counter") = 0)
      .def_prop_rw(
          "key", [](const engine& e) { return e.g.state()->key; },
          [](engine& e, std::uint64_t k) { e.g.state()->key = k; })
      .def_prop_rw(
          "counter", [](const engine& e) { return e.g.state()->counter; },
          [](engine& e, std::uint64_t c) { e.g.state()->counter = c; })
      .def(
          "random",
          [](engine& e, nb::handle size, nb::handle t, nb::handle out) {
    dtype dt = to_dtype(t, float64);
    array o = args::to_out(out);
    return sized(size, [&](const size_arg& sz) { return e.g.random(sz, dt, o); });
          },
          arg("size").none(), arg("dtype").none(), arg("out").none())
      .def(
          "standard_normal",
          [](engine& e, nb::handle size, nb::handle t, nb::handle out) {
    dtype dt = to_dtype(t, float64);
    array o = args::to_out(out);
    return sized(size, [&](const size_arg& sz) { return e.g.standard_normal(sz, dt, o); });
          },
          arg("size").none(), arg("dtype").none(), arg("out").none())
      .def(
          "standard_exponential",
          [](engine& e, nb::handle size, nb::handle t, const std::string& method, nb::handle out) {
    dtype dt = to_dtype(t, float64);
    array o = args::to_out(out);
    return sized(size, [&](const size_arg& sz) { return e.g.standard_exponential(sz, dt, method, o); });
          },
          arg("size").none(), arg("dtype").none(), arg("method"), arg("out").none())
      .def(
          "standard_gamma",
          [](engine& e, nb::handle shape, nb::handle size, nb::handle t, nb::handle out) {
    dtype dt = to_dtype(t, float64);
    array o = args::to_out(out);
    ufunc_arg k = to_param(shape);
    return sized(size, [&](const size_arg& sz) { return e.g.standard_gamma(k, sz, dt, o); });
          },
          arg("shape"), arg("size").none(), arg("dtype").none(), arg("out").none())
      .def(
          "integers",
          [](engine& e, nb::handle low, nb::handle high, nb::handle size, nb::handle t, bool endpoint) {
    dtype dt = to_dtype(t, int64);
    // NumPy's integers() evaluates np.prod(size) before anything else: text in size is a TypeError.
    auto text = [](nb::handle h) { return PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr()); };
    bool has_text = text(size);
    if (!has_text && (PyTuple_Check(size.ptr()) || PyList_Check(size.ptr()))) {
      for (nb::handle h : size) has_text = has_text || text(h);
    }
    if (has_text) {
      throw type_error("ufunc 'multiply' did not contain a loop with signature matching types (size " +
                       nb::cast<std::string>(nb::repr(size)) + ")");
    }
    ufunc_arg lo = to_param(low);
    std::optional<ufunc_arg> h;
    if (!high.is_none()) h = to_param(high);
    return sized(size, [&](const size_arg& sz) { return e.g.integers(lo, h, sz, dt, endpoint); });
          },
          arg("low"), arg("high").none(), arg("size").none(), arg("dtype").none(), arg("endpoint"))
      .def("permutation_n", [](engine& e, std::int64_t n) { return wrap(e.g.permutation(n)); })
      .def("permutation",
           [](engine& e, nb::handle x, int axis) { return wrap(e.g.permutation(to_param_array(x), axis)); })
      .def(
          "shuffle",
          [](engine& e, nb::handle x, int axis) {
    if (!is_ndarray(x)) throw type_error("shuffle() takes a cuarray.ndarray");
    e.g.shuffle(as_py_array(x).a, axis);
          })
      .def(
          "permuted",
          [](engine& e, nb::handle x, nb::handle axis, nb::handle out) {
    array o = args::to_out(out);
    array r = e.g.permuted(to_param_array(x), args::to_axis(axis), o);
    return o.defined() ? nb::borrow(out) : wrap(std::move(r));
          },
          arg("x"), arg("axis").none(), arg("out").none())
      .def(
          "choice",
          [](engine& e, nb::handle a, nb::handle size, bool replace, nb::handle p, int axis, bool shuffle) {
    if (PyLong_Check(a.ptr()) || (is_numpy_scalar(a) && nb::hasattr(a, "__index__"))) {
      std::int64_t n = args::to_index(a);
      array pa = p.is_none() ? array() : to_param_array(p);
      if (!PyUnicode_Check(size.ptr())) {
        return sized(size, [&](const size_arg& sz) { return e.g.choice(n, sz, replace, pa, shuffle); });
      }
      // A str size meets NumPy's np.prod(size): first, for a population of 0 or less, multiply's TypeError on
      // the str; else, after p's checks, np.prod(size, dtype=intp)'s ValueError from int().
      if (n <= 0) throw type_error("ufunc 'multiply' did not contain a loop for a str size");
      try {
        return sized(size, [&](const size_arg& sz) { return e.g.choice(n, sz, replace, pa, shuffle); });
      } catch (const type_error& err) {
        if (std::string_view(err.what()) != size_type_message(size)) throw;
        throw value_error("invalid literal for int() with base 10: " + nb::cast<std::string>(nb::repr(size)));
      }
    }
    array pop = to_param_array(a);
    array pa = p.is_none() ? array() : to_param_array(p);
    return sized(size, [&](const size_arg& sz) { return e.g.choice(pop, sz, replace, pa, axis, shuffle); });
          },
          arg("a"), arg("size").none(), arg("replace"), arg("p").none(), arg("axis"), arg("shuffle"))
      .def(
          "multinomial",
          [](engine& e, nb::handle n, nb::handle pvals, nb::handle size) {
    // NumPy converts n, then pvals (complex: TypeError), before any value check.
    ufunc_arg un = to_param(n);
    if (is_complex(un.is_scalar() ? un.value.type : un.arr.type())) {
      throw type_error("multinomial: n must be real, not complex");
    }
    array pv = to_param_array(pvals);
    require_real(pv, "pvals");
    array p64 = pv.astype(float64, order::K, false);
    return sized(size, [&](const size_arg& sz) { return e.g.multinomial(un, p64, sz); });
          },
          arg("n"), arg("pvals"), arg("size").none())
      .def(
          "dirichlet",
          [](engine& e, nb::handle alpha, nb::handle size) {
    return sized(size, [&](const size_arg& sz) { return e.g.dirichlet(to_param_array(alpha), sz); });
          },
          arg("alpha"), arg("size").none())
      .def(
          "multivariate_normal_factor",
          [](engine& e, nb::handle mean, nb::handle factor, nb::handle size) {
    array m = to_param_array(mean);
    array f = to_param_array(factor);
    return sized(size, [&](const size_arg& sz) { return e.g.multivariate_normal_factor(m, f, sz); });
          },
          arg("mean"), arg("factor"), arg("size").none())
      .def("random_raw", [](engine& e, std::int64_t n) { return wrap(e.g.random_raw(n)); });

  // The distributions with one, two or three parameters share one binding shape each.
#define CUARRAY_RANDOM_DIST1(name)                                                                                     \
  cls.def(                                                                                                             \
      #name,                                                                                                           \
      [](engine& e, nb::handle a, nb::handle size) {                                                                   \
    return sized(size, [&](const size_arg& sz) { return e.g.name(to_param(a), sz); });                                 \
      },                                                                                                               \
      arg("a"), arg("size").none());
#define CUARRAY_RANDOM_DIST2(name)                                                                                     \
  cls.def(                                                                                                             \
      #name,                                                                                                           \
      [](engine& e, nb::handle a, nb::handle b, nb::handle size) {                                                     \
    ufunc_arg pa = to_param(a);                                                                                        \
    ufunc_arg pb = to_param(b);                                                                                        \
    return sized(size, [&](const size_arg& sz) { return e.g.name(pa, pb, sz); });                                      \
      },                                                                                                               \
      arg("a"), arg("b"), arg("size").none());
  nb::class_<engine> cls = nb::borrow<nb::class_<engine>>(m.attr("_RandomEngine"));
  CUARRAY_RANDOM_DIST1(exponential)
  CUARRAY_RANDOM_DIST1(chisquare)
  CUARRAY_RANDOM_DIST1(poisson)
  CUARRAY_RANDOM_DIST1(geometric)
  CUARRAY_RANDOM_DIST2(uniform)
  CUARRAY_RANDOM_DIST2(normal)
  CUARRAY_RANDOM_DIST2(gamma)
  CUARRAY_RANDOM_DIST2(beta)
  CUARRAY_RANDOM_DIST2(lognormal)
  CUARRAY_RANDOM_DIST2(logistic)
  CUARRAY_RANDOM_DIST2(laplace)
  CUARRAY_RANDOM_DIST2(gumbel)
  CUARRAY_RANDOM_DIST2(binomial)
#undef CUARRAY_RANDOM_DIST1
#undef CUARRAY_RANDOM_DIST2
  cls.def(
      "hypergeometric",
      [](engine& e, nb::handle g, nb::handle b, nb::handle s, nb::handle size) {
    ufunc_arg pg = to_param(g);
    ufunc_arg pb = to_param(b);
    ufunc_arg ps = to_param(s);
    return sized(size, [&](const size_arg& sz) { return e.g.hypergeometric(pg, pb, ps, sz); });
      },
      arg("ngood"), arg("nbad"), arg("nsample"), arg("size").none());
}

}  // namespace cuarray::py
