// Bindings of cuarray.random: the Philox generator engine behind cuarray.random.Generator and RandomState.
#include <nanobind/stl/string.h>

#include <memory>
#include <optional>
#include <string>

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
  // Beyond uint64 a Python int has no integer dtype, which integers() reports as NumPy does.
  if (std::optional<ufunc_arg> v = args::scalar_operand(obj, true)) return *v;
  return ufunc_arg(as_py_array(nb::module_::import_("cuarray").attr("asarray")(obj)).a);
}

array to_param_array(nb::handle obj) {
  ufunc_arg v = to_param(obj);
  if (!v.is_scalar()) return v.arr;
  return full(shape_t{}, v.value, v.value.type);
}

size_arg to_size(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (PyFloat_Check(obj.ptr())) {
    throw type_error("expected a sequence of integers or a single integer, got '" +
                     nb::cast<std::string>(nb::str(obj)) + "'");
  }
  return to_shape(obj);
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
      .def("random",
           [](engine& e, nb::handle size, nb::handle t, nb::handle out) {
             return wrap(e.g.random(to_size(size), to_dtype(t, float64), args::to_out(out)));
           },
           arg("size").none(), arg("dtype").none(), arg("out").none())
      .def("standard_normal",
           [](engine& e, nb::handle size, nb::handle t, nb::handle out) {
             return wrap(e.g.standard_normal(to_size(size), to_dtype(t, float64), args::to_out(out)));
           },
           arg("size").none(), arg("dtype").none(), arg("out").none())
      .def("standard_exponential",
           [](engine& e, nb::handle size, nb::handle t, const std::string& method, nb::handle out) {
             return wrap(e.g.standard_exponential(to_size(size), to_dtype(t, float64), method, args::to_out(out)));
           },
           arg("size").none(), arg("dtype").none(), arg("method"), arg("out").none())
      .def("standard_gamma",
           [](engine& e, nb::handle shape, nb::handle size, nb::handle t, nb::handle out) {
             return wrap(e.g.standard_gamma(to_param(shape), to_size(size), to_dtype(t, float64), args::to_out(out)));
           },
           arg("shape"), arg("size").none(), arg("dtype").none(), arg("out").none())
      .def("integers",
           [](engine& e, nb::handle low, nb::handle high, nb::handle size, nb::handle t, bool endpoint) {
             std::optional<ufunc_arg> h;
             if (!high.is_none()) h = to_param(high);
             return wrap(e.g.integers(to_param(low), h, to_size(size), to_dtype(t, int64), endpoint));
           },
           arg("low"), arg("high").none(), arg("size").none(), arg("dtype").none(), arg("endpoint"))
      .def("permutation_n", [](engine& e, std::int64_t n) { return wrap(e.g.permutation(n)); })
      .def("permutation",
           [](engine& e, nb::handle x, int axis) { return wrap(e.g.permutation(to_param_array(x), axis)); })
      .def("shuffle",
           [](engine& e, nb::handle x, int axis) {
             if (!is_ndarray(x)) throw type_error("shuffle() takes a cuarray.ndarray");
             e.g.shuffle(as_py_array(x).a, axis);
           })
      .def("permuted",
           [](engine& e, nb::handle x, nb::handle axis, nb::handle out) {
             array o = args::to_out(out);
             array r = e.g.permuted(to_param_array(x), args::to_axis(axis), o);
             return o.defined() ? nb::borrow(out) : wrap(std::move(r));
           },
           arg("x"), arg("axis").none(), arg("out").none())
      .def("choice",
           [](engine& e, nb::handle a, nb::handle size, bool replace, nb::handle p, int axis, bool shuffle) {
             array pa = p.is_none() ? array() : to_param_array(p);
             if (PyLong_Check(a.ptr()) || (is_numpy_scalar(a) && nb::hasattr(a, "__index__"))) {
               return wrap(e.g.choice(args::to_index(a), to_size(size), replace, pa, shuffle));
             }
             return wrap(e.g.choice(to_param_array(a), to_size(size), replace, pa, axis, shuffle));
           },
           arg("a"), arg("size").none(), arg("replace"), arg("p").none(), arg("axis"), arg("shuffle"))
      .def("multinomial",
           [](engine& e, nb::handle n, nb::handle pvals, nb::handle size) {
             return wrap(e.g.multinomial(to_param(n), to_param_array(pvals).astype(float64, order::K, false),
                                         to_size(size)));
           },
           arg("n"), arg("pvals"), arg("size").none())
      .def("dirichlet",
           [](engine& e, nb::handle alpha, nb::handle size) {
             return wrap(e.g.dirichlet(to_param_array(alpha), to_size(size)));
           },
           arg("alpha"), arg("size").none())
      .def("multivariate_normal_factor",
           [](engine& e, nb::handle mean, nb::handle factor, nb::handle size) {
             return wrap(e.g.multivariate_normal_factor(to_param_array(mean), to_param_array(factor), to_size(size)));
           },
           arg("mean"), arg("factor"), arg("size").none())
      .def("random_raw", [](engine& e, std::int64_t n) { return wrap(e.g.random_raw(n)); });

  // The distributions with one, two or three parameters share one binding shape each.
#define CUARRAY_RANDOM_DIST1(name)                                                                   \
  cls.def(#name, [](engine& e, nb::handle a, nb::handle size) {                                      \
    return wrap(e.g.name(to_param(a), to_size(size)));                                               \
  }, arg("a"), arg("size").none());
#define CUARRAY_RANDOM_DIST2(name)                                                                   \
  cls.def(#name, [](engine& e, nb::handle a, nb::handle b, nb::handle size) {                        \
    return wrap(e.g.name(to_param(a), to_param(b), to_size(size)));                                  \
  }, arg("a"), arg("b"), arg("size").none());
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
  cls.def("hypergeometric", [](engine& e, nb::handle g, nb::handle b, nb::handle s, nb::handle size) {
    return wrap(e.g.hypergeometric(to_param(g), to_param(b), to_param(s), to_size(size)));
  }, arg("ngood"), arg("nbad"), arg("nsample"), arg("size").none());
}

}  // namespace cuarray::py
