// Bindings behind ElementwiseKernel, ReductionKernel and fuse: the kernel definitions (cuarray/custom_kernel.hpp),
// a prepared elementwise kernel (ElementwisePlan), the warm call path and cuarray::reduction_kernel.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "cuarray/creation.hpp"
#include "cuarray/custom_kernel.hpp"
#include "cuarray/kernel.hpp"
#include "cuarray/shape.hpp"
#include "src/engine/engine.hpp"

namespace cuarray::py {

namespace {

// A kernel prepared once (strings interned, dtypes parsed) and run many times. From a definition, it holds
// the rest of cuarray::elementwise_plan too (which arguments give the shape, are allocated, loaded first...).
struct prepared_plan {
  std::string name, body, preamble, loop_prep, after_loop;
  bool c_order = false;
  std::vector<dtype> in_types, out_types;
  std::vector<unsigned char> in_raw, out_raw;  // not vector<bool>: read on every warm call
  const void* id = nullptr;
  std::vector<unsigned char> in_kinds;  // 'a', 's' or 'r' per engine input
  std::vector<int> shape_args, given_outs, alloc, preload, raw_sizes;
};

// One argument as the planner sees it; `fake` is a test type that stands for a device array (dtype only).
kernel_arg_info describe_arg(nb::handle a, nb::handle fake) {
  kernel_arg_info info;
  info.type_name = nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(a.ptr()))).attr("__name__"));
  PyObject* o = a.ptr();
  nb::module_& np = numpy();
  auto instance_of = [o](nb::handle type) {
    int r = PyObject_IsInstance(o, type.ptr());
    if (r < 0) throw nb::python_error();
    return r == 1;
  };
  if (is_ndarray(a)) {
    info.kind = kernel_arg_kind::array;
    info.type = as_py_array(a).a.type();
  } else if (!fake.is_none() && instance_of(fake)) {
    info.kind = kernel_arg_kind::array;
    info.type = to_dtype(a.attr("dtype"));
  } else if (instance_of(np.attr("ndarray"))) {
    info.kind = kernel_arg_kind::host_array;
  } else if (a.is_none()) {
    info.kind = kernel_arg_kind::none;
  } else if (instance_of(np.attr("generic"))) {
    // NumPy's string and void scalars are no numbers.
    bool text = instance_of(np.attr("str_")) || instance_of(np.attr("bytes_")) || instance_of(np.attr("void"));
    info.kind = text ? kernel_arg_kind::other : kernel_arg_kind::scalar;
    if (!text) info.type = to_dtype(a.attr("dtype"));
  } else if (PyBool_Check(o)) {
    info.kind = kernel_arg_kind::scalar;
    info.type = dtype::bool_;
  } else if (PyLong_Check(o)) {
    info.kind = kernel_arg_kind::scalar;
    info.type = dtype::int64;
  } else if (PyFloat_Check(o)) {
    info.kind = kernel_arg_kind::scalar;
    info.type = dtype::float64;
  } else if (PyComplex_Check(o)) {
    info.kind = kernel_arg_kind::scalar;
    info.type = dtype::complex128;
  } else {
    info.kind = kernel_arg_kind::other;
  }
  return info;
}

// A dtype name as numpy.dtype() reads it: nullopt for none, TypeError for one cuarray does not support.
std::optional<dtype> numpy_dtype_named(const std::string& text) {
  nb::object d;
  try {
    d = numpy().attr("dtype")(text);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    return std::nullopt;
  }
  return to_dtype(d);
}

// Parameters from a string or a sequence of strings; TYPE names are whatever numpy.dtype() understands.
std::vector<kernel_param> params_of(nb::handle params) {
  if (PyUnicode_Check(params.ptr())) return parse_kernel_params(nb::cast<std::string>(params), numpy_dtype_named);
  std::vector<std::string> items;
  for (nb::handle x : params) items.push_back(nb::cast<std::string>(x));
  return parse_kernel_params(std::span<const std::string>(items), numpy_dtype_named);
}

