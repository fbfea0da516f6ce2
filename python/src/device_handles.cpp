// Device extras of cuarray.cuda: the library handles CuPy's Device exposes (cublas_handle, cusolver_handle,
// cusparse_handle, as integers) and the NVRTC call under cuarray.cuda.compiler.compile_using_nvrtc.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "cuarray/device.hpp"
#include "src/engine/engine.hpp"

namespace cuarray::py {

void init_device_handles(nb::module_& m) {
  m.def("_cublas_handle", &cuarray::cublas_handle, nb::arg("device"));
  m.def("_cusparse_handle", &cuarray::cusparse_handle, nb::arg("device"));
  m.def("_cusolver_handle", &cuarray::cusolver_handle, nb::arg("device"));
  // (image bytes, lowered names in the order of name_expressions, NVRTC's log). `options` go to NVRTC as they
  // are (the caller adds -arch); no default -std is added beyond effective_options' own.
  m.def(
      "_nvrtc_compile",
      [](const std::string& source, const std::string& filename, const std::vector<std::string>& options,
         const std::vector<std::string>& names, bool ptx) {
    jit::compile_request req;
    req.source = source;
    req.name = filename;
    req.options = options;
    req.name_expressions = names;
    req.ptx = ptx;
    jit::compile_result r;
    {
      nb::gil_scoped_release release;
      r = jit::compile(req);
    }
    return nb::make_tuple(nb::bytes(r.cubin.data(), r.cubin.size()), r.lowered_names, r.log);
      },
      nb::arg("source"), nb::arg("filename"), nb::arg("options"), nb::arg("name_expressions"), nb::arg("ptx"));
  m.def("_nvrtc_version", [] {
    auto [major, minor] = jit::nvrtc_version();
    return nb::make_tuple(major, minor);
  });
}

}  // namespace cuarray::py
