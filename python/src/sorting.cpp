// Bindings of sorting, searching and set operations, and of ndarray.sort/argsort/partition/searchsorted.
#include <nanobind/stl/string.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/sorting.hpp"

namespace cuarray::py {

namespace {

using args::to_array;
using args::to_axis;

std::optional<std::string> to_opt_str(nb::handle obj, const char* what) {
  if (obj.is_none()) return std::nullopt;
  if (!PyUnicode_Check(obj.ptr())) throw type_error(std::string(what) + " must be a str or None");
  return nb::cast<std::string>(obj);
}

// searchsorted's side, checked first as NumPy's converter does (so before any device use): a str or bytes,
// 'left' or 'right'; None is a TypeError, not the default.
std::string to_side(nb::handle obj) {
  std::string s = str_or_bytes(obj, "search side");
  if (s != "left" && s != "right") throw value_error("search side must be one of 'left' or 'right' (got '" + s + "')");
  return s;
}

std::optional<std::string_view> view_of(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  return std::string_view(*s);
}

std::optional<bool> to_opt_bool(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return PyObject_IsTrue(obj.ptr()) == 1;
}

void check_order(nb::handle order) {
  if (!order.is_none()) throw value_error("Cannot specify order when the array has no fields.");
}

// kth of partition: an int or a sequence (or array) of ints.
std::vector<std::int64_t> to_kth(nb::handle obj) {
  nb::object host = is_ndarray(obj) ? obj.attr("get")() : numpy().attr("asarray")(obj);
  std::string k = nb::cast<std::string>(host.attr("dtype").attr("kind"));
  if (k == "b") throw value_error("Booleans unacceptable as partition index");
  if (k != "i" && k != "u") throw type_error("Partition index must be integer");
  if (nb::cast<int>(host.attr("ndim")) > 1) throw value_error("kth array must have dimension <= 1");
  std::vector<std::int64_t> out;
  for (nb::handle v : nb::list(host.attr("ravel")().attr("tolist")())) out.push_back(nb::cast<std::int64_t>(v));
  return out;
}

// partition's axis is checked before kth (NumPy's PyArray_Partition): an AxisError wins over a bad kth.
std::optional<int> checked_axis(std::optional<int> axis, const array& a) {
  if (axis) normalize_axis(*axis, a.ndim());
  return axis;
}

// argpartition's axis, checked before kth: NumPy takes a 0-d array as a 1-element 1-D one there (its
// PyArray_CheckAxis), so axis 0 or -1 passes and a bad kth is the error.
std::optional<int> argpartition_axis(nb::handle axis, const array& a) {
  std::optional<int> ax = args::to_opt_int_axis(axis);
  if (ax) normalize_axis(*ax, std::max(1, a.ndim()));
  return ax;
}

// searchsorted's v: a Python number takes the array's dtype where NumPy's weak-scalar rules allow it. A Python
// int beyond the range of an integer or bool `a` (NumPy compares it as an object) lies beyond every element:
// it becomes the dtype's extreme value searched from the matching side (max from the right gives len(a), min
// from the left 0).
array search_values(nb::handle v, const array& a, std::string& side) {
  PyObject* o = v.ptr();
  bool weak = !is_ndarray(v) && !PyBool_Check(o) && (PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o)) &&
              !PyObject_IsInstance(o, numpy().attr("generic").ptr());
  if (!weak) return to_array(v, "searchsorted");
  dtype at = a.type();
  dtype t;
  if (PyLong_Check(o) && (is_integer(at) || at == dtype::bool_)) {
    nb::object lo = nb::int_(0), hi = nb::int_(1);
    if (is_integer(at)) {
      nb::object info = numpy().attr("iinfo")(numpy_dtype(at));
      lo = info.attr("min");
      hi = info.attr("max");
    }
    bool above = PyObject_RichCompareBool(o, hi.ptr(), Py_GT) == 1;
    bool below = PyObject_RichCompareBool(o, lo.ptr(), Py_LT) == 1;
    if (above || below) {
      side = above ? "right" : "left";
      return full(shape_t{}, to_scalar(above ? hi : lo, at, false), at);
    }
  }
  // Beyond int64 and uint64 NumPy holds the int as an object, and an object int does not order with complex.
  if (PyLong_Check(o) && is_complex(at) && args::beyond_64_bits(o)) {
    throw type_error("'<' not supported between instances of 'complex' and 'int'");
  }
  if (PyLong_Check(o)) {
    t = is_integer(at) || is_inexact(at) ? at : dtype::int64;
    if (is_integer(at)) {
      nb::object info = numpy().attr("iinfo")(numpy_dtype(at));
      bool fits = PyObject_RichCompareBool(o, info.attr("min").ptr(), Py_GE) == 1 &&
                  PyObject_RichCompareBool(o, info.attr("max").ptr(), Py_LE) == 1;
      if (!fits) t = dtype::int64;
    }
  } else if (PyFloat_Check(o)) {
    t = is_inexact(at) ? at : dtype::float64;
  } else {
    t = is_complex(at) ? at : (at == dtype::float16 || at == dtype::float32) ? dtype::complex64 : dtype::complex128;
  }
  return full(shape_t{}, to_scalar(v, t, false), t);
}

nb::object unique_tuple(const unique_result& r, bool ri, bool rinv, bool rc) {
  if (!ri && !rinv && !rc) return wrap(r.values);
  nb::list out;
  out.append(wrap(r.values));
  if (ri) out.append(wrap(r.indices));
  if (rinv) out.append(wrap(r.inverse));
  if (rc) out.append(wrap(r.counts));
  return nb::tuple(out);
}

nb::object named_tuple(const char* name, std::vector<const char*> fields) {
  nb::list f;
  for (const char* s : fields) f.append(nb::str(s));
  nb::object cls = nb::module_::import_("collections").attr("namedtuple")(name, f);
  cls.attr("__module__") = "cuarray";
  return cls;
}

// NumPy 2.5's `descending` (its methods' optional-bool converter): None means not given, anything else is taken
// by truth value and, like `stable`, may not come together with `kind`.
bool to_descending(nb::handle kind, nb::handle descending) {
  if (descending.is_none()) return false;
  if (!kind.is_none()) {
    throw value_error("`kind` and keyword parameters can't be provided at the same time. Use only one of them.");
  }
  int truth = PyObject_IsTrue(descending.ptr());
  if (truth < 0) throw nb::python_error();
  return truth == 1;
}

nb::object do_sort(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable,
                   nb::handle descending) {
  check_order(order);
  auto k = to_opt_str(kind, "kind");
  bool desc = to_descending(kind, descending);
  return wrap(sort(to_array(a, "sort"), to_axis(axis), view_of(k), to_opt_bool(stable), desc));
}

nb::object do_argsort(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable,
                      nb::handle descending) {
  check_order(order);
  auto k = to_opt_str(kind, "kind");
  bool desc = to_descending(kind, descending);
  // argsort refuses a bool axis, which sort takes (NumPy's two converters differ).
  return wrap(argsort(to_array(a, "argsort"), args::to_opt_int_axis(axis), view_of(k), to_opt_bool(stable), desc));
}

std::string select_kind(nb::handle kind) {
  if (!PyUnicode_Check(kind.ptr())) throw type_error("kind must be a str");
  return nb::cast<std::string>(kind);
}

}  // namespace

