// Bindings of cuarray.fft (the submodule _core.fft): the transforms, frequencies, shifts and the plan cache.
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/fft.hpp"
#include "device_arg.hpp"

namespace cuarray::py {

namespace {

using args::to_array;
using args::to_index;
using args::to_out;

fft::norm_mode to_norm(nb::handle obj) {
  if (obj.is_none()) return fft::norm_mode::backward;
  if (!PyUnicode_Check(obj.ptr())) return fft::parse_norm(nb::cast<std::string>(nb::str(obj)));
  return fft::parse_norm(nb::cast<std::string>(obj));
}

std::optional<std::int64_t> to_n(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return to_index(obj);
}

int to_axis(nb::handle obj) {
  if (obj.is_none()) throw type_error("an integer is required for the axis");
  return *args::to_axis(obj);
}

bool is_sequence(nb::handle obj) {
  return PyTuple_Check(obj.ptr()) || PyList_Check(obj.ptr()) ||
         (!PyUnicode_Check(obj.ptr()) && PySequence_Check(obj.ptr()) && !is_ndarray(obj));
}

void warn(const char* msg) {
  if (PyErr_WarnEx(PyExc_DeprecationWarning, msg, 2) < 0) throw nb::python_error();
}

// NumPy 2 deprecates s without axes and None entries in s; both still work, with a DeprecationWarning.
fft::sizes to_sizes(nb::handle s, nb::handle axes) {
  if (s.is_none()) return std::nullopt;
  if (!is_sequence(s)) throw type_error("'" + args::type_name_of(s) + "' object is not iterable");
  if (axes.is_none()) {
    warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future version of "
         "NumPy, this will raise an error and `s[i]` will correspond to the size along the transformed axis "
         "specified by `axes[i]`. To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for an "
         "array of dimension k.");
  }
  std::vector<std::int64_t> v;
  bool none_seen = false;
  for (nb::handle h : nb::iter(s)) {
    if (h.is_none()) {
      none_seen = true;
      v.push_back(fft::default_length);
    } else {
      v.push_back(to_index(h));
    }
  }
  if (none_seen) {
    warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise an error in "
         "a future version of NumPy. To use the default behaviour of the corresponding 1-D transform, pass the "
         "value matching the default for its `n` parameter. To use the default behaviour for every axis, the `s` "
         "argument can be omitted.");
  }
  return v;
}

fft::axes_list to_axes(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (!is_sequence(obj)) throw type_error("'" + args::type_name_of(obj) + "' object is not iterable");
  std::vector<int> v;
  for (nb::handle h : nb::iter(obj)) v.push_back(*args::to_axis(h));
  return v;
}

nb::object result(array r, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(r));
}

using one_d_fn = array (*)(const array&, std::optional<std::int64_t>, int, fft::norm_mode, const array&);
using n_d_fn = array (*)(const array&, const fft::sizes&, const fft::axes_list&, fft::norm_mode, const array&);

// NumPy's order of checks: with n None it reads a.shape[axis] first (TypeError for axis=None), then the norm; with
// n given it checks n < 1 (hfft and ihfft swap the norm's direction before that, a bad norm failing there), then
// the norm, then normalises the axis (AxisError), and only then uses n as an integer (TypeError for n=2.5).
template <one_d_fn F, bool hermitian = false>
nb::object one_d(nb::handle a, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out) {
  array x = to_array(a, "fft");
  if (n.is_none()) {
    int ax = to_axis(axis);
    if (ax < -x.ndim() || ax >= x.ndim()) throw index_error("tuple index out of range");  // a.shape[axis]
    return result(F(x, std::nullopt, ax, to_norm(norm), to_out(out)), out);
  }
  fft::norm_mode nm{};
  if (hermitian) nm = to_norm(norm);
  nb::object one = nb::int_(1);
  int below = PyObject_RichCompareBool(n.ptr(), one.ptr(), Py_LT);
  if (below < 0) throw nb::python_error();
  if (below) {
    throw value_error("Invalid number of FFT data points (" + nb::cast<std::string>(nb::str(n)) + ") specified.");
  }
  if (!hermitian) nm = to_norm(norm);
  int ax = to_axis(axis);
  normalize_axis(ax, x.ndim());
  return result(F(x, to_n(n), ax, nm, to_out(out)), out);
}

