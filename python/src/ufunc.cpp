// Bindings of ufuncs: the ufunc type, its call with NumPy's keywords, the ndarray operators, __array_ufunc__.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "fusion_hook.hpp"
#include "src/engine/engine.hpp"

namespace cuarray::py {

namespace {

PyObject* ufunc_vectorcall(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames);

struct py_ufunc {
  const ufunc_def* def;
  std::string name;                              ///< NumPy's __name__ (an alias gives its target's name)
  vectorcallfunc vectorcall = ufunc_vectorcall;  ///< Note [ufunc vectorcall]
};

[[noreturn]] void host_array_error(nb::handle obj) {
  std::string tname = nb::cast<std::string>(
      nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr()))).attr("__name__"));
  throw type_error("Unsupported type " + tname +
                   " for a cuarray operation: move host data to the device explicitly with cuarray.asarray(), "
                   "or bring device data to the host with .get()");
}

// A Python object as a borrowed ufunc argument (Note [small call]): an ndarray's array is pointed at, an
// object with __cuda_array_interface__ is converted into `holder`. Returns false for objects the operators
// should answer NotImplemented to; throws for host arrays when `strict`.
bool to_arg_ref(nb::handle obj, ufunc_arg_ref& out, std::optional<array>& holder, bool strict) {
  PyObject* o = obj.ptr();
  out.big_int = false;
  if (is_ndarray(obj)) {
    out.arr = &as_py_array(obj).a;
    return true;
  }
  out.arr = nullptr;
  out.weak = false;
  if (PyBool_Check(o)) {
    out.value = scalar::from_bool(o == Py_True);
    return true;
  }
  // NumPy scalars are strong (numpy.float64 and numpy.complex128 subclass Python's float and complex, so
  // they are recognised before the weak Python scalars); exact Python types skip the isinstance call.
  static nb::object generic = numpy().attr("generic");
  if (!PyLong_CheckExact(o) && !PyFloat_CheckExact(o) && !PyComplex_CheckExact(o) &&
      PyObject_IsInstance(o, generic.ptr()) == 1) {
    dtype t = to_dtype(obj.attr("dtype"));
    out.value = to_scalar(obj, t, false);
    return true;
  }
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    out.weak = true;
    if (overflow == 0) {
      out.value = scalar::from_int(v);
      return true;
    }
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) {
        out.value = scalar::from_uint(u);
        return true;
      }
      PyErr_Clear();
    }
    // Beyond 64 bits: the loop decides (Note [big Python ints] in src/engine/ufunc.cpp); float64 holds it,
    // +-inf past float64's range.
    double d = PyLong_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      d = overflow < 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    }
    out.value = scalar::from_double(d);
    out.big_int = true;
    return true;
  }
  if (PyFloat_Check(o)) {
    out.value = scalar::from_double(PyFloat_AS_DOUBLE(o));
    out.weak = true;
    return true;
  }
  if (PyComplex_Check(o)) {
    Py_complex c = PyComplex_AsCComplex(o);
    out.value = scalar::from_complex({c.real, c.imag});
    out.weak = true;
    return true;
  }
  if (nb::hasattr(obj, "__cuda_array_interface__")) {
    nb::object a = nb::module_::import_("cuarray").attr("asarray")(obj);
    holder = as_py_array(a).a;
    out.arr = &*holder;
    return true;
  }
  if (!strict) return false;
  host_array_error(obj);
}

// The same as an owning ufunc_arg (the general call path).
bool to_arg(nb::handle obj, ufunc_arg& out, bool strict) {
  ufunc_arg_ref r;
  std::optional<array> holder;
  if (!to_arg_ref(obj, r, holder, strict)) return false;
  out = ufunc_arg{r.arr ? *r.arr : array(), r.value, r.weak, r.big_int};
  return true;
}

// Note [ufunc overrides]: an operand the ufunc cannot convert gets the call if it overrides __array_ufunc__
// (NEP 13), as NumPy's ufuncs do: cuarray.fuse's traced values (Note [fuse by value] in fusion_hook.hpp), and
// any other such object. It is looked for only after a conversion failed (a TypeError), so a call that
// converts its arguments never looks. NumPy arrays and scalars are not asked: cuarray refuses host arrays on
// purpose, and keeps that error; neither are objects with __cuda_array_interface__, which cuarray converts
// itself (CuPy's arrays). Candidates are asked left to right (inputs, then out=, then where=), one per type;
// NotImplemented from all of them leaves the conversion error. NEP 13's subclass-first order is not kept.
bool overrides_ufunc(PyObject* o) {
  if (o == Py_None || is_ndarray(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o)) return false;
  if (PyType_Check(o)) return false;  // a class, not an instance
  static nb::object np_ndarray = numpy().attr("ndarray"), np_generic = numpy().attr("generic");
  int host = PyObject_IsInstance(o, np_ndarray.ptr());
  if (host == 0) host = PyObject_IsInstance(o, np_generic.ptr());
  if (host != 0) {
    if (host < 0) PyErr_Clear();
    return false;
  }
  auto* tp = reinterpret_cast<PyObject*>(Py_TYPE(o));  // NEP 13 looks the attribute up on the type
  PyObject* attr = PyObject_GetAttrString(tp, "__array_ufunc__");
  if (attr == nullptr) {
    PyErr_Clear();
    return false;
  }
  bool overrides = attr != Py_None;
  Py_DECREF(attr);
  if (overrides && PyObject_HasAttrString(tp, "__cuda_array_interface__")) overrides = false;
  return overrides;
}

