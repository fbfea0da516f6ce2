// cuarray.fuse's traced values met by the functions fuse supports when reached by value (Note [fuse by value]).
#pragma once

#include "common.hpp"

namespace cuarray::py {

// Note [fuse by value]: cuarray.fuse traces a function by calling it with traced values
// (cuarray._fusion._Value). Its _rewrite swaps the cuarray module, ufuncs and where... in the function's own
// globals and closure for tracing versions, but a function may reach cuarray another way: a module alias made
// elsewhere, a helper in another module, `from cuarray import sin` in a module imported later, functions kept
// in a container. So the bindings recognise traced values themselves, as CuPy's do, and only where an
// argument is not an ndarray (the fast path never looks):
// - a ufunc whose arguments cannot be converted defers to an operand that overrides __array_ufunc__
//   (NEP 13; ufunc.cpp, Note [ufunc overrides]); _Value is one;
// - where, clip, round/around, real, imag and the reductions hand a traced argument to
//   cuarray._fusion._function_hook(name, args, kwargs), which runs fuse's version of the function (or raises
//   fuse's "not supported" error for the others).
// _fusion registers its type and hook with _core._set_fusion_hooks when it is imported.

/// cuarray._fusion._Value (null until cuarray._fusion is imported); a new reference kept for the process.
inline PyTypeObject* traced_type = nullptr;
/// cuarray._fusion._function_hook; a new reference kept for the process.
inline PyObject* traced_function_hook = nullptr;

/// Whether `o` is a value traced by cuarray.fuse: one pointer comparison.
inline bool is_traced(nb::handle o) { return traced_type != nullptr && Py_TYPE(o.ptr()) == traced_type; }

/// fuse's version of cuarray.`name` called with these positional and keyword arguments.
inline nb::object call_traced(const char* name, nb::handle args, nb::handle kwargs) {
  nb::object n = nb::str(name);
  PyObject* r = PyObject_CallFunctionObjArgs(traced_function_hook, n.ptr(), args.ptr(), kwargs.ptr(), nullptr);
  if (r == nullptr) throw nb::python_error();
  return nb::steal(r);
}

}  // namespace cuarray::py