// NumPy's _cook_nd_args runs before any 1-D pass checks the norm: with a bad norm, its IndexError (an axis
// beyond the array, through take(a.shape, axes) or a.shape[axis]) and ValueError come first. True when no
// axis is left (a complex transform then returns its input without looking at the norm).
bool cook_errors(const array& x, const fft::sizes& s, const fft::axes_list& axes, bool invreal) {
  const int nd = x.ndim();
  auto in_range = [&](std::int64_t k) { return k >= -nd && k < nd; };
  std::vector<int> ax;
  std::size_t ns;
  if (!s) {
    if (axes) {
      for (int k : *axes) {
        if (!in_range(k)) {
          throw index_error("index " + std::to_string(k) + " is out of bounds for axis 0 with size " +
                            std::to_string(nd));
        }
      }
      ns = axes->size();
    } else {
      ns = static_cast<std::size_t>(nd);
    }
  } else {
    ns = s->size();
  }
  if (axes) {
    ax = *axes;
  } else {
    for (int k = -static_cast<int>(ns); k < 0; ++k) ax.push_back(k);
  }
  if (ns != ax.size()) throw value_error("Shape and axes have different lengths.");
  if (invreal && !s && !ax.empty() && !in_range(ax.back())) throw index_error("tuple index out of range");
  if (s) {
    for (std::size_t k = 0; k < ns; ++k) {
      if ((*s)[k] == -1 && !in_range(ax[k])) throw index_error("tuple index out of range");
    }
  }
  return ax.empty();
}

template <n_d_fn F, bool real = false>
nb::object n_d(nb::handle a, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out) {
  array x = to_array(a, "fft");
  fft::sizes sv = to_sizes(s, axes);
  fft::axes_list ax = to_axes(axes);
  fft::norm_mode nm;
  try {
    nm = to_norm(norm);
  } catch (const value_error&) {
    if (cook_errors(x, sv, ax, real)) {
      if (real) throw index_error("list index out of range");
      return result(F(x, sv, ax, fft::norm_mode::backward, to_out(out)), out);
    }
    throw;
  }
  return result(F(x, sv, ax, nm, to_out(out)), out);
}

// fftfreq's n and d as NumPy checks them: an integer n, and Python's float division by n * d.
std::int64_t freq_n(nb::handle n) {
  bool integer = PyLong_Check(n.ptr()) || PyObject_IsInstance(n.ptr(), numpy().attr("integer").ptr()) == 1;
  if (!integer) throw value_error("n should be an integer");
  return to_index(n);  // a negative n: fftfreq's ValueError, rfftfreq's empty result (fft::fftfreq)
}

// fftfreq's and rfftfreq's dtype= (Array API 2025.12): a real floating type; None is float64.
std::optional<dtype> freq_dtype(nb::handle dt) {
  if (dt.is_none()) return std::nullopt;
  dtype t = to_dtype(dt);
  if (!is_floating(t)) {
    throw value_error("fftfreq: dtype must be a real floating-point type, not " + std::string(name(t)));
  }
  return t;
}

// NumPy computes 1.0 / (n * d) first, with the operands' own arithmetic: Python numbers raise
// ZeroDivisionError, NumPy scalars give inf (the C++ side's IEEE division).
double freq_d(nb::handle n, nb::handle d) {
  nb::object prod = nb::steal(PyNumber_Multiply(n.ptr(), d.ptr()));
  if (!prod.is_valid()) throw nb::python_error();
  nb::object one = nb::float_(1.0);
  nb::object val = nb::steal(PyNumber_TrueDivide(one.ptr(), prod.ptr()));
  if (!val.is_valid()) throw nb::python_error();
  double v = PyFloat_AsDouble(d.ptr());
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

// fftfreq and rfftfreq: NumPy's argument checks, the array made on `device`, then the Array API's dtype=.
template <array (*F)(std::int64_t, double)>
nb::object freq_call(nb::handle n, nb::handle d, nb::handle device, nb::handle dt) {
  std::int64_t nn = freq_n(n);
  double dd = freq_d(n, d);
  std::optional<dtype> t = freq_dtype(dt);
  device_arg_scope on(device);
  array r = F(nn, dd);
  return wrap(t ? r.astype(*t, order::K, false) : r);
}

nb::dict cache_info(int device) {
  fft::plan_cache_info info = fft::get_plan_cache_info(device);
  nb::dict d;
  d["device"] = info.device;
  d["size"] = info.size;
  d["memsize"] = info.memsize;
  d["curr_size"] = info.curr_size;
  d["curr_memsize"] = info.curr_memsize;
  d["hits"] = info.hits;
  d["misses"] = info.misses;
  nb::list entries;
  for (const auto& e : info.entries) entries.append(nb::make_tuple(e.key, e.work_size));
  d["entries"] = entries;
  return d;
}

}  // namespace

