// Bindings of bincount, histogram, histogram_bin_edges, histogram2d and histogramdd.
#include <nanobind/stl/string.h>

#include "args.hpp"

namespace cuarray::py {

namespace {

using namespace args;

bool is_sequence(nb::handle obj) { return PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()); }

array host_to_array(nb::handle obj) { return as_py_array(nb::module_::import_("cuarray").attr("asarray")(obj)).a; }

// NumPy's `bins`: a string, an integer, or edges (a cuarray array, or a list of numbers).
histogram_bins to_bins(nb::handle obj, bool allow_rule) {
  if (PyUnicode_Check(obj.ptr())) {
    if (!allow_rule) throw type_error("'<' not supported between instances of 'str' and 'int'");
    return histogram_bins(nb::cast<std::string>(obj));
  }
  if (is_ndarray(obj)) return histogram_bins(as_py_array(obj).a);
  if (is_sequence(obj)) return histogram_bins(host_to_array(obj));
  PyObject* idx = PyNumber_Index(obj.ptr());
  if (!idx) {
    PyErr_Clear();
    throw type_error(allow_rule ? "`bins` must be an integer, a string, or an array"
                                : "`bins[0]` must be an integer, when a scalar");
  }
  long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return histogram_bins(static_cast<std::int64_t>(v));
}

histogram_range to_range(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  nb::sequence seq = nb::borrow<nb::sequence>(obj);
  if (nb::len(seq) != 2) throw value_error("too many values to unpack (expected 2)");
  return std::make_pair(nb::cast<double>(nb::float_(seq[0])), nb::cast<double>(nb::float_(seq[1])));
}

array to_weights(nb::handle obj, const char* func) {
  if (obj.is_none()) return array();
  return to_array(obj, func);
}

array histogram_input(nb::handle a) {
  array arr = to_array(a, "histogram");
  if (arr.type() == bool_) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, "Converting input from bool to <class 'numpy.uint8'> for compatibility.",
                     2) < 0) {
      throw nb::python_error();
    }
  }
  return arr;
}

// Per-dimension bins of histogramdd: one value for all dimensions, or a sequence with one entry each.
std::vector<histogram_bins> dd_bins(nb::handle bins, std::int64_t d) {
  if (is_sequence(bins) || (is_ndarray(bins) && as_py_array(bins).a.ndim() > 0)) {
    std::int64_t m = nb::len(bins);
    if (m != d) throw value_error("The dimension of bins must be equal to the dimension of the sample x.");
    std::vector<histogram_bins> out;
    for (std::int64_t i = 0; i < m; ++i) {
      nb::object b = bins[nb::int_(i)];
      if (PyFloat_Check(b.ptr())) {
        throw type_error("`bins[" + std::to_string(i) + "]` must be an integer, when a scalar");
      }
      out.push_back(to_bins(b, false));
    }
    return out;
  }
  if (PyFloat_Check(bins.ptr())) throw type_error("`bins[0]` must be an integer, when a scalar");
  return {to_bins(bins, false)};
}

std::vector<histogram_range> dd_range(nb::handle range, std::int64_t d) {
  if (range.is_none()) return {};
  if (static_cast<std::int64_t>(nb::len(range)) != d) {
    throw value_error("range argument must have one entry per dimension");
  }
  std::vector<histogram_range> out;
  for (nb::handle h : range) out.push_back(to_range(h));
  return out;
}

nb::object edges_list(std::vector<array> edges) {
  nb::list l;
  for (auto& e : edges) l.append(wrap(std::move(e)));
  return l;
}

}  // namespace

