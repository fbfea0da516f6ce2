// The extension module cuarray._core: one initialiser per area.
#include "common.hpp"

NB_MODULE(_core, m) {
  m.doc() = "cuarray's compiled core";
  // Cached Python objects (NumPy dtypes, the default pools' wrappers) live until the process ends by
  // design; nanobind's shutdown report of them would be noise.
  nb::set_leak_warnings(false);
  cuarray::py::init_errors(m);
  cuarray::py::init_runtime(m);
  cuarray::py::init_memory(m);
  cuarray::py::init_ndarray(m);
  cuarray::py::init_creation(m);
  cuarray::py::init_interop(m);
  cuarray::py::init_ufunc(m);
  cuarray::py::init_elementwise_kernel(m);
  cuarray::py::init_reduction(m);
  cuarray::py::init_raw(m);
  cuarray::py::init_elementwise_funcs(m);
  cuarray::py::init_scan(m);
  cuarray::py::init_select(m);
  cuarray::py::init_counting(m);
  cuarray::py::init_sorting(m);
  cuarray::py::init_statistics(m);
  cuarray::py::init_manipulation(m);
  cuarray::py::init_fft(m);
  cuarray::py::init_index_funcs(m);
  cuarray::py::init_random(m);
  cuarray::py::init_indexing(m);
  cuarray::py::init_products(m);
  cuarray::py::init_linalg(m);
  cuarray::py::init_scipy_linalg(m);
  cuarray::py::init_sparse(m);
  cuarray::py::init_cuda_api(m);
  cuarray::py::init_texture(m);
  cuarray::py::init_cufft_plan(m);
  cuarray::py::init_nccl(m);
  cuarray::py::init_device_handles(m);
  // Sets an attribute on a type Python refuses to change: nanobind's function types are immutable, and
  // cuarray._signature gives them a __signature__ property so inspect.signature sees the bindings' parameters.
  m.def("_set_type_attr", [](nb::type_object type, const char* name, nb::object value) {
    PyTypeObject* t = reinterpret_cast<PyTypeObject*>(type.ptr());
    if (PyDict_SetItemString(t->tp_dict, name, value.ptr()) != 0) throw nb::python_error();
    PyType_Modified(t);
  });
}