// The result of the first override among a ufunc call's operands that does not answer NotImplemented (Note
// [ufunc overrides]); an invalid object when there is none, or all answered NotImplemented.
nb::object defer_to_override(nb::handle self, nb::handle args, nb::handle kwargs) {
  std::vector<PyObject*> candidates;
  const Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) candidates.push_back(PyTuple_GET_ITEM(args.ptr(), i));
  if (PyObject* out = PyDict_GetItemString(kwargs.ptr(), "out")) {
    if (PyTuple_Check(out)) {
      for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(out); ++j) candidates.push_back(PyTuple_GET_ITEM(out, j));
    } else {
      candidates.push_back(out);
    }
  }
  if (PyObject* where = PyDict_GetItemString(kwargs.ptr(), "where")) candidates.push_back(where);
  std::vector<PyTypeObject*> asked;
  for (PyObject* o : candidates) {
    if (std::find(asked.begin(), asked.end(), Py_TYPE(o)) != asked.end() || !overrides_ufunc(o)) continue;
    asked.push_back(Py_TYPE(o));
    nb::object method = nb::steal(PyObject_GetAttrString(o, "__array_ufunc__"));
    if (!method.is_valid()) throw nb::python_error();
    nb::object call_args = nb::steal(PyTuple_New(n + 2));
    PyTuple_SET_ITEM(call_args.ptr(), 0, nb::borrow(self).release().ptr());
    PyTuple_SET_ITEM(call_args.ptr(), 1, nb::str("__call__").release().ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyTuple_SET_ITEM(call_args.ptr(), i + 2, nb::borrow(PyTuple_GET_ITEM(args.ptr(), i)).release().ptr());
    }
    PyObject* kw = PyDict_GET_SIZE(kwargs.ptr()) > 0 ? kwargs.ptr() : nullptr;
    PyObject* r = PyObject_Call(method.ptr(), call_args.ptr(), kw);
    if (r == nullptr) throw nb::python_error();
    if (r != Py_NotImplemented) return nb::steal(r);
    Py_DECREF(r);
  }
  return nb::object();
}

// Note [ufunc argument order]: with several faults NumPy reports the first it meets, so the general call
// checks in NumPy's order: the number of positional arguments, the keyword names, then dtype=, out=,
// where=, casting=, order= and subok= in that order, then the inputs; call_ufunc then resolves the loop
// (TypeError), checks the casts of the inputs and of the outputs (TypeError), and only then broadcasts
// (ValueError).
nb::object call_checked(const py_ufunc& u, nb::args args, nb::kwargs kwargs) {
  const ufunc_def& d = *u.def;
  std::size_t nargs = args.size();
  if (d.nout == 1 && d.nin <= 2 && nargs == static_cast<std::size_t>(d.nin) && kwargs.size() == 0) {
    ufunc_arg_ref in[2];
    std::optional<array> holders[2];
    for (int i = 0; i < d.nin; ++i) to_arg_ref(args[static_cast<std::size_t>(i)], in[i], holders[i], true);
    return wrap_made([&] { return call_ufunc1(d, in, d.nin); });
  }
  if (nargs < static_cast<std::size_t>(d.nin) || nargs > static_cast<std::size_t>(d.nin + d.nout)) {
    throw type_error(u.name + "() takes from " + std::to_string(d.nin) + " to " + std::to_string(d.nin + d.nout) +
                     " positional arguments but " + std::to_string(nargs) + " were given");
  }
  nb::handle out_kw, where_kw, casting_kw, dtype_kw, order_kw, subok_kw, signature_kw;
  for (auto [key, value] : kwargs) {
    std::string k = nb::cast<std::string>(key);
    if (k == "out") out_kw = value;
    else if (k == "where") where_kw = value;
    else if (k == "casting") casting_kw = value;
    else if (k == "dtype") dtype_kw = value;
    else if (k == "order") order_kw = value;
    else if (k == "subok") subok_kw = value;
    else if (k == "signature" || k == "sig") signature_kw = value;
    else throw type_error(u.name + "() got an unexpected keyword argument '" + k + "'");
  }
  if (out_kw.is_valid() && nargs > static_cast<std::size_t>(d.nin)) {
    throw type_error("cannot specify 'out' as both a positional and keyword argument");
  }
  ufunc_options opts;
  if (signature_kw.is_valid() && !signature_kw.is_none()) {
    if (dtype_kw.is_valid() && !dtype_kw.is_none()) throw type_error("cannot specify both 'signature' and 'dtype'");
    throw type_error("cuarray ufuncs do not take 'signature' yet; use dtype=");
  }
  if (dtype_kw.is_valid() && !dtype_kw.is_none()) opts.dtype_ = to_dtype(dtype_kw);
  std::vector<nb::object> out_objs(static_cast<std::size_t>(d.nout), nb::none());
  const auto nin = static_cast<std::size_t>(d.nin);
  for (std::size_t i = nin; i < nargs; ++i) out_objs[i - nin] = nb::borrow(args[i]);
  if (out_kw.is_valid()) {
    if (PyTuple_Check(out_kw.ptr())) {
      if (PyTuple_GET_SIZE(out_kw.ptr()) != d.nout) {
        throw value_error("The 'out' tuple must have exactly one entry per ufunc output");
      }
      for (int j = 0; j < d.nout; ++j) {
        out_objs[static_cast<std::size_t>(j)] = nb::borrow(PyTuple_GET_ITEM(out_kw.ptr(), j));
      }
    } else {
      // NumPy refuses a bare out= (None included) for ufuncs with several outputs.
      if (d.nout != 1) throw type_error("'out' must be a tuple of arrays");
      out_objs[0] = nb::borrow(out_kw);
    }
  }
  for (auto& o : out_objs) {
    if (o.is_none()) {
      opts.out.emplace_back();
    } else if (is_ndarray(o)) {
      opts.out.push_back(as_py_array(o).a);
    } else {
      throw type_error("return arrays must be of ArrayType");
    }
  }
  bool compute = true;
  if (where_kw.is_valid()) {
    if (is_ndarray(where_kw)) {
      opts.where = as_py_array(where_kw).a;
      if (opts.where.type() != dtype::bool_) {
        throw type_error("Cannot cast array data from dtype('" + std::string(name(opts.where.type())) +
                         "') to dtype('bool') according to the rule 'safe'");
      }
    } else if (where_kw.is_none() || is_python_scalar(where_kw)) {
      // NumPy converts a scalar (None included) with bool(), not with 'safe' casting.
      int truth = PyObject_IsTrue(where_kw.ptr());
      if (truth < 0) throw nb::python_error();
      compute = truth == 1;
    } else {
      host_array_error(where_kw);
    }
  }
  if (casting_kw.is_valid()) {
    if (!PyUnicode_Check(casting_kw.ptr())) {
      throw type_error(
          "casting must be str, not " +
          nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(casting_kw.ptr()))).attr("__name__")));
    }
    opts.rule = parse_casting(nb::cast<std::string>(casting_kw));
  }
  if (order_kw.is_valid() && !order_kw.is_none()) {
    if (!PyUnicode_Check(order_kw.ptr())) {
      throw type_error(
          "order must be str, not " +
          nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(order_kw.ptr()))).attr("__name__")));
    }
    opts.out_order = to_order(order_kw, order::K);
  }
  // subok: only one array type exists, nothing to do but NumPy's check of the value.
  if (subok_kw.is_valid() && !PyBool_Check(subok_kw.ptr())) throw type_error("'subok' must be a boolean");
  std::vector<ufunc_arg> in(static_cast<std::size_t>(d.nin));
  for (int i = 0; i < d.nin; ++i) to_arg(args[static_cast<std::size_t>(i)], in[static_cast<std::size_t>(i)], true);
  std::vector<array> results;
  if (compute) {
    results = call_ufunc(d, in, opts);
  } else {
    // where=False: outputs are allocated (or kept) but nothing is computed; NumPy's checks all apply.
    shape_t shape;
    const ufunc_loop& loop = check_ufunc_call(d, in, opts, shape);
    for (int j = 0; j < d.nout; ++j) {
      const array& o = opts.out[static_cast<std::size_t>(j)];
      results.push_back(o.defined() ? o : empty(shape, loop.out[static_cast<std::size_t>(j)]));
    }
  }
  std::vector<nb::object> py_results;
  for (int j = 0; j < d.nout; ++j) {
    if (!out_objs[static_cast<std::size_t>(j)].is_none()) py_results.push_back(out_objs[static_cast<std::size_t>(j)]);
    else py_results.push_back(wrap(std::move(results[static_cast<std::size_t>(j)])));
  }
  if (d.nout == 1) return py_results[0];
  PyObject* t = PyTuple_New(d.nout);
  for (int j = 0; j < d.nout; ++j) PyTuple_SET_ITEM(t, j, py_results[static_cast<std::size_t>(j)].release().ptr());
  return nb::steal(t);
}

