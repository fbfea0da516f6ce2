// Bindings of the reductions: functions and ndarray methods with NumPy's keywords.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "fusion_hook.hpp"
#include "src/engine/engine.hpp"
#include "src/ops/reductions_internal.hpp"

namespace cuarray::py {

namespace {

// A reduction spec from its texts (ReductionKernel's and the generator's test binding): the first compute type
// is the input's, the others the extra inputs'.
red::spec custom_spec(const std::string& name, const std::string& preamble, const std::string& acc,
                      const std::vector<std::string>& computes, const std::string& out_compute, const std::string& map,
                      const std::string& combine, const std::string& post, const std::string& identity,
                      std::size_t acc_bytes) {
  red::spec s;
  s.name = name;
  s.preamble = preamble;
  s.acc = acc;
  s.in_compute = computes[0];
  s.extra_compute.assign(computes.begin() + 1, computes.end());
  s.out_compute = out_compute;
  s.map = map;
  s.combine = combine;
  s.post = post;
  s.identity = identity;
  s.acc_bytes = acc_bytes;
  return s;
}

using args::to_array;
using args::to_int_axis;
using args::to_out;
using args::to_reduce_axes;

// Whether NumPy's `name` takes axis 0 or -1 for a 0-d array of dtype t (Note [reduction axes]): its C
// reductions do; mean, var and std (and the nan forms for non-float input, which call them) check the axis
// in Python against ndim 0 and raise AxisError.
bool scalar_axis_ok(const char* name, dtype t) {
  std::string_view n(name);
  if (n == "mean" || n == "var" || n == "std") return false;
  if (n == "nanmean" || n == "nanvar" || n == "nanstd") return is_inexact(t);
  return true;
}

// The dtype NumPy casts initial= to: the reduction's loop (Note [loop dtype from out], cuarray/reduction.hpp),
// so sum of bool is int64 (initial=2.5 adds 2) and nanmin of uint64 into an int64 out takes initial=-5.
dtype initial_type(const char* name, dtype t, const std::optional<dtype>& dtype_, const array& out) {
  static constexpr std::string_view ufunc_reductions[] = {"sum",  "prod",   "nansum", "nanprod", "max",
                                                          "amax", "nanmax", "min",    "amin",    "nanmin"};
  if (std::find(std::begin(ufunc_reductions), std::end(ufunc_reductions), name) != std::end(ufunc_reductions)) {
    return reduction_loop_type(name, t, dtype_, out);
  }
  return dtype_ ? *dtype_ : t;
}

// NumPy's nanmean/nanvar/nanstd refuse a non-inexact dtype= or out= for inexact input (before any axis check).
void check_nan_inexact(const char* name, const array& a, nb::handle dtype_obj, nb::handle out) {
  std::string_view n(name);
  if ((n != "nanmean" && n != "nanvar" && n != "nanstd") || !is_inexact(a.type())) return;
  if (!dtype_obj.is_none() && !is_inexact(to_dtype(dtype_obj))) {
    throw type_error("If a is inexact, then dtype must be inexact");
  }
  if (!out.is_none() && is_ndarray(out) && !is_inexact(as_py_array(out).a.type())) {
    throw type_error("If a is inexact, then out must be inexact");
  }
}

reduce_options options(nb::handle axis, nb::handle dtype_obj, nb::handle out, bool keepdims, nb::handle initial,
                       nb::handle where, const array& a, bool initial_ok, const char* name) {
  reduce_options o;
  o.axis = to_reduce_axes(axis, a.ndim(), scalar_axis_ok(name, a.type()));
  if (!dtype_obj.is_none()) o.dtype_ = to_dtype(dtype_obj);
  o.out = to_out(out);
  o.keepdims = keepdims;
  if (!initial.is_none()) {
    if (!initial_ok) throw type_error("this reduction takes no 'initial'");
    // NumPy's AxisError and repeated-axis ValueError come before initial's cast.
    (void)reduction_axes(o.axis, a.ndim());
    o.initial = to_scalar(initial, initial_type(name, a.type(), o.dtype_, o.out), false);
  }
  if (!where.is_none() && !(PyBool_Check(where.ptr()) && where.ptr() == Py_True)) {
    if (PyBool_Check(where.ptr())) {
      o.where = full(shape_t{}, scalar::from_bool(false), dtype::bool_);
    } else {
      o.where = to_array(where, "where");
    }
  }
  return o;
}

// Note [shape-only warnings]: NumPy's RuntimeWarnings "Mean of empty slice" and "Degrees of freedom <= 0 for
// slice" come here from the shapes alone, with no device-to-host copy: the elements per output slice. For the
// nan- forms NumPy also warns when NaNs leave a slice empty; telling that needs the data on the host, which
// CuPy does not read either, so those slices give NaN silently. A where= mask is not looked at, for the same
// reason. Called after the reduction succeeded, so the axes are valid and distinct.
std::int64_t slice_count(const array& x, const axis_list& axes) {
  if (!axes) return x.size();
  std::int64_t n = 1;
  for (int ax : *axes) n *= x.shape()[normalize_axis(ax, x.ndim())];
  return n;
}

// Elements of the result (keepdims aside): NumPy's nanmean/nanvar/nanstd of an inexact array warn only for
// slices that exist, so an empty result warns nothing; mean/var warn from the slice length alone.
std::int64_t result_count(const array& x, const axis_list& axes) {
  if (!axes) return 1;
  std::vector<bool> reduced(static_cast<std::size_t>(x.ndim()), false);
  for (int ax : *axes) reduced[static_cast<std::size_t>(normalize_axis(ax, x.ndim()))] = true;
  std::int64_t n = 1;
  for (int i = 0; i < x.ndim(); ++i) {
    if (!reduced[static_cast<std::size_t>(i)]) n *= x.shape()[i];
  }
  return n;
}

bool slices_warn(std::string_view name, const array& x, const axis_list& axes) {
  return name.substr(0, 3) != "nan" || !is_inexact(x.type()) || result_count(x, axes) > 0;
}

void warn_runtime(const char* msg) {
  if (PyErr_WarnEx(PyExc_RuntimeWarning, msg, 1) < 0) throw nb::python_error();
}

nb::object result(array r, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

using red_fn = array (*)(const array&, const reduce_options&);
using var_fn = array (*)(const array&, const reduce_options&, double);
using arg_fn = array (*)(const array&, std::optional<int>, bool, const array&);

// Binds `fn` as cuarray.<name>(a, ...) and, with `method`, as ndarray.<name>(self, ...): the same parameters
// after the first.
template <typename F, typename... Rest>
void bind_both(nb::module_& m, nb::handle cls, const char* name, bool method, F fn, nb::arg first,
               const Rest&... rest) {
  m.def(name, fn, first, rest...);
  if (method) nb::setattr(cls, name, nb::cpp_function(fn, nb::is_method(), nb::name(name), rest...));
}

// Note [reduction fast call]
// a.sum(), cuarray.max(a) and the like, the array and no other argument, are most calls of a reduction, and
// nanobind's dispatch of seven parameters with defaults, then options(), cost more host time than the
// reduction's own work (issue 24's small-call figures). nanobind keeps the entry point of each function
// object in the object itself, where the type's tp_vectorcall_offset says (CPython's vectorcall protocol,
// which nanobind's methods also use when called as a.sum()). Each reduction's function and method get an
// entry point that runs that one form with default options and hands every other call, unchanged, to the
// entry point nanobind put there: the signature, docstring, stubs and errors stay nanobind's.
struct fast_reduction {
  red_fn f = nullptr;
  bool mean_warning = false;      ///< mean/nanmean: "Mean of empty slice" for an empty input
  vectorcallfunc next = nullptr;  ///< nanobind's entry point of this object
};
constexpr int max_fast = 32;
fast_reduction fast_table[max_fast];
int fast_count = 0;

// The options of every fast call: building and destroying them per call (two empty arrays among them) took
// about 4% of a small a.sum()'s host time.
const reduce_options fast_defaults{};

template <int I>
PyObject* fast_vectorcall(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) noexcept {
  const fast_reduction& e = fast_table[I];
  if (kwnames != nullptr || PyVectorcall_NARGS(nargsf) != 1 || !is_ndarray(args[0])) {
    return e.next(self, args, nargsf, kwnames);
  }
  return guarded([&]() -> nb::object {
    const array& x = as_py_array(args[0]).a;
    array r = e.f(x, fast_defaults);
    if (e.mean_warning && x.size() == 0) warn_runtime("Mean of empty slice");  // Note [shape-only warnings]
    return wrap(std::move(r));
  });
}

template <std::size_t... I> constexpr auto fast_entries(std::index_sequence<I...>) {
  return std::array<vectorcallfunc, sizeof...(I)>{&fast_vectorcall<static_cast<int>(I)>...};
}
constexpr auto fast_entry = fast_entries(std::make_index_sequence<max_fast>{});

// Puts the fast entry point of `f` in front of the function object `fn` (Note [reduction fast call]).
void install_fast(nb::handle fn, red_fn f, bool mean_warning) {
  PyTypeObject* tp = Py_TYPE(fn.ptr());
  if (fast_count == max_fast || !PyType_HasFeature(tp, Py_TPFLAGS_HAVE_VECTORCALL) || tp->tp_vectorcall_offset <= 0) {
    return;  // not a vectorcall object: nanobind's dispatch stays the only one, which is correct, only slower
  }
  auto* slot = reinterpret_cast<vectorcallfunc*>(reinterpret_cast<char*>(fn.ptr()) + tp->tp_vectorcall_offset);
  if (*slot == nullptr) return;
  fast_table[fast_count] = fast_reduction{f, mean_warning, *slot};
  *slot = fast_entry[static_cast<std::size_t>(fast_count)];
  ++fast_count;
}

void def_reduction(nb::module_& m, nb::handle cls, const char* name, red_fn f, bool initial_ok, bool method) {
  auto fn = [f, name, initial_ok](nb::handle a, nb::handle axis, nb::handle dt, nb::handle out, bool keepdims,
                                  nb::handle initial, nb::handle where) -> nb::object {
    if (!is_ndarray(a) && is_traced(a)) {  // Note [fuse by value]
      nb::dict kw;
      kw["axis"] = axis;
      kw["dtype"] = dt;
      kw["out"] = out;
      kw["keepdims"] = nb::bool_(keepdims);
      if (!initial.is_none()) kw["initial"] = initial;
      if (!where.is_none() && where.ptr() != Py_True) kw["where"] = where;
      return call_traced(name, nb::make_tuple(a), kw);
    }
    array x = to_array(a, name);
    check_nan_inexact(name, x, dt, out);
    reduce_options o = options(axis, dt, out, keepdims, initial, where, x, initial_ok, name);
    array r = f(x, o);
    std::string_view n(name);
    if ((n == "mean" || n == "nanmean") && !o.where.defined() && slice_count(x, o.axis) == 0 &&
        slices_warn(n, x, o.axis)) {
      warn_runtime("Mean of empty slice");  // Note [shape-only warnings]
    }
    return result(std::move(r), out);
  };
  // Note [reduction signatures]: each family takes NumPy's parameters in NumPy's order, so a positional
  // keepdims lands where NumPy puts it: sum/prod (a, axis, dtype, out, keepdims, initial, where); max/min
  // (a, axis, out, keepdims, initial, where); all/any (a, axis, out, keepdims, *, where); mean (a, axis,
  // dtype, out, keepdims, *, where). The adapters below forward to `fn`, which takes every parameter.
  std::string_view n(name);
  bool takes_dtype = !(n == "max" || n == "min" || n == "amax" || n == "amin" || n == "nanmax" || n == "nanmin" ||
                       n == "all" || n == "any");
  if (takes_dtype && initial_ok) {
    bind_both(m, cls, name, method, fn, nb::arg("a"), nb::arg("axis").none() = nb::none(),
              nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false,
              nb::arg("initial").none() = nb::none(), nb::arg("where").none() = true);
  } else if (takes_dtype) {
    auto mean_fn = [fn](nb::handle a, nb::handle axis, nb::handle dt, nb::handle out, bool keepdims, nb::handle where) {
      return fn(a, axis, dt, out, keepdims, nb::none(), where);
    };
    bind_both(m, cls, name, method, mean_fn, nb::arg("a"), nb::arg("axis").none() = nb::none(),
              nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false,
              nb::kw_only(), nb::arg("where").none() = true);
  } else if (initial_ok) {
    auto max_fn = [fn](nb::handle a, nb::handle axis, nb::handle out, bool keepdims, nb::handle initial,
                       nb::handle where) { return fn(a, axis, nb::none(), out, keepdims, initial, where); };
    bind_both(m, cls, name, method, max_fn, nb::arg("a"), nb::arg("axis").none() = nb::none(),
              nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false, nb::arg("initial").none() = nb::none(),
              nb::arg("where").none() = true);
  } else {
    auto all_fn = [fn](nb::handle a, nb::handle axis, nb::handle out, bool keepdims, nb::handle where) {
      return fn(a, axis, nb::none(), out, keepdims, nb::none(), where);
    };
    bind_both(m, cls, name, method, all_fn, nb::arg("a"), nb::arg("axis").none() = nb::none(),
              nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false, nb::kw_only(),
              nb::arg("where").none() = true);
  }
  bool mean_warning = n == "mean" || n == "nanmean";
  install_fast(m.attr(name), f, mean_warning);
  if (method) install_fast(nb::getattr(cls, name), f, mean_warning);
}

void def_variance(nb::module_& m, nb::handle cls, const char* name, var_fn f, bool method) {
  auto fn = [f, name](nb::handle a, nb::handle axis, nb::handle dt, nb::handle out, double ddof, bool keepdims,
                      nb::handle where, nb::handle mean, nb::handle correction) {
    if (!mean.is_none()) throw type_error(std::string(name) + ": the 'mean' keyword is not supported yet");
    if (!is_ndarray(a) && is_traced(a)) return call_traced(name, nb::make_tuple(a), nb::dict());  // unsupported
    array x = to_array(a, name);
    check_nan_inexact(name, x, dt, out);
    double d = ddof;
    if (!correction.is_none()) {
      if (ddof != 0) throw value_error("ddof and correction can't be provided simultaneously.");
      d = nb::cast<double>(correction);
    }
    reduce_options o = options(axis, dt, out, keepdims, nb::none(), where, x, false, name);
    array r = f(x, o, d);
    if (!o.where.defined() && static_cast<double>(slice_count(x, o.axis)) - d <= 0 && slices_warn(name, x, o.axis)) {
      warn_runtime("Degrees of freedom <= 0 for slice");  // Note [shape-only warnings]
    }
    return result(std::move(r), out);
  };
  bind_both(m, cls, name, method, fn, nb::arg("a"), nb::arg("axis").none() = nb::none(),
            nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::arg("ddof") = 0,
            nb::arg("keepdims") = false, nb::kw_only(), nb::arg("where").none() = true,
            nb::arg("mean").none() = nb::none(), nb::arg("correction").none() = nb::none());
}

void def_arg(nb::module_& m, nb::handle cls, const char* name, arg_fn f, bool method) {
  auto fn = [f, name](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) -> nb::object {
    if (!is_ndarray(a) && is_traced(a)) return call_traced(name, nb::make_tuple(a), nb::dict());  // unsupported
    array x = to_array(a, name);
    if (name[0] == 'n' && is_inexact(x.type()) && x.size() > 0 && PyTuple_Check(axis.ptr())) {
      // NumPy's nanargmax reduces its NaN mask with all(axis=...) before argmax refuses the tuple: a tuple
      // out of range or with a repeat fails there first (AxisError, ValueError).
      reduction_axes(to_reduce_axes(axis), x.ndim());
    }
    std::optional<int> ax;
    if (!axis.is_none()) ax = to_int_axis(axis);  // a tuple, a list or a bool: TypeError, as NumPy
    return result(f(x, ax, keepdims, to_out(out)), out);
  };
  m.def(name, fn, nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::kw_only(),
        nb::arg("keepdims") = false);
  if (method) {
    nb::setattr(cls, name,
                nb::cpp_function(fn, nb::is_method(), nb::name(name), nb::arg("axis").none() = nb::none(),
                                 nb::arg("out").none() = nb::none(), nb::kw_only(), nb::arg("keepdims") = false));
  }
}

}  // namespace

void init_reduction(nb::module_& m) {
  nb::handle cls = ndarray_type();
  def_reduction(m, cls, "sum", &sum, true, true);
  def_reduction(m, cls, "prod", &prod, true, true);
  def_reduction(m, cls, "max", &amax, true, true);
  def_reduction(m, cls, "min", &amin, true, true);
  def_reduction(m, cls, "amax", &amax, true, false);
  def_reduction(m, cls, "amin", &amin, true, false);
  def_reduction(m, cls, "any", &any, false, true);
  def_reduction(m, cls, "all", &all, false, true);
  def_reduction(m, cls, "mean", &mean, false, true);
  def_reduction(m, cls, "nansum", &nansum, true, false);
  def_reduction(m, cls, "nanprod", &nanprod, true, false);
  def_reduction(m, cls, "nanmax", &nanmax, true, false);
  def_reduction(m, cls, "nanmin", &nanmin, true, false);
  def_reduction(m, cls, "nanmean", &nanmean, false, false);
  def_variance(m, cls, "var", &var, true);
  def_variance(m, cls, "std", &std, true);
  def_variance(m, cls, "nanvar", &nanvar, false);
  def_variance(m, cls, "nanstd", &nanstd, false);
  def_arg(m, cls, "argmax", &argmax, true);
  def_arg(m, cls, "argmin", &argmin, true);
  def_arg(m, cls, "nanargmax", &nanargmax, false);
  def_arg(m, cls, "nanargmin", &nanargmin, false);
  // The engine behind ReductionKernel: inputs already broadcast to one shape, types and code resolved.
  m.def(
      "_reduce_custom",
      [](const std::string& name, const std::string& preamble, const std::string& acc,
         std::vector<std::string> computes, const std::string& out_compute, const std::string& map,
         const std::string& combine, const std::string& post, const std::string& identity, std::size_t acc_bytes,
         bool sequential, nb::list ins, nb::handle axis, nb::handle out_dtype) {
    if (computes.empty() || computes.size() != ins.size()) throw value_error("ReductionKernel: one type per input");
    red::spec s = custom_spec(name, preamble, acc, computes, out_compute, map, combine, post, identity, acc_bytes);
    s.sequential = sequential;
    red::call c;
    c.in = as_py_array(ins[0]).a;
    for (std::size_t k = 1; k < ins.size(); ++k) c.extra.push_back(as_py_array(ins[k]).a);
    std::optional<std::vector<int>> axes;
    if (!axis.is_none()) {
      axes.emplace();
      for (nb::handle x : axis) axes->push_back(to_c_int_axis(x));  // Note [huge axes]
    }
    c.axes = reduction_axes(axes, c.in.ndim());
    c.out_type = to_dtype(out_dtype);
    return wrap(red::run(s, c));
      },
      nb::arg("name"), nb::arg("preamble"), nb::arg("acc"), nb::arg("computes"), nb::arg("out_compute"), nb::arg("map"),
      nb::arg("combine"), nb::arg("post"), nb::arg("identity"), nb::arg("acc_bytes"), nb::arg("sequential"),
      nb::arg("ins"), nb::arg("axis").none(), nb::arg("out_dtype"));
  // The source the reduction engine would compile for one variant, without a device (tests run it on the host).
  m.def(
      "reduction_source",
      [](const std::string& name, const std::string& preamble, const std::string& acc,
         std::vector<std::string> computes, const std::string& out_compute, const std::string& map,
         const std::string& combine, const std::string& post, const std::string& identity, std::size_t acc_bytes,
         nb::list storages, nb::handle out_storage, bool rows, int group, int kept_ndim, int red_ndim, bool index64,
         bool vec, bool partial_out, bool partial_in, const std::string& fold, bool stream) {
    if (computes.empty() || computes.size() != storages.size())
      throw value_error("reduction_source: one storage type per compute type");
    red::spec s = custom_spec(name, preamble, acc, computes, out_compute, map, combine, post, identity, acc_bytes);
    s.fold = fold;
    red::test_variant t;
    t.in_storage = to_dtype(storages[0]);
    for (std::size_t k = 1; k < storages.size(); ++k) t.extra_storage.push_back(to_dtype(storages[k]));
    t.out_storage = to_dtype(out_storage);
    t.rows = rows;
    t.group = group;
    t.kept_ndim = kept_ndim;
    t.red_ndim = red_ndim;
    t.index64 = index64;
    t.vec = vec;
    t.stream = stream;
    t.partial_out = partial_out;
    t.partial_in = partial_in;
    return red::source_for_test(s, t);
      },
      nb::arg("name"), nb::arg("preamble"), nb::arg("acc"), nb::arg("computes"), nb::arg("out_compute"), nb::arg("map"),
      nb::arg("combine"), nb::arg("post"), nb::arg("identity"), nb::arg("acc_bytes"), nb::arg("storages"),
      nb::arg("out_storage"), nb::arg("rows"), nb::arg("group"), nb::arg("kept_ndim"), nb::arg("red_ndim"),
      nb::arg("index64"), nb::arg("vec"), nb::arg("partial_out"), nb::arg("partial_in"), nb::arg("fold") = "",
      nb::arg("stream") = false);
  // The one-pass var/std spec's fields (Note [one-pass var]), in reduction_source's argument names, so that the
  // host tests run the engine's own text.
  m.def(
      "_var_spec",
      [](nb::handle acc, nb::handle out, bool root) {
    red::spec s = detail::var_onepass_spec(to_dtype(acc), to_dtype(out), root);
    nb::dict d;
    d["name"] = s.name;
    d["preamble"] = s.preamble;
    d["acc"] = s.acc;
    d["computes"] = std::vector<std::string>{s.in_compute};
    d["out_compute"] = s.out_compute;
    d["map"] = s.map;
    d["combine"] = s.combine;
    d["fold"] = s.fold;
    d["post"] = s.post;
    d["identity"] = s.identity;
    d["acc_bytes"] = s.acc_bytes;
    return d;
      },
      nb::arg("acc"), nb::arg("out"), nb::arg("root"));
  // The axis normaliser (cuarray/axis.hpp) for the Python-side code that takes axes (ReductionKernel, fuse,
  // sliding_window_view): one set of messages.
  auto int_axes = [](nb::handle axis) {
    std::vector<int> v;
    if (PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr())) {
      for (nb::handle x : axis) v.push_back(to_c_int_axis(x));  // Note [huge axes]
    } else {
      v.push_back(to_c_int_axis(axis));
    }
    return v;
  };
  m.def(
      "_reduction_axes",
      [int_axes](nb::handle axis, int ndim) {
    return reduction_axes(axis.is_none() ? std::nullopt : std::optional<std::vector<int>>(int_axes(axis)), ndim);
      },
      nb::arg("axis").none(), nb::arg("ndim"),
      "The axes of a reduction over `ndim` dimensions, ascending: all for None; AxisError/ValueError as NumPy.");
  // Note [fuse reductions]: the fuse module folds its traced expressions with the engine's own definitions.
  m.def(
      "_reduction_definition",
      [](const std::string& op, nb::handle in_dtype, nb::handle dtype_) {
    std::optional<dtype> d;
    if (!dtype_.is_none()) d = to_dtype(dtype_);
    reduction_definition r = builtin_reduction(op, to_dtype(in_dtype), d);
    return nb::make_tuple(numpy_dtype(r.result), numpy_dtype(r.accumulator), r.map, r.combine, r.identity);
      },
      nb::arg("op"), nb::arg("in_dtype"), nb::arg("dtype").none() = nb::none(),
      "(result dtype, accumulator dtype, map, combine, identity) of a built-in reduction, as the engine runs it.");
  m.def(
      "_normalize_axis_tuple",
      [int_axes](nb::handle axis, int ndim, bool allow_duplicate) {
    return normalize_axis_tuple(int_axes(axis), ndim, allow_duplicate);
      },
      nb::arg("axis"), nb::arg("ndim"), nb::arg("allow_duplicate") = false,
      "NumPy's normalize_axis_tuple (an int or a sequence of ints) as a list.");
  m.def(
      "count_nonzero",
      [](nb::handle a, nb::handle axis, bool keepdims) {
    array x = to_array(a, "count_nonzero");
    return wrap(count_nonzero(x, to_reduce_axes(axis, x.ndim(), true), keepdims));
      },
      nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::kw_only(), nb::arg("keepdims") = false);
  m.def(
      "ptp",
      [](nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
    array x = to_array(a, "ptp");
    return result(ptp(x, to_reduce_axes(axis, x.ndim(), true), keepdims, to_out(out)), out);
      },
      nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(),
      nb::arg("keepdims") = false);
}

}  // namespace cuarray::py