// ReductionKernel's call: the arguments checked by the planner (with Python's type names), then converted.
nb::object reduction_call(const reduction_kernel& k, nb::tuple args, nb::handle out, nb::handle axis, bool keepdims) {
  const reduction_kernel_definition& d = k.definition();
  std::size_t n = args.size();
  // A positional None output is no output (out= None is none either).
  if (n == d.in.size() + 1 && args[n - 1].is_none()) {
    if (!out.is_none()) throw value_error("the output is given twice (positionally and as out=)");
    --n;
  }
  // Arrays only (the usual call): k.call plans from its cache and raises the planner's errors itself. Any other
  // argument is described and planned here first, for Python's type names in the errors and to convert scalars
  // to the parameter's type as numpy.asarray(value, dtype) would.
  bool arrays_only = out.is_none() || is_ndarray(out);
  for (std::size_t a = 0; a < n && arrays_only; ++a) arrays_only = is_ndarray(args[a]);
  std::vector<ufunc_arg> in;
  in.reserve(n);
  bool out_positional = n == d.in.size() + 1;
  if (arrays_only) {
    for (std::size_t a = 0; a < n; ++a) in.emplace_back(as_py_array(args[a]).a);
  } else {
    std::vector<kernel_arg_info> info;
    for (std::size_t a = 0; a < n; ++a) info.push_back(describe_arg(args[a], nb::none()));
    kernel_arg_info out_info = out.is_none() ? kernel_arg_info{} : describe_arg(out, nb::none());
    reduction_kernel_plan plan = plan_reduction_kernel(d, info, out_info);
    out_positional = plan.out_positional;
    for (std::size_t a = 0; a < n; ++a) {
      if (info[a].kind == kernel_arg_kind::array) {
        in.emplace_back(as_py_array(args[a]).a);
      } else {
        in.emplace_back(to_scalar(args[a], plan.in_types[a], false));  // as numpy.asarray(value, dtype) would
      }
    }
  }
  reduction_kernel_options o;
  if (!out.is_none()) o.out = as_py_array(out).a;
  if (!axis.is_none()) {
    o.axis.emplace();
    if (PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr())) {
      for (nb::handle x : axis) o.axis->push_back(to_c_int_axis(x));  // Note [huge axes]
    } else {
      o.axis->push_back(to_c_int_axis(axis));
      // Note [reduction axes] (args.hpp): a single integer axis of 0-d operands may be 0 or -1, as NumPy's
      // reductions take it, and reduces over nothing (axis=None); a tuple gets no such leave.
      bool zero_d = std::all_of(in.begin(), in.end(),
                                [](const ufunc_arg& x) { return !x.arr.defined() || x.arr.ndim() == 0; });
      if (zero_d && ((*o.axis)[0] == 0 || (*o.axis)[0] == -1)) o.axis.reset();
    }
  }
  o.keepdims = keepdims;
  array r = k.call(in, o);
  // The output given is returned as itself.
  if (out_positional) return nb::borrow(args[n - 1]);
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

// The call slot of _ReductionKernel, which the Python ReductionKernel subclasses (as _ElementwiseCall's, Note
// [elementwise warm call]): kern(a, ...) with out=, axis= and keepdims= (a bool) goes to reduction_call with no
// Python frame and no nanobind dispatch; stream= or anything else goes to the Python _call_slow.
PyObject* reduction_call_slot(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  return guarded([&]() -> nb::object {
    if (!nb::inst_ready(nb::handle(self))) {
      throw type_error("ReductionKernel is not initialised: call ReductionKernel.__init__");
    }
    const reduction_kernel& k = *nb::inst_ptr<reduction_kernel>(self);
    if (!kwargs && PyTuple_GET_SIZE(args) == 1 && is_ndarray(PyTuple_GET_ITEM(args, 0))) {  // kern(a)
      return wrap(k.reduce_all(as_py_array(PyTuple_GET_ITEM(args, 0)).a));
    }
    nb::handle out = nb::none(), axis = nb::none();
    bool keepdims = false, plain = true;
    if (kwargs) {
      Py_ssize_t pos = 0;
      PyObject *key, *value;
      while (plain && PyDict_Next(kwargs, &pos, &key, &value)) {
        if (PyUnicode_CompareWithASCIIString(key, "out") == 0) {
          out = value;
        } else if (PyUnicode_CompareWithASCIIString(key, "axis") == 0) {
          axis = value;
        } else if (PyUnicode_CompareWithASCIIString(key, "keepdims") == 0 && PyBool_Check(value)) {
          keepdims = value == Py_True;
        } else if (!(PyUnicode_CompareWithASCIIString(key, "stream") == 0 && value == Py_None)) {
          plain = false;
        }
      }
    }
    if (plain) return reduction_call(k, nb::borrow<nb::tuple>(args), out, axis, keepdims);
    nb::object slow = nb::handle(self).attr("_call_slow");
    PyObject* result = PyObject_Call(slow.ptr(), args, kwargs);
    if (!result) throw nb::python_error();
    return nb::steal(result);
  });
}

