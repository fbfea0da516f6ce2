// Shared argument handling of cuarray.random's C++ files: parameters, NumPy's broadcast messages, checks.
#pragma once

#include <string>
#include <vector>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/random.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/random_kernels.hpp"

namespace cuarray::random::detail_random {

using cuarray::detail::rng::dist;
using cuarray::detail::rng::param;

inline std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

// A distribution parameter as NumPy takes it: float64 by 'safe' casting, a scalar or an array.
struct source {
  array arr;
  double value = 0;
  bool is_array() const { return arr.defined(); }
  shape_t shape() const { return is_array() ? arr.shape() : shape_t{}; }
};

inline source to_source(const ufunc_arg& a) {
  dtype t = a.is_scalar() ? a.value.type : a.arr.type();
  if (is_complex(t)) {
    throw type_error("Cannot cast array data from " + dtype_repr(t) +
                     " to dtype('float64') according to the rule 'safe'");
  }
  if (a.is_scalar()) return {array(), a.value.to_double()};
  return {a.arr.astype(float64, order::K, false), 0};
}

inline std::vector<double> to_host(const array& a) {
  array f = a.type() == float64 ? a : a.astype(float64);
  std::vector<double> h(static_cast<std::size_t>(f.size()));
  f.copy_to_host(h);
  return h;
}

// Throws value_error(msg) when bad(v) holds for the scalar or any element of the array.
template <class Bad> inline void check(const source& s, Bad bad, const char* msg) {
  if (!s.is_array()) {
    if (bad(s.value)) throw value_error(msg);
    return;
  }
  for (double v : to_host(s.arr)) {
    if (bad(v)) throw value_error(msg);
  }
}

inline bool pairwise_broadcasts(const shape_t& a, const shape_t& b) {
  try {
    broadcast_shapes(a, b);
    return true;
  } catch (const value_error&) {
    return false;
  }
}

// `size` parsed as NumPy parses it, after the parameters' checks (Note [random size]): type_error for a
// size that is not a sequence of integers, value_error for a negative extent; the element count.
inline std::int64_t check_size(const shape_t& size) {
  for (auto d : size) {
    if (d == invalid_size_dim) throw type_error(invalid_size_message);
  }
  return checked_size(size);
}

// Whether `size` has an extent 0 (samplers that take nothing from an empty size check nothing more).
inline bool has_zero_extent(const size_arg& size) {
  if (!size) return false;
  for (auto d : *size) {
    if (d == 0) return true;
  }
  return false;
}

// NumPy's broadcast of the parameters (after `size` when given), with its messages.
inline shape_t broadcast_params(const std::vector<shape_t>& params, const size_arg& size) {
  std::vector<shape_t> shapes;
  if (size) {
    check_size(*size);
    shapes.push_back(*size);
  }
  shapes.insert(shapes.end(), params.begin(), params.end());
  if (shapes.empty()) return {};
  shape_t r = shapes[0];
  for (std::size_t i = 1; i < shapes.size(); ++i) {
    if (pairwise_broadcasts(r, shapes[i])) {
      r = broadcast_shapes(r, shapes[i]);
      continue;
    }
    std::size_t j = 0;
    while (j < i && pairwise_broadcasts(shapes[j], shapes[i])) ++j;
    throw value_error("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                      std::to_string(j) + " with shape " + shape_to_string(shapes[j]) + " and arg " +
                      std::to_string(i) + " with shape " + shape_to_string(shapes[i]) + ".");
  }
  if (size && r != *size) {
    throw value_error("Output size " + shape_to_string(*size) +
                      " is not compatible with broadcast dimensions of inputs " + shape_to_string(r) + ".");
  }
  return r;
}

// A parameter for the kernels: its value, or a C-contiguous float64 array of the output's shape (kept alive
// in `keep` until the launch is enqueued; the pool orders its reuse after the kernel on the stream).
inline param to_param(const source& s, const shape_t& shape, int device, std::vector<array>& keep) {
  if (!s.is_array()) return {nullptr, s.value};
  array a = s.arr;
  if (!(a.shape() == shape && a.is_c_contiguous())) {
    array b = cuarray::detail::new_array(float64, shape, order::C, device);
    b.assign(a);
    a = b;
  }
  keep.push_back(a);
  return {static_cast<const double*>(a.data()), 0};
}

inline void check_float_dtype(dtype t, const char* func) {
  if (t != float32 && t != float64) throw type_error("Unsupported dtype " + dtype_repr(t) + " for " + func);
}

// NumPy's check_output, before the parameters are looked at: the layout, the dtype, then `size` against
// out.shape (a size that is not a shape simply differs from it).
inline void check_out(const array& out, dtype t, const size_arg& size) {
  if (!out.defined()) return;
  if (!out.is_c_contiguous()) {
    throw value_error("Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
  }
  if (out.type() != t) {
    throw type_error("Supplied output array has the wrong type. Expected " + std::string(name(t)) + ", got " +
                     std::string(name(out.type())));
  }
  if (size && *size != out.shape()) throw value_error("size must match out.shape when used together");
}

// The result array: `out` (already through check_out) when it has the broadcast shape, else a new one.
inline array prepare_out(const array& out, dtype t, const shape_t& shape) {
  if (!out.defined()) return cuarray::detail::new_array(t, shape, order::C, current_device());
  check_out(out, t, std::nullopt);
  if (out.shape() != shape) {
    throw value_error("Output size " + shape_to_string(out.shape()) +
                      " is not compatible with broadcast dimensions of inputs " + shape_to_string(shape) + ".");
  }
  return out;
}

}  // namespace cuarray::random::detail_random
