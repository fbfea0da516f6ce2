// Bindings of NumPy's elementwise non-ufunc functions and of ndarray.real/.imag/.conj()/.round()/.clip().
#include <nanobind/stl/string.h>

#include <climits>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "fusion_hook.hpp"

namespace cuarray::py {

namespace {

std::string type_name_of(nb::handle obj) {
  return nb::cast<std::string>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr()))).attr("__name__"));
}

[[noreturn]] void unsupported(nb::handle obj, const char* func) {
  throw type_error("Unsupported type " + type_name_of(obj) + " for cuarray." + func +
                   "(): pass cuarray arrays or scalars (move host data with cuarray.asarray())");
}

using args::is_numpy_scalar;

// copyto's str or bytes source as NumPy takes it: a '<U'/'S' scalar that must pass the casting rule (TypeError),
// then cast on the host to dst's dtype, where NumPy parses it ('12' into int, '' is False, 'x' into a number is
// ValueError, '300' into uint8 OverflowError), even under a false mask. The result is a scalar of dst's dtype.
// A non-bool mask is refused first, as NumPy converts where= before it looks at the value.
ufunc_arg text_operand(nb::handle src, dtype dst_type, nb::handle casting_obj, const array& mask) {
  if (mask.defined() && mask.type() != bool_) {
    throw type_error("Cannot cast array data from dtype('" + std::string(name(mask.type())) +
                     "') to dtype('bool') according to the rule 'safe'");
  }
  nb::object host = numpy().attr("asarray")(src);
  nb::object target = numpy_dtype(dst_type);
  if (!nb::cast<bool>(numpy().attr("can_cast")(host.attr("dtype"), target, casting_obj))) {
    throw type_error("Cannot cast scalar from " + nb::cast<std::string>(nb::repr(host.attr("dtype"))) + " to " +
                     nb::cast<std::string>(nb::repr(target)) + " according to the rule '" +
                     nb::cast<std::string>(casting_obj) + "'");
  }
  nb::object value = host.attr("astype")(target);
  return ufunc_arg(to_scalar(value, dst_type, false));
}

ufunc_arg to_operand(nb::handle obj, const char* func) {
  if (is_ndarray(obj)) return ufunc_arg(as_py_array(obj).a);
  if (std::optional<ufunc_arg> v = args::scalar_operand(obj)) return *v;
  if (nb::hasattr(obj, "__cuda_array_interface__")) {
    nb::object a = nb::module_::import_("cuarray").attr("asarray")(obj);
    return ufunc_arg(as_py_array(a).a);
  }
  unsupported(obj, func);
}

