// Bindings of cuarray.linalg's decompositions, solvers and norms (the submodule cuarray._core.linalg).
#include <nanobind/stl/string.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/linalg.hpp"
#include "src/linalg/decomp_common.hpp"
#include "src/linalg/svd_polar.hpp"

namespace cuarray::py {

namespace {

using args::to_array;

// NumPy's result namedtuples (numpy.linalg.SVDResult, ...), so that results compare and print alike; our own
// namedtuple of the same fields where a NumPy lacks them.
nb::object result_type(const char* name, std::vector<const char*> fields) {
  nb::object linalg_mod = nb::module_::import_("numpy.linalg");
  nb::object inner = nb::getattr(linalg_mod, "_linalg", nb::none());
  if (!inner.is_none() && nb::hasattr(inner, name)) return inner.attr(name);
  nb::list f;
  for (const char* s : fields) f.append(nb::str(s));
  return nb::module_::import_("collections").attr("namedtuple")(name, f);
}

nb::object make_result(const char* name, std::vector<const char*> fields, nb::object a, nb::object b,
                       nb::object c = nb::object()) {
  static std::vector<std::pair<std::string, nb::object>>* cache = new std::vector<std::pair<std::string, nb::object>>();
  nb::object cls;
  for (auto& [n, o] : *cache) {
    if (n == name) cls = o;
  }
  if (!cls.is_valid()) {
    cls = result_type(name, fields);
    cache->emplace_back(name, cls);
  }
  return c.is_valid() ? cls(a, b, c) : cls(a, b);
}

std::string to_str(nb::handle obj, const char* what) {
  if (!PyUnicode_Check(obj.ptr())) throw type_error(std::string(what) + " must be a str");
  return nb::cast<std::string>(obj);
}

using args::is_numpy_scalar;

// A tolerance argument (rcond, tol, rtol): Python numbers are weak scalars, NumPy scalars strong, arrays arrays.
ufunc_arg to_tolerance(nb::handle obj, const char* func) {
  PyObject* o = obj.ptr();
  if (is_ndarray(obj)) return ufunc_arg(as_py_array(obj).a);
  if (is_numpy_scalar(obj) || PyBool_Check(o)) {
    dtype t = scalar_dtype(obj);
    return ufunc_arg(to_scalar(obj, t, false));
  }
  if (PyLong_Check(o) || PyFloat_Check(o)) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return ufunc_arg(array(), scalar::from_double(v), true);
  }
  return ufunc_arg(to_array(obj, func));
}

std::optional<ufunc_arg> opt_tolerance(nb::handle obj, const char* func) {
  if (obj.is_none()) return std::nullopt;
  return to_tolerance(obj, func);
}

// A norm order: None, a number (inf included) or one of NumPy's strings.
linalg::norm_ord to_ord(nb::handle obj) {
  if (obj.is_none()) return {};
  if (PyUnicode_Check(obj.ptr())) return linalg::norm_ord::parse(nb::cast<std::string>(obj));
  double v = PyFloat_AsDouble(obj.ptr());
  if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return linalg::norm_ord(v);
}

// norm's axis: None, an int or a tuple of ints (NumPy's TypeError otherwise).
std::optional<std::vector<int>> to_norm_axis(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  if (PyTuple_Check(obj.ptr())) {
    std::vector<int> v;
    for (nb::handle h : obj) v.push_back(*args::to_axis(h));
    return v;
  }
  // NumPy's int(axis): anything int() takes, floats included.
  PyObject* i = PyNumber_Long(obj.ptr());
  if (!i) {
    PyErr_Clear();
    throw type_error("'axis' must be None, an integer or a tuple of integers");
  }
  nb::object as_int = nb::steal(i);
  return std::vector<int>{*args::to_axis(as_int)};
}

nb::object host_eig(const array& a, bool vectors) {
  // Note: only where cuSOLVER lacks Xgeev (CUDA < 12.6): NumPy computes on the host, results go back to the device.
  nb::module_ cu = nb::module_::import_("cuarray");
  nb::object host = wrap(a).attr("get")();
  nb::object np_linalg = nb::module_::import_("numpy.linalg");
  if (!vectors) return cu.attr("asarray")(np_linalg.attr("eigvals")(host));
  nb::object r = np_linalg.attr("eig")(host);
  return make_result("EigResult", {"eigenvalues", "eigenvectors"}, cu.attr("asarray")(r[0]), cu.attr("asarray")(r[1]));
}

}  // namespace