void init_fft(nb::module_& m) {
  nb::module_ f = m.def_submodule("fft", "Discrete Fourier transforms over cuFFT");
  nb::object none = nb::none();
  auto one = [&](const char* name, nb::object (*fn)(nb::handle, nb::handle, nb::handle, nb::handle, nb::handle),
                 const char* doc) {
    f.def(name, fn, nb::arg("a"), nb::arg("n").none() = none, nb::arg("axis").none() = -1,
          nb::arg("norm").none() = none, nb::arg("out").none() = none, doc);
  };
  one("fft", &one_d<fft::fft>, "The 1-D discrete Fourier transform (NumPy's numpy.fft.fft).");
  one("ifft", &one_d<fft::ifft>, "The 1-D inverse discrete Fourier transform.");
  one("rfft", &one_d<fft::rfft>, "The 1-D transform of real input: n // 2 + 1 non-negative frequency terms.");
  one("irfft", &one_d<fft::irfft>, "The inverse of rfft: a real result of length n (default 2 * (m - 1)).");
  one("hfft", &one_d<fft::hfft, true>, "The transform of a Hermitian-symmetric signal given by its first half.");
  one("ihfft", &one_d<fft::ihfft, true>, "The inverse of hfft.");

  nb::object last_two = nb::make_tuple(-2, -1);
  auto nd = [&](const char* name, nb::object (*fn)(nb::handle, nb::handle, nb::handle, nb::handle, nb::handle),
                nb::object axes_default, const char* doc) {
    f.def(name, fn, nb::arg("a"), nb::arg("s").none() = none, nb::arg("axes").none() = axes_default,
          nb::arg("norm").none() = none, nb::arg("out").none() = none, doc);
  };
  nd("fft2", &n_d<fft::fft2>, last_two, "The 2-D discrete Fourier transform (over the last two axes by default).");
  nd("ifft2", &n_d<fft::ifft2>, last_two, "The 2-D inverse discrete Fourier transform.");
  nd("rfft2", &n_d<fft::rfft2, true>, last_two, "The 2-D transform of real input.");
  nd("irfft2", &n_d<fft::irfft2, true>, last_two, "The inverse of rfft2.");
  nd("fftn", &n_d<fft::fftn>, none, "The n-D discrete Fourier transform (over all axes by default).");
  nd("ifftn", &n_d<fft::ifftn>, none, "The n-D inverse discrete Fourier transform.");
  nd("rfftn", &n_d<fft::rfftn, true>, none, "The n-D transform of real input (the last axis halved).");
  nd("irfftn", &n_d<fft::irfftn, true>, none, "The inverse of rfftn.");

  f.def("fftfreq", freq_call<&fft::fftfreq>, nb::arg("n"), nb::arg("d") = 1.0,
        nb::arg("device").none() = none,  // NumPy's device is positional too
        nb::kw_only(), nb::arg("dtype").none() = none,
        "Sample frequencies of an n-point transform with sample spacing d (float64, or dtype=, the Array API's "
        "real floating type).");
  f.def("rfftfreq", freq_call<&fft::rfftfreq>, nb::arg("n"), nb::arg("d") = 1.0,
        nb::arg("device").none() = none,  // NumPy's device is positional too
        nb::kw_only(), nb::arg("dtype").none() = none,
        "The non-negative sample frequencies of rfft (float64, or dtype=, the Array API's real floating type).");
  f.def(
      "fftshift",
      [](nb::handle x, nb::handle axes) {
    return wrap(fft::fftshift(to_array(x, "fft.fftshift"), args::to_axes(axes)));
      },
      nb::arg("x"), nb::arg("axes").none() = none, "Move the zero-frequency term to the centre.");
  f.def(
      "ifftshift",
      [](nb::handle x, nb::handle axes) {
    return wrap(fft::ifftshift(to_array(x, "fft.ifftshift"), args::to_axes(axes)));
      },
      nb::arg("x"), nb::arg("axes").none() = none, "The inverse of fftshift.");

  f.def("_plan_cache_info", &cache_info, nb::arg("device"));
  f.def("_set_plan_cache_size", &fft::set_plan_cache_size, nb::arg("device"), nb::arg("size"));
  f.def("_set_plan_cache_memsize", &fft::set_plan_cache_memsize, nb::arg("device"), nb::arg("memsize"));
  f.def("_clear_plan_cache", &fft::clear_plan_cache, nb::arg("device"));
}

}  // namespace cuarray::py