// A Python int beyond 64 bits as a weak big_int operand (its value as float64; past float64's range Python's
// OverflowError), or nothing for any other object.
std::optional<ufunc_arg> big_int_operand(nb::handle obj) {
  if (!PyLong_Check(obj.ptr()) || PyBool_Check(obj.ptr()) || !args::beyond_64_bits(obj.ptr())) return std::nullopt;
  double d = PyLong_AsDouble(obj.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return ufunc_arg(array(), scalar::from_double(d), true, true);
}

// where's x or y: an operand, a Python int beyond 64 bits as a big_int (Note [where's Python ints]).
ufunc_arg where_operand(nb::handle obj) {
  if (std::optional<ufunc_arg> big = big_int_operand(obj)) return *big;
  return to_operand(obj, "where");
}

// An array argument: a cuarray array, or a scalar as a 0-d array of NumPy's dtype for it.
array to_array(nb::handle obj, const char* func) {
  if (is_ndarray(obj)) return as_py_array(obj).a;
  ufunc_arg v = to_operand(obj, func);
  if (!v.is_scalar()) return v.arr;
  // Python ints are int64 (uint64 beyond its range), floats float64, complexes complex128, as NumPy's.
  return full(shape_t{}, v.value, v.value.type);
}

array to_out(nb::handle out) {
  if (out.is_none()) return array();
  if (!is_ndarray(out)) throw type_error("return arrays must be of ArrayType");
  return as_py_array(out).a;
}

int to_decimals(nb::handle obj) {
  PyObject* idx = PyNumber_Index(obj.ptr());
  if (!idx) throw nb::python_error();
  long v = PyLong_AsLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (v > INT_MAX || v < INT_MIN) throw overflow_error("Python int too large to convert to C int");
  return static_cast<int>(v);
}

// The replacement values of nan_to_num are stored with NumPy's copyto rule ('same_kind'): real numbers only.
double to_real_value(nb::handle obj) {
  PyObject* o = obj.ptr();
  bool complex_ = PyComplex_Check(o) ||
                  (is_numpy_scalar(obj) && nb::cast<std::string>(obj.attr("dtype").attr("kind")) == "c");
  if (complex_) {
    throw type_error(
        "Cannot cast scalar from dtype('complex128') to dtype('float64') according to the rule 'same_kind'");
  }
  double v = PyFloat_AsDouble(o);
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

// ndarray.real / .imag: views of complex arrays; a real array's real part is the array itself and its
// imaginary part a new zero array (NumPy's is read-only; cuarray has no read-only arrays).
nb::object real_get(nb::handle self) {
  const array& a = as_py_array(self).a;
  if (!is_complex(a.type())) return nb::borrow(self);
  return view_of(self, real(a));
}
nb::object imag_get(nb::handle self) {
  const array& a = as_py_array(self).a;
  if (!is_complex(a.type())) return wrap(imag(a));
  return view_of(self, imag(a));
}
void real_set(nb::handle self, nb::handle value) {
  array target = real(as_py_array(self).a);
  assign_from_python(target, value);
}
void imag_set(nb::handle self, nb::handle value) {
  const array& a = as_py_array(self).a;
  if (!is_complex(a.type())) throw type_error("array does not have imaginary part to set");
  array target = imag(a);
  assign_from_python(target, value);
}

// A clip bound; a Python int beyond the integer dtype's range (any size) is dropped as NumPy does.
std::optional<ufunc_arg> clip_bound(nb::handle obj, dtype t, bool lower) {
  PyObject* o = obj.ptr();
  if (obj.is_none()) return std::nullopt;
  if (PyLong_Check(o) && !PyBool_Check(o) && is_integer(t)) {
    nb::object info = numpy().attr("iinfo")(numpy_dtype(t));
    nb::object limit = info.attr(lower ? "min" : "max");
    int hit = PyObject_RichCompareBool(o, limit.ptr(), lower ? Py_LE : Py_GE);
    if (hit < 0) throw nb::python_error();
    if (hit) return std::nullopt;
  }
  return to_operand(obj, "clip");
}

nb::object do_clip(nb::handle a_obj, nb::handle lo, nb::handle hi, nb::handle out) {
  array a = to_array(a_obj, "clip");
  std::optional<ufunc_arg> l = clip_bound(lo, a.type(), true), h = clip_bound(hi, a.type(), false);
  array r = clip(a, l, h, to_out(out));
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

nb::object do_round(nb::handle a_obj, nb::handle decimals, nb::handle out) {
  if (!is_ndarray(a_obj) && is_traced(a_obj)) {  // Note [fuse by value]
    nb::dict kw;
    kw["decimals"] = decimals;
    kw["out"] = out;
    return call_traced("around", nb::make_tuple(a_obj), kw);
  }
  array a = to_array(a_obj, "round");
  array r = around(a, to_decimals(decimals), to_out(out));
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

// The default of clip's bounds that tells "not given" from None, as NumPy's _NoValue.
nb::handle no_value() {
  static nb::object* sentinel = new nb::object(nb::module_::import_("builtins").attr("object")());
  return *sentinel;
}

}  // namespace

void init_elementwise_funcs(nb::module_& m) {
  nb::object nv = nb::borrow(no_value());
  m.def(
      "clip",
      [](nb::handle a, nb::handle a_min, nb::handle a_max, nb::handle out, nb::handle min_kw, nb::handle max_kw) {
    nb::handle nv = no_value();
    bool has_min = !min_kw.is(nv), has_max = !max_kw.is(nv);
    if (!is_ndarray(a) && (is_traced(a) || is_traced(a_min) || is_traced(a_max) || is_traced(min_kw) ||
                           is_traced(max_kw))) {  // Note [fuse by value]
      nb::list pos;
      pos.append(a);
      if (!a_min.is(nv)) pos.append(a_min);
      if (!a_max.is(nv)) pos.append(a_max);
      nb::dict kw;
      if (!out.is_none()) kw["out"] = out;
      if (has_min) kw["min"] = min_kw;
      if (has_max) kw["max"] = max_kw;
      return call_traced("clip", nb::tuple(pos), kw);
    }
    if (a_min.is(nv) && a_max.is(nv)) {
      return do_clip(a, has_min ? min_kw : nb::none(), has_max ? max_kw : nb::none(), out);
    }
    if (a_min.is(nv)) throw type_error("clip() missing 1 required positional argument: 'a_min'");
    if (a_max.is(nv)) throw type_error("clip() missing 1 required positional argument: 'a_max'");
    if (has_min || has_max) {
      throw value_error("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is forbidden.");
    }
    return do_clip(a, a_min, a_max, out);
      },
      nb::arg("a"), nb::arg("a_min").none() = nv, nb::arg("a_max").none() = nv, nb::arg("out").none() = nb::none(),
      nb::kw_only(), nb::arg("min").none() = nv, nb::arg("max").none() = nv,
      "Clip the values of an array to [a_min, a_max] (NumPy's clip).");

  m.def(
      "real",
      [](nb::handle x) {
    if (is_ndarray(x)) return real_get(x);
    if (is_traced(x)) return call_traced("real", nb::make_tuple(x), nb::dict());  // Note [fuse by value]
    return real_get(wrap(to_array(x, "real")));
      },
      nb::arg("val"), "The real part: a view for complex arrays, the array itself otherwise.");
  m.def(
      "imag",
      [](nb::handle x) {
    if (is_ndarray(x)) return imag_get(x);
    if (is_traced(x)) return call_traced("imag", nb::make_tuple(x), nb::dict());  // Note [fuse by value]
    return imag_get(wrap(to_array(x, "imag")));
      },
      nb::arg("val"), "The imaginary part: a view for complex arrays, zeros otherwise.");
  m.def(
      "angle", [](nb::handle z, bool deg) { return wrap(angle(to_array(z, "angle"), deg)); }, nb::arg("z"),
      nb::arg("deg") = false, "The angle of complex values, in radians (degrees if deg).");
  m.def(
      "iscomplex", [](nb::handle x) { return wrap(iscomplex(to_array(x, "iscomplex"))); }, nb::arg("x"),
      "Elementwise: whether the imaginary part is nonzero.");
  m.def(
      "isreal", [](nb::handle x) { return wrap(isreal(to_array(x, "isreal"))); }, nb::arg("x"),
      "Elementwise: whether the imaginary part is zero.");
  // Host objects are NumPy's to judge: only their dtype matters, no data moves.
  m.def(
      "iscomplexobj",
      [](nb::handle x) -> bool {
        if (is_ndarray(x)) return iscomplexobj(as_py_array(x).a);
        return nb::cast<bool>(numpy().attr("iscomplexobj")(x));
      },
      nb::arg("x"), "Whether the dtype of x is complex.");
  m.def(
      "isrealobj",
      [](nb::handle x) -> bool {
        if (is_ndarray(x)) return isrealobj(as_py_array(x).a);
        return nb::cast<bool>(numpy().attr("isrealobj")(x));
      },
      nb::arg("x"), "Whether the dtype of x is not complex.");

  m.def(
      "nan_to_num",
      [](nb::handle x, bool copy, nb::handle nan, nb::handle posinf, nb::handle neginf) -> nb::object {
        array a = to_array(x, "nan_to_num");
        double n = to_real_value(nan);
        std::optional<double> p, q;
        if (!posinf.is_none()) p = to_real_value(posinf);
        if (!neginf.is_none()) q = to_real_value(neginf);
        array r = nan_to_num(a, copy, n, p, q);
        if (!copy && is_ndarray(x)) return nb::borrow(x);
        return wrap(std::move(r));
      },
      nb::arg("x"), nb::arg("copy") = true, nb::arg("nan") = 0.0, nb::arg("posinf").none() = nb::none(),
      nb::arg("neginf").none() = nb::none(), "Replace NaN with nan, +inf with posinf, -inf with neginf.");

  m.def("around", &do_round, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
        "Round to the given number of decimals, half to even (NumPy's round).");
  m.def("round", &do_round, nb::arg("a"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none(),
        "Round to the given number of decimals, half to even.");
  m.def(
      "fix",
      [](nb::handle x, nb::handle out) -> nb::object {
        array r = fix(to_array(x, "fix"), to_out(out));
        if (!out.is_none()) return nb::borrow(out);
        return wrap(std::move(r));
      },
      nb::arg("x"), nb::arg("out").none() = nb::none(), "Round toward zero, keeping the dtype.");
  m.def(
      "sinc", [](nb::handle x) { return wrap(sinc(to_array(x, "sinc"))); }, nb::arg("x"),
      "The normalised sinc function sin(pi x) / (pi x).");
  m.def(
      "i0", [](nb::handle x) { return wrap(i0(to_array(x, "i0"))); }, nb::arg("x"),
      "The modified Bessel function of the first kind, order 0.");

  m.def(
      "where",
      [](nb::args args, nb::kwargs kwargs) -> nb::object {
        if (kwargs.size() != 0) {
          throw type_error("where() takes no keyword arguments");
        }
        if (args.size() == 1) {
          // where(condition) is nonzero(condition) (cuarray/select.hpp).
          nb::list parts;
          for (array& p : nonzero(to_array(args[0], "where"))) parts.append(wrap(std::move(p)));
          return nb::tuple(parts);
        }
        if (args.size() == 2) throw value_error("either both or neither of x and y should be given");
        if (args.size() != 3) {
          throw type_error("where() takes at most 3 arguments (" + std::to_string(args.size()) + " given)");
        }
        if (is_traced(args[0]) || is_traced(args[1]) || is_traced(args[2])) {
          return call_traced("where", args, kwargs);  // Note [fuse by value]
        }
        ufunc_arg c = to_operand(args[0], "where");
        ufunc_arg x = where_operand(args[1]);
        ufunc_arg y = where_operand(args[2]);
        return wrap(where(c, x, y));
      },
      nb::sig("def where(condition, x=None, y=None, /)"),
      "Elements of x where condition is true, else of y (NumPy's where).");

  m.def(
      "copyto",
      [](nb::handle dst, nb::handle src, nb::handle casting_obj, nb::handle where_obj) {
    if (!is_ndarray(dst)) {
      throw type_error("copyto() argument 1 must be cuarray.ndarray, not " + type_name_of(dst));
    }
    if (!PyUnicode_Check(casting_obj.ptr())) throw type_error("copyto() argument 'casting' must be str");
    casting rule = parse_casting(nb::cast<std::string>(casting_obj));
    // str and bytes (numpy.str_, numpy.bytes_ too) are converted below, after the mask, in NumPy's order.
    bool text_src = PyUnicode_Check(src.ptr()) || PyBytes_Check(src.ptr());
    // A Python int beyond 64 bits converts into a floating or complex dst (NumPy's copyto of a weak int); into
    // an integer or bool dst it stays to_operand's OverflowError, as in NumPy.
    std::optional<ufunc_arg> big;
    if (!text_src && is_inexact(as_py_array(dst).a.type())) big = big_int_operand(src);
    ufunc_arg s = text_src ? ufunc_arg() : (big ? *big : to_operand(src, "copyto"));
    array mask;
    PyObject* w = where_obj.ptr();
    static nb::object np_bool = numpy().attr("bool_");
    if (PyBool_Check(w) || PyObject_IsInstance(w, np_bool.ptr()) == 1) {
      if (!PyObject_IsTrue(w)) mask = full(shape_t{}, scalar::from_bool(false), bool_);  // checks still apply
    } else if (is_ndarray(where_obj)) {
      mask = as_py_array(where_obj).a;
    } else {
      unsupported(where_obj, "copyto");
    }
    if (text_src) s = text_operand(src, as_py_array(dst).a.type(), casting_obj, mask);
    copyto(as_py_array(dst).a, s, rule, mask);
    // After the casting check: NumPy refuses complex into real under 'same_kind' before it would warn.
    warn_complex_cast(s.arr.defined() ? s.arr.type() : s.value.type, as_py_array(dst).a.type());
      },
      nb::arg("dst"), nb::arg("src"), nb::arg("casting") = "same_kind", nb::arg("where") = true,
      "Copy src into dst with broadcasting, NumPy's casting check and an optional mask.");

  m.def(
      "_elementwise_funcs_kernels",
      [] {
    nb::list out;
    for (const auto& k : detail::elementwise_funcs_kernels()) {
      out.append(nb::make_tuple(k.name, k.types, k.body, k.preamble));
    }
    return out;
      },
      "The kernels behind clip, round, nan_to_num, sinc, i0, where, copyto: (name, loop types, body, preamble).");

  // ndarray members.
  nb::handle cls = ndarray_type();
  nb::object property = nb::module_::import_("builtins").attr("property");
  nb::setattr(cls, "real",
              property(nb::cpp_function(&real_get), nb::cpp_function(&real_set), nb::none(),
                       "The real part (a view for complex arrays)."));
  nb::setattr(cls, "imag",
              property(nb::cpp_function(&imag_get), nb::cpp_function(&imag_set), nb::none(),
                       "The imaginary part (a view for complex arrays)."));
  auto conj_method = [](nb::handle self) -> nb::object {
    const array& a = as_py_array(self).a;
    if (!is_complex(a.type())) return nb::borrow(self);
    return wrap(std::move(call_ufunc("conjugate", std::vector<array>{a})[0]));
  };
  nb::setattr(cls, "conj", nb::cpp_function(conj_method, nb::is_method(), nb::name("conj")));
  nb::setattr(cls, "conjugate", nb::cpp_function(conj_method, nb::is_method(), nb::name("conjugate")));
  nb::setattr(cls, "round",
              nb::cpp_function(
                  [](nb::handle self, nb::handle decimals, nb::handle out) { return do_round(self, decimals, out); },
                  nb::is_method(), nb::name("round"), nb::arg("decimals") = 0, nb::arg("out").none() = nb::none()));
  nb::setattr(cls, "clip",
              nb::cpp_function(
                  [](nb::handle self, nb::handle min_v, nb::handle max_v, nb::handle out, nb::kwargs kwargs) {
    for (auto [key, value] : kwargs) {
      throw type_error("'" + nb::cast<std::string>(nb::str(key)) + "' is an invalid keyword to ndarray.clip()");
    }
    return do_clip(self, min_v, max_v, out);
                  },
                  nb::is_method(), nb::name("clip"), nb::arg("min").none() = nb::none(),
                  nb::arg("max").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::arg("kwargs")));
}

}  // namespace cuarray::py