void init_counting(nb::module_& m) {
  m.def(
      "bincount",
      [](nb::handle x, nb::handle weights, nb::handle minlength) {
    if (minlength.is_none()) throw type_error("use 0 instead of None for minlength");
    std::int64_t ml = to_index(minlength);
    return wrap(bincount(to_array(x, "bincount"), to_weights(weights, "bincount"), ml));
      },
      nb::arg("x"), nb::arg("weights").none() = nb::none(), nb::arg("minlength").none() = 0,
      "Occurrences (or summed weights) of each value of a non-negative integer array.");
  m.def(
      "histogram",
      [](nb::handle a, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
    array arr = histogram_input(a);
    auto [n, e] = histogram(arr, to_bins(bins, true), to_range(range), PyObject_IsTrue(density.ptr()) == 1,
                            to_weights(weights, "histogram"));
    nb::object edges = bins.ptr() && is_ndarray(bins) ? nb::borrow(bins) : wrap(std::move(e));
    return nb::make_tuple(wrap(std::move(n)), edges);
      },
      nb::arg("a"), nb::arg("bins") = 10, nb::arg("range").none() = nb::none(), nb::arg("density").none() = nb::none(),
      nb::arg("weights").none() = nb::none(), "The histogram of a data set: (counts, bin edges).");
  m.def(
      "histogram_bin_edges",
      [](nb::handle a, nb::handle bins, nb::handle range, nb::handle weights) -> nb::object {
        array arr = histogram_input(a);
        array e = histogram_bin_edges(arr, to_bins(bins, true), to_range(range), to_weights(weights, "histogram"));
        if (is_ndarray(bins)) return nb::borrow(bins);
        return wrap(std::move(e));
      },
      nb::arg("a"), nb::arg("bins") = 10, nb::arg("range").none() = nb::none(), nb::arg("weights").none() = nb::none(),
      "The bin edges histogram would use.");
  m.def(
      "histogramdd",
      [](nb::handle sample, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
    bool dens = PyObject_IsTrue(density.ptr()) == 1;
    array w = to_weights(weights, "histogramdd");
    std::pair<array, std::vector<array>> r;
    if (is_sequence(sample)) {
      std::vector<array> cols;
      for (nb::handle h : sample) cols.push_back(to_array(h, "histogramdd"));
      std::int64_t d = static_cast<std::int64_t>(cols.size());
      r = histogramdd(cols, dd_bins(bins, d), dd_range(range, d), dens, w);
    } else {
      array s = to_array(sample, "histogramdd");
      std::int64_t d = s.ndim() == 2 ? s.shape()[1] : 1;
      r = histogramdd(s, dd_bins(bins, d), dd_range(range, d), dens, w);
    }
    return nb::make_tuple(wrap(std::move(r.first)), edges_list(std::move(r.second)));
      },
      nb::arg("sample"), nb::arg("bins") = 10, nb::arg("range").none() = nb::none(),
      nb::arg("density").none() = nb::none(), nb::arg("weights").none() = nb::none(),
      "The multidimensional histogram of a sample: (counts, list of edges).");
  m.def(
      "histogram2d",
      [](nb::handle x, nb::handle y, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
    std::vector<histogram_bins> b;
    bool seq = is_sequence(bins) || (is_ndarray(bins) && as_py_array(bins).a.ndim() > 0);
    std::int64_t nb_len = seq ? static_cast<std::int64_t>(nb::len(bins)) : 1;
    if (seq && nb_len != 1 && nb_len != 2) {
      b = {histogram_bins(is_ndarray(bins) ? as_py_array(bins).a : host_to_array(bins))};  // edges for both axes
    } else {
      b = dd_bins(bins, 2);
    }
    auto [h, ex, ey] = histogram2d(to_array(x, "histogram2d"), to_array(y, "histogram2d"), b, dd_range(range, 2),
                                   PyObject_IsTrue(density.ptr()) == 1, to_weights(weights, "histogram2d"));
    return nb::make_tuple(wrap(std::move(h)), wrap(std::move(ex)), wrap(std::move(ey)));
      },
      nb::arg("x"), nb::arg("y"), nb::arg("bins") = 10, nb::arg("range").none() = nb::none(),
      nb::arg("density").none() = nb::none(), nb::arg("weights").none() = nb::none(),
      "The two-dimensional histogram of two data samples: (counts, x edges, y edges).");
}

}  // namespace cuarray::py