void init_linalg(nb::module_& m) {
  nb::module_ l = m.def_submodule("linalg", "Linear algebra over cuSOLVER");
  // Diagnostics and tests: the largest order whose stacks take the batched routines (Note [batched small LU]);
  // returns the previous value.
  m.def("_linalg_batched_max_n", &linalg::detail::set_batched_max_n, nb::arg("n"));
  m.def("_linalg_polar_svd_min_n", &linalg::detail::set_polar_svd_min_n, nb::arg("n"));
  m.def("_linalg_unit_solve_min_n", &linalg::detail::set_unit_solve_min_n, nb::arg("n"));
  m.def("_linalg_tri_kernel_max_k", &linalg::detail::set_tri_kernel_max_k, nb::arg("k"));

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const linalg_error& e) {
      nb::object cls = nb::module_::import_("numpy.linalg").attr("LinAlgError");
      PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
    }
  });

  l.def(
      "svd",
      [](nb::handle a, bool full_matrices, bool compute_uv, bool hermitian) -> nb::object {
        linalg::svd_result r = linalg::svd(to_array(a, "linalg.svd"), full_matrices, compute_uv, hermitian);
        if (!compute_uv) return wrap(r.S);
        return make_result("SVDResult", {"U", "S", "Vh"}, wrap(r.U), wrap(r.S), wrap(r.Vh));
      },
      nb::arg("a"), nb::arg("full_matrices") = true, nb::arg("compute_uv") = true, nb::arg("hermitian") = false);
  l.def(
      "svdvals", [](nb::handle x) { return wrap(linalg::svdvals(to_array(x, "linalg.svdvals"))); }, nb::arg("x"));
  l.def(
      "qr",
      [](nb::handle a, nb::handle mode_obj) -> nb::object {
        std::string mode = to_str(mode_obj, "mode");
        if (mode == "f" || mode == "full") {
          if (PyErr_WarnEx(PyExc_DeprecationWarning,
                           "The 'full' option is deprecated in favor of 'reduced'.\nFor backward compatibility let "
                           "mode default.",
                           1) < 0)
            throw nb::python_error();
          mode = "reduced";
        } else if (mode == "e" || mode == "economic") {
          if (PyErr_WarnEx(PyExc_DeprecationWarning, "The 'economic' option is deprecated.", 1) < 0)
            throw nb::python_error();
          mode = "economic";
        }
        linalg::qr_result r = linalg::qr(to_array(a, "linalg.qr"), mode);
        if (mode == "r") return wrap(r.R);
        if (mode == "economic") return wrap(r.Q);
        if (mode == "raw") return nb::make_tuple(wrap(r.Q), wrap(r.R));
        return make_result("QRResult", {"Q", "R"}, wrap(r.Q), wrap(r.R));
      },
      nb::arg("a"), nb::arg("mode") = "reduced");
  l.def(
      "cholesky",
      [](nb::handle a, bool upper) { return wrap(linalg::cholesky(to_array(a, "linalg.cholesky"), upper)); },
      nb::arg("a"), nb::kw_only(), nb::arg("upper") = false);
  l.def(
      "eigh",
      [](nb::handle a, nb::handle uplo) {
    linalg::eig_result r = linalg::eigh(to_array(a, "linalg.eigh"), to_str(uplo, "UPLO"));
    return make_result("EighResult", {"eigenvalues", "eigenvectors"}, wrap(r.eigenvalues), wrap(r.eigenvectors));
      },
      nb::arg("a"), nb::arg("UPLO") = "L");
  l.def(
      "eigvalsh",
      [](nb::handle a, nb::handle uplo) {
    return wrap(linalg::eigvalsh(to_array(a, "linalg.eigvalsh"), to_str(uplo, "UPLO")));
      },
      nb::arg("a"), nb::arg("UPLO") = "L");
  l.def(
      "eig",
      [](nb::handle a_obj) -> nb::object {
        array a = to_array(a_obj, "linalg.eig");
        if (!linalg::has_device_eig()) return host_eig(a, true);
        linalg::eig_result r = linalg::eig(a);
        return make_result("EigResult", {"eigenvalues", "eigenvectors"}, wrap(r.eigenvalues), wrap(r.eigenvectors));
      },
      nb::arg("a"));
  l.def(
      "eigvals",
      [](nb::handle a_obj) -> nb::object {
        array a = to_array(a_obj, "linalg.eigvals");
        if (!linalg::has_device_eig()) return host_eig(a, false);
        return wrap(linalg::eigvals(a));
      },
      nb::arg("a"));
  l.def(
      "inv", [](nb::handle a) { return wrap(linalg::inv(to_array(a, "linalg.inv"))); }, nb::arg("a"));
  l.def(
      "solve",
      [](nb::handle a, nb::handle b) {
    return wrap(linalg::solve(to_array(a, "linalg.solve"), to_array(b, "linalg.solve")));
      },
      nb::arg("a"), nb::arg("b"));
  l.def(
      "det", [](nb::handle a) { return wrap(linalg::det(to_array(a, "linalg.det"))); }, nb::arg("a"));
  l.def(
      "slogdet",
      [](nb::handle a) {
    linalg::slogdet_result r = linalg::slogdet(to_array(a, "linalg.slogdet"));
    return make_result("SlogdetResult", {"sign", "logabsdet"}, wrap(r.sign), wrap(r.logabsdet));
      },
      nb::arg("a"));
  l.def(
      "pinv",
      [](nb::handle a_obj, nb::handle rcond, bool hermitian, nb::kwargs kwargs) {
    array a = to_array(a_obj, "linalg.pinv");
    std::optional<ufunc_arg> rc = opt_tolerance(rcond, "linalg.pinv");
    for (auto [k, v] : kwargs) {
      std::string key = nb::cast<std::string>(k);
      if (key != "rtol") throw type_error("pinv() got an unexpected keyword argument '" + key + "'");
      // rtol=None means max(M, N) * eps; NumPy's own default (rtol not given) is rcond=1e-15.
      if (rc) throw value_error("`rtol` and `rcond` can't be both set.");
      rc = v.is_none() ? ufunc_arg(linalg::default_rtol(a)) : to_tolerance(v, "linalg.pinv");
    }
    return wrap(linalg::pinv(a, rc, hermitian));
      },
      nb::arg("a"), nb::arg("rcond").none() = nb::none(), nb::arg("hermitian") = false, nb::arg("kwargs"),
      // rtol comes through kwargs so that an absent rtol differs from rtol=None, as in NumPy.
      nb::sig("def pinv(a, rcond=None, hermitian=False, *, rtol=<no value>)"));
  l.def(
      "lstsq",
      [](nb::handle a, nb::handle b, nb::handle rcond) {
    std::optional<double> rc;
    if (!rcond.is_none()) {
      rc = PyFloat_AsDouble(rcond.ptr());
      if (*rc == -1.0 && PyErr_Occurred()) throw nb::python_error();
    }
    linalg::lstsq_result r = linalg::lstsq(to_array(a, "linalg.lstsq"), to_array(b, "linalg.lstsq"), rc);
    return nb::make_tuple(wrap(r.x), wrap(r.residuals), nb::int_(r.rank), wrap(r.s));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rcond").none() = nb::none());
  l.def(
      "matrix_rank",
      [](nb::handle A, nb::handle tol, bool hermitian, nb::handle rtol) -> nb::object {
        array a = to_array(A, "linalg.matrix_rank");
        array r = linalg::matrix_rank(a, opt_tolerance(tol, "linalg.matrix_rank"), hermitian,
                                      opt_tolerance(rtol, "linalg.matrix_rank"));
        if (a.ndim() < 2) {  // NumPy's int(not all(A == 0))
          return nb::int_(r.host_value<std::int64_t>());
        }
        return wrap(r);
      },
      nb::arg("A"), nb::arg("tol").none() = nb::none(), nb::arg("hermitian") = false, nb::kw_only(),
      nb::arg("rtol").none() = nb::none());
  l.def(
      "tensorsolve",
      [](nb::handle a, nb::handle b, nb::handle axes) {
    std::optional<std::vector<int>> ax;
    if (!axes.is_none()) {
      std::vector<int> v;
      for (nb::handle h : axes) v.push_back(static_cast<int>(args::to_index(h)));
      ax = v;
    }
    return wrap(linalg::tensorsolve(to_array(a, "linalg.tensorsolve"), to_array(b, "linalg.tensorsolve"), ax));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("axes").none() = nb::none());
  l.def(
      "tensorinv",
      [](nb::handle a, nb::handle ind) {
    return wrap(linalg::tensorinv(to_array(a, "linalg.tensorinv"), static_cast<int>(args::to_index(ind))));
      },
      nb::arg("a"), nb::arg("ind") = 2);
  l.def(
      "norm",
      [](nb::handle x, nb::handle ord, nb::handle axis, bool keepdims) {
    return wrap(linalg::norm(to_array(x, "linalg.norm"), to_ord(ord), to_norm_axis(axis), keepdims));
      },
      nb::arg("x"), nb::arg("ord").none() = nb::none(), nb::arg("axis").none() = nb::none(),
      nb::arg("keepdims") = false);
  l.def(
      "matrix_norm",
      [](nb::handle x, bool keepdims, nb::handle ord) {
    return wrap(linalg::matrix_norm(to_array(x, "linalg.matrix_norm"), keepdims, to_ord(ord)));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("keepdims") = false, nb::arg("ord").none() = "fro");
  l.def(
      "vector_norm",
      [](nb::handle x, nb::handle axis, bool keepdims, nb::handle ord) {
    return wrap(linalg::vector_norm(to_array(x, "linalg.vector_norm"), args::to_axes(axis), keepdims, to_ord(ord)));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false,
      nb::arg("ord").none() = 2);
  l.def(
      "cond", [](nb::handle x, nb::handle p) { return wrap(linalg::cond(to_array(x, "linalg.cond"), to_ord(p))); },
      nb::arg("x"), nb::arg("p").none() = nb::none());
}

}  // namespace cuarray::py
