// Bindings of the LAPACK-style primitives cuarray.scipy.linalg builds on (the submodule cuarray._core._lapack).
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/linalg_lapack.hpp"

namespace cuarray::py {

void init_scipy_linalg(nb::module_& m) {
  nb::module_ l = m.def_submodule("_lapack", "getrf/getrs, potrf/potrs and trsm over stacks of matrices");
  using args::to_array;
  l.def(
      "getrf",
      [](nb::handle a) {
    linalg::lapack::lu_factors r = linalg::lapack::getrf(to_array(a, "getrf"));
    return nb::make_tuple(wrap(r.lu), wrap(r.ipiv), wrap(r.info));
      },
      nb::arg("a"));
  l.def(
      "getrs",
      [](nb::handle lu, nb::handle ipiv, nb::handle b, int trans) {
    return wrap(linalg::lapack::getrs(to_array(lu, "getrs"), to_array(ipiv, "getrs"), to_array(b, "getrs"), trans));
      },
      nb::arg("lu"), nb::arg("ipiv"), nb::arg("b"), nb::arg("trans") = 0);
  l.def(
      "potrf",
      [](nb::handle a, bool lower) {
    linalg::lapack::cholesky_factors r = linalg::lapack::potrf(to_array(a, "potrf"), lower);
    return nb::make_tuple(wrap(r.c), wrap(r.info));
      },
      nb::arg("a"), nb::arg("lower"));
  l.def(
      "potrs",
      [](nb::handle c, nb::handle b, bool lower) {
    return wrap(linalg::lapack::potrs(to_array(c, "potrs"), to_array(b, "potrs"), lower));
      },
      nb::arg("c"), nb::arg("b"), nb::arg("lower"));
  l.def(
      "trsm",
      [](nb::handle a, nb::handle b, bool lower, int trans, bool unit_diagonal) {
    return wrap(linalg::lapack::trsm(to_array(a, "trsm"), to_array(b, "trsm"), lower, trans, unit_diagonal));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("lower"), nb::arg("trans") = 0, nb::arg("unit_diagonal") = false);
  // SciPy's check_finite for any number of arrays: one reduction each and one synchronisation (Note [one read
  // per solve], cuarray/scipy/linalg/_decomp.py).
  l.def("all_finite", [](nb::args arrays) {
    std::vector<array> in;
    in.reserve(arrays.size());
    for (nb::handle a : arrays) in.push_back(to_array(a, "all_finite"));
    return linalg::lapack::all_finite(in);
  });
}

}  // namespace cuarray::py
