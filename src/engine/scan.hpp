// Helpers shared by the scan, selection and counting operations: pool scratch for CUB, axis slices, concatenation.
#pragma once

#include <string>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/errors.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/scan_kernels.hpp"

namespace cuarray::detail {

/// CUB's temporary storage from the memory pool, on the device's current stream: the blocks go back to the
/// pool when this object dies, which is after the kernels using them were enqueued (stream order).
struct pool_scratch final : scratch_allocator {
  explicit pool_scratch(int device) : device(device) {}
  void* allocate(std::size_t bytes) override {
    keep.push_back(new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(bytes ? bytes : 1)}, order::C, device));
    return keep.back().data();
  }
  int device;
  std::vector<array> keep;
};

/// The view a[..., start:stop, ...] along `axis` (0 <= start <= stop <= extent).
inline array slice_axis(const array& a, int axis, std::int64_t start, std::int64_t stop) {
  descriptor d = a.desc();
  d.shape[axis] = stop - start;
  if (stop > start) d.offset += start * d.strides[axis];
  return array(a.storage(), std::move(d));
}

/// A one-element int64 device value copied to the host (synchronises the stream).
inline std::int64_t read_int64(const array& a) { return a.host_value<std::int64_t>(); }

/// NumPy's concatenate along `axis` of arrays of equal ndim (result dtype: their promotion).
inline array concatenate_axis(const std::vector<array>& parts, int axis) {
  const array& first = parts.front();
  dtype t = first.type();
  shape_t shape = first.shape();
  shape[axis] = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const array& p = parts[i];
    if (p.ndim() != first.ndim()) {
      throw value_error("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                        std::to_string(first.ndim()) + " dimension(s) and the array at index " + std::to_string(i) +
                        " has " + std::to_string(p.ndim()) + " dimension(s)");
    }
    for (int d = 0; d < p.ndim(); ++d) {
      if (d != axis && p.shape()[d] != first.shape()[d]) {
        throw value_error("all the input array dimensions except for the concatenation axis must match exactly, but "
                          "along dimension " +
                          std::to_string(d) + ", the array at index 0 has size " + std::to_string(first.shape()[d]) +
                          " and the array at index " + std::to_string(i) + " has size " + std::to_string(p.shape()[d]));
      }
    }
    if (i > 0) t = promote_types(t, p.type());
    shape[axis] += p.shape()[axis];
  }
  array out = new_array(t, shape, order::C, first.device());
  std::int64_t at = 0;
  for (const array& p : parts) {
    std::int64_t len = p.shape()[axis];
    array dst = slice_axis(out, axis, at, at + len);
    dst.assign(p);
    at += len;
  }
  return out;
}

}  // namespace cuarray::detail
