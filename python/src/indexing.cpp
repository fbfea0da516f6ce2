// Bindings of take, put, take_along_axis, put_along_axis, compress, place, putmask, and the ndarray methods.
#include <nanobind/stl/string.h>

#include "args.hpp"

namespace cuarray::py {

namespace {

using namespace args;

// Note [index modes]: NumPy's take/put default to mode='raise'; None here means the indexing default (wrap,
// or raise under CUARRAY_CHECK_INDEX=1), as CuPy's take wraps.
index_mode to_mode(nb::handle mode) {
  if (mode.is_none()) return default_index_mode();
  return parse_index_mode(nb::cast<std::string>(mode));
}

// An index argument: a cuarray array, or a host sequence/scalar uploaded (indices are small next to data).
array to_indices(nb::handle obj, const char* func) {
  if (is_ndarray(obj) || nb::hasattr(obj, "__cuda_array_interface__")) return to_array(obj, func);
  array a = as_py_array(nb::module_::import_("cuarray").attr("asarray")(obj)).a;
  // An empty list is an empty integer index, as NumPy takes it (asarray makes it float64).
  if (a.size() == 0 && !nb::hasattr(obj, "dtype")) return a.astype(int64);
  return a;
}

// The index argument of take and put: NumPy casts anything but an array to intp as int() would (1.5,
// numpy.float64(1.5) and [0.5] index, 'x' is int()'s ValueError); an array (device or NumPy) keeps its dtype,
// and the callee refuses a non-integer one (NumPy's same-kind TypeError).
array to_flat_indices(nb::handle obj, const char* func) {
  bool host_array = nb::hasattr(obj, "__array_interface__") && !is_numpy_scalar(obj);
  if (is_ndarray(obj) || nb::hasattr(obj, "__cuda_array_interface__") || host_array) return to_indices(obj, func);
  nb::object host = numpy().attr("asarray")(obj, numpy().attr("intp"));
  return as_py_array(nb::module_::import_("cuarray").attr("asarray")(host)).a;
}

// A value argument for a target of dtype `t`: Note [assigned values].
array to_values(nb::handle obj, dtype t) { return to_assigned_value(obj, t).as_array(t); }

// NumPy's take and compress (PyArray_CheckAxis) take a 0-d array as a 1-element 1-D one when an axis is given,
// so that axis 0 or -1 is valid; a bool axis is a TypeError there.
array as_axis_operand(const array& a, std::optional<int>& axis) {
  if (!axis || a.ndim() != 0) return a;
  normalize_axis(*axis, 1);
  axis = 0;
  return a.reshape(shape_t{1});
}

nb::object take_py(nb::handle a, nb::handle indices, nb::handle axis, nb::handle out, nb::handle mode) {
  std::optional<int> ax = to_opt_int_axis(axis);
  array x = as_axis_operand(to_array(a, "take"), ax);
  if (ax) normalize_axis(*ax, x.ndim());  // NumPy's AxisError comes before anything about the indices
  array result = take(x, to_flat_indices(indices, "take"), ax, to_mode(mode), to_out(out));
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(result));
}

void put_py(nb::handle a, nb::handle ind, nb::handle v, nb::handle mode) {
  if (!is_ndarray(a)) throw type_error("argument a of put must be a cuarray.ndarray");
  const array& target = as_py_array(a).a;
  // NumPy's order: the mode (its argument parser), then in PyArray_PutTo the indices, the empty-target check
  // and the values' conversion.
  index_mode m = to_mode(mode);
  array idx = to_flat_indices(ind, "put");
  if (idx.size() > 0 && target.size() == 0) throw index_error("cannot replace elements of an empty array");
  array values = to_values(v, target.type());
  put(target, idx, values, m);
}

nb::object compress_py(nb::handle condition, nb::handle a, nb::handle axis, nb::handle out) {
  array cond = to_indices(condition, "compress");
  if (cond.type() != bool_) cond = cond.astype(bool_);
  std::optional<int> ax = to_opt_int_axis(axis);
  array x = as_axis_operand(to_array(a, "compress"), ax);
  array result = compress(cond, x, ax, to_out(out));
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(result));
}

array to_mask(nb::handle mask, const char* func) {
  array m = to_indices(mask, func);
  return m.type() == bool_ ? m : m.astype(bool_);
}

}  // namespace