void init_sorting(nb::module_& m) {
  nb::object none = nb::none();
  // NumPy 2.5's signature, `descending` included (also the Array API's keyword; NumPy < 2.5 has none).
  m.def("sort", &do_sort, nb::arg("a"), nb::arg("axis").none() = -1, nb::arg("kind").none() = none,
        nb::arg("order").none() = none, nb::kw_only(), nb::arg("stable").none() = none,
        nb::arg("descending").none() = none,
        "A sorted copy of an array (stable; NaNs last, also when descending; axis=None sorts the flattened "
        "array).");
  m.def("argsort", &do_argsort, nb::arg("a"), nb::arg("axis").none() = -1, nb::arg("kind").none() = none,
        nb::arg("order").none() = none, nb::kw_only(), nb::arg("stable").none() = none,
        nb::arg("descending").none() = none,
        "The int64 indices that sort an array along an axis (stable: ties keep their order, also descending).");
  m.def(
      "lexsort",
      [](nb::handle keys, nb::handle axis) {
    std::vector<array> ks;
    if (is_ndarray(keys)) {
      const array& k = as_py_array(keys).a;
      if (k.ndim() == 0) throw type_error("need sequence of keys with len > 0 in lexsort");
      nb::object obj = nb::borrow(keys);
      for (std::int64_t i = 0; i < k.shape()[0]; ++i) ks.push_back(as_py_array(obj[nb::int_(i)]).a);
    } else {
      for (nb::handle h : nb::iter(keys)) ks.push_back(to_array(h, "lexsort"));
    }
    std::optional<int> ax = to_axis(axis);
    if (!ax) throw type_error("'NoneType' object cannot be interpreted as an integer");
    return wrap(lexsort(ks, *ax));
      },
      nb::arg("keys"), nb::arg("axis") = -1, "Indices sorting by the last key, then the one before, ...");
  m.def(
      "partition",
      [](nb::handle a, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
    check_order(order);
    array x = to_array(a, "partition");
    std::optional<int> ax = checked_axis(to_axis(axis), x);
    return wrap(partition(x, to_kth(kth), ax, select_kind(kind)));
      },
      nb::arg("a"), nb::arg("kth"), nb::arg("axis").none() = -1, nb::arg("kind") = "introselect",
      nb::arg("order").none() = none, "Partitioned copy: the kth elements in sorted position (here fully sorted).");
  m.def(
      "argpartition",
      [](nb::handle a, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
    check_order(order);
    array x = to_array(a, "argpartition");
    std::optional<int> ax = argpartition_axis(axis, x);
    return wrap(argpartition(x, to_kth(kth), ax, select_kind(kind)));
      },
      nb::arg("a"), nb::arg("kth"), nb::arg("axis").none() = -1, nb::arg("kind") = "introselect",
      nb::arg("order").none() = none, "Indices that partition an array (here: that sort it, stably).");
  m.def(
      "sort_complex", [](nb::handle a) { return wrap(sort_complex(to_array(a, "sort_complex"))); }, nb::arg("a"),
      "Sort along the last axis as complex numbers (real part first, then imaginary).");
  m.def(
      "searchsorted",
      [](nb::handle a, nb::handle v, nb::handle side, nb::handle sorter) {
    std::string s = to_side(side);
    array aa = to_array(a, "searchsorted");
    array vv = search_values(v, aa, s);
    return wrap(searchsorted(aa, vv, s, sorter.is_none() ? array() : to_array(sorter, "searchsorted")));
      },
      nb::arg("a"), nb::arg("v"), nb::arg("side").none() = "left", nb::arg("sorter").none() = none,
      "Indices where v would be inserted into the sorted 1-D a to keep it sorted.");
  m.def(
      "digitize",
      [](nb::handle x, nb::handle bins, bool right) {
    return wrap(digitize(to_array(x, "digitize"), to_array(bins, "digitize"), right));
      },
      nb::arg("x"), nb::arg("bins"), nb::arg("right") = false, "Indices of the bins to which each value belongs.");

  m.def(
      "unique",
      [](nb::handle ar, bool ri, bool rinv, bool rc, nb::handle axis, bool equal_nan, bool /*sorted*/) {
    unique_result r = unique(to_array(ar, "unique"), ri, rinv, rc, to_axis(axis), equal_nan);
    return unique_tuple(r, ri, rinv, rc);
      },
      nb::arg("ar"), nb::arg("return_index") = false, nb::arg("return_inverse") = false,
      nb::arg("return_counts") = false, nb::arg("axis").none() = none, nb::kw_only(), nb::arg("equal_nan") = true,
      nb::arg("sorted") = true, "The sorted unique elements (or sub-arrays along axis) of an array.");

  static nb::object* counts_cls = new nb::object(named_tuple("UniqueCountsResult", {"values", "counts"}));
  static nb::object* inverse_cls = new nb::object(named_tuple("UniqueInverseResult", {"values", "inverse_indices"}));
  static nb::object* all_cls = new nb::object(
      named_tuple("UniqueAllResult", {"values", "indices", "inverse_indices", "counts"}));
  m.def(
      "unique_values", [](nb::handle x) { return wrap(unique_values(to_array(x, "unique_values"))); }, nb::arg("x"),
      "The unique values (NaNs not merged).");
  m.def(
      "unique_counts",
      [](nb::handle x) {
    unique_result r = unique_counts(to_array(x, "unique_counts"));
    return (*counts_cls)(wrap(r.values), wrap(r.counts));
      },
      nb::arg("x"), "UniqueCountsResult(values, counts).");
  m.def(
      "unique_inverse",
      [](nb::handle x) {
    unique_result r = unique_inverse(to_array(x, "unique_inverse"));
    return (*inverse_cls)(wrap(r.values), wrap(r.inverse));
      },
      nb::arg("x"), "UniqueInverseResult(values, inverse_indices).");
  m.def(
      "unique_all",
      [](nb::handle x) {
    unique_result r = unique_all(to_array(x, "unique_all"));
    return (*all_cls)(wrap(r.values), wrap(r.indices), wrap(r.inverse), wrap(r.counts));
      },
      nb::arg("x"), "UniqueAllResult(values, indices, inverse_indices, counts).");

  m.def(
      "isin",
      [](nb::handle element, nb::handle test, bool assume_unique, bool invert, nb::handle kind) {
    auto k = to_opt_str(kind, "kind");
    return wrap(isin(to_array(element, "isin"), to_array(test, "isin"), assume_unique, invert, view_of(k)));
      },
      nb::arg("element"), nb::arg("test_elements"), nb::arg("assume_unique") = false, nb::arg("invert") = false,
      nb::kw_only(), nb::arg("kind").none() = none, "Elementwise: whether element is in test_elements.");
  m.def(
      "in1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique, bool invert, nb::handle kind) {
    auto k = to_opt_str(kind, "kind");
    return wrap(in1d(to_array(ar1, "in1d"), to_array(ar2, "in1d"), assume_unique, invert, view_of(k)));
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false, nb::arg("invert") = false, nb::kw_only(),
      nb::arg("kind").none() = none, "Whether each element of the flattened ar1 is in ar2 (1-D).");
  m.def(
      "intersect1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique, bool return_indices) -> nb::object {
        intersect_result r = intersect1d(to_array(ar1, "intersect1d"), to_array(ar2, "intersect1d"), assume_unique,
                                         return_indices);
        if (!return_indices) return wrap(r.values);
        return nb::make_tuple(wrap(r.values), wrap(r.indices1), wrap(r.indices2));
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false, nb::arg("return_indices") = false,
      "The sorted values common to both arrays.");
  m.def(
      "union1d",
      [](nb::handle ar1, nb::handle ar2) { return wrap(union1d(to_array(ar1, "union1d"), to_array(ar2, "union1d"))); },
      nb::arg("ar1"), nb::arg("ar2"), "The sorted unique values in either array.");
  m.def(
      "setdiff1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
    return wrap(setdiff1d(to_array(ar1, "setdiff1d"), to_array(ar2, "setdiff1d"), assume_unique));
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false, "The unique values of ar1 not in ar2.");
  m.def(
      "setxor1d",
      [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
    return wrap(setxor1d(to_array(ar1, "setxor1d"), to_array(ar2, "setxor1d"), assume_unique));
      },
      nb::arg("ar1"), nb::arg("ar2"), nb::arg("assume_unique") = false,
      "The sorted unique values in exactly one of the arrays.");

  // ndarray members.
  nb::handle cls = ndarray_type();
  nb::setattr(cls, "sort",
              nb::cpp_function(
                  [](nb::handle self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable,
                     nb::handle descending) {
    check_order(order);
    auto k = to_opt_str(kind, "kind");
    bool desc = to_descending(kind, descending);
    std::optional<int> ax = to_axis(axis);
    if (!ax) throw type_error("'NoneType' object cannot be interpreted as an integer");
    sort_inplace(as_py_array(self).a, *ax, view_of(k), to_opt_bool(stable), desc);
                  },
                  nb::is_method(), nb::name("sort"), nb::arg("axis") = -1, nb::arg("kind").none() = none,
                  nb::arg("order").none() = none, nb::kw_only(), nb::arg("stable").none() = none,
                  nb::arg("descending").none() = none));
  nb::setattr(
      cls, "argsort",
      nb::cpp_function([](nb::handle self, nb::handle axis, nb::handle kind, nb::handle order, nb::handle stable,
                          nb::handle descending) { return do_argsort(self, axis, kind, order, stable, descending); },
                       nb::is_method(), nb::name("argsort"), nb::arg("axis").none() = -1, nb::arg("kind").none() = none,
                       nb::arg("order").none() = none, nb::kw_only(), nb::arg("stable").none() = none,
                       nb::arg("descending").none() = none));
  nb::setattr(cls, "partition",
              nb::cpp_function(
                  [](nb::handle self, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
    check_order(order);
    const array& a = as_py_array(self).a;
    std::optional<int> ax = to_axis(axis);
    if (!ax) throw type_error("'NoneType' object cannot be interpreted as an integer");
    checked_axis(ax, a);
    std::vector<std::int64_t> k = to_kth(kth);
    std::string sk = select_kind(kind);
    partition_inplace(a, k, *ax, sk);
                  },
                  nb::is_method(), nb::name("partition"), nb::arg("kth"), nb::arg("axis") = -1,
                  nb::arg("kind") = "introselect", nb::arg("order").none() = none));
  nb::setattr(cls, "argpartition",
              nb::cpp_function(
                  [](nb::handle self, nb::handle kth, nb::handle axis, nb::handle kind, nb::handle order) {
    check_order(order);
    const array& a = as_py_array(self).a;
    std::optional<int> ax = argpartition_axis(axis, a);
    return wrap(argpartition(a, to_kth(kth), ax, select_kind(kind)));
                  },
                  nb::is_method(), nb::name("argpartition"), nb::arg("kth"), nb::arg("axis").none() = -1,
                  nb::arg("kind") = "introselect", nb::arg("order").none() = none));
  nb::setattr(cls, "searchsorted",
              nb::cpp_function(
                  [](nb::handle self, nb::handle v, nb::handle side, nb::handle sorter) {
    const array& a = as_py_array(self).a;
    std::string s = to_side(side);
    array vv = search_values(v, a, s);
    return wrap(searchsorted(a, vv, s, sorter.is_none() ? array() : to_array(sorter, "searchsorted")));
                  },
                  nb::is_method(), nb::name("searchsorted"), nb::arg("v"), nb::arg("side").none() = "left",
                  nb::arg("sorter").none() = none));
}

}  // namespace cuarray::py