PyType_Slot reduction_call_slots[] = {{Py_tp_call, reinterpret_cast<void*>(reduction_call_slot)}, {0, nullptr}};

nb::tuple int_tuple(const std::vector<int>& v) {
  nb::list l;
  for (int x : v) l.append(x);
  return nb::tuple(l);
}

// One kernel operand from a Python argument, as the plan declares it.
ew::operand to_operand(const prepared_plan& p, std::size_t k, nb::handle a) {
  dtype t = p.in_types[k];
  if (!is_ndarray(a)) return ew::operand::of_scalar(to_scalar(a, t, false), t);
  array arr = as_py_array(a).a;
  if (!p.in_raw[k]) return ew::operand::of(std::move(arr), t);
  if (!arr.is_c_contiguous()) arr = arr.copy(order::C);
  if (arr.type() != t) arr = arr.astype(t);
  return ew::operand::of_raw(std::move(arr), t);
}

ew::operand to_out_operand(const prepared_plan& p, std::size_t k, const array& arr) {
  return p.out_raw[k] ? ew::operand::of_raw(arr, p.out_types[k]) : ew::operand::of(arr, p.out_types[k]);
}

// The engine's spec of a prepared kernel. It runs on the current device, as elementwise_kernel::call does: an
// output of another device is written over peer access (Note [peer operands]).
ew::kernel_spec spec_of(const prepared_plan& p) {
  ew::kernel_spec spec{p.id, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order};
  spec.on_current_device = true;
  return spec;
}

void run_plan(const prepared_plan& p, ew::operand* ops, std::size_t nin, std::size_t nout, const shape_t& shape) {
  ew::run(spec_of(p), ops, static_cast<int>(nin), ops + nin, static_cast<int>(nout), shape, array());
}

// Note [elementwise warm call]: ElementwiseKernel plans a call in Python once per argument signature (each
// argument's dtype, or its scalar type), then registers the plan here under a packed signature; a call
// whose signature is registered runs from C++ alone: broadcast shape, outputs, operands, launch. Anything
// else (NumPy scalars, keywords, a new signature, an error to report) goes to the Python path.
struct registered_call {
  std::uint64_t key;
  nb::object plan;  // the ElementwisePlan, kept alive here
  const prepared_plan* core;
  std::vector<int> shape_args, given_outs, alloc, preload, raw_sizes;
};

struct elementwise_call {
  int nin = 0, nout = 0;
  bool no_return = false, return_tuple = false;
  std::vector<registered_call> calls;
};

constexpr std::size_t max_signature_args = 10;

// 6 bits per argument, the count in the top 4 bits; 0 when the call cannot take the C++ path.
std::uint64_t signature(PyObject* const* args, std::size_t n) {
  if (n > max_signature_args) return 0;
  std::uint64_t k = static_cast<std::uint64_t>(n) << 60;
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* o = args[i];
    std::uint64_t code;
    if (Py_TYPE(o) == reinterpret_cast<PyTypeObject*>(ndarray_type().ptr())) {
      code = 1 + static_cast<std::uint64_t>(as_py_array(o).a.type());
    } else if (PyBool_Check(o)) {
      code = 40;
    } else if (PyLong_CheckExact(o)) {
      code = 41;
    } else if (PyFloat_CheckExact(o)) {
      code = 42;
    } else if (PyComplex_CheckExact(o)) {
      code = 43;
    } else {
      return 0;
    }
    k |= code << (6 * i);
  }
  return k;
}