// Note [comparison with None]: NumPy compares with None through its object loop, where None equals nothing
// but None: `equal(a, None)` and `a == None` are False over a's shape (not_equal True), and `equal(None,
// None)` is True. cuarray has no object dtype; it gets the same answer by calling the ufunc again with bool
// operands that have the answer built in: the other operand becomes False of its shape (an array of zeros,
// or the scalar False) and None becomes True (both None: both False). out=, where=, order= and the
// broadcast then go through the ufunc's own checks. It is looked for only after a conversion failed (a
// TypeError), so other calls never look. With `strings` (the operators `==` and `!=`), a str or bytes
// operand is taken as None is: NumPy 2's operators answer all False (all True) where the comparison has no
// loop, and its ufuncs raise. Returns the two replacements, or nothing where the call is not an equal or
// not_equal with None and an operand cuarray takes.
std::optional<std::pair<nb::object, nb::object>> none_replaced(const ufunc_def& d, nb::handle a, nb::handle b,
                                                               bool strings = false) {
  static const ufunc_def* const eq = find_ufunc("equal");
  static const ufunc_def* const ne = find_ufunc("not_equal");
  auto unequal_to_all = [strings](nb::handle h) {
    return h.is_none() || (strings && (PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr())));
  };
  if ((&d != eq && &d != ne) || (!unequal_to_all(a) && !unequal_to_all(b))) return std::nullopt;
  const bool a_none = unequal_to_all(a);
  nb::handle other = a_none ? b : a;
  nb::object for_other = nb::bool_(false);
  if (is_ndarray(other)) {
    for_other = wrap(zeros(as_py_array(other).a.shape(), dtype::bool_));
  } else if (!other.is_none()) {
    ufunc_arg_ref r;
    std::optional<array> holder;
    try {
      if (!to_arg_ref(other, r, holder, false)) return std::nullopt;
    } catch (const type_error&) {
      return std::nullopt;  // a host array keeps its error
    }
    if (r.arr != nullptr) for_other = wrap(zeros(r.arr->shape(), dtype::bool_));
  }
  nb::object for_none = nb::bool_(!other.is_none());
  if (a_none) return std::make_pair(for_none, other.is_none() ? for_none : for_other);
  return std::make_pair(for_other, for_none);
}

// A ufunc call with None among equal's or not_equal's inputs (Note [comparison with None]): NumPy's object
// loop refuses a dtype= other than bool and, where an array or a number is compared, casting='no' or
// 'equiv' (that input would be cast to object). An invalid object where the call is not one.
nb::object call_none_compared(const py_ufunc& u, nb::handle args, nb::handle kwargs) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  if (n < 2) return nb::object();
  nb::handle a = PyTuple_GET_ITEM(args.ptr(), 0), b = PyTuple_GET_ITEM(args.ptr(), 1);
  auto replaced = none_replaced(*u.def, a, b);
  if (!replaced) return nb::object();
  PyObject* dt = PyDict_GetItemString(kwargs.ptr(), "dtype");
  if (dt != nullptr && dt != Py_None && to_dtype(dt) != dtype::bool_) {
    throw type_error("No loop matching the specified signature and casting was found for ufunc " + u.name);
  }
  PyObject* casting = PyDict_GetItemString(kwargs.ptr(), "casting");
  if (casting != nullptr && PyUnicode_Check(casting) && (!a.is_none() || !b.is_none())) {
    std::string rule = nb::cast<std::string>(nb::handle(casting));
    if (rule == "no" || rule == "equiv") {
      throw type_error("Cannot cast ufunc '" + u.name + "' input " + (a.is_none() ? "1" : "0") +
                       " to dtype('O') with casting rule '" + rule + "'");
    }
  }
  nb::object new_args = nb::steal(PyTuple_New(n));
  PyTuple_SET_ITEM(new_args.ptr(), 0, replaced->first.release().ptr());
  PyTuple_SET_ITEM(new_args.ptr(), 1, replaced->second.release().ptr());
  for (Py_ssize_t i = 2; i < n; ++i) {
    PyTuple_SET_ITEM(new_args.ptr(), i, nb::borrow(PyTuple_GET_ITEM(args.ptr(), i)).release().ptr());
  }
  return call_checked(u, nb::borrow<nb::args>(new_args), nb::borrow<nb::kwargs>(kwargs));
}

