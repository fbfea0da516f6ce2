// Explicit cuFFT plans (the native part of cuarray.cuda.cufft's Plan1d and PlanNd), Note [user fft plans].
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "cuarray/fft_plan.hpp"

namespace cuarray::py {

namespace {

const array& plan_operand(nb::handle obj, const char* what) {
  if (!is_ndarray(obj)) {
    throw type_error(std::string("the ") + what + " of a cuFFT plan must be a cuarray.ndarray, not " +
                     nb::cast<std::string>(nb::str(obj.type().attr("__name__"))));
  }
  return as_py_array(obj).a;
}

std::vector<long long> to_ll(nb::handle seq) {
  std::vector<long long> v;
  for (nb::handle h : nb::iter(seq)) v.push_back(nb::cast<long long>(h));
  return v;
}

}  // namespace

void init_cufft_plan(nb::module_& m) {
  nb::module_ c = m.def_submodule("_cufft", "explicit cuFFT plans (cuarray.cuda.cufft)");
  nb::class_<fft_plan>(c, "_Plan")
      .def_prop_ro("work_size", &fft_plan::work_size)
      .def_prop_ro("handle", &fft_plan::handle)
      .def_prop_ro("device", &fft_plan::device)
      .def(
          "execute",
          [](const fft_plan& p, nb::handle a, nb::handle out, int direction) {
    p.execute(plan_operand(a, "input"), plan_operand(out, "output"), direction);
          },
          nb::arg("a"), nb::arg("out"), nb::arg("direction"))
      .def("make_current", &fft_plan::make_current);
  c.def("_clear_current", &fft_plan::clear_current);
  c.def("_has_current", &fft_plan::has_current);
  // rank = len(n); inembed/onembed None: cuFFT's basic layout (strides and distances ignored).
  c.def(
      "_make_plan",
      [](nb::handle n, nb::handle inembed, long long istride, long long idist, nb::handle onembed, long long ostride,
         long long odist, int type, long long batch) {
    std::optional<fft_embedding> e;
    if (!inembed.is_none() || !onembed.is_none()) {
      if (inembed.is_none() || onembed.is_none()) throw value_error("inembed and onembed go together");
      e = fft_embedding{to_ll(inembed), to_ll(onembed), istride, idist, ostride, odist};
    }
    return fft_plan(to_ll(n), type, batch, e);
      },
      nb::arg("n"), nb::arg("inembed").none(), nb::arg("istride"), nb::arg("idist"), nb::arg("onembed").none(),
      nb::arg("ostride"), nb::arg("odist"), nb::arg("type"), nb::arg("batch"));
}

}  // namespace cuarray::py
