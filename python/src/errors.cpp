// C++ exceptions to Python exceptions of NumPy's and CuPy's types.
#include <exception>
#include <string>

#include "common.hpp"

namespace cuarray::py {

namespace {

PyObject* cuda_runtime_error_type = nullptr;
PyObject* out_of_memory_error_type = nullptr;
PyObject* compile_exception_type = nullptr;

void raise_with(PyObject* type, const char* msg, const char* attr, PyObject* value) {
  PyObject* exc = PyObject_CallFunction(type, "s", msg);
  if (!exc) return;  // the call set an error already
  if (attr && value) PyObject_SetAttrString(exc, attr, value);
  Py_XDECREF(value);
  PyErr_SetObject(type, exc);
  Py_DECREF(exc);
}

PyObject* performance_warning_type = nullptr;

// Note [peer operands] (src/cuda/runtime.cpp): the core reports each use of another device's array; under
// warnings-as-errors the warning's exception propagates as the operation's.
void warn_peer_access(int array_device, int current_device) {
  nb::gil_scoped_acquire gil;
  std::string msg = peer_access_message(array_device, current_device, true);
  if (PyErr_WarnEx(performance_warning_type, msg.c_str(), 1) != 0) throw nb::python_error();
}

thread_local std::exception_ptr tls_pending;
nb::object* g_rethrow = nullptr;  // leaked: a Python object must not be released after the interpreter ends

}  // namespace

// Note [C slots] (common.hpp).
PyObject* raise_pending() noexcept {
  tls_pending = std::current_exception();
  PyObject* r = PyObject_CallNoArgs(g_rethrow->ptr());
  Py_XDECREF(r);  // never a value: the call raises
  return nullptr;
}

void init_errors(nb::module_& m) {
  g_rethrow = new nb::object(nb::cpp_function([] {
    std::exception_ptr p = tls_pending;
    tls_pending = nullptr;
    if (p) std::rethrow_exception(p);
  }));
  cuda_runtime_error_type = PyErr_NewExceptionWithDoc("cuarray.cuda.runtime.CUDARuntimeError",
                                                      "A CUDA runtime call failed, or no CUDA device is available.",
                                                      PyExc_RuntimeError, nullptr);
  out_of_memory_error_type = PyErr_NewExceptionWithDoc(
      "cuarray.cuda.memory.OutOfMemoryError", "A device memory allocation failed.", PyExc_MemoryError, nullptr);
  compile_exception_type = PyErr_NewExceptionWithDoc(
      "cuarray.cuda.compiler.CompileException", "NVRTC rejected a kernel; .log, .source, .options and .name say why.",
      PyExc_Exception, nullptr);
  m.attr("CompileException") = nb::handle(compile_exception_type);
  m.attr("CUDARuntimeError") = nb::handle(cuda_runtime_error_type);
  m.attr("OutOfMemoryError") = nb::handle(out_of_memory_error_type);
  performance_warning_type =
      PyErr_NewExceptionWithDoc("cuarray.exceptions.PerformanceWarning",
                                "Warns about a slow path, such as reading an array of another device over peer access.",
                                PyExc_RuntimeWarning, nullptr);
  m.attr("PerformanceWarning") = nb::handle(performance_warning_type);
  peer_access_warning_hook = &warn_peer_access;

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const out_of_memory_error& e) {
      PyObject* tuple = Py_BuildValue("(nnnn)", static_cast<Py_ssize_t>(e.requested), static_cast<Py_ssize_t>(e.used),
                                      static_cast<Py_ssize_t>(e.total), static_cast<Py_ssize_t>(e.limit));
      raise_with(out_of_memory_error_type, e.what(), "details", tuple);
    } catch (const compile_error& e) {
      PyObject* exc = PyObject_CallFunction(compile_exception_type, "s", e.what());
      if (!exc) return;
      PyObject_SetAttrString(exc, "log", nb::str(e.log.c_str()).ptr());
      PyObject_SetAttrString(exc, "source", nb::str(e.source.c_str()).ptr());
      PyObject_SetAttrString(exc, "name", nb::str(e.name.c_str()).ptr());
      nb::list opts;
      for (const auto& o : e.options) opts.append(nb::str(o.c_str()));
      PyObject_SetAttrString(exc, "options", opts.ptr());
      PyErr_SetObject(compile_exception_type, exc);
      Py_DECREF(exc);
    } catch (const overflow_error& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const cuda_error& e) {
      raise_with(cuda_runtime_error_type, e.what(), "status", PyLong_FromLong(e.status));
    } catch (const axis_error& e) {
      nb::object cls = nb::module_::import_("numpy.exceptions").attr("AxisError");
      PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
    } catch (const index_error& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const type_error& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const value_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

}  // namespace cuarray::py
