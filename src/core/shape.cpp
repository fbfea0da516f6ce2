// Shape and stride arithmetic with NumPy's rules and error messages.
#include "cuarray/shape.hpp"

#include <cstdlib>
#include <limits>
#include <numeric>
#include <vector>

#include "cuarray/errors.hpp"

namespace cuarray {

order parse_order(char c) {
  switch (c) {
    case 'C':
    case 'c': return order::C;
    case 'F':
    case 'f': return order::F;
    case 'A':
    case 'a': return order::A;
    case 'K':
    case 'k': return order::K;
    default: throw value_error(std::string("order must be one of 'C', 'F', 'A', or 'K' (got '") + c + "')");
  }
}

std::int64_t checked_size(const shape_t& shape, std::size_t itemsize) {
  if (shape.size() > max_ndim) {
    throw value_error("maximum supported dimension for an ndarray is currently " + std::to_string(max_ndim) +
                      ", found " + std::to_string(shape.size()));
  }
  // Overflow-checked products (no division: this runs for every new array).
  std::int64_t n = 1;
  bool overflow = false;
  for (auto d : shape) {
    if (d < 0) throw value_error("negative dimensions are not allowed");
    std::int64_t next;
    if (!overflow && __builtin_mul_overflow(n, d, &next)) overflow = true;
    if (!overflow) n = next;
  }
  for (auto d : shape)
    if (d == 0) return 0;
  std::int64_t bytes;
  if (overflow || __builtin_mul_overflow(n, static_cast<std::int64_t>(itemsize), &bytes)) {
    throw value_error("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  }
  return n;
}

std::int64_t shape_size(const shape_t& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

strides_t contiguous_strides(const shape_t& shape, std::size_t itemsize, order o) {
  strides_t s(shape.size());
  std::int64_t acc = static_cast<std::int64_t>(itemsize);
  if (o == order::F) {
    for (int i = 0; i < shape.size(); ++i) {
      s[i] = acc;
      acc *= shape[i] > 0 ? shape[i] : 1;
    }
  } else {
    for (int i = shape.size() - 1; i >= 0; --i) {
      s[i] = acc;
      acc *= shape[i] > 0 ? shape[i] : 1;
    }
  }
  return s;
}

bool is_c_contiguous(const shape_t& shape, const strides_t& strides, std::size_t itemsize) {
  std::int64_t expected = static_cast<std::int64_t>(itemsize);
  for (auto d : shape)
    if (d == 0) return true;
  for (int i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool is_f_contiguous(const shape_t& shape, const strides_t& strides, std::size_t itemsize) {
  std::int64_t expected = static_cast<std::int64_t>(itemsize);
  for (auto d : shape)
    if (d == 0) return true;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

strides_t strides_like(const shape_t& shape, const strides_t& like, std::size_t itemsize) {
  int n = shape.size();
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  // Axis with the largest |stride| is outermost; ties keep C order, as NumPy's order='K' does.
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return std::llabs(like[a]) > std::llabs(like[b]); });
  strides_t s(n);
  std::int64_t acc = static_cast<std::int64_t>(itemsize);
  for (int k = n - 1; k >= 0; --k) {
    int ax = perm[static_cast<std::size_t>(k)];
    s[ax] = acc;
    acc *= shape[ax] > 0 ? shape[ax] : 1;
  }
  return s;
}

shape_t broadcast_shapes(const shape_t& a, const shape_t& b) {
  int n = std::max(a.size(), b.size());
  shape_t out(n);
  for (int i = 0; i < n; ++i) {
    int ia = a.size() - n + i, ib = b.size() - n + i;
    std::int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == db || db == 1) out[i] = da;
    else if (da == 1) out[i] = db;
    else {
      throw value_error("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between " +
                        shape_to_string(a) + " and " + shape_to_string(b));
    }
  }
  return out;
}

shape_t keepdims_shape(const shape_t& shape, const std::vector<int>& axes) {
  shape_t s = shape;
  for (int ax : axes) s[static_cast<std::size_t>(ax)] = 1;
  return s;
}

std::string shape_to_string(const shape_t& shape) {
  std::string s = "(";
  for (int i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

void byte_extent(const shape_t& shape, const strides_t& strides, std::size_t itemsize, std::int64_t& low,
                 std::int64_t& high) {
  low = 0;
  high = static_cast<std::int64_t>(itemsize);
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) {
      high = 0;
      return;
    }
    std::int64_t span = (shape[i] - 1) * strides[i];
    if (span < 0) low += span;
    else high += span;
  }
}

}  // namespace cuarray