// A ufunc call with its arguments as a tuple and a dict: the general path, and __call__.
nb::object call(const py_ufunc& u, nb::args args, nb::kwargs kwargs) {
  try {
    return call_checked(u, args, kwargs);
  } catch (const type_error&) {
    nb::object r = defer_to_override(nb::find(u), args, kwargs);  // Note [ufunc overrides]
    if (r.is_valid()) return r;
    r = call_none_compared(u, args, kwargs);  // Note [comparison with None]
    if (r.is_valid()) return r;
    throw;
  }
}

// The axis of accumulate and reduceat as NumPy takes it: an integer (not a bool), a tuple of exactly one, or
// None (every axis: one only for a 1-d array).
int single_axis(nb::handle axis, int ndim, const char* method) {
  if (PyTuple_Check(axis.ptr())) return args::single_axis_of_tuple(axis, ndim, method);
  if (axis.is_none()) {
    if (ndim > 1) throw value_error(std::string(method) + " does not allow multiple axes");
    return 0;
  }
  return args::to_int_axis(axis);
}

nb::object identity_of(const ufunc_def& d) {
  const std::string& id = d.identity;
  if (id.empty()) return nb::none();
  bool boolean = !d.loops.empty() && d.loops[0].types.rfind("?\?->?", 0) == 0 &&
                 (d.name == "logical_and" || d.name == "logical_or" || d.name == "logical_xor");
  if (boolean) return nb::bool_(id != "0");
  if (id == "inf") return nb::float_(std::numeric_limits<double>::infinity());
  if (id == "-inf") return nb::float_(-std::numeric_limits<double>::infinity());
  return nb::int_(std::stoll(id));
}

// Binary operator: NotImplemented for operands that are not ours or scalars, so Python can try the other side.
nb::object binary(const ufunc_def* d, nb::handle a, nb::handle b) {
  ufunc_arg_ref in[2];
  std::optional<array> holders[2];
  if (!to_arg_ref(a, in[0], holders[0], false) || !to_arg_ref(b, in[1], holders[1], false)) {
    static nb::object ndarray_np = numpy().attr("ndarray");
    if (PyObject_IsInstance(a.ptr(), ndarray_np.ptr()) == 1) host_array_error(a);
    if (PyObject_IsInstance(b.ptr(), ndarray_np.ptr()) == 1) host_array_error(b);
    if (auto replaced = none_replaced(*d, a, b, true)) {  // `a == None` (Note [comparison with None])
      return binary(d, replaced->first, replaced->second);
    }
    return nb::borrow(Py_NotImplemented);
  }
  if (d->nout == 1) return wrap_made([&] { return call_ufunc1(*d, in, 2); });
  std::vector<ufunc_arg> owned;
  for (const auto& r : in) owned.push_back(ufunc_arg{r.arr ? *r.arr : array(), r.value, r.weak, r.big_int});
  auto r = call_ufunc(*d, owned);
  return nb::make_tuple(wrap(std::move(r[0])), wrap(std::move(r[1])));
}

nb::object inplace(const ufunc_def* d, nb::handle self, nb::handle b) {
  ufunc_arg_ref in[2];
  std::optional<array> holders[2];
  to_arg_ref(self, in[0], holders[0], true);
  if (!to_arg_ref(b, in[1], holders[1], false)) {
    static nb::object ndarray_np = numpy().attr("ndarray");
    if (PyObject_IsInstance(b.ptr(), ndarray_np.ptr()) == 1) host_array_error(b);
    return nb::borrow(Py_NotImplemented);
  }
  call_ufunc1_into(*d, in, 2, as_py_array(self).a);  // the operator slots' ufuncs have one output
  return nb::borrow(self);
}

nb::object unary(const ufunc_def* d, nb::handle a) {
  ufunc_arg_ref in[1];
  std::optional<array> holder;
  to_arg_ref(a, in[0], holder, true);
  return wrap_made([&] { return call_ufunc1(*d, in, 1); });
}

// Note [operator slots]: `a + b` reaches C++ through the type's number slots directly, as NumPy's own
// operators do, instead of Python's lookup of `__add__` and a bound-method call (a few hundred ns of a
// small call). The dunder methods stay for introspection and explicit calls. The slots run their bodies
// through `guarded` (Note [C slots] in common.hpp).
const ufunc_def* slot_ufuncs[16];
enum slot_id {
  s_add,
  s_sub,
  s_mul,
  s_div,
  s_floordiv,
  s_mod,
  s_lshift,
  s_rshift,
  s_and,
  s_or,
  s_xor,
  s_neg,
  s_pos,
  s_abs,
  s_invert
};

template <int K> PyObject* binary_slot(PyObject* a, PyObject* b) {
  return guarded([&] { return binary(slot_ufuncs[K], a, b); });
}

template <int K> PyObject* inplace_slot(PyObject* a, PyObject* b) {
  return guarded([&] { return inplace(slot_ufuncs[K], a, b); });
}

template <int K> PyObject* unary_slot(PyObject* a) {
  return guarded([&] { return unary(slot_ufuncs[K], a); });
}

