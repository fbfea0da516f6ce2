// nonzero, argwhere, extract and boolean masks: one count (the one synchronisation), then a CUB select.
#include "cuarray/select.hpp"

#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"
#include "src/engine/scan.hpp"
#include "src/kernels/select_kernels.hpp"

namespace cuarray {

using detail::new_array;
using detail::slice_axis;

namespace {

// Nonzero flags of `a` in C order, one byte each.
array flags_of(const array& a) {
  if (a.type() == bool_) return a.astype(bool_, order::C, false);
  return not_equal(ufunc_arg(a), ufunc_arg(0)).astype(bool_, order::C, false);
}

std::int64_t count_flags(const array& flags) {
  if (flags.size() == 0) return 0;
  int device = flags.device();
  array count = new_array(int64, shape_t{1}, order::C, device);
  cudaStream_t s = detail::enter_device(device);
  detail::pool_scratch scratch(device);
  detail::launch_count_flags(static_cast<const unsigned char*>(flags.data()), flags.size(),
                             static_cast<std::int64_t*>(count.data()), scratch, s);
  return detail::read_int64(count);
}

// The flat indices of the set flags (`count` of them, known).
array flat_indices(const array& flags, std::int64_t count) {
  int device = flags.device();
  array out = new_array(int64, shape_t{count}, order::C, device);
  if (count == 0) return out;
  array selected = new_array(int64, shape_t{1}, order::C, device);
  cudaStream_t s = detail::enter_device(device);
  detail::pool_scratch scratch(device);
  detail::launch_select_indices(static_cast<const unsigned char*>(flags.data()), static_cast<std::int64_t*>(out.data()),
                                static_cast<std::int64_t*>(selected.data()), flags.size(), scratch, s);
  return out;
}

// (ndim, count) int64: row d holds coordinate d of each nonzero element.
array coordinates(const array& a) {
  array flags = flags_of(a);
  std::int64_t count = count_flags(flags);
  array flat = flat_indices(flags, count);
  if (a.ndim() == 1) return flat.reshape_view(shape_t{1, count});
  array out = new_array(int64, shape_t{a.ndim(), count}, order::C, a.device());
  if (count > 0) {
    cudaStream_t s = detail::enter_device(a.device());
    detail::launch_unravel(static_cast<const std::int64_t*>(flat.data()), count, a.ndim(), a.shape().data(),
                           static_cast<std::int64_t*>(out.data()), s);
  }
  return out;
}

// The elements of `x` (1-D) whose flag is set: `flags` has x's length.
array compress_flat(const array& x_in, const array& flags) {
  std::int64_t count = count_flags(flags);
  array x = x_in.astype(x_in.type(), order::C, false);
  array out = new_array(x.type(), shape_t{count}, order::C, x.device());
  if (count == 0) return out;
  array selected = new_array(int64, shape_t{1}, order::C, x.device());
  cudaStream_t s = detail::enter_device(x.device());
  detail::pool_scratch scratch(x.device());
  detail::launch_select_flagged(x.itemsize(), x.data(), static_cast<const unsigned char*>(flags.data()), out.data(),
                                static_cast<std::int64_t*>(selected.data()), x.size(), scratch, s);
  return out;
}

}  // namespace

std::vector<array> nonzero(const array& a_in) {
  // CuPy: on the current device; every step below then runs on its stream (Note [peer operands]).
  const array a = detail::on_current_device(a_in);
  if (a.ndim() == 0) {
    throw value_error("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. "
                      "If the context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
  }
  array c = coordinates(a);
  std::vector<array> out;
  for (int d = 0; d < a.ndim(); ++d) {
    descriptor desc{int64, shape_t{c.shape()[1]}, strides_t{8}, c.offset() + d * c.strides()[0]};
    out.emplace_back(c.storage(), std::move(desc));
  }
  return out;
}

array flatnonzero(const array& a) { return nonzero(a.reshape(shape_t{-1}))[0]; }

array argwhere(const array& a_in) {
  const array a = detail::on_current_device(a_in);  // Note [peer operands]
  if (a.ndim() == 0) {
    std::int64_t count = count_flags(flags_of(a.reshape(shape_t{1})));
    return new_array(int64, shape_t{count, 0}, order::C, a.device());
  }
  return coordinates(a).transpose();  // NumPy's transpose(nonzero(a)): an F-ordered view
}

array extract(const array& condition_in, const array& arr_in) {
  // Note [peer operands]: both on the current device, so that every step runs on its stream.
  const array condition = detail::on_current_device(condition_in), arr = detail::on_current_device(arr_in);
  array flags = flags_of(condition.reshape(shape_t{-1}));
  array x = arr.reshape(shape_t{-1});
  std::int64_t nc = flags.size(), nx = x.size();
  if (nc > nx) {
    array tail = slice_axis(flags, 0, nx, nc).astype(bool_, order::C, false);
    std::int64_t beyond = count_flags(tail);
    if (beyond > 0) {
      std::int64_t first = detail::read_int64(slice_axis(flat_indices(tail, beyond), 0, 0, 1));
      throw index_error("index " + std::to_string(nx + first) + " is out of bounds for axis 0 with size " +
                        std::to_string(nx));
    }
    return compress_flat(x, slice_axis(flags, 0, 0, nx));
  }
  return compress_flat(slice_axis(x, 0, 0, nc), flags);
}

array compress_mask(const array& a_in, const array& mask_in) {
  if (mask_in.type() != bool_) throw type_error("compress_mask: the mask must be a bool array");
  // Note [peer operands]: both on the current device, so that every step runs on its stream.
  const array a = detail::on_current_device(a_in), mask = detail::on_current_device(mask_in);
  int k = mask.ndim();
  if (k > a.ndim()) {
    throw index_error("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                      std::to_string(k) + " were indexed");
  }
  for (int d = 0; d < k; ++d) {
    if (mask.shape()[d] != a.shape()[d]) {
      throw index_error("boolean index did not match indexed array along axis " + std::to_string(d) +
                        "; size of axis is " + std::to_string(a.shape()[d]) +
                        " but size of corresponding boolean axis is " + std::to_string(mask.shape()[d]));
    }
  }
  shape_t inner(a.shape().begin() + k, a.shape().end());
  std::int64_t rows = shape_size(mask.shape()), row_len = shape_size(inner);
  array flags = flags_of(mask.reshape(shape_t{rows}));
  if (k == a.ndim()) return compress_flat(a.reshape(shape_t{rows}), flags);
  std::int64_t count = count_flags(flags);
  shape_t out_shape = inner;
  out_shape.insert(0, count);
  array out = new_array(a.type(), out_shape, order::C, a.device());
  if (count == 0 || row_len == 0) return out;
  array idx = flat_indices(flags, count);
  array x = a.astype(a.type(), order::C, false);
  cudaStream_t s = detail::enter_device(a.device());
  detail::launch_gather_rows(x.data(), static_cast<const std::int64_t*>(idx.data()), count,
                             row_len * static_cast<std::int64_t>(a.itemsize()), out.data(), s);
  return out;
}

}  // namespace cuarray