// The C++ path of a registered signature; a null object means "take the Python path". Operands point at
// the arguments' arrays and at the new outputs inside their Python objects (Note [small call]): nothing is
// copied but raw inputs that need a contiguous or converted copy.
nb::object fast_call(const elementwise_call& c, const registered_call& r, PyObject* const* args, std::size_t nargs) {
  const prepared_plan& p = *r.core;
  // The signature matched, so every array argument is an exact ndarray.
  auto arr_of = [](PyObject* o) -> const array& { return nb::inst_ptr<py_array>(o)->a; };
  const shape_t* shape = nullptr;
  shape_t broadcast;
  for (int k : r.shape_args) {
    const shape_t& s = arr_of(args[k]).shape();
    if (!shape) {
      shape = &s;
    } else if (s != *shape) {
      try {
        broadcast = broadcast_shapes(*shape, s);
      } catch (const value_error&) {
        return nb::object();  // the Python path raises NumPy's message
      }
      shape = &broadcast;
    }
  }
  if (!shape) shape = &broadcast;  // no array argument: 0-d
  for (int k : r.given_outs) {
    if (arr_of(args[k]).shape() != *shape) return nb::object();
  }
  std::size_t nout = static_cast<std::size_t>(c.nout);
  std::size_t nin_user = static_cast<std::size_t>(c.nin);
  const array* outs[max_signature_args];
  // The outputs' Python objects, owned; only the first nout slots are used (destroying a dozen nb::objects
  // on every call showed up in profiles).
  struct owned_objects {
    PyObject* p[max_signature_args];
    std::size_t n;
    ~owned_objects() {
      for (std::size_t j = 0; j < n; ++j) Py_XDECREF(p[j]);
    }
    PyObject* take(std::size_t j) { return std::exchange(p[j], nullptr); }
  } out_objs;
  out_objs.n = nout;
  for (std::size_t j = 0; j < nout; ++j) {
    out_objs.p[j] = nullptr;
    outs[j] = nullptr;
    if (nin_user + j < nargs) {
      out_objs.p[j] = Py_NewRef(args[nin_user + j]);
      outs[j] = &arr_of(args[nin_user + j]);
    }
  }
  for (int j : r.alloc) {
    auto jj = static_cast<std::size_t>(j);
    out_objs.p[jj] = wrap_made([&] { return empty(*shape, p.out_types[jj]); }).release().ptr();
    outs[jj] = &arr_of(out_objs.p[jj]);
  }
  for (std::size_t j = 0; j < nout; ++j) {
    if (!outs[j]) return nb::object();  // an output the plan neither takes nor makes: the Python path decides
  }
  std::size_t nin = p.in_types.size();
  if (nin + nout > 11) throw value_error("too many operands for an elementwise kernel");
  // Left uninitialised (a warm call is a few hundred ns; zeroing a dozen scalars and optionals showed up):
  // each slot is written before the engine reads it.
  ew::operand_ref ops[12];
  alignas(16) unsigned char values[12][16];
  ew::array_slots<max_signature_args> held;                        // contiguous copies of raw inputs that need one
  auto put_value = [&](std::size_t k, const scalar& v, dtype t) {  // v: already of dtype t
    std::memcpy(values[k], v.bytes, sizeof(values[k]));
    ops[k] = ew::operand_ref{nullptr, values[k], t, false};
  };
  std::size_t k = 0;
  for (; k < nin_user; ++k) {
    dtype t = p.in_types[k];
    PyObject* a = args[k];
    if (Py_TYPE(a) != reinterpret_cast<PyTypeObject*>(ndarray_type().ptr())) {
      put_value(k, to_scalar(a, t, false), t);
      continue;
    }
    const array* arr = &arr_of(a);
    bool raw = p.in_raw[k] != 0;
    if (raw && (!arr->is_c_contiguous() || arr->type() != t)) {
      array h = arr->is_c_contiguous() ? *arr : arr->copy(order::C);
      arr = held.add(h.type() != t ? h.astype(t) : std::move(h));
    }
    ops[k] = ew::operand_ref{arr, nullptr, t, raw};
  }
  for (int j : r.preload) {
    ops[k] = ew::operand_ref{outs[j], nullptr, p.in_types[k], false};
    ++k;
  }
  for (int a : r.raw_sizes) {
    std::int64_t size = a < c.nin ? arr_of(args[a]).size() : outs[a - c.nin]->size();
    put_value(k, scalar::from_int(size).cast(p.in_types[k]), p.in_types[k]);
    ++k;
  }
  for (std::size_t j = 0; j < nout; ++j) {
    ops[nin + j] = ew::operand_ref{outs[j], nullptr, p.out_types[j], p.out_raw[j] != 0};
  }
  ew::run(spec_of(p), ops, static_cast<int>(nin), ops + nin, static_cast<int>(nout), *shape, nullptr);
  if (c.no_return) return nb::none();
  if (c.nout == 1 && !c.return_tuple) return nb::steal(out_objs.take(0));
  PyObject* t = PyTuple_New(c.nout);
  for (std::size_t j = 0; j < nout; ++j) PyTuple_SET_ITEM(t, j, out_objs.take(j));
  return nb::steal(t);
}

