// Bindings of array manipulation (cuarray/manipulation.hpp) and the ndarray methods that reshape and rearrange.
#include <nanobind/stl/string.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/manipulation.hpp"

namespace cuarray::py {

namespace {

// A Python argument as an array: cuarray arrays as they are, anything else through cuarray.asarray.
array arg_array(nb::handle obj) {
  if (is_ndarray(obj)) return as_py_array(obj).a;
  // Never destroyed: a static nb::object would be released after the interpreter has finalised.
  static nb::object* asarray = new nb::object(nb::module_::import_("cuarray").attr("asarray"));
  return as_py_array((*asarray)(obj)).a;
}

// A result: a view of `src` (with NumPy's collapsed base) when it shares src's storage, else a new array.
nb::object ret(nb::handle src, array r) {
  if (is_ndarray(src)) {
    const py_array& s = as_py_array(src);
    if (r.storage() && r.storage() == s.a.storage()) {
      return wrap(std::move(r), s.base.is_none() ? nb::borrow(src) : s.base);
    }
  }
  return wrap(std::move(r));
}

std::int64_t to_int(nb::handle h) {
  PyObject* idx = PyNumber_Index(h.ptr());
  if (!idx) throw nb::python_error();
  long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

bool is_int_like(nb::handle h) {
  if (PyBool_Check(h.ptr())) return false;
  if (PyLong_Check(h.ptr())) return true;
  if (is_ndarray(h)) return false;
  return PyObject_HasAttrString(h.ptr(), "__index__") && !PySequence_Check(h.ptr());
}

// A sequence of ints (a cuarray array is read back to the host).
std::vector<std::int64_t> to_int_list(nb::handle h) {
  nb::object seq = is_ndarray(h) ? h.attr("tolist")() : nb::borrow(h);
  std::vector<std::int64_t> out;
  for (nb::handle x : seq) out.push_back(to_int(x));
  return out;
}

// None, an int or a sequence of ints.
std::optional<std::vector<int>> to_axes(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  std::vector<int> out;
  if (is_int_like(h)) {
    out.push_back(to_c_int_axis(h));
    return out;
  }
  for (nb::handle x : h) out.push_back(to_c_int_axis(x));
  return out;
}

// squeeze's axis as NumPy's C squeeze takes it: None, an integer or a tuple of integers (a list or a bool is a
// TypeError, Note [reduction axes] in args.hpp); a 0-d array takes axis 0 or -1 (it squeezes nothing).
std::optional<std::vector<int>> to_squeeze_axes(nb::handle h, const array& a) {
  return args::to_reduce_axes(h, a.ndim(), true);
}

// repeat's axis: None or an integer other than a bool; a 0-d array is taken as 1-D for it (axis 0 or -1).
array repeat_operand(const array& a, nb::handle axis_obj, std::optional<int>& axis) {
  axis = args::to_opt_int_axis(axis_obj);
  if (!axis || a.ndim() != 0) return a;
  normalize_axis(*axis, 1);
  axis = 0;
  return a.reshape(shape_t{1});
}

std::vector<int> to_axis_list(nb::handle h) {
  auto a = to_axes(h);
  return a ? *a : std::vector<int>{};
}

std::vector<array> arg_arrays(nb::handle seq) {
  std::vector<array> out;
  for (nb::handle x : seq) out.push_back(arg_array(x));
  return out;
}

std::optional<int> to_opt_axis(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return to_c_int_axis(h);
}

join_options to_join_options(nb::handle out, nb::handle dt, nb::handle cast) {
  join_options o;
  if (!out.is_none()) {
    if (!is_ndarray(out)) throw type_error("out must be a cuarray.ndarray");
    o.out = as_py_array(out).a;
  }
  if (!dt.is_none()) o.dtype_ = to_dtype(dt);
  if (!PyUnicode_Check(cast.ptr())) throw type_error("casting must be a string");
  o.rule = parse_casting(nb::cast<std::string>(cast));
  return o;
}

nb::object join_result(array r, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

nb::list wrap_list(nb::handle src, std::vector<array> parts) {
  nb::list l;
  for (auto& p : parts) l.append(ret(src, std::move(p)));
  return l;
}

// One array -> one result, several -> a tuple (NumPy 2's atleast_nd).
template <class F> nb::object atleast(nb::args args, F f) {
  if (args.size() == 1) return ret(args[0], f(arg_array(args[0])));
  nb::list l;
  for (nb::handle h : args) l.append(ret(h, f(arg_array(h))));
  return nb::tuple(l);
}

shape_t shape_from_args(nb::args args) {
  if (args.size() == 1 && !is_int_like(args[0])) {
    shape_t s;
    for (nb::handle x : args[0]) s.push_back(to_int(x));
    return s;
  }
  shape_t s;
  for (nb::handle x : args) s.push_back(to_int(x));
  return s;
}

shape_t shape_from(nb::handle h) {
  shape_t s;
  if (is_int_like(h)) {
    s.push_back(to_int(h));
    return s;
  }
  for (nb::handle x : h) s.push_back(to_int(x));
  return s;
}

block_item to_block(nb::handle h, const std::string& where) {
  if (PyTuple_Check(h.ptr())) {
    throw type_error(where + " is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                             "implicit conversion from tuple to ndarray.");
  }
  if (PyList_Check(h.ptr())) {
    std::vector<block_item> items;
    Py_ssize_t n = PyList_GET_SIZE(h.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      items.push_back(to_block(PyList_GET_ITEM(h.ptr(), i), where + "[" + std::to_string(i) + "]"));
    }
    return block_item::list(std::move(items));
  }
  return block_item(arg_array(h));
}

// The `obj` of insert / delete.
index_obj to_index_obj(nb::handle obj, bool for_insert) {
  index_obj o;
  if (PySlice_Check(obj.ptr())) {
    o.kind = index_obj::slice;
    auto part = [&](const char* n) -> std::optional<std::int64_t> {
      nb::object v = obj.attr(n);
      if (v.is_none()) return std::nullopt;
      return to_int(v);
    };
    o.start = part("start");
    o.stop = part("stop");
    o.step = part("step");
    return o;
  }
  if (is_int_like(obj)) {
    o.kind = index_obj::integer;
    o.index = to_int(obj);
    return o;
  }
  bool given_array = is_ndarray(obj) || nb::hasattr(obj, "__array_interface__");
  nb::object host = is_ndarray(obj) ? obj.attr("get")() : numpy().attr("asarray")(obj);
  std::string kind = nb::cast<std::string>(host.attr("dtype").attr("kind"));
  int ndim = nb::cast<int>(host.attr("ndim"));
  std::int64_t size = nb::cast<std::int64_t>(host.attr("size"));
  if (kind == "b") {
    if (for_insert && ndim != 1) throw value_error("boolean array argument obj to insert must be one dimensional");
    if (!for_insert && ndim != 1) {
      throw value_error("boolean array argument obj to delete must be one dimensional and match the axis length");
    }
    o.kind = index_obj::mask;
    for (nb::handle x : host.attr("tolist")()) o.indices.push_back(PyObject_IsTrue(x.ptr()) ? 1 : 0);
    return o;
  }
  if (size == 0 && !given_array) {
    o.kind = index_obj::list;
    return o;
  }
  if (kind != "i" && kind != "u") throw index_error("arrays used as indices must be of integer (or boolean) type");
  if (for_insert && ndim > 1) {
    throw value_error("index array argument obj to insert must be one dimensional or scalar");
  }
  if (!for_insert && size == 1) {
    o.kind = index_obj::integer;
    o.index = nb::cast<std::int64_t>(host.attr("item")());
    return o;
  }
  o.kind = index_obj::list;
  o.list_is_scalar_shaped = ndim == 0;
  for (nb::handle x : host.attr("ravel")().attr("tolist")()) o.indices.push_back(to_int(x));
  return o;
}

// numpy.lib._arraypad_impl._as_pairs: a scalar, a pair, or per-axis pairs, as a list of ndim (before, after).
nb::list as_pairs(nb::handle x_in, int ndim, bool as_index) {
  nb::list out;
  if (x_in.is_none()) {
    for (int i = 0; i < ndim; ++i) out.append(nb::make_tuple(nb::none(), nb::none()));
    return out;
  }
  nb::object x = numpy().attr("array")(x_in);
  if (as_index) x = numpy().attr("round")(x).attr("astype")(numpy().attr("intp"), nb::arg("copy") = false);
  nb::int_ zero(0);
  auto negative = [&](nb::handle v) {
    if (!as_index) return false;
    int r = PyObject_RichCompareBool(v.ptr(), zero.ptr(), Py_LT);
    if (r < 0) throw nb::python_error();
    return r == 1;
  };
  int xnd = nb::cast<int>(x.attr("ndim"));
  std::int64_t size = nb::cast<std::int64_t>(x.attr("size"));
  if (xnd < 3) {
    if (size == 1) {
      nb::object v = x.attr("ravel")()[0];
      if (negative(v)) throw value_error("index can't contain negative values");
      for (int i = 0; i < ndim; ++i) out.append(nb::make_tuple(v, v));
      return out;
    }
    if (size == 2 && !x.attr("shape").equal(nb::make_tuple(2, 1))) {
      nb::object r = x.attr("ravel")();
      nb::object a = r[0], b = r[1];
      if (negative(a) || negative(b)) throw value_error("index can't contain negative values");
      for (int i = 0; i < ndim; ++i) out.append(nb::make_tuple(a, b));
      return out;
    }
  }
  if (as_index && negative(x.attr("min")())) throw value_error("index can't contain negative values");
  nb::object l = numpy().attr("broadcast_to")(x, nb::make_tuple(ndim, 2)).attr("tolist")();
  for (nb::handle p : l) out.append(p);
  return out;
}

nb::object do_pad(nb::handle arr_obj, nb::handle pad_width_in, nb::handle mode_obj, nb::kwargs kwargs) {
  // NumPy refuses a pad_width that is not of a signed integer kind first, then an unknown mode, before
  // looking at the data.
  if (!PyDict_Check(pad_width_in.ptr()) && !is_ndarray(pad_width_in)) {
    nb::object pw = numpy().attr("asarray")(pad_width_in);
    if (nb::cast<std::string>(pw.attr("dtype").attr("kind")) != "i") {
      throw type_error("`pad_width` must be of integral type.");
    }
  }
  if (!PyCallable_Check(mode_obj.ptr())) parse_pad_mode(nb::cast<std::string>(mode_obj));
  array a = arg_array(arr_obj);
  int nd = a.ndim();
  nb::object pad_width = nb::borrow(pad_width_in);
  if (PyDict_Check(pad_width.ptr())) {
    nb::list seq;
    for (int i = 0; i < nd; ++i) seq.append(nb::make_tuple(0, 0));
    for (auto [k, v] : nb::borrow<nb::dict>(pad_width)) {
      int ax = to_c_int_axis(k);
      if (ax < 0) ax += nd;
      seq[ax] = is_int_like(v) ? nb::object(nb::make_tuple(v, v)) : nb::borrow(v);
    }
    pad_width = seq;
  }
  if (PyCallable_Check(mode_obj.ptr())) {
    // The callable mode calls Python on every 1-D slice: NumPy's own implementation on a host copy.
    nb::object src = wrap(a);
    nb::object result = numpy().attr("pad")(src.attr("get")(), pad_width, mode_obj, **kwargs);
    return nb::module_::import_("cuarray").attr("asarray")(result);
  }
  std::string mode_name = nb::cast<std::string>(mode_obj);
  pad_mode mode = parse_pad_mode(mode_name);
  static const std::pair<const char*, const char*> allowed[] = {
      {"constant", "constant_values"}, {"linear_ramp", "end_values"}, {"maximum", "stat_length"},
      {"mean", "stat_length"},         {"median", "stat_length"},     {"minimum", "stat_length"},
      {"reflect", "reflect_type"},     {"symmetric", "reflect_type"}};
  nb::list bad;
  for (auto [k, v] : kwargs) {
    std::string key = nb::cast<std::string>(k);
    bool ok = false;
    for (auto [m, kw] : allowed) ok = ok || (mode_name == m && key == kw);
    if (!ok) bad.append(k);
  }
  if (bad.size() > 0) {
    throw value_error("unsupported keyword arguments for mode '" + mode_name +
                      "': " + nb::cast<std::string>(nb::repr(nb::module_::import_("builtins").attr("set")(bad))));
  }
  nb::object pw = numpy().attr("asarray")(pad_width);
  if (nb::cast<std::string>(pw.attr("dtype").attr("kind")) != "i")
    throw type_error("`pad_width` must be of integral type.");
  std::vector<std::pair<std::int64_t, std::int64_t>> widths;
  for (nb::handle p : as_pairs(pw, nd, true)) widths.emplace_back(to_int(p[0]), to_int(p[1]));
  pad_options opt;
  auto get = [&](const char* key) -> nb::object {
    return kwargs.contains(key) ? nb::object(kwargs[key]) : nb::object();
  };
  if (nb::object cv = get("constant_values"); cv.is_valid()) {
    for (nb::handle p : as_pairs(cv, nd, false)) {
      opt.constant_values.emplace_back(to_scalar(p[0], a.type(), true), to_scalar(p[1], a.type(), true));
    }
  }
  if (nb::object ev = get("end_values"); ev.is_valid()) {
    for (nb::handle p : as_pairs(ev, nd, false)) {
      nb::handle l = p[0], r = p[1];
      opt.end_values.emplace_back(to_scalar(l, scalar_dtype(l), false), to_scalar(r, scalar_dtype(r), false));
    }
  }
  if (nb::object sl = get("stat_length"); sl.is_valid() && !sl.is_none()) {
    for (nb::handle p : as_pairs(sl, nd, true)) opt.stat_length.emplace_back(to_int(p[0]), to_int(p[1]));
  }
  if (nb::object rt = get("reflect_type"); rt.is_valid()) opt.reflect_odd = nb::cast<std::string>(rt) == "odd";
  return wrap(pad(a, widths, mode, opt));
}

// ndarray.shape = ...: only when a view of the new shape exists.
void set_shape(nb::handle self, nb::handle value) {
  py_array& s = as_py_array(self);
  shape_t shape = is_int_like(value) ? shape_t{to_int(value)} : shape_from(value);
  std::optional<array> v = reshape_view_if_possible(s.a, shape, order::C);
  if (!v) {
    throw nb::attribute_error(
        "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape.");
  }
  s.a = std::move(*v);
}

// ndarray.resize: in place, for arrays that own their data (NumPy's rule; the reference check is not done).
void resize_method(nb::handle self, nb::args args, nb::kwargs kwargs) {
  for (auto [k, v] : kwargs) {
    if (nb::cast<std::string>(k) != "refcheck")
      throw type_error("'" + nb::cast<std::string>(k) + "' is an invalid keyword argument");
  }
  py_array& s = as_py_array(self);
  shape_t shape = args.size() == 0 ? shape_t{} : shape_from_args(args);
  if (!s.base.is_none()) throw value_error("cannot resize this array: it does not own its data");
  if (!s.a.is_c_contiguous() && !s.a.is_f_contiguous()) throw value_error("resize only works on single-segment arrays");
  for (auto d : shape) {
    if (d < 0) throw value_error("negative dimensions not allowed");
  }
  array fresh = zeros(shape, s.a.type());
  std::int64_t n = std::min(fresh.size(), s.a.size());
  if (n > 0) {
    array src = ravel(s.a, order::C);
    array dst = reshape(fresh, shape_t{-1});
    array d = array(dst.storage(), descriptor{dst.type(), shape_t{n}, dst.strides(), dst.offset()});
    d.assign(array(src.storage(), descriptor{src.type(), shape_t{n}, src.strides(), src.offset()}));
  }
  s.a = std::move(fresh);
}

}  // namespace

void init_manipulation(nb::module_& m) {
  // ---- shape ----
  m.def(
      "reshape",
      [](nb::handle a, nb::handle shape, nb::handle ord, nb::handle newshape, nb::handle copy) {
    if (!shape.is_none() && !newshape.is_none()) {
      throw type_error("You cannot specify 'newshape' and 'shape' arguments at the same time.");
    }
    nb::handle s = shape.is_none() ? newshape : shape;
    if (s.is_none()) throw type_error("reshape() missing 1 required positional argument: 'shape'");
    std::optional<bool> c;
    if (!copy.is_none()) c = nb::cast<bool>(copy);
    return ret(a, reshape(arg_array(a), shape_from(s), to_order(ord, order::C), c));
      },
      nb::arg("a"), nb::arg("shape").none() = nb::none(), nb::arg("order") = "C", nb::kw_only(),
      nb::arg("newshape").none() = nb::none(), nb::arg("copy").none() = nb::none(),
      "A new shape for the data: a view whenever the strides allow it, else a copy.");
  m.def(
      "ravel", [](nb::handle a, nb::handle ord) { return ret(a, ravel(arg_array(a), to_order(ord, order::C))); },
      nb::arg("a"), nb::arg("order") = "C", "The elements as a 1-D array (a view when possible).");
  m.def(
      "squeeze",
      [](nb::handle a, nb::handle axis) {
    array x = arg_array(a);
    return ret(a, squeeze(x, to_squeeze_axes(axis, x)));
      },
      nb::arg("a"), nb::arg("axis").none() = nb::none(), "Remove axes of length one.");
  m.def(
      "expand_dims",
      [](nb::handle a, nb::handle axis) { return ret(a, expand_dims(arg_array(a), to_axis_list(axis))); }, nb::arg("a"),
      nb::arg("axis"), "Insert axes of length one.");
  m.def(
      "atleast_1d", [](nb::args args) { return atleast(args, [](const array& x) { return atleast_1d(x); }); },
      nb::sig("def atleast_1d(*arys)"));
  m.def(
      "atleast_2d", [](nb::args args) { return atleast(args, [](const array& x) { return atleast_2d(x); }); },
      nb::sig("def atleast_2d(*arys)"));
  m.def(
      "atleast_3d", [](nb::args args) { return atleast(args, [](const array& x) { return atleast_3d(x); }); },
      nb::sig("def atleast_3d(*arys)"));
  m.def(
      "broadcast_to",
      [](nb::handle a, nb::handle shape, bool) { return ret(a, broadcast_to(arg_array(a), shape_from(shape))); },
      nb::arg("array"), nb::arg("shape"), nb::arg("subok") = false, "A broadcast view of the array.");
  m.def(
      "broadcast_arrays",
      [](nb::args args, bool) {
    std::vector<array> in = arg_arrays(args);
    std::vector<array> r = broadcast_arrays(in);
    nb::list l;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (is_ndarray(args[i]) && r[i].desc().shape == in[i].shape() && r[i].strides() == in[i].strides()) {
        l.append(args[i]);
      } else {
        l.append(ret(args[i], std::move(r[i])));
      }
    }
    return nb::tuple(l);
      },
      nb::arg("args"), nb::arg("subok") = false, "Views of the arrays broadcast to one shape.");
  m.def(
      "broadcast_shapes",
      [](nb::args args) {
    std::vector<shape_t> shapes;
    // NumPy's broadcast_shapes takes each shape as numpy.empty does (to_shape's rules: no negative sizes, no
    // bools, "Maximum allowed dimension exceeded"), and the result's size must fit intp.
    for (nb::handle h : args) shapes.push_back(to_shape(h));
    shape_t r = broadcast_shapes(shapes);
    std::int64_t size = 1;
    for (auto d : r) {
      if (__builtin_mul_overflow(size, d, &size)) throw value_error("broadcast dimensions too large.");
    }
    return to_tuple(r);
      },
      "The shape that the given shapes broadcast to.");
  m.def(
      "resize",
      [](nb::handle a, nb::handle new_shape) {
    shape_t s;
    if (is_int_like(new_shape)) s.push_back(to_int(new_shape));
    else
      for (nb::handle x : new_shape) s.push_back(to_int(x));
    return wrap(resize(arg_array(a), s));
      },
      nb::arg("a"), nb::arg("new_shape"), "A new array of the given shape, repeating the data as needed.");

  // ---- axes ----
  m.def(
      "transpose", [](nb::handle a, nb::handle axes) { return ret(a, transpose(arg_array(a), to_axes(axes))); },
      nb::arg("a"), nb::arg("axes").none() = nb::none(), "Permute the axes (reverse them by default).");
  m.def(
      "permute_dims", [](nb::handle a, nb::handle axes) { return ret(a, permute_dims(arg_array(a), to_axes(axes))); },
      nb::arg("a"), nb::arg("axes").none() = nb::none(), "Permute the axes (the array API's transpose).");
  m.def(
      "swapaxes",
      [](nb::handle a, nb::handle x, nb::handle y) {
    // Note [argument order]: the arguments of one C++ call are evaluated in no set order (GCC goes right to
    // left), so conversions that can fail are made one statement each, in NumPy's order: with axis1=2**32
    // and axis2='x', NumPy's OverflowError for axis1 comes first.
    array arr = arg_array(a);
    int ax1 = to_c_int_axis(x);
    int ax2 = to_c_int_axis(y);
    return ret(a, swapaxes(arr, ax1, ax2));
      },
      nb::arg("a"), nb::arg("axis1"), nb::arg("axis2"), "Interchange two axes.");
  m.def(
      "moveaxis",
      [](nb::handle a, nb::handle s, nb::handle d) {
    return ret(a, moveaxis(arg_array(a), to_axis_list(s), to_axis_list(d)));
      },
      nb::arg("a"), nb::arg("source"), nb::arg("destination"), "Move axes to new positions.");
  m.def(
      "rollaxis",
      [](nb::handle a, nb::handle axis, nb::handle start) {
    array arr = arg_array(a);  // Note [argument order]: NumPy normalises axis before it looks at start
    int ax = to_c_int_axis(axis);
    normalize_axis(ax, arr.ndim());
    int st = to_c_int_axis(start);
    return ret(a, rollaxis(arr, ax, st));
      },
      nb::arg("a"), nb::arg("axis"), nb::arg("start") = 0, "Roll an axis backwards to the given position.");
  m.def(
      "matrix_transpose", [](nb::handle x) { return ret(x, matrix_transpose(arg_array(x))); }, nb::arg("x"),
      "Swap the last two axes.");

  // ---- joining ----
  m.def(
      "concatenate",
      [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dt, nb::handle cast) {
    join_options o = to_join_options(out, dt, cast);
    // A bool axis is a TypeError here (NumPy's C concatenate), unlike insert's and delete's.
    return join_result(concatenate(arg_arrays(arrays), args::to_opt_int_axis(axis), o), out);
      },
      nb::arg("arrays"), nb::arg("axis").none() = 0, nb::arg("out").none() = nb::none(), nb::kw_only(),
      nb::arg("dtype").none() = nb::none(), nb::arg("casting") = "same_kind", "Join arrays along an existing axis.");
  m.def(
      "stack",
      [](nb::handle arrays, nb::handle axis, nb::handle out, nb::handle dt, nb::handle cast) {
    join_options o = to_join_options(out, dt, cast);
    return join_result(stack(arg_arrays(arrays), to_c_int_axis(axis), o), out);
      },
      nb::arg("arrays"), nb::arg("axis") = 0, nb::arg("out").none() = nb::none(), nb::kw_only(),
      nb::arg("dtype").none() = nb::none(), nb::arg("casting") = "same_kind", "Join arrays along a new axis.");
  m.def(
      "vstack",
      [](nb::handle tup, nb::handle dt, nb::handle cast) {
    return wrap(vstack(arg_arrays(tup), to_join_options(nb::none(), dt, cast)));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype").none() = nb::none(), nb::arg("casting") = "same_kind",
      "Stack arrays vertically (rows).");
  m.def(
      "row_stack",
      [](nb::handle tup, nb::handle dt, nb::handle cast) {
    return wrap(row_stack(arg_arrays(tup), to_join_options(nb::none(), dt, cast)));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype").none() = nb::none(), nb::arg("casting") = "same_kind",
      "Same as vstack.");
  m.def(
      "hstack",
      [](nb::handle tup, nb::handle dt, nb::handle cast) {
    return wrap(hstack(arg_arrays(tup), to_join_options(nb::none(), dt, cast)));
      },
      nb::arg("tup"), nb::kw_only(), nb::arg("dtype").none() = nb::none(), nb::arg("casting") = "same_kind",
      "Stack arrays horizontally (columns).");
  m.def(
      "dstack", [](nb::handle tup) { return wrap(dstack(arg_arrays(tup))); }, nb::arg("tup"),
      "Stack arrays along the third axis.");
  m.def(
      "column_stack", [](nb::handle tup) { return wrap(column_stack(arg_arrays(tup))); }, nb::arg("tup"),
      "Stack 1-D arrays as columns of a 2-D array.");
  m.def(
      "block", [](nb::handle arrays) { return wrap(block(to_block(arrays, "arrays"))); }, nb::arg("arrays"),
      "Assemble an array from nested lists of blocks.");
  m.def(
      "append",
      [](nb::handle arr, nb::handle values, nb::handle axis) {
    return wrap(append(arg_array(arr), arg_array(values), args::to_opt_int_axis(axis)));
      },
      nb::arg("arr"), nb::arg("values"), nb::arg("axis").none() = nb::none(), "Append values to the end of an array.");

  // ---- splitting ----
  auto def_split = [&](const char* name, auto by_sections, auto by_indices, bool has_axis, bool zero_check) {
    if (has_axis) {
      m.def(
          name,
          [=](nb::handle a, nb::handle ios, nb::handle axis) {
        int ax = to_c_int_axis(axis);
        if (is_int_like(ios) || PyFloat_Check(ios.ptr())) {
          // NumPy reads ary.shape[axis] first (an out-of-range axis is its IndexError, AxisError here), then
          // split checks N % sections: a float count splits when it divides N, into int(count) parts.
          array x = arg_array(a);
          int k = normalize_axis(ax, x.ndim());
          std::int64_t n;
          if (PyFloat_Check(ios.ptr())) {
            double f = PyFloat_AS_DOUBLE(ios.ptr());
            if (zero_check && f == 0) {
              PyErr_SetString(PyExc_ZeroDivisionError, "float modulo by zero");
              throw nb::python_error();
            }
            if (zero_check && std::fmod(static_cast<double>(x.shape()[k]), f) != 0) {
              throw value_error("array split does not result in an equal division");
            }
            nb::object as_int = nb::steal(PyNumber_Long(ios.ptr()));
            if (!as_int.is_valid()) throw nb::python_error();
            n = to_int(as_int);
            // NumPy's split hands a count that passed its N % sections check to array_split: 5 elements in 2.5
            // sections are int(2.5) = 2 parts of 3 and 2.
            if (zero_check && n != 0) return wrap_list(a, array_split(x, n, ax));
          } else {
            n = to_int(ios);
          }
          if (zero_check && n == 0) {
            PyErr_SetString(PyExc_ZeroDivisionError, "integer modulo by zero");
            throw nb::python_error();
          }
          return wrap_list(a, by_sections(x, n, ax));
        }
        return wrap_list(a, by_indices(arg_array(a), to_int_list(ios), ax));
          },
          nb::arg("ary"), nb::arg("indices_or_sections"), nb::arg("axis") = 0);
    }
  };
  def_split(
      "split", [](const array& a, std::int64_t n, int ax) { return split(a, n, ax); },
      [](const array& a, const std::vector<std::int64_t>& i, int ax) { return split(a, i, ax); }, true, true);
  def_split(
      "array_split", [](const array& a, std::int64_t n, int ax) { return array_split(a, n, ax); },
      [](const array& a, const std::vector<std::int64_t>& i, int ax) { return array_split(a, i, ax); }, true, false);
  auto def_xsplit = [&](const char* name, auto by_sections, auto by_indices) {
    m.def(
        name,
        [=](nb::handle a, nb::handle ios) {
      if (is_int_like(ios)) return wrap_list(a, by_sections(arg_array(a), to_int(ios)));
      return wrap_list(a, by_indices(arg_array(a), to_int_list(ios)));
        },
        nb::arg("ary"), nb::arg("indices_or_sections"));
  };
  def_xsplit(
      "hsplit", [](const array& a, std::int64_t n) { return hsplit(a, n); },
      [](const array& a, const std::vector<std::int64_t>& i) { return hsplit(a, i); });
  def_xsplit(
      "vsplit", [](const array& a, std::int64_t n) { return vsplit(a, n); },
      [](const array& a, const std::vector<std::int64_t>& i) { return vsplit(a, i); });
  def_xsplit(
      "dsplit", [](const array& a, std::int64_t n) { return dsplit(a, n); },
      [](const array& a, const std::vector<std::int64_t>& i) { return dsplit(a, i); });
  m.def(
      "unstack",
      [](nb::handle x, nb::handle axis) { return nb::tuple(wrap_list(x, unstack(arg_array(x), to_c_int_axis(axis)))); },
      nb::arg("x"), nb::kw_only(), nb::arg("axis") = 0, "Split into views along an axis.");

  // ---- rearranging ----
  m.def(
      "flip",
      [](nb::handle a, nb::handle axis) {
    // NumPy's normalize_axis_tuple takes a Python bool through operator.index: axis=True is axis 1.
    if (PyBool_Check(axis.ptr())) return ret(a, flip(arg_array(a), std::vector<int>{axis.ptr() == Py_True ? 1 : 0}));
    return ret(a, flip(arg_array(a), to_axes(axis)));
      },
      nb::arg("m"), nb::arg("axis").none() = nb::none(), "Reverse the order of elements along axes (a view).");
  m.def(
      "fliplr", [](nb::handle a) { return ret(a, fliplr(arg_array(a))); }, nb::arg("m"));
  m.def(
      "flipud", [](nb::handle a) { return ret(a, flipud(arg_array(a))); }, nb::arg("m"));
  m.def(
      "rot90",
      [](nb::handle a, nb::handle k, nb::handle axes) {
    std::vector<int> ax = to_axis_list(axes);
    if (ax.size() != 2) throw value_error("len(axes) must be 2.");
    return ret(a, rot90(arg_array(a), to_int(k), {ax[0], ax[1]}));
      },
      nb::arg("m"), nb::arg("k") = 1, nb::arg("axes") = nb::make_tuple(0, 1), "Rotate by 90 degrees in a plane.");
  m.def(
      "roll",
      [](nb::handle a, nb::handle shift, nb::handle axis) {
    std::vector<std::int64_t> s;
    if (is_int_like(shift)) {
      s.push_back(to_int(shift));
    } else {
      nb::object arr = numpy().attr("asarray")(is_ndarray(shift) ? shift.attr("get")() : nb::borrow(shift));
      if (nb::cast<int>(arr.attr("ndim")) > 1)
        throw value_error("'shift' and 'axis' should be scalars or 1D sequences");
      s = to_int_list(arr.attr("ravel")());
    }
    return wrap(roll(arg_array(a), s, to_axes(axis)));
      },
      nb::arg("a"), nb::arg("shift"), nb::arg("axis").none() = nb::none(), "Roll elements along axes.");
  m.def(
      "tile",
      [](nb::handle a, nb::handle reps) {
    std::vector<std::int64_t> r = is_int_like(reps) ? std::vector<std::int64_t>{to_int(reps)} : to_int_list(reps);
    return wrap(tile(arg_array(a), r));
      },
      nb::arg("A"), nb::arg("reps"), "Repeat the whole array along each axis.");
  auto do_repeat = [](nb::handle a, nb::handle repeats, nb::handle axis) {
    std::optional<int> ax;
    array x = repeat_operand(arg_array(a), axis, ax);
    if (is_int_like(repeats)) return wrap(repeat(x, to_int(repeats), ax));
    nb::object host = numpy().attr("asarray")(is_ndarray(repeats) ? repeats.attr("get")() : nb::borrow(repeats));
    // NumPy casts repeats to intp unsafely: floats truncate (1.5 repeats once), bools count, strings parse.
    std::string kind = nb::cast<std::string>(host.attr("dtype").attr("kind"));
    if (kind == "f" || kind == "b" || kind == "U" || kind == "S") host = host.attr("astype")("int64");
    if (nb::cast<int>(host.attr("ndim")) == 0) return wrap(repeat(x, to_int(host.attr("item")()), ax));
    if (nb::cast<int>(host.attr("ndim")) > 1) throw value_error("repeats must be a scalar or a 1-D sequence");
    return wrap(repeat(x, to_int_list(host.attr("ravel")()), ax));
  };
  m.def("repeat", do_repeat, nb::arg("a"), nb::arg("repeats"), nb::arg("axis").none() = nb::none(),
        "Repeat each element.");
  m.def("pad", &do_pad, nb::arg("array"), nb::arg("pad_width"), nb::arg("mode") = "constant", nb::arg("kwargs"),
        "Pad an array (NumPy's modes; a callable mode runs through NumPy on the host).");
  // insert and delete check in NumPy's order: the axis, then the indices, then (insert) the values.
  m.def(
      "insert",
      [](nb::handle arr, nb::handle obj, nb::handle values, nb::handle axis) {
    array a = arg_array(arr);
    std::optional<int> ax = to_opt_axis(axis);
    if (ax) normalize_axis(*ax, a.ndim());
    index_obj idx = to_index_obj(obj, true);
    array v = is_ndarray(values) ? as_py_array(values).a
                                 : arg_array(numpy().attr("array")(values, nb::arg("dtype") = numpy_dtype(a.type())));
    return wrap(insert(a, idx, v, ax));
      },
      nb::arg("arr"), nb::arg("obj"), nb::arg("values"), nb::arg("axis").none() = nb::none(),
      "Insert values before the given indices.");
  m.def(
      "delete",
      [](nb::handle arr, nb::handle obj, nb::handle axis) {
    array a = arg_array(arr);
    std::optional<int> ax = to_opt_axis(axis);
    if (ax) normalize_axis(*ax, a.ndim());
    return wrap(delete_(a, to_index_obj(obj, false), ax));
      },
      nb::arg("arr"), nb::arg("obj"), nb::arg("axis").none() = nb::none(), "Remove sub-arrays along an axis.");
  m.def(
      "trim_zeros",
      [](nb::handle filt, nb::handle trim, nb::handle axis) {
    return ret(filt, trim_zeros(arg_array(filt), nb::cast<std::string>(trim), to_axes(axis)));
      },
      nb::arg("filt"), nb::arg("trim") = "fb", nb::arg("axis").none() = nb::none(),
      "Trim leading and/or trailing zeros.");
  m.def(
      "meshgrid",
      [](nb::args xi, bool copy, bool sparse, nb::handle indexing) {
    std::vector<array> in = arg_arrays(xi);
    std::vector<array> r = meshgrid(in, nb::cast<std::string>(indexing), sparse, copy);
    nb::list l;
    for (std::size_t i = 0; i < r.size(); ++i) l.append(ret(xi[i], std::move(r[i])));
    return nb::tuple(l);
      },
      nb::arg("xi"), nb::kw_only(), nb::arg("copy") = true, nb::arg("sparse") = false, nb::arg("indexing") = "xy",
      "Coordinate matrices from coordinate vectors.");

  // ---- ndarray methods ----
  nb::handle cls = ndarray_type();
  nb::object property = nb::module_::import_("builtins").attr("property");
  nb::setattr(cls, "reshape",
              nb::cpp_function(
                  [](nb::handle self, nb::args args, nb::kwargs kwargs) {
    order o = order::C;
    std::optional<bool> copy;
    for (auto [k, v] : kwargs) {
      std::string key = nb::cast<std::string>(k);
      if (key == "order") o = to_order(v, order::C);
      else if (key == "copy") {
        if (!v.is_none()) copy = nb::cast<bool>(v);
      } else throw type_error("'" + key + "' is an invalid keyword argument for reshape()");
    }
    if (args.size() == 0) throw type_error("reshape() takes exactly 1 argument (0 given)");
    return ret(self, reshape(as_py_array(self).a, shape_from_args(args), o, copy));
                  },
                  nb::is_method(), nb::name("reshape"), nb::sig("def reshape(self, /, *shape, order='C', copy=None)")));
  nb::setattr(
      cls, "ravel",
      nb::cpp_function([](nb::handle self,
                          nb::handle ord) { return ret(self, ravel(as_py_array(self).a, to_order(ord, order::C))); },
                       nb::is_method(), nb::name("ravel"), nb::arg("order") = "C"));
  nb::setattr(
      cls, "flatten",
      nb::cpp_function([](nb::handle self,
                          nb::handle ord) { return wrap(flatten(as_py_array(self).a, to_order(ord, order::C))); },
                       nb::is_method(), nb::name("flatten"), nb::arg("order") = "C"));
  nb::setattr(cls, "squeeze",
              nb::cpp_function(
                  [](nb::handle self, nb::handle axis) {
    const array& x = as_py_array(self).a;
    return ret(self, squeeze(x, to_squeeze_axes(axis, x)));
                  },
                  nb::is_method(), nb::name("squeeze"), nb::arg("axis").none() = nb::none()));
  nb::setattr(cls, "swapaxes",
              nb::cpp_function(
                  [](nb::handle self, nb::handle x, nb::handle y) {
    int ax1 = to_c_int_axis(x);  // Note [argument order]
    int ax2 = to_c_int_axis(y);
    return ret(self, swapaxes(as_py_array(self).a, ax1, ax2));
                  },
                  nb::is_method(), nb::name("swapaxes"), nb::arg("axis1"), nb::arg("axis2")));
  nb::setattr(cls, "repeat",
              nb::cpp_function([do_repeat](nb::handle self, nb::handle repeats,
                                           nb::handle axis) { return do_repeat(self, repeats, axis); },
                               nb::is_method(), nb::name("repeat"), nb::arg("repeats"),
                               nb::arg("axis").none() = nb::none()));
  nb::setattr(cls, "resize",
              nb::cpp_function(&resize_method, nb::is_method(), nb::name("resize"),
                               nb::sig("def resize(self, /, *new_shape, refcheck=True)")));
  nb::setattr(
      cls, "mT",
      property(nb::cpp_function([](nb::handle self) { return ret(self, matrix_transpose(as_py_array(self).a)); }),
               nb::none(), nb::none(), "The array with its last two axes swapped (a view)."));
  nb::setattr(cls, "shape",
              property(nb::cpp_function([](nb::handle self) { return to_tuple(as_py_array(self).a.shape()); }),
                       nb::cpp_function(&set_shape), nb::none(),
                       "Tuple of array dimensions; assignable when a view of the new shape exists."));
}

}  // namespace cuarray::py