// Note [ufunc vectorcall]: calling a ufunc object goes straight to ufunc_vectorcall through the type's
// vectorcall slot (each instance carries the function pointer), instead of nanobind's dispatch of
// `__call__(self, *args, **kwargs)`, which builds an argument tuple and a keyword dict on every call. A
// call without keywords of a one-output ufunc with up to two inputs takes the small-call path, and so does
// one whose only keyword is an ndarray `out=` (call_ufunc1_into); any other call builds the tuple and dict
// and goes to `call`.
PyObject* ufunc_vectorcall(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  return guarded([&]() -> nb::object {
    const py_ufunc& u = *nb::inst_ptr<py_ufunc>(self);
    const ufunc_def& d = *u.def;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    auto packed = [&] {  // the arguments as a tuple and a dict
      nb::tuple targs = nb::steal<nb::tuple>(PyTuple_New(n));
      for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(targs.ptr(), i, nb::borrow(args[i]).release().ptr());
      nb::dict kw;
      for (Py_ssize_t j = 0; j < nkw; ++j) kw[nb::handle(PyTuple_GET_ITEM(kwnames, j))] = nb::handle(args[n + j]);
      return std::make_pair(nb::borrow<nb::args>(targs), nb::borrow<nb::kwargs>(kw));
    };
    try {
      if (nkw == 0 && d.nout == 1 && d.nin <= 2 && n == d.nin) {
        ufunc_arg_ref in[2];
        std::optional<array> holders[2];
        for (int i = 0; i < d.nin; ++i) to_arg_ref(args[i], in[i], holders[i], true);
        return wrap_made([&] { return call_ufunc1(d, in, d.nin); });
      }
      // `ufunc(a, b, out=c)` with one ndarray output (or a 1-tuple of one): the same borrowed path.
      if (nkw == 1 && d.nout == 1 && d.nin <= 2 && n == d.nin &&
          PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out") == 0) {
        PyObject* out = args[n];
        if (PyTuple_CheckExact(out) && PyTuple_GET_SIZE(out) == 1) out = PyTuple_GET_ITEM(out, 0);
        if (Py_TYPE(out) == reinterpret_cast<PyTypeObject*>(ndarray_type().ptr())) {
          ufunc_arg_ref in[2];
          std::optional<array> holders[2];
          for (int i = 0; i < d.nin; ++i) to_arg_ref(args[i], in[i], holders[i], true);
          call_ufunc1_into(d, in, d.nin, as_py_array(out).a);
          return nb::borrow(out);
        }
      }
    } catch (const type_error&) {
      auto [targs, kw] = packed();
      nb::object r = defer_to_override(self, targs, kw);  // Note [ufunc overrides]
      if (r.is_valid()) return r;
      r = call_none_compared(u, targs, kw);  // Note [comparison with None]
      if (r.is_valid()) return r;
      throw;
    }
    auto [targs, kw] = packed();
    return call(u, targs, kw);
  });
}

// Give the ufunc type the vectorcall protocol, at the offset of py_ufunc::vectorcall inside an instance.
void install_ufunc_vectorcall(nb::handle cls) {
  const ufunc_def* add = find_ufunc("add");
  nb::object probe = nb::cast(py_ufunc{add, add->name});
  auto* tp = reinterpret_cast<PyTypeObject*>(cls.ptr());
  tp->tp_vectorcall_offset = reinterpret_cast<char*>(&nb::inst_ptr<py_ufunc>(probe)->vectorcall) -
                             reinterpret_cast<char*>(probe.ptr());
  tp->tp_call = PyVectorcall_Call;
  tp->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  PyType_Modified(tp);
}

const ufunc_def* compare_ufuncs[6];  // indexed by Py_LT .. Py_GE

PyObject* richcompare_slot(PyObject* a, PyObject* b, int op) {
  return guarded([&] { return binary(compare_ufuncs[op], a, b); });
}

void install_operator_slots(nb::handle cls) {
  static const char* const names[] = {"add",         "subtract",   "multiply",    "divide",      "floor_divide",
                                      "remainder",   "left_shift", "right_shift", "bitwise_and", "bitwise_or",
                                      "bitwise_xor", "negative",   "positive",    "absolute",    "invert"};
  for (int k = 0; k <= s_invert; ++k) slot_ufuncs[k] = find_ufunc(names[k]);
  static const char* const cmp[] = {"less", "less_equal", "equal", "not_equal", "greater", "greater_equal"};
  for (int k = 0; k < 6; ++k) compare_ufuncs[k] = find_ufunc(cmp[k]);
  auto* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
  PyNumberMethods* n = t->tp_as_number;
  n->nb_add = binary_slot<s_add>;
  n->nb_subtract = binary_slot<s_sub>;
  n->nb_multiply = binary_slot<s_mul>;
  n->nb_true_divide = binary_slot<s_div>;
  n->nb_floor_divide = binary_slot<s_floordiv>;
  n->nb_remainder = binary_slot<s_mod>;
  n->nb_lshift = binary_slot<s_lshift>;
  n->nb_rshift = binary_slot<s_rshift>;
  n->nb_and = binary_slot<s_and>;
  n->nb_or = binary_slot<s_or>;
  n->nb_xor = binary_slot<s_xor>;
  n->nb_inplace_add = inplace_slot<s_add>;
  n->nb_inplace_subtract = inplace_slot<s_sub>;
  n->nb_inplace_multiply = inplace_slot<s_mul>;
  n->nb_inplace_true_divide = inplace_slot<s_div>;
  n->nb_inplace_floor_divide = inplace_slot<s_floordiv>;
  n->nb_inplace_remainder = inplace_slot<s_mod>;
  n->nb_inplace_lshift = inplace_slot<s_lshift>;
  n->nb_inplace_rshift = inplace_slot<s_rshift>;
  n->nb_inplace_and = inplace_slot<s_and>;
  n->nb_inplace_or = inplace_slot<s_or>;
  n->nb_inplace_xor = inplace_slot<s_xor>;
  n->nb_negative = unary_slot<s_neg>;
  n->nb_positive = unary_slot<s_pos>;
  n->nb_absolute = unary_slot<s_abs>;
  n->nb_invert = unary_slot<s_invert>;
  t->tp_richcompare = richcompare_slot;
  PyType_Modified(t);
}

}  // namespace