// The call slot of _ElementwiseCall, a C function that Python subclasses inherit (as Note [RawKernel call]
// in raw.cpp): no lookup of a `__call__` method and no nanobind dispatch before the signature check.
PyObject* elementwise_call_slot(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  return guarded([&]() -> nb::object {
    if (!nb::inst_ready(nb::handle(self))) {
      throw type_error("ElementwiseKernel is not initialised: call ElementwiseKernel.__init__");
    }
    const elementwise_call& c = *nb::inst_ptr<elementwise_call>(self);
    bool plain = true;
    if (kwargs) {
      Py_ssize_t pos = 0;
      PyObject *key, *value;
      while (plain && PyDict_Next(kwargs, &pos, &key, &value)) {
        // block_size is accepted and ignored by both paths (the engine picks its own launch shape).
        bool none_ok = PyUnicode_CompareWithASCIIString(key, "size") == 0 ||
                       PyUnicode_CompareWithASCIIString(key, "stream") == 0;
        if (!(none_ok && value == Py_None) && PyUnicode_CompareWithASCIIString(key, "block_size") != 0) plain = false;
      }
    }
    auto nargs = static_cast<std::size_t>(PyTuple_GET_SIZE(args));
    if (plain && (nargs == static_cast<std::size_t>(c.nin) || nargs == static_cast<std::size_t>(c.nin + c.nout))) {
      PyObject* const* items = &PyTuple_GET_ITEM(args, 0);
      std::uint64_t key = signature(items, nargs);
      for (const auto& r : c.calls) {
        if (r.key != key || key == 0) continue;
        nb::object result = fast_call(c, r, items, nargs);
        if (result.is_valid()) return result;
        break;
      }
    }
    nb::object slow = nb::handle(self).attr("_call_slow");
    PyObject* result = PyObject_Call(slow.ptr(), args, kwargs);
    if (!result) throw nb::python_error();
    return nb::steal(result);
  });
}

PyType_Slot elementwise_call_slots[] = {{Py_tp_call, reinterpret_cast<void*>(elementwise_call_slot)}, {0, nullptr}};

}  // namespace

