// NumPy's unique family and set operations (isin, in1d, intersect1d, union1d, setdiff1d, setxor1d).
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/sorting.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/sort_kernels.hpp"
#include "src/ops/sorting_internal.hpp"

namespace cuarray {

// unique sorts, flags each element (or row) that differs from its predecessor, and compacts the flagged ones
// through an inclusive scan of the flags, whose last value (read back: the one synchronisation) is the
// number of unique values. The scan also gives each sorted element its unique's index (the inverse), and the
// flagged positions give first indices (through the sort's permutation) and counts (their differences).

namespace {

using namespace detail;
using namespace detail::sorting;

array empty_1d(dtype t, int device) { return new_array(t, shape_t{0}, order::C, device); }

// unique over rows of the C-contiguous 2-D `rows2d` (shape (n, m)) or a 1-D array (m = 1).
unique_result unique_rows(const array& rows2d, std::int64_t m, bool ri, bool rinv, bool rc, bool equal_nan,
                          bool lexicographic) {
  int device = rows2d.device();
  std::int64_t n = rows2d.shape()[0];
  dtype t = rows2d.type();
  unique_result res;
  row_perm perm;
  array sorted;
  bool need_perm = ri || rinv || lexicographic;
  if (n > 0 && need_perm) {
    if (lexicographic) {
      // Columns as keys, the last one first: a stable pass per column gives the rows' lexicographic order.
      std::vector<array> keys;
      std::int64_t isz = static_cast<std::int64_t>(rows2d.itemsize());
      for (std::int64_t c = m - 1; c >= 0; --c) {
        descriptor d{t, shape_t{n}, strides_t{m * isz}, rows2d.offset() + c * isz};
        keys.push_back(array(rows2d.storage(), d).copy(order::C));
      }
      if (keys.empty()) {
        perm.perm = arange(std::int64_t{0}, n, std::int64_t{1}, dtype::int64);
      } else {
        perm = argsort_rows(keys);
      }
      sorted = new_array(t, rows2d.shape(), order::C, device);
      cudaStream_t s = enter_device(device);
      launch_gather_rows(rows2d.data(), static_cast<std::size_t>(m * isz), index_ref{perm.perm.data(), perm.wide()}, n,
                         sorted.data(), s);
    } else {
      perm = argsort_rows({rows2d});
      sorted = gather_rows_by(rows2d, perm);
    }
  } else {
    sorted = n > 0 ? sort_rows(rows2d) : rows2d;
  }
  array flags = new_array(dtype::int64, shape_t{n}, order::C, device);
  cudaStream_t s = enter_device(device);
  launch_boundary_flags(sorted.data(), t, n, m, equal_nan && is_inexact(t), static_cast<std::int64_t*>(flags.data()),
                        s);
  array first, pos;
  res.values = select_rows(sorted, flags, (ri || rc) ? &first : nullptr, &pos, true);  // flags become pos
  std::int64_t count = res.values.shape()[0];
  if (ri) {
    if (n == 0) {
      res.indices = empty_1d(dtype::int64, device);
    } else {
      array p64 = perm_int64(perm);
      res.indices = new_array(dtype::int64, shape_t{count}, order::C, device);
      launch_gather(p64.data(), 8, index_ref{first.data(), true}, count, 0, res.indices.data(), s);
    }
  }
  if (rinv) {
    res.inverse = new_array(dtype::int64, shape_t{n}, order::C, device);
    index_ref pr{n > 0 ? perm.perm.data() : nullptr, n > 0 && perm.wide()};
    launch_inverse(static_cast<const std::int64_t*>(pos.data()), pr, n, static_cast<std::int64_t*>(res.inverse.data()),
                   s);
  }
  if (rc) {
    res.counts = new_array(dtype::int64, shape_t{count}, order::C, device);
    launch_counts(static_cast<const std::int64_t*>(first.data()), count, n,
                  static_cast<std::int64_t*>(res.counts.data()), s);
  }
  return res;
}

array ravel(const array& a) { return c_contiguous(a.reshape(shape_t{-1})); }

void check_isin_kind(std::optional<std::string_view> kind, dtype t1, dtype t2) {
  if (!kind) return;
  if (*kind != "sort" && *kind != "table") {
    throw value_error("Invalid kind: '" + std::string(*kind) + "'. Please use None, 'sort' or 'table'.");
  }
  auto int_like = [](dtype t) { return is_integer(t) || is_bool(t); };
  if (*kind == "table" && !(int_like(t1) && int_like(t2))) {
    throw value_error(
        "The 'table' method is only supported for boolean or integer arrays. Please select 'sort' or None for kind.");
  }
}

}  // namespace

unique_result unique(const array& ar_peer, bool return_index, bool return_inverse, bool return_counts,
                     std::optional<int> axis_in, bool equal_nan) {
  const array ar = detail::on_current_device(ar_peer);  // Note [peer operands]
  if (!axis_in) {
    array flat = ravel(ar);
    unique_result r = unique_rows(flat, 1, return_index, return_inverse, return_counts, equal_nan, false);
    // NumPy 2: the inverse has the input's shape when no axis is given.
    if (return_inverse) r.inverse = r.inverse.reshape(ar.shape());
    return r;
  }
  int axis = normalize_axis(*axis_in, ar.ndim());
  std::vector<int> axes{axis};
  for (int i = 0; i < ar.ndim(); ++i) {
    if (i != axis) axes.push_back(i);
  }
  array moved = c_contiguous(ar.transpose(axes));
  std::int64_t n = moved.shape()[0];
  std::int64_t m = 1;
  for (int i = 1; i < moved.ndim(); ++i) m *= moved.shape()[i];
  array rows2d = moved.reshape_view(shape_t{n, m});
  unique_result r = unique_rows(rows2d, m, return_index, return_inverse, return_counts, false, true);
  shape_t vshape = moved.shape();
  vshape[0] = r.values.shape()[0];
  array values = r.values.reshape_view(vshape);
  std::vector<int> back(static_cast<std::size_t>(ar.ndim()));
  for (int i = 0; i < ar.ndim(); ++i) back[static_cast<std::size_t>(axes[static_cast<std::size_t>(i)])] = i;
  r.values = values.transpose(back);
  return r;
}

array unique_values(const array& x) { return unique(x, false, false, false, std::nullopt, false).values; }

unique_result unique_counts(const array& x) { return unique(x, false, false, true, std::nullopt, false); }

unique_result unique_inverse(const array& x) { return unique(x, false, true, false, std::nullopt, false); }

unique_result unique_all(const array& x) { return unique(x, true, true, true, std::nullopt, false); }

array in1d(const array& ar1_peer, const array& ar2_peer, bool /*assume_unique*/, bool invert,
           std::optional<std::string_view> kind) {
  const array ar1 = detail::on_current_device(ar1_peer);  // Note [peer operands]
  const array ar2 = detail::on_current_device(ar2_peer);  // Note [peer operands]
  check_isin_kind(kind, ar1.type(), ar2.type());
  dtype t = promote_types(ar1.type(), ar2.type());
  array x = ravel(ar1).astype(t, order::C, false);
  array test = sort_rows(ravel(ar2).astype(t, order::C, false));
  array out = new_array(dtype::bool_, x.shape(), order::C, x.device());
  cudaStream_t s = enter_device(x.device());
  launch_isin(test.data(), test.size(), x.data(), x.size(), t, invert, static_cast<bool*>(out.data()), s);
  return out;
}

array isin(const array& element, const array& test_elements, bool assume_unique, bool invert,
           std::optional<std::string_view> kind) {
  return in1d(element, test_elements, assume_unique, invert, kind).reshape(element.shape());
}

intersect_result intersect1d(const array& ar1_in_peer, const array& ar2_in_peer, bool assume_unique,
                             bool return_indices) {
  const array ar1_in = detail::on_current_device(ar1_in_peer);  // Note [peer operands]
  const array ar2_in = detail::on_current_device(ar2_in_peer);  // Note [peer operands]
  array ar1, ar2, ind1, ind2;
  if (!assume_unique) {
    unique_result u1 = unique(ar1_in, return_indices), u2 = unique(ar2_in, return_indices);
    ar1 = u1.values, ar2 = u2.values, ind1 = u1.indices, ind2 = u2.indices;
  } else {
    ar1 = ravel(ar1_in), ar2 = ravel(ar2_in);
  }
  dtype t = promote_types(ar1.type(), ar2.type());
  array aux = concat_1d(ar1, ar2, t);
  std::int64_t n = aux.size();
  int device = aux.device();
  intersect_result res;
  row_perm perm;
  if (return_indices && n > 0) {
    perm = argsort_rows({aux});
    aux = gather_rows_by(aux, perm);
  } else if (n > 0) {
    aux = sort_rows(aux);
  }
  if (n == 0) {
    res.values = empty_1d(t, device);
    if (return_indices) res.indices1 = empty_1d(dtype::int64, device), res.indices2 = empty_1d(dtype::int64, device);
    return res;
  }
  array mask = new_array(dtype::bool_, shape_t{n - 1}, order::C, device);
  cudaStream_t s = enter_device(device);
  launch_neighbor_mask(aux.data(), t, n, 0, static_cast<bool*>(mask.data()), s);
  std::int64_t isz = static_cast<std::int64_t>(aux.itemsize());
  array head(aux.storage(), descriptor{t, shape_t{n - 1}, strides_t{isz}, aux.offset()});
  res.values = compress_1d(head, mask);
  if (!return_indices) return res;
  array p64 = perm_int64(perm);
  array lo(p64.storage(), descriptor{dtype::int64, shape_t{n - 1}, strides_t{8}, p64.offset()});
  array hi(p64.storage(), descriptor{dtype::int64, shape_t{n - 1}, strides_t{8}, p64.offset() + 8});
  array i1 = compress_1d(lo, mask);
  array i2 = compress_1d(hi, mask);
  ufunc_options opts;
  opts.out.push_back(i2);
  call_ufunc("subtract", {ufunc_arg(i2), ufunc_arg(ar1.size())}, opts);
  if (!assume_unique) {
    array g1 = new_array(dtype::int64, i1.shape(), order::C, device);
    array g2 = new_array(dtype::int64, i2.shape(), order::C, device);
    launch_gather(ind1.data(), 8, index_ref{i1.data(), true}, i1.size(), 0, g1.data(), s);
    launch_gather(ind2.data(), 8, index_ref{i2.data(), true}, i2.size(), 0, g2.data(), s);
    i1 = g1, i2 = g2;
  }
  res.indices1 = i1;
  res.indices2 = i2;
  return res;
}

array union1d(const array& ar1, const array& ar2) {
  return unique(concat_1d(ar1, ar2, promote_types(ar1.type(), ar2.type()))).values;
}

array setdiff1d(const array& ar1_in_peer, const array& ar2_in_peer, bool assume_unique) {
  const array ar1_in = detail::on_current_device(ar1_in_peer);  // Note [peer operands]
  const array ar2_in = detail::on_current_device(ar2_in_peer);  // Note [peer operands]
  array ar1 = assume_unique ? ravel(ar1_in) : unique(ar1_in).values;
  array ar2 = unique(ar2_in).values;
  return compress_1d(ar1, in1d(ar1, ar2, true, true));
}

array setxor1d(const array& ar1_in_peer, const array& ar2_in_peer, bool assume_unique) {
  const array ar1_in = detail::on_current_device(ar1_in_peer);  // Note [peer operands]
  const array ar2_in = detail::on_current_device(ar2_in_peer);  // Note [peer operands]
  array ar1 = assume_unique ? ravel(ar1_in) : unique(ar1_in).values;
  array ar2 = assume_unique ? ravel(ar2_in) : unique(ar2_in).values;
  dtype t = promote_types(ar1.type(), ar2.type());
  array aux = concat_1d(ar1, ar2, t);
  std::int64_t n = aux.size();
  if (n == 0) return aux;
  aux = sort_rows(aux);
  array mask = new_array(dtype::bool_, shape_t{n}, order::C, aux.device());
  cudaStream_t s = enter_device(aux.device());
  launch_neighbor_mask(aux.data(), t, n, 1, static_cast<bool*>(mask.data()), s);
  return compress_1d(aux, mask);
}

}  // namespace cuarray
