// Bindings behind ElementwiseKernel and fuse: a prepared kernel (ElementwisePlan) and the warm call path.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "src/core/internal.hpp"
#include "src/engine/engine.hpp"

namespace cuarray::py {

namespace {

// A kernel prepared once (strings interned, dtypes parsed) and run many times.
struct elementwise_plan {
  std::string name, body, preamble, loop_prep, after_loop;
  bool c_order = false;
  std::vector<dtype> in_types, out_types;
  std::vector<unsigned char> in_raw, out_raw;  // not vector<bool>: read on every warm call
  const void* id = nullptr;
};

// One kernel operand from a Python argument, as the plan declares it.
ew::operand to_operand(const elementwise_plan& p, std::size_t k, nb::handle a) {
  dtype t = p.in_types[k];
  if (!is_ndarray(a)) return ew::operand::of_scalar(to_scalar(a, t, false), t);
  array arr = as_py_array(a).a;
  if (!p.in_raw[k]) return ew::operand::of(std::move(arr), t);
  if (!arr.is_c_contiguous()) arr = arr.copy(order::C);
  if (arr.type() != t) arr = arr.astype(t);
  return ew::operand::of_raw(std::move(arr), t);
}

ew::operand to_out_operand(const elementwise_plan& p, std::size_t k, const array& arr) {
  return p.out_raw[k] ? ew::operand::of_raw(arr, p.out_types[k]) : ew::operand::of(arr, p.out_types[k]);
}

void run_plan(const elementwise_plan& p, ew::operand* ops, std::size_t nin, std::size_t nout, const shape_t& shape) {
  ew::kernel_spec spec{p.id, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order};
  ew::run(spec, ops, static_cast<int>(nin), ops + nin, static_cast<int>(nout), shape, array());
}

// Note [elementwise warm call]: ElementwiseKernel plans a call in Python once per argument signature (each
// argument's dtype, or its scalar type), then registers the plan here under a packed signature; a call
// whose signature is registered runs from C++ alone: broadcast shape, outputs, operands, launch. Anything
// else (NumPy scalars, keywords, a new signature, an error to report) goes to the Python path.
struct registered_call {
  std::uint64_t key;
  nb::object plan;  // the ElementwisePlan, kept alive here
  const elementwise_plan* core;
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

std::vector<int> to_ints(nb::handle seq) {
  std::vector<int> v;
  for (nb::handle x : seq) v.push_back(nb::cast<int>(x));
  return v;
}

// The C++ path of a registered signature; a null object means "take the Python path". Operands point at
// the arguments' arrays and at the new outputs inside their Python objects (Note [small call]): nothing is
// copied but raw inputs that need a contiguous or converted copy.
nb::object fast_call(const elementwise_call& c, const registered_call& r, PyObject* const* args, std::size_t nargs) {
  const elementwise_plan& p = *r.core;
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
  int device = current_device();
  for (int j : r.alloc) {
    auto jj = static_cast<std::size_t>(j);
    out_objs.p[jj] =
        wrap_made([&] { return detail::new_array(p.out_types[jj], *shape, order::C, device); }).release().ptr();
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
  ew::kernel_spec spec{p.id, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order};
  ew::run(spec, ops, static_cast<int>(nin), ops + nin, static_cast<int>(nout), *shape, nullptr);
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
  nb::class_<elementwise_plan>(m, "ElementwisePlan")
      .def(
          "__init__",
          [](elementwise_plan* self, std::string name, std::string body, std::string preamble, std::string loop_prep,
             std::string after_loop, bool c_order, nb::list in_types, nb::list in_raw, nb::list out_types,
             nb::list out_raw) {
    auto* p = new (self) elementwise_plan{std::move(name),
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
      .def("run", [](const elementwise_plan& p, nb::sequence ins, nb::sequence outs, nb::handle shape) {
        std::size_t nin = nb::len(ins), nout = nb::len(outs);
        if (nin != p.in_types.size() || nout != p.out_types.size())
          throw value_error("ElementwisePlan: wrong operand count");
        if (nin + nout > 11) throw value_error("too many operands for an elementwise kernel");
        ew::operand ops[12];
        for (std::size_t k = 0; k < nin; ++k) ops[k] = to_operand(p, k, ins[k]);
        for (std::size_t k = 0; k < nout; ++k) ops[nin + k] = to_out_operand(p, k, as_py_array(outs[k]).a);
        run_plan(p, ops, nin, nout, to_shape(shape));
      });

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
      .def("_register_call", [](elementwise_call& c, nb::tuple args, nb::object plan, nb::handle shape_args,
                                nb::handle given_outs, nb::handle alloc, nb::handle preload, nb::handle raw_sizes) {
        std::uint64_t key = signature(&PyTuple_GET_ITEM(args.ptr(), 0), args.size());
        if (key == 0 || c.nout > static_cast<int>(max_signature_args)) return;
        for (const auto& r : c.calls) {
          if (r.key == key) return;
        }
        const elementwise_plan* core = &nb::cast<const elementwise_plan&>(plan);
        c.calls.push_back(registered_call{key, plan, core, to_ints(shape_args), to_ints(given_outs), to_ints(alloc),
                                          to_ints(preload), to_ints(raw_sizes)});
      });
  m.def("_ew_signature", [](nb::args args) { return signature(&PyTuple_GET_ITEM(args.ptr(), 0), args.size()); });
}

}  // namespace cuarray::py