void init_elementwise_kernel(nb::module_& m) {
  nb::class_<prepared_plan>(m, "ElementwisePlan")
      .def(
          "__init__",
          [](prepared_plan* self, std::string name, std::string body, std::string preamble, std::string loop_prep,
             std::string after_loop, bool c_order, nb::list in_types, nb::list in_raw, nb::list out_types,
             nb::list out_raw) {
    auto* p = new (self) prepared_plan{std::move(name),
                                       std::move(body),
                                       std::move(preamble),
                                       std::move(loop_prep),
                                       std::move(after_loop),
                                       c_order,
                                       {},
                                       {},
                                       {},
                                       {},
                                       nullptr};
    for (nb::handle t : in_types) p->in_types.push_back(to_dtype(t));
    for (nb::handle t : out_types) p->out_types.push_back(to_dtype(t));
    for (nb::handle r : in_raw) p->in_raw.push_back(nb::cast<bool>(r) ? 1 : 0);
    for (nb::handle r : out_raw) p->out_raw.push_back(nb::cast<bool>(r) ? 1 : 0);
    if (p->in_raw.size() != p->in_types.size() || p->out_raw.size() != p->out_types.size()) {
      throw value_error("ElementwisePlan: one raw flag per operand");
    }
    p->id = ew::intern(ew::kernel_spec{nullptr, p->name, p->body, p->preamble, p->loop_prep, p->after_loop, c_order});
          })
      // run(ins, outs, shape): ins are arrays or scalars, outs arrays.
      .def(
          "run",
          [](const prepared_plan& p, nb::sequence ins, nb::sequence outs, nb::handle shape) {
    std::size_t nin = nb::len(ins), nout = nb::len(outs);
    if (nin != p.in_types.size() || nout != p.out_types.size())
      throw value_error("ElementwisePlan: wrong operand count");
    if (nin + nout > 11) throw value_error("too many operands for an elementwise kernel");
    ew::operand ops[12];
    for (std::size_t k = 0; k < nin; ++k) ops[k] = to_operand(p, k, ins[k]);
    for (std::size_t k = 0; k < nout; ++k) ops[nin + k] = to_out_operand(p, k, as_py_array(outs[k]).a);
    run_plan(p, ops, nin, nout, to_shape(shape));
          })
      // What the slow path of ElementwiseKernel reads: output dtypes and the argument roles of the plan.
      .def_prop_ro(
          "out_types",
          [](const prepared_plan& p) {
    nb::list l;
    for (dtype t : p.out_types) l.append(numpy_dtype(t));
    return l;
          })
      .def_prop_ro("shape_args", [](const prepared_plan& p) { return int_tuple(p.shape_args); })
      .def_prop_ro("given_outs", [](const prepared_plan& p) { return int_tuple(p.given_outs); })
      .def_prop_ro("alloc", [](const prepared_plan& p) { return int_tuple(p.alloc); })
      .def_prop_ro("preload", [](const prepared_plan& p) { return int_tuple(p.preload); })
      .def_prop_ro("raw_sizes", [](const prepared_plan& p) { return int_tuple(p.raw_sizes); })
      .def_prop_ro("name", [](const prepared_plan& p) { return p.name; })
      .def_prop_ro("body", [](const prepared_plan& p) { return p.body; })
      .def_prop_ro("preamble", [](const prepared_plan& p) { return p.preamble; })
      .def_prop_ro("loop_prep", [](const prepared_plan& p) { return p.loop_prep; })
      .def_prop_ro("after_loop", [](const prepared_plan& p) { return p.after_loop; })
      // The CUDA source a run over `ndim` merged dimensions compiles, without a device (tests compile it with
      // nvrtc_compile); raw and scalar operands alone run the flat loop.
      .def(
          "source",
          [](const prepared_plan& p, int ndim) {
    if (p.in_kinds.size() != p.in_types.size())
      throw value_error("ElementwisePlan.source: a plan of a definition only");
    std::vector<ew::operand_layout> in, out;
    bool any_array = false;
    for (std::size_t k = 0; k < p.in_types.size(); ++k) {
      in.push_back(ew::operand_layout{p.in_types[k], p.in_types[k], p.in_kinds[k] == 's', p.in_kinds[k] == 'r'});
      any_array = any_array || p.in_kinds[k] == 'a';
    }
    bool all_raw = true;
    for (std::size_t k = 0; k < p.out_types.size(); ++k) {
      out.push_back(ew::operand_layout{p.out_types[k], p.out_types[k], false, p.out_raw[k] != 0});
      all_raw = all_raw && p.out_raw[k] != 0;
    }
    if (!any_array && all_raw) ndim = 0;
    return ew::kernel_source(spec_of(p), in, out, ndim, false, false, false, "cuarray_" + p.name + "_ew");
          },
          nb::arg("ndim"));

  // ReductionKernel's definition and calls (cuarray::reduction_kernel).
  nb::class_<reduction_kernel>(m, "_ReductionKernel", nb::type_slots(reduction_call_slots))
      .def(
          "__init__",
          [](reduction_kernel* self, nb::handle in_params, nb::handle out_params, std::string map_expr,
             std::string reduce_expr, std::string post_map_expr, nb::handle identity, std::string name,
             nb::handle reduce_type, std::string preamble) {
    std::vector<kernel_param> in = params_of(in_params);
    std::vector<kernel_param> out = params_of(out_params);
    std::optional<std::string> id, rt;
    if (!identity.is_none()) id = nb::cast<std::string>(nb::str(identity));
    if (!reduce_type.is_none()) {
      rt = PyUnicode_Check(reduce_type.ptr()) ? nb::cast<std::string>(reduce_type)
                                              : std::string(cuarray::name(to_dtype(reduce_type)));
    }
    new (self) reduction_kernel(define_reduction_kernel(
        std::move(in), std::move(out), std::move(map_expr), std::move(reduce_expr), std::move(post_map_expr),
        std::move(id), std::move(name), std::move(rt), std::move(preamble), numpy_dtype_named));
          },
          nb::arg("in_params").none(), nb::arg("out_params").none(), nb::arg("map_expr"), nb::arg("reduce_expr"),
          nb::arg("post_map_expr"), nb::arg("identity").none(), nb::arg("name"), nb::arg("reduce_type").none(),
          nb::arg("preamble"))
      .def_prop_ro(
          "params",
          [](const reduction_kernel& k) {
    nb::list l;
    for (const auto* list : {&k.definition().in, &k.definition().out}) {
      for (const kernel_param& p : *list) {
        l.append(nb::make_tuple(p.raw, p.ctype, p.name, p.type ? numpy_dtype(*p.type) : nb::none()));
      }
    }
    return l;
          })
      .def_prop_ro("identity",
                   [](const reduction_kernel& k) -> nb::object {
                     const auto& id = k.definition().identity;
                     return id ? nb::cast(*id) : nb::none();
                   })
      // The engine's code and types for a call with `args` and out= `out`, without a device (for tests):
      // instances of `fake` stand for arrays of their .dtype.
      .def(
          "_plan",
          [](const reduction_kernel& k, nb::tuple args, nb::handle out, nb::handle fake) {
    std::vector<kernel_arg_info> info;
    for (nb::handle a : args) info.push_back(describe_arg(a, fake));
    kernel_arg_info out_info = out.is_none() ? kernel_arg_info{} : describe_arg(out, fake);
    reduction_kernel_plan p = plan_reduction_kernel(k.definition(), info, out_info);
    nb::dict r;
    r["name"] = p.name;
    r["preamble"] = p.preamble;
    r["acc"] = p.acc;
    r["in_compute"] = p.in_compute;
    r["out_compute"] = p.out_compute;
    r["map"] = p.map;
    r["combine"] = p.combine;
    r["post"] = p.post;
    r["identity"] = p.identity;
    r["acc_bytes"] = p.acc_bytes;
    r["sequential"] = p.sequential;
    r["out_type"] = numpy_dtype(p.out_type);
    r["acc_type"] = numpy_dtype(p.acc_type);
    return r;
          },
          nb::arg("args"), nb::arg("out").none(), nb::arg("fake").none())
      .def("_call", &reduction_call, nb::arg("args"), nb::arg("out").none(), nb::arg("axis").none(),
           nb::arg("keepdims"));

  // "[raw] TYPE NAME, ..." (a string or a sequence of strings) as [(raw, TYPE, NAME, numpy dtype or None)].
  m.def(
      "_parse_kernel_params",
      [](nb::handle params) {
    nb::list l;
    for (const kernel_param& p : params_of(params)) {
      l.append(nb::make_tuple(p.raw, p.ctype, p.name, p.type ? numpy_dtype(*p.type) : nb::none()));
    }
    return l;
      },
      nb::arg("params"));

  // ElementwiseKernel's definition, parsed and checked in C++ (Note [custom kernel definition]).
  nb::class_<elementwise_definition>(m, "_ElementwiseDefinition")
      .def(
          "__init__",
          [](elementwise_definition* self, nb::handle in_params, nb::handle out_params, std::string operation,
             std::string name, std::string preamble, std::string loop_prep, std::string after_loop, bool no_return) {
    std::vector<kernel_param> in = params_of(in_params);
    std::vector<kernel_param> out = params_of(out_params);
    new (self) elementwise_definition(define_elementwise(std::move(in), std::move(out), std::move(operation),
                                                         std::move(name), std::move(preamble), std::move(loop_prep),
                                                         std::move(after_loop), no_return));
          },
          nb::arg("in_params").none(), nb::arg("out_params").none(), nb::arg("operation"), nb::arg("name"),
          nb::arg("preamble"), nb::arg("loop_prep"), nb::arg("after_loop"), nb::arg("no_return"))
      // [(raw, TYPE, NAME, numpy dtype or None)] over the inputs, then the outputs.
      .def_prop_ro(
          "params",
          [](const elementwise_definition& d) {
    nb::list l;
    for (const auto* list : {&d.in, &d.out}) {
      for (const kernel_param& p : *list) {
        l.append(nb::make_tuple(p.raw, p.ctype, p.name, p.type ? numpy_dtype(*p.type) : nb::none()));
      }
    }
    return l;
          })
      .def_prop_ro("nin", [](const elementwise_definition& d) { return d.in.size(); })
      .def_prop_ro("nout", [](const elementwise_definition& d) { return d.out.size(); })
      .def_prop_ro("c_order", [](const elementwise_definition& d) { return d.c_order; })
      .def_prop_ro("kernel_name", [](const elementwise_definition& d) { return d.kernel_name; })
      // The plan of a call with `args` (arrays, scalars, None for outputs to allocate; instances of `fake`
      // stand for arrays of their .dtype): checks, type resolution and code, then the code interned.
      .def(
          "plan",
          [](const elementwise_definition& d, nb::sequence args, nb::handle fake) {
    std::vector<kernel_arg_info> info;
    for (nb::handle a : args) info.push_back(describe_arg(a, fake));
    elementwise_plan e = plan_elementwise(d, info);
    prepared_plan p;
    p.name = std::move(e.name);
    p.body = std::move(e.body);
    p.preamble = std::move(e.preamble);
    p.loop_prep = std::move(e.loop_prep);
    p.after_loop = std::move(e.after_loop);
    p.c_order = e.c_order;
    p.in_types = std::move(e.in_types);
    p.out_types = std::move(e.out_types);
    for (unsigned char k : e.in_kinds) p.in_raw.push_back(k == 'r' ? 1 : 0);
    p.out_raw = std::move(e.out_raw);
    p.in_kinds = std::move(e.in_kinds);
    p.shape_args = std::move(e.shape_args);
    p.given_outs = std::move(e.given_outs);
    p.alloc = std::move(e.alloc);
    p.preload = std::move(e.preload);
    p.raw_sizes = std::move(e.raw_sizes);
    p.id = ew::intern(ew::kernel_spec{nullptr, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order});
    return p;
          },
          nb::arg("args"), nb::arg("fake").none() = nb::none());

  // The base class of ElementwiseKernel: its __call__ (Note [elementwise warm call]).
  nb::class_<elementwise_call>(m, "_ElementwiseCall", nb::type_slots(elementwise_call_slots))
      .def(nb::init<>())
      .def(
          "_setup_call",
          [](elementwise_call& c, int nin, int nout, bool no_return, bool return_tuple) {
    c.nin = nin;
    c.nout = nout;
    c.no_return = no_return;
    c.return_tuple = return_tuple;
          })
      // The plan (from _ElementwiseDefinition.plan) of a call with these arguments runs them from C++ from now on.
      .def("_register_call", [](elementwise_call& c, nb::tuple args, nb::object plan) {
        std::uint64_t key = signature(&PyTuple_GET_ITEM(args.ptr(), 0), args.size());
        if (key == 0 || c.nout > static_cast<int>(max_signature_args)) return;
        for (const auto& r : c.calls) {
          if (r.key == key) return;
        }
        const prepared_plan* core = &nb::cast<const prepared_plan&>(plan);
        c.calls.push_back(registered_call{key, plan, core, core->shape_args, core->given_outs, core->alloc,
                                          core->preload, core->raw_sizes});
      });
  m.def("_ew_signature", [](nb::args args) { return signature(&PyTuple_GET_ITEM(args.ptr(), 0), args.size()); });
}

}  // namespace cuarray::py
