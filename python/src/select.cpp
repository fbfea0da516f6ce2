// Bindings of nonzero, flatnonzero, argwhere, extract and ndarray.nonzero().
#include "args.hpp"

namespace cuarray::py {

void init_select(nb::module_& m) {
  using namespace args;
  m.def(
      "nonzero", [](nb::handle a) { return to_py_tuple(nonzero(to_array(a, "nonzero"))); }, nb::arg("a"),
      "Indices of the nonzero elements, one int64 array per dimension.");
  m.def(
      "flatnonzero", [](nb::handle a) { return wrap(flatnonzero(to_array(a, "flatnonzero"))); }, nb::arg("a"),
      "Indices of the nonzero elements of the flattened array.");
  m.def(
      "argwhere", [](nb::handle a) { return wrap(argwhere(to_array(a, "argwhere"))); }, nb::arg("a"),
      "Indices of the nonzero elements, one row per element.");
  m.def(
      "extract",
      [](nb::handle condition, nb::handle arr) {
    return wrap(extract(to_array(condition, "extract"), to_array(arr, "extract")));
      },
      nb::arg("condition"), nb::arg("arr"), "The elements of arr.ravel() where condition.ravel() is nonzero.");
  nb::setattr(ndarray_type(), "nonzero",
              nb::cpp_function([](nb::handle self) { return to_py_tuple(nonzero(as_py_array(self).a)); },
                               nb::is_method(), nb::name("nonzero")));
}

}  // namespace cuarray::py
