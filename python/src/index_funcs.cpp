// Bindings of diagonal/diag/tril/triu, the index grids and conversions, select and choose, and ndarray.diagonal/.choose.
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "cuarray/index_funcs.hpp"
#include "cuarray/manipulation.hpp"

namespace cuarray::py {

namespace {

using args::to_array;
using args::to_index;

// A Python argument as an operand: cuarray arrays; Python int/float/complex as weak scalars (NEP 50); bool and
// NumPy scalars as strong ones.
ufunc_arg to_operand(nb::handle obj, const char* func) {
  if (is_ndarray(obj)) return ufunc_arg(as_py_array(obj).a);
  if (std::optional<ufunc_arg> v = args::scalar_operand(obj)) return *v;
  return ufunc_arg(to_array(obj, func));
}

// A sequence argument (list, tuple, or an ndarray taken along its first axis, as NumPy iterates one).
std::vector<nb::object> items_of(nb::handle obj, const char* what) {
  std::vector<nb::object> out;
  if (is_ndarray(obj)) {
    const array& a = as_py_array(obj).a;
    if (a.ndim() == 0) throw type_error(std::string(what) + ": a 0-d array is not a sequence");
    for (array& v : unstack(a, 0)) out.push_back(view_of(obj, std::move(v)));
    return out;
  }
  if (!PySequence_Check(obj.ptr())) {
    throw type_error(std::string(what) + " must be a sequence, not " + args::type_name_of(obj));
  }
  for (nb::handle h : nb::iter(obj)) out.push_back(nb::borrow(h));
  return out;
}

// Host data (lists, NumPy arrays) through cuarray.asarray, where NumPy accepts array-likes of values.
array to_device_array(nb::handle obj) {
  if (is_ndarray(obj)) return as_py_array(obj).a;
  return as_py_array(nb::module_::import_("cuarray").attr("asarray")(obj)).a;
}

shape_t to_dims(nb::handle obj) {
  shape_t s;
  if (PySequence_Check(obj.ptr())) {
    for (nb::handle h : nb::iter(obj)) s.push_back(to_index(h));
  } else {
    s.push_back(to_index(obj));
  }
  return s;
}

nb::tuple pair_tuple(std::pair<array, array> p) {
  return nb::make_tuple(wrap(std::move(p.first)), wrap(std::move(p.second)));
}

std::optional<std::int64_t> to_opt_index(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_index(obj);
}

index_mode to_mode(nb::handle obj) {
  if (!PyUnicode_Check(obj.ptr())) throw type_error("clipmode not understood");
  return parse_index_mode(nb::cast<std::string>(obj));
}

nb::object do_diagonal(nb::handle a, nb::handle offset, nb::handle axis1, nb::handle axis2) {
  auto ax = [](nb::handle h) {
    std::optional<int> v = args::to_axis(h);
    if (!v) throw type_error("'NoneType' object cannot be interpreted as an integer");
    return *v;
  };
  return view_of(a, diagonal(to_array(a, "diagonal"), to_index(offset), ax(axis1), ax(axis2)));
}

nb::object do_choose(nb::handle a, nb::handle choices, nb::handle out, nb::handle mode) {
  array idx = to_array(a, "choose");
  std::vector<ufunc_arg> cs;
  for (nb::object& c : items_of(choices, "choices")) cs.push_back(to_operand(c, "choose"));
  array r = choose(idx, cs, args::to_out(out), to_mode(mode));
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

}  // namespace

void init_index_funcs(nb::module_& m) {
  m.def("diagonal", &do_diagonal, nb::arg("a"), nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1,
        "The diagonal over axis1 and axis2 as a view, appended as the last axis.");
  m.def(
      "diag",
      [](nb::handle v, nb::handle k) {
    return wrap(diag(is_ndarray(v) ? as_py_array(v).a : to_device_array(v), to_index(k)));
      },
      nb::arg("v"), nb::arg("k") = 0, "A diagonal matrix from a 1-D array, or a copy of a 2-D array's diagonal.");
  m.def(
      "diagflat", [](nb::handle v, nb::handle k) { return wrap(diagflat(to_device_array(v), to_index(k))); },
      nb::arg("v"), nb::arg("k") = 0, "A 2-D array with the flattened input on diagonal k.");
  m.def(
      "fill_diagonal",
      [](nb::handle a, nb::handle val, bool wrap_) {
    if (!is_ndarray(a))
      throw type_error("fill_diagonal() argument 'a' must be cuarray.ndarray, not " + args::type_name_of(a));
    const array& arr = as_py_array(a).a;
    if (is_python_scalar(val) && !is_ndarray(val)) {
      // Checked before the value converts: NumPy's shape errors come first.
      if (arr.ndim() < 2) throw value_error("array must be at least 2-d");
      // NumPy writes through a.flat[...] = val: Python scalars convert strictly (300 into int8 is an
      // OverflowError), NumPy scalars are cast (numpy.int64(300) becomes 44).
      fill_diagonal(arr, to_scalar(val, arr.type(), !args::is_numpy_scalar(val)), wrap_);
    } else {
      fill_diagonal(arr, to_device_array(val), wrap_);
    }
      },
      nb::arg("a"), nb::arg("val"), nb::arg("wrap") = false,
      "Write val (cycled) onto the main diagonal of a, in place.");

  m.def(
      "tril", [](nb::handle a, nb::handle k) { return wrap(tril(to_array(a, "tril"), to_index(k))); }, nb::arg("m"),
      nb::arg("k") = 0, "The lower triangle (elements above diagonal k zeroed).");
  m.def(
      "triu", [](nb::handle a, nb::handle k) { return wrap(triu(to_array(a, "triu"), to_index(k))); }, nb::arg("m"),
      nb::arg("k") = 0, "The upper triangle (elements below diagonal k zeroed).");
  m.def(
      "tril_indices",
      [](nb::handle n, nb::handle k, nb::handle mm) {
    std::int64_t rows = to_index(n);  // Note [argument order] (manipulation.cpp)
    std::int64_t diag = to_index(k);
    return pair_tuple(tril_indices(rows, diag, to_opt_index(mm)));
      },
      nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = nb::none(),
      "Indices of the lower triangle of an (n, m) array.");
  m.def(
      "triu_indices",
      [](nb::handle n, nb::handle k, nb::handle mm) {
    std::int64_t rows = to_index(n);  // Note [argument order] (manipulation.cpp)
    std::int64_t diag = to_index(k);
    return pair_tuple(triu_indices(rows, diag, to_opt_index(mm)));
      },
      nb::arg("n"), nb::arg("k") = 0, nb::arg("m").none() = nb::none(),
      "Indices of the upper triangle of an (n, m) array.");
  m.def(
      "tril_indices_from",
      [](nb::handle a, nb::handle k) {
    return pair_tuple(tril_indices_from(to_array(a, "tril_indices_from"), to_index(k)));
      },
      nb::arg("arr"), nb::arg("k") = 0, "Indices of the lower triangle of a 2-D array.");
  m.def(
      "triu_indices_from",
      [](nb::handle a, nb::handle k) {
    return pair_tuple(triu_indices_from(to_array(a, "triu_indices_from"), to_index(k)));
      },
      nb::arg("arr"), nb::arg("k") = 0, "Indices of the upper triangle of a 2-D array.");

  m.def(
      "indices",
      [](nb::handle dimensions, nb::handle dt, bool sparse) -> nb::object {
        shape_t dims;
        for (nb::handle h : nb::iter(dimensions)) dims.push_back(to_index(h));
        dtype t = to_dtype(dt);
        if (sparse) return args::to_py_tuple(indices_sparse(dims, t));
        return wrap(indices(dims, t));
      },
      nb::arg("dimensions"),
      nb::arg("dtype").none() = nb::borrow(nb::handle(reinterpret_cast<PyObject*>(&PyLong_Type))),
      nb::arg("sparse") = false,
      "A grid of indices: one array of shape (len(dimensions),) + dimensions, or one per axis when sparse.");
  m.def(
      "ix_",
      [](nb::args a) {
    std::vector<array> in;
    std::vector<bool> from_mask;
    for (nb::handle h : a) {
      from_mask.push_back(is_ndarray(h) && as_py_array(h).a.type() == bool_);
      if (is_ndarray(h)) {
        in.push_back(as_py_array(h).a);
        continue;
      }
      // NumPy types empty sequences as intp rather than float.
      array x = to_device_array(h);
      in.push_back(x.size() == 0 ? x.astype(int64) : x);
    }
    std::vector<array> out = ix_(in);
    nb::list l;
    for (std::size_t i = 0; i < out.size(); ++i)
      l.append(from_mask[i] ? wrap(std::move(out[i])) : view_of(a[i], std::move(out[i])));
    return nb::tuple(l);
      },
      "Open mesh from 1-D sequences: each reshaped to broadcast along its own axis.");
  m.def(
      "ravel_multi_index",
      [](nb::handle multi_index, nb::handle dims, nb::handle mode, nb::handle ord) {
    std::vector<array> coords;
    for (nb::object& c : items_of(multi_index, "multi_index")) coords.push_back(to_array(c, "ravel_multi_index"));
    std::vector<index_mode> modes;
    // One mode name applies to every dimension; a sequence must have one per dimension (NumPy), even of length 1.
    shape_t shape = to_dims(dims);
    if (PyUnicode_Check(mode.ptr())) {
      modes.push_back(to_mode(mode));
    } else {
      for (nb::handle h : nb::iter(mode)) modes.push_back(to_mode(h));
      if (modes.size() != static_cast<std::size_t>(shape.size()) &&
          coords.size() == static_cast<std::size_t>(shape.size())) {
        throw value_error("list of clipmodes has wrong length (" + std::to_string(modes.size()) + " instead of " +
                          std::to_string(shape.size()) + ")");
      }
    }
    return wrap(ravel_multi_index(coords, shape, modes, to_order(ord, order::C)));
      },
      nb::arg("multi_index"), nb::arg("dims"), nb::arg("mode") = "raise", nb::arg("order") = "C",
      "Flat indices of coordinate arrays into an array of shape dims.");
  m.def(
      "unravel_index",
      [](nb::handle idx, nb::handle shape, nb::handle ord) {
    return args::to_py_tuple(unravel_index(to_array(idx, "unravel_index"), to_dims(shape), to_order(ord, order::C)));
      },
      nb::arg("indices"), nb::arg("shape"), nb::arg("order") = "C",
      "Coordinate arrays of flat indices into an array of the given shape.");

  m.def(
      "select",
      [](nb::handle condlist, nb::handle choicelist, nb::handle default_) {
    std::vector<array> conds;
    for (nb::object& c : items_of(condlist, "condlist")) conds.push_back(to_array(c, "select"));
    std::vector<ufunc_arg> choices;
    for (nb::object& c : items_of(choicelist, "choicelist")) choices.push_back(to_operand(c, "select"));
    return wrap(select(conds, choices, to_operand(default_, "select")));
      },
      nb::arg("condlist"), nb::arg("choicelist"), nb::arg("default") = 0,
      "Elements of the first choice whose condition holds, else default.");
  m.def("choose", &do_choose, nb::arg("a"), nb::arg("choices"), nb::arg("out").none() = nb::none(),
        nb::arg("mode") = "raise", "Elements of choices[a] (choices broadcast with a).");

  nb::handle cls = ndarray_type();
  nb::setattr(cls, "diagonal",
              nb::cpp_function(&do_diagonal, nb::is_method(), nb::name("diagonal"), nb::arg("offset") = 0,
                               nb::arg("axis1") = 0, nb::arg("axis2") = 1));
  nb::setattr(cls, "choose",
              nb::cpp_function(&do_choose, nb::is_method(), nb::name("choose"), nb::arg("choices"),
                               nb::arg("out").none() = nb::none(), nb::arg("mode") = "raise"));
}

}  // namespace cuarray::py