void init_indexing(nb::module_& m) {
  m.def("take", &take_py, nb::arg("a"), nb::arg("indices"), nb::arg("axis").none() = nb::none(),
        nb::arg("out").none() = nb::none(), nb::arg("mode").none() = nb::none(),
        "Elements of `a` at `indices` along `axis` (None: flattened). mode None wraps out-of-range indices (CuPy's "
        "rule; CUARRAY_CHECK_INDEX=1 raises), or 'raise', 'wrap', 'clip'.");
  m.def("put", &put_py, nb::arg("a"), nb::arg("ind"), nb::arg("v").none(), nb::arg("mode").none() = nb::none(),
        "a.flat[ind] = v, with v repeated as needed.");
  m.def(
      "take_along_axis",
      [](nb::handle a, nb::handle indices, nb::handle axis) {
    return wrap(take_along_axis(to_array(a, "take_along_axis"), to_indices(indices, "take_along_axis"), to_axis(axis)));
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("axis").none() = -1, "Values of `arr` at `indices` along `axis`.");
  m.def(
      "put_along_axis",
      [](nb::handle a, nb::handle indices, nb::handle values, nb::handle axis) {
    if (!is_ndarray(a)) throw type_error("argument arr of put_along_axis must be a cuarray.ndarray");
    const array& target = as_py_array(a).a;
    std::optional<int> ax = to_axis(axis);
    if (ax) normalize_axis(*ax, target.ndim());  // NumPy's AxisError comes before the value's conversion
    array idx = to_indices(indices, "put_along_axis");
    put_along_axis(target, idx, to_values(values, target.type()), ax);
      },
      nb::arg("arr"), nb::arg("indices"), nb::arg("values").none(), nb::arg("axis").none(),
      "Write `values` into `arr` at `indices` along `axis`.");
  m.def("compress", &compress_py, nb::arg("condition"), nb::arg("a"), nb::arg("axis").none() = nb::none(),
        nb::arg("out").none() = nb::none(), "Slices of `a` along `axis` where `condition` is true.");
  m.def(
      "place",
      [](nb::handle arr, nb::handle mask, nb::handle vals) {
    if (!is_ndarray(arr)) throw type_error("argument arr of place must be a cuarray.ndarray");
    const array& target = as_py_array(arr).a;
    array m = to_mask(mask, "place");
    if (m.size() != target.size()) throw value_error("place: mask and data must be the same size");
    place(target, m, to_values(vals, target.type()));
      },
      nb::arg("arr"), nb::arg("mask"), nb::arg("vals").none(), "arr[mask] = vals, vals repeated as needed.");
  m.def(
      "putmask",
      [](nb::handle a, nb::handle mask, nb::handle values) {
    if (!is_ndarray(a)) throw type_error("argument a of putmask must be a cuarray.ndarray");
    const array& target = as_py_array(a).a;
    array m = to_mask(mask, "putmask");
    if (m.size() != target.size()) throw value_error("putmask: mask and data must be the same size");
    putmask(target, m, to_values(values, target.type()));
      },
      nb::arg("a"), nb::arg("mask"), nb::arg("values").none(),
      "a.flat[n] = values.flat[n % values.size] where mask.flat[n].");

  nb::handle cls = ndarray_type();
  nb::setattr(cls, "take",
              nb::cpp_function([](nb::handle self, nb::handle indices, nb::handle axis, nb::handle out,
                                  nb::handle mode) { return take_py(self, indices, axis, out, mode); },
                               nb::is_method(), nb::name("take"), nb::arg("indices"),
                               nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(),
                               nb::arg("mode").none() = nb::none()));
  nb::setattr(cls, "put",
              nb::cpp_function([](nb::handle self, nb::handle ind, nb::handle v,
                                  nb::handle mode) { put_py(self, ind, v, mode); },
                               nb::is_method(), nb::name("put"), nb::arg("indices"), nb::arg("values").none(),
                               nb::arg("mode").none() = nb::none()));
  nb::setattr(cls, "compress",
              nb::cpp_function([](nb::handle self, nb::handle condition, nb::handle axis,
                                  nb::handle out) { return compress_py(condition, self, axis, out); },
                               nb::is_method(), nb::name("compress"), nb::arg("condition"),
                               nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none()));
}

}  // namespace cuarray::py