void init_ufunc(nb::module_& m) {
  nb::class_<py_ufunc> ufunc_cls(m, "ufunc");
  // ufunc methods (src/engine/ufunc_methods.cpp). NumPy's default axis of reduce/accumulate/reduceat is 0.
  auto arr_of = [](nb::handle x) -> array {
    if (is_ndarray(x)) return as_py_array(x).a;
    ufunc_arg a;
    to_arg(x, a, true);
    if (!a.is_scalar()) return a.arr;
    if (a.big_int) throw overflow_error("Python int too large to convert to C long");
    return full(shape_t{}, a.value, a.weak && kind(a.value.type) == 'f' ? dtype::float64 : a.value.type);
  };
  // The result of a method given out= (possibly a 1-tuple, as NumPy accepts) is that object itself.
  auto returned = [](nb::handle out, array r) -> nb::object {
    if (out.is_none()) return wrap(std::move(r));
    return PyTuple_Check(out.ptr()) ? nb::borrow(PyTuple_GET_ITEM(out.ptr(), 0)) : nb::borrow(out);
  };
  auto out_of = [](nb::handle out) -> array {
    if (out.is_none()) return array();
    nb::handle o = out;
    if (PyTuple_Check(out.ptr())) {
      if (PyTuple_GET_SIZE(out.ptr()) != 1) throw value_error("the 'out' tuple must have exactly one entry");
      o = PyTuple_GET_ITEM(out.ptr(), 0);
    }
    if (!is_ndarray(o)) throw type_error("output must be a cuarray.ndarray");
    return as_py_array(o).a;
  };
  ufunc_cls
      .def(
          "reduce",
          [arr_of, out_of, returned](const py_ufunc& u, nb::handle a, nb::handle axis, nb::handle dt, nb::handle out,
                                     bool keepdims, nb::handle initial, nb::handle where) -> nb::object {
            array x = arr_of(a);
            reduce_options o;
            o.axis = args::to_reduce_axes(axis, x.ndim(), true);  // Note [reduction axes] (args.hpp)
            if (!dt.is_none()) o.dtype_ = to_dtype(dt);
            o.out = out_of(out);
            o.keepdims = keepdims;
            if (initial.is_valid() && !initial.is_none()) {  // cast to the loop's type (Note [loop dtype from out])
              std::optional<dtype> lt = ufunc_method_loop_dtype(*u.def, x.type(), o.dtype_, o.out);
              o.initial = to_scalar(initial, lt ? *lt : x.type(), false);
            }
            if (!where.is_none() && !(PyBool_Check(where.ptr()) && where.ptr() == Py_True)) o.where = arr_of(where);
            return returned(out, ufunc_reduce(*u.def, x, o));
          },
          nb::arg("array"), nb::arg("axis").none() = 0, nb::arg("dtype").none() = nb::none(),
          nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false, nb::arg("initial").none() = nb::none(),
          nb::arg("where").none() = true)
      .def(
          "accumulate",
          [arr_of, out_of, returned](const py_ufunc& u, nb::handle a, nb::handle axis, nb::handle dt, nb::handle out) {
    array x = arr_of(a);
    int ax = single_axis(axis, x.ndim(), "accumulate");
    std::optional<dtype> d;
    if (!dt.is_none()) d = to_dtype(dt);
    return returned(out, ufunc_accumulate(*u.def, x, ax, d, out_of(out)));
          },
          nb::arg("array"), nb::arg("axis").none() = 0, nb::arg("dtype").none() = nb::none(),
          nb::arg("out").none() = nb::none())
      .def(
          "reduceat",
          [arr_of, out_of, returned](const py_ufunc& u, nb::handle a, nb::handle indices, nb::handle axis_obj,
                                     nb::handle dt, nb::handle out) {
    array x = arr_of(a);
    int axis = single_axis(axis_obj, x.ndim(), "reduceat");
    std::optional<dtype> d;
    if (!dt.is_none()) d = to_dtype(dt);
    array idx = is_ndarray(indices) ? as_py_array(indices).a
                                    : as_py_array(nb::module_::import_("cuarray").attr("asarray")(indices)).a;
    return returned(out, ufunc_reduceat(*u.def, x, idx, axis, d, out_of(out)));
          },
          nb::arg("array"), nb::arg("indices"), nb::arg("axis").none() = 0, nb::arg("dtype").none() = nb::none(),
          nb::arg("out").none() = nb::none())
      .def(
          "at",
          [](const py_ufunc& u, nb::handle a, nb::handle indices, nb::handle b) {
    if (!is_ndarray(a)) throw type_error("ufunc.at: the first argument must be a cuarray.ndarray");
    array& x = as_py_array(a).a;
    array idx = is_ndarray(indices) ? as_py_array(indices).a
                                    : as_py_array(nb::module_::import_("cuarray").attr("asarray")(indices)).a;
    std::optional<ufunc_arg> bv;
    if (!b.is_none()) {
      ufunc_arg arg;
      to_arg(b, arg, true);
      bv = arg;
    }
    ufunc_at(*u.def, x, idx, bv);
          },
          nb::arg("a"), nb::arg("indices"), nb::arg("b").none() = nb::none());
  ufunc_cls.def("__call__", &call)
      .def_prop_ro("nin", [](const py_ufunc& u) { return u.def->nin; })
      .def_prop_ro("nout", [](const py_ufunc& u) { return u.def->nout; })
      .def_prop_ro("nargs", [](const py_ufunc& u) { return u.def->nin + u.def->nout; })
      .def_prop_ro("ntypes", [](const py_ufunc& u) { return u.def->loops.size(); })
      .def_prop_ro(
          "types",
          [](const py_ufunc& u) {
    std::vector<std::string> t;
    for (const auto& l : u.def->loops) t.push_back(l.types);
    return t;
          })
      .def_prop_ro("identity", [](const py_ufunc& u) { return identity_of(*u.def); })
      .def_prop_ro("signature", [](const py_ufunc&) { return nb::none(); })
      .def("outer",
           [](const py_ufunc& u, nb::handle a, nb::handle b, nb::kwargs kwargs) -> nb::object {
             if (u.def->nin != 2) throw value_error("outer product only supported for binary functions");
             // A[..., None...] op B: reshape A to A.shape + (1,) * B.ndim.
             nb::object cuarray_mod = nb::module_::import_("cuarray");
             nb::object A = cuarray_mod.attr("asarray")(a), B = cuarray_mod.attr("asarray")(b);
             int bnd = nb::cast<int>(B.attr("ndim"));
             nb::tuple shape = nb::cast<nb::tuple>(A.attr("shape"));
             nb::list s;
             for (auto h : shape) s.append(h);
             for (int i = 0; i < bnd; ++i) s.append(1);
             nb::object Ar = A.attr("reshape")(nb::tuple(s));
             return call(u, nb::borrow<nb::args>(nb::make_tuple(Ar, B)), kwargs);
           })
      .def("__repr__", [](const py_ufunc& u) { return "<ufunc '" + u.name + "'>"; });
  {
    // `__name__` of the instances: type.__setattr__ would rename the class itself, so the property goes
    // into the type's dictionary directly.
    nb::object prop =
        nb::module_::import_("builtins").attr("property")(nb::cpp_function([](const py_ufunc& u) { return u.name; }));
    auto* tp = reinterpret_cast<PyTypeObject*>(ufunc_cls.ptr());
    PyDict_SetItemString(tp->tp_dict, "__name__", prop.ptr());
    PyType_Modified(tp);
  }
  install_ufunc_vectorcall(ufunc_cls);

  // cuarray._fusion's traced-value type and function hook (Note [fuse by value] in fusion_hook.hpp); kept for
  // the life of the process (a module-level type outlives every call that could meet its instances).
  m.def(
      "_set_fusion_hooks",
      [](nb::handle traced, nb::handle hook) {
    if (!PyType_Check(traced.ptr()) || !PyCallable_Check(hook.ptr())) {
      throw type_error("_set_fusion_hooks(type, callable)");
    }
    Py_XDECREF(reinterpret_cast<PyObject*>(traced_type));
    Py_XDECREF(traced_function_hook);
    traced_type = reinterpret_cast<PyTypeObject*>(nb::borrow(traced).release().ptr());
    traced_function_hook = nb::borrow(hook).release().ptr();
      },
      nb::arg("traced_type"), nb::arg("hook"));
  m.def("get_ufunc", [](const std::string& name) {
    const ufunc_def* d = find_ufunc(name);
    if (!d) throw value_error("no ufunc named " + name);
    return py_ufunc{d, d->name};  // an alias's __name__ is its target's, as NumPy's
  });
  // Loop resolution without a call, for fuse(): each argument is a dtype (a strong operand, such as an array)
  // or a Python/NumPy scalar; returns (types, input dtypes, output dtypes, kernel body) of NumPy's loop.
  m.def(
      "ufunc_resolve",
      [](const std::string& name, nb::list args, nb::handle dtype_kw) {
    const ufunc_def* d = find_ufunc(name);
    if (!d) throw value_error("no ufunc named " + name);
    std::vector<ufunc_arg> in;
    static nb::object np_dtype = numpy().attr("dtype");
    for (nb::handle a : args) {
      ufunc_arg u;
      if (PyObject_IsInstance(a.ptr(), np_dtype.ptr()) == 1 || PyType_Check(a.ptr())) {
        scalar s;
        s.type = to_dtype(a);
        u = ufunc_arg{array(), s, false};
      } else {
        to_arg(a, u, true);
      }
      in.push_back(u);
    }
    ufunc_options opts;
    if (!dtype_kw.is_none()) opts.dtype_ = to_dtype(dtype_kw);
    const ufunc_loop& l = resolve_loop(*d, in, opts);
    nb::list ins, outs;
    for (dtype t : l.in) ins.append(numpy_dtype(t));
    for (dtype t : l.out) outs.append(numpy_dtype(t));
    return nb::make_tuple(l.types, ins, outs, l.body);
      },
      nb::arg("name"), nb::arg("args"), nb::arg("dtype") = nb::none());
  m.def("jit_type_name", [](nb::handle dt) { return std::string(ew::type_name(to_dtype(dt))); });
  // The source an ElementwisePlan run would compile, without a device (tests compile it with nvrtc_compile in CI).
  // in_kinds: per input "array", "scalar" or "raw"; out_raw: per output.
  m.def(
      "elementwise_source",
      [](const std::string& name, const std::string& body, const std::string& preamble, const std::string& loop_prep,
         const std::string& after_loop, bool c_order, nb::list in_types, nb::list in_kinds, nb::list out_types,
         nb::list out_raw, int ndim, bool index64, bool vectorized, bool where, bool runs) {
    ew::kernel_spec spec{nullptr, name, body, preamble, loop_prep, after_loop, c_order};
    spec.id = ew::intern(spec);
    std::vector<ew::operand_layout> in, out;
    for (std::size_t k = 0; k < in_types.size(); ++k) {
      dtype t = to_dtype(in_types[k]);
      std::string kind = nb::cast<std::string>(in_kinds[k]);
      in.push_back(ew::operand_layout{t, t, kind == "scalar", kind == "raw"});
    }
    for (std::size_t k = 0; k < out_types.size(); ++k) {
      dtype t = to_dtype(out_types[k]);
      out.push_back(ew::operand_layout{t, t, false, nb::cast<bool>(out_raw[k])});
    }
    return ew::kernel_source(spec, in, out, ndim, index64, where, vectorized, "cuarray_" + name + "_ew", runs);
      },
      nb::arg("name"), nb::arg("body"), nb::arg("preamble"), nb::arg("loop_prep"), nb::arg("after_loop"),
      nb::arg("c_order"), nb::arg("in_types"), nb::arg("in_kinds"), nb::arg("out_types"), nb::arg("out_raw"),
      nb::arg("ndim"), nb::arg("index64"), nb::arg("vectorized"), nb::arg("where") = false, nb::arg("runs") = false);
  // NVRTC compilation with the elementwise headers available, for an architecture given as 80, 90...;
  // needs no device. Returns the cubin's size; raises CompileException.
  m.def(
      "nvrtc_compile",
      [](const std::string& source, const std::string& name, int arch, std::vector<std::string> options) {
    jit::compile_request req;
    req.source = source;
    req.name = name;
    req.options = std::move(options);
    req.headers = ew::jit_headers();
    req.arch = arch;
    return jit::compile(req).cubin.size();
      },
      nb::arg("source"), nb::arg("name") = "kernel.cu", nb::arg("arch") = 90,
      nb::arg("options") = std::vector<std::string>{});
  // The device-side headers of generated kernels as [(include name, contents)]: cuarray.jit inlines them into
  // the sources it hands to RawModule, which compiles a single source without headers.
  m.def("_jit_headers", [] {
    nb::list out;
    for (const auto& [name, text] : ew::jit_headers())
      out.append(nb::make_tuple(name, nb::bytes(text.data(), text.size())));
    return out;
  });
  // The NVRTC in use, for `python -m cuarray`: (path, major, minor); raises CUDARuntimeError when missing.
  m.def("nvrtc_info", [] {
    auto [major, minor] = jit::nvrtc_version();
    return nb::make_tuple(jit::nvrtc_path(), major, minor);
  });
  // Diagnostics of the per-call cost (benchmarks only): `n` calls of a binary ufunc from a C++ loop, no
  // Python in between; with `out`, into that array (no allocation). Host microseconds per call, no sync.
  m.def(
      "_ufunc_loop_us",
      [](const std::string& name, nb::handle a, nb::handle b, int n, nb::handle out) {
    const ufunc_def* d = find_ufunc(name);
    if (!d || d->nin != 2 || d->nout != 1) throw value_error("_ufunc_loop_us takes a binary ufunc");
    ufunc_arg in[2];
    to_arg(a, in[0], true);
    to_arg(b, in[1], true);
    ufunc_arg_ref refs[2] = {{&in[0].arr, {}, false}, {&in[1].arr, {}, false}};
    if (in[0].is_scalar() || in[1].is_scalar()) throw value_error("_ufunc_loop_us takes two arrays");
    ufunc_options opts;
    if (!out.is_none()) opts.out.push_back(as_py_array(out).a);
    std::vector<ufunc_arg> args(in, in + 2);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      if (out.is_none()) (void)call_ufunc1(*d, refs, 2);
      else (void)call_ufunc(*d, args, opts);
    }
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
      },
      nb::arg("name"), nb::arg("a"), nb::arg("b"), nb::arg("n"), nb::arg("out") = nb::none());
  m.def("kernel_cache_stats", [] {
    auto s = ew::get_stats();
    return nb::make_tuple(s.hits, s.misses);
  });
  m.def("ufunc_names", [] {
    std::vector<std::string> names;
    for (const auto* d : all_ufuncs()) names.push_back(d->name);
    for (const auto& [alias, target] : ufunc_aliases()) names.push_back(alias);
    return names;
  });

  nb::handle cls = ndarray_type();
  struct binop {
    const char* method;
    const char* ufunc;
    bool reflected;
  };
  static const binop binops[] = {
      {"__add__", "add", false},
      {"__radd__", "add", true},
      {"__sub__", "subtract", false},
      {"__rsub__", "subtract", true},
      {"__mul__", "multiply", false},
      {"__rmul__", "multiply", true},
      {"__truediv__", "divide", false},
      {"__rtruediv__", "divide", true},
      {"__floordiv__", "floor_divide", false},
      {"__rfloordiv__", "floor_divide", true},
      {"__mod__", "remainder", false},
      {"__rmod__", "remainder", true},
      {"__pow__", "power", false},
      {"__rpow__", "power", true},
      {"__lshift__", "left_shift", false},
      {"__rlshift__", "left_shift", true},
      {"__rshift__", "right_shift", false},
      {"__rrshift__", "right_shift", true},
      {"__and__", "bitwise_and", false},
      {"__rand__", "bitwise_and", true},
      {"__or__", "bitwise_or", false},
      {"__ror__", "bitwise_or", true},
      {"__xor__", "bitwise_xor", false},
      {"__rxor__", "bitwise_xor", true},
      {"__lt__", "less", false},
      {"__le__", "less_equal", false},
      {"__gt__", "greater", false},
      {"__ge__", "greater_equal", false},
      {"__eq__", "equal", false},
      {"__ne__", "not_equal", false},
  };
  for (const auto& op : binops) {
    const ufunc_def* uf = find_ufunc(op.ufunc);
    if (op.reflected) {
      nb::setattr(cls, op.method,
                  nb::cpp_function([uf](nb::handle self, nb::handle other) { return binary(uf, other, self); },
                                   nb::is_method()));
    } else {
      nb::setattr(cls, op.method,
                  nb::cpp_function([uf](nb::handle self, nb::handle other) { return binary(uf, self, other); },
                                   nb::is_method()));
    }
  }
  static const std::pair<const char*, const char*> inplace_ops[] = {
      {"__iadd__", "add"},         {"__isub__", "subtract"},          {"__imul__", "multiply"},
      {"__itruediv__", "divide"},  {"__ifloordiv__", "floor_divide"}, {"__imod__", "remainder"},
      {"__ipow__", "power"},       {"__ilshift__", "left_shift"},     {"__irshift__", "right_shift"},
      {"__iand__", "bitwise_and"}, {"__ior__", "bitwise_or"},         {"__ixor__", "bitwise_xor"},
  };
  for (const auto& [method, uf] : inplace_ops) {
    const ufunc_def* name = find_ufunc(uf);
    nb::setattr(cls, method,
                nb::cpp_function([name](nb::handle self, nb::handle other) { return inplace(name, self, other); },
                                 nb::is_method()));
  }
  static const std::pair<const char*, const char*> unary_ops[] = {
      {"__neg__", "negative"}, {"__pos__", "positive"}, {"__abs__", "absolute"}, {"__invert__", "invert"}};
  for (const auto& [method, uf] : unary_ops) {
    const ufunc_def* name = find_ufunc(uf);
    nb::setattr(cls, method, nb::cpp_function([name](nb::handle self) { return unary(name, self); }, nb::is_method()));
  }
  // NumPy's `array ** 2` is square(array): the same result but for bool, whose square is int8.
  const ufunc_def* power_def = find_ufunc("power");
  const ufunc_def* square_def = find_ufunc("square");
  nb::setattr(cls, "__pow__",
              nb::cpp_function(
                  [power_def, square_def](nb::handle self, nb::handle other) {
    int overflow = 0;  // a Python int beyond long is not 2 (and must leave no exception pending)
    if (PyLong_CheckExact(other.ptr()) && PyLong_AsLongAndOverflow(other.ptr(), &overflow) == 2 && is_ndarray(self) &&
        as_py_array(self).a.type() == dtype::bool_) {
      return unary(square_def, self);
    }
    return binary(power_def, self, other);
                  },
                  nb::is_method()));
  const ufunc_def* divmod_def = find_ufunc("divmod");
  nb::setattr(
      cls, "__divmod__",
      nb::cpp_function([divmod_def](nb::handle self, nb::handle other) { return binary(divmod_def, self, other); },
                       nb::is_method()));
  nb::setattr(
      cls, "__rdivmod__",
      nb::cpp_function([divmod_def](nb::handle self, nb::handle other) { return binary(divmod_def, other, self); },
                       nb::is_method()));
  // After the dunder methods: setting them rewrote the slots to Python-level wrappers.
  install_operator_slots(cls);
}

}  // namespace cuarray::py
