// Explicit cuFFT plans (the native part of cuarray.cuda.cufft's Plan1d and PlanNd), Note [user fft plans].
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "src/fft/cufft.hpp"

namespace cuarray::py {

namespace {

namespace dfft = cuarray::detail::fft;

// cufftType values (cufft.h): the Python layer exports them as CUFFT_*.
constexpr int c2c = 0x29, r2c = 0x2a, c2r = 0x2c, z2z = 0x69, d2z = 0x6a, z2d = 0x6c;

struct py_plan {
  std::shared_ptr<dfft::user_plan> plan;
};

dtype in_type(int t) {
  switch (t) {
    case c2c: case c2r: return dtype::complex64;
    case z2z: case z2d: return dtype::complex128;
    case r2c: return dtype::float32;
    default: return dtype::float64;
  }
}
dtype out_type(int t) {
  switch (t) {
    case c2c: case r2c: return dtype::complex64;
    case z2z: case d2z: return dtype::complex128;
    case c2r: return dtype::float32;
    default: return dtype::float64;
  }
}

// The number of elements one side of the plan reaches (the last one's index plus one), so that an execution
// never reads or writes past the arrays it is given.
std::int64_t span(const dfft::user_plan& p, bool input) {
  const dfft::plan_layout& l = p.layout;
  bool halved = input ? (p.type == c2r || p.type == z2d) : (p.type == r2c || p.type == d2z);
  long long len[3], embed[3];
  for (int k = 0; k < l.rank; ++k) {
    len[k] = k == l.rank - 1 && halved ? l.n[k] / 2 + 1 : l.n[k];
    embed[k] = p.basic_layout ? len[k] : (input ? l.inembed[k] : l.onembed[k]);
  }
  long long stride = p.basic_layout ? 1 : (input ? l.istride : l.ostride);
  long long per = 1;
  for (int k = 0; k < l.rank; ++k) per *= len[k];
  long long dist = p.basic_layout ? per : (input ? l.idist : l.odist);
  long long last = (l.batch - 1) * dist;
  long long inner = 1;
  for (int k = l.rank - 1; k >= 0; --k) {
    last += (len[k] - 1) * stride * inner;
    inner *= embed[k];
  }
  return last + 1;
}

void check_operand(const dfft::user_plan& p, nb::handle obj, bool input) {
  const char* what = input ? "input" : "output";
  if (!is_ndarray(obj)) {
    throw type_error(std::string("the ") + what + " of a cuFFT plan must be a cuarray.ndarray, not " +
                     nb::cast<std::string>(nb::str(obj.type().attr("__name__"))));
  }
  const array& a = as_py_array(obj).a;
  dtype want = input ? in_type(p.type) : out_type(p.type);
  if (a.type() != want) {
    throw value_error(std::string("cuFFT plan dtype mismatch: the ") + what + " must be " + std::string(name(want)) + ", not " +
                      std::string(name(a.type())));
  }
  if (!a.is_c_contiguous() && a.size() > 1) {
    throw value_error(std::string("the ") + what + " of a cuFFT plan must be C-contiguous");
  }
  if (a.device() != p.device) throw value_error(std::string("the ") + what + " is on another device than the plan");
  if (a.size() < span(p, input)) {
    throw value_error(std::string("the ") + what + " has " + std::to_string(a.size()) +
                      " elements, fewer than the plan reaches (" + std::to_string(span(p, input)) + ")");
  }
}

std::vector<long long> to_ll(nb::handle seq) {
  std::vector<long long> v;
  for (nb::handle h : nb::iter(seq)) v.push_back(nb::cast<long long>(h));
  return v;
}

}  // namespace

void init_cufft_plan(nb::module_& m) {
  nb::module_ c = m.def_submodule("_cufft", "explicit cuFFT plans (cuarray.cuda.cufft)");
  nb::class_<py_plan>(c, "_Plan")
      .def_prop_ro("work_size", [](const py_plan& p) { return p.plan->work_size; })
      .def_prop_ro("handle", [](const py_plan& p) { return p.plan->handle; })
      .def_prop_ro("device", [](const py_plan& p) { return p.plan->device; })
      .def(
          "execute",
          [](const py_plan& p, nb::handle a, nb::handle out, int direction) {
            check_operand(*p.plan, a, true);
            check_operand(*p.plan, out, false);
            if (direction != -1 && direction != 1) {
              throw value_error("direction must be CUFFT_FORWARD (-1) or CUFFT_INVERSE (1), not " +
                                std::to_string(direction));
            }
            dfft::execute_user_plan(*p.plan, as_py_array(a).a.data(), as_py_array(out).a.data(), direction);
          },
          nb::arg("a"), nb::arg("out"), nb::arg("direction"))
      .def("make_current", [](const py_plan& p) { dfft::set_current_plan(p.plan); });
  c.def("_clear_current", [] { dfft::set_current_plan(nullptr); });
  c.def("_has_current", [] { return static_cast<bool>(dfft::current_plan()); });
  // rank = len(n); inembed/onembed None: cuFFT's basic layout (strides and distances ignored).
  c.def(
      "_make_plan",
      [](nb::handle n, nb::handle inembed, long long istride, long long idist, nb::handle onembed, long long ostride,
         long long odist, int type, long long batch) {
        std::vector<long long> nv = to_ll(n);
        if (nv.empty() || nv.size() > 3) throw value_error("a cuFFT plan has 1 to 3 dimensions");
        for (long long x : nv) {
          if (x < 1) throw value_error("Invalid number of FFT data points (" + std::to_string(x) + ") specified.");
        }
        if (batch < 1) throw value_error("batch must be positive, not " + std::to_string(batch));
        bool basic = inembed.is_none() && onembed.is_none();
        dfft::plan_layout l;
        l.rank = static_cast<int>(nv.size());
        for (int k = 0; k < l.rank; ++k) l.n[k] = nv[k];
        l.batch = batch;
        if (!basic) {
          if (inembed.is_none() || onembed.is_none()) throw value_error("inembed and onembed go together");
          std::vector<long long> ie = to_ll(inembed), oe = to_ll(onembed);
          if (ie.size() != nv.size() || oe.size() != nv.size()) {
            throw value_error("inembed and onembed must have one entry per transformed dimension");
          }
          if (istride < 1 || ostride < 1 || idist < 1 || odist < 1) {
            throw value_error("strides and distances must be positive");
          }
          for (int k = 0; k < l.rank; ++k) {
            l.inembed[k] = ie[k];
            l.onembed[k] = oe[k];
          }
          l.istride = istride;
          l.idist = idist;
          l.ostride = ostride;
          l.odist = odist;
        }
        return py_plan{dfft::make_user_plan(current_device(), l, type, basic)};
      },
      nb::arg("n"), nb::arg("inembed").none(), nb::arg("istride"), nb::arg("idist"), nb::arg("onembed").none(),
      nb::arg("ostride"), nb::arg("odist"), nb::arg("type"), nb::arg("batch"));
}

}  // namespace cuarray::py
