// Array creation: empty, zeros, ones, full, ranges (NumPy's formulas), eye, host and cross-device copies.
#include "cuarray/creation.hpp"

#include <cmath>
#include <limits>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/graph.hpp"
#include "cuarray/transfer.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/check.hpp"

namespace cuarray {

using detail::enter_device;
using detail::new_array;

array empty(const shape_t& shape, dtype t, order o) {
  if (o != order::C && o != order::F) throw value_error("only 'C' or 'F' order is permitted");
  return new_array(t, shape, o, current_device());
}

array zeros(const shape_t& shape, dtype t, order o) {
  array a = empty(shape, t, o);
  if (a.nbytes()) CUARRAY_CUDA_CHECK(cudaMemsetAsync(a.data(), 0, a.nbytes(), enter_device(a.device())));
  return a;
}

array ones(const shape_t& shape, dtype t, order o) { return full(shape, scalar::from_int(1, t), t, o); }

array full(const shape_t& shape, const scalar& value, dtype t, order o) {
  array a = empty(shape, t, o);
  a.fill(value);
  return a;
}

array full(const shape_t& shape, double value, dtype t, order o) {
  return full(shape, scalar::from_double(value, t), t, o);
}

array empty_like(const array& a, order o) { return empty_like(a, a.type(), o); }

array empty_like(const array& a, dtype t, order o) {
  std::size_t isz = itemsize(t);
  strides_t strides;
  switch (o) {
    case order::C: strides = contiguous_strides(a.shape(), isz, order::C); break;
    case order::F: strides = contiguous_strides(a.shape(), isz, order::F); break;
    case order::A:
      strides = contiguous_strides(a.shape(), isz, a.is_f_contiguous() && !a.is_c_contiguous() ? order::F : order::C);
      break;
    case order::K: strides = strides_like(a.shape(), a.strides(), isz); break;
  }
  return new_array(t, a.shape(), strides, current_device());
}

array empty_like_strides(const shape_t& shape, const strides_t& strides, dtype t) {
  if (strides.size() != shape.size()) throw value_error("strides must have one entry per dimension");
  return new_array(t, shape, strides_like(shape, strides, itemsize(t)), current_device());
}

array zeros_like(const array& a, order o) {
  array out = empty_like(a, o);
  out.fill(scalar::from_int(0, out.type()));
  return out;
}

array ones_like(const array& a, order o) {
  array out = empty_like(a, o);
  out.fill(scalar::from_int(1, out.type()));
  return out;
}

array full_like(const array& a, const scalar& value, order o) {
  array out = empty_like(a, o);
  out.fill(value);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Ranges

array arange_n(std::int64_t n, const scalar& start, const scalar& step, dtype t) {
  if (n < 0) n = 0;
  if (t == dtype::bool_ && n > 2) {
    throw type_error("arange() is only supported for booleans when the result has at most length 2.");
  }
  array a = empty(shape_t{n}, t);
  if (n == 0) return a;
  // NumPy's fill computes the step as (start + step) - start in the output type, so do the same.
  scalar s0 = start.cast(t);
  scalar delta;
  if (is_complex(t)) {
    delta = scalar::from_complex((start.to_complex() + step.to_complex()), t);
    std::complex<double> d = delta.to_complex() - s0.to_complex();
    delta = scalar::from_complex(d, t);
  } else if (is_integer(t) || is_bool(t)) {
    delta = scalar::from_int(step.to_int64(), t);
  } else {
    scalar s1 = scalar::from_double(start.to_double() + step.to_double(), t);
    delta = scalar::from_double(s1.to_double() - s0.to_double(), t);
  }
  detail::launch_arange(a.data(), t, n, s0.bytes, delta.bytes, enter_device(a.device()));
  return a;
}

array arange(double start, double stop, double step, dtype t) {
  if (step == 0) throw value_error("Maximum allowed size exceeded");
  double len = std::ceil((stop - start) / step);
  if (std::isnan(len)) throw value_error("arange: cannot compute length");
  if (len > static_cast<double>(std::numeric_limits<std::int64_t>::max())) {
    throw value_error("Maximum allowed size exceeded");
  }
  std::int64_t n = len > 0 ? static_cast<std::int64_t>(len) : 0;
  return arange_n(n, scalar::from_double(start), scalar::from_double(step), t);
}

array arange(std::int64_t start, std::int64_t stop, std::int64_t step, dtype t) {
  if (step == 0) throw value_error("Maximum allowed size exceeded");
  // Length in 128-bit arithmetic so that extreme bounds do not overflow.
  __int128 span = static_cast<__int128>(stop) - start;
  __int128 len = step > 0 ? (span + step - 1) / step : (span + step + 1) / step;
  std::int64_t n = len > 0 ? static_cast<std::int64_t>(len) : 0;
  return arange_n(n, scalar::from_int(start), scalar::from_int(step), t);
}

namespace {

void check_num(std::int64_t num) {
  if (num < 0) throw value_error("Number of samples, " + std::to_string(num) + ", must be non-negative.");
}

// NumPy's linspace: step = delta / div, y = i * step + start, or (i / div) * delta + start when the step
// underflows to zero, with the last value set to stop exactly when endpoint is true.
detail::space_params linear_params(std::complex<double> start, std::complex<double> stop, std::int64_t num,
                                   bool endpoint, std::complex<double>* step_out) {
  detail::space_params p;
  double div = endpoint ? static_cast<double>(num - 1) : static_cast<double>(num);
  std::complex<double> delta = stop - start;
  p.start = start;
  p.stop = stop;
  p.delta = delta;
  p.div = div;
  std::complex<double> step;
  if (div > 0) {
    step = delta / div;
    bool step_zero = step == std::complex<double>(0, 0);
    p.linear_mode = step_zero ? 1 : 0;
    p.step = step;
  } else {
    double nan = std::numeric_limits<double>::quiet_NaN();
    step = {nan, delta.imag() != 0 ? nan : 0.0};
    p.linear_mode = 2;
  }
  p.set_last = endpoint && num > 1;
  if (step_out) *step_out = step;
  return p;
}

array run_space(std::int64_t num, dtype t, detail::space_params p) {
  array a = empty(shape_t{num}, t);
  detail::launch_space(a.data(), t, num, p, enter_device(a.device()));
  return a;
}

}  // namespace

array linspace(double start, double stop, std::int64_t num, bool endpoint, dtype t, double* step_out) {
  std::complex<double> step;
  array a = linspace(std::complex<double>(start), std::complex<double>(stop), num, endpoint, t, &step);
  if (step_out) *step_out = step.real();
  return a;
}

array linspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint, dtype t,
               std::complex<double>* step_out) {
  check_num(num);
  detail::space_params p = linear_params(start, stop, num, endpoint, step_out);
  p.complex_math = is_complex(t) || start.imag() != 0 || stop.imag() != 0;
  p.floor = is_integer(t);
  return run_space(num, t, p);
}

array logspace(double start, double stop, std::int64_t num, bool endpoint, double base, dtype t) {
  return logspace(std::complex<double>(start), std::complex<double>(stop), num, endpoint, std::complex<double>(base),
                  t);
}

array logspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint,
               std::complex<double> base, dtype t) {
  check_num(num);
  detail::space_params p = linear_params(start, stop, num, endpoint, nullptr);
  p.log = true;
  p.base = base;
  p.complex_math = is_complex(t) || start.imag() != 0 || stop.imag() != 0 || base.imag() != 0;
  return run_space(num, t, p);
}

namespace {

// numpy.sign of a real: -1, 0, 1, or NaN for NaN.
double real_sign(double x) {
  if (std::isnan(x)) return x;
  return x < 0 ? -1.0 : (x > 0 ? 1.0 : 0.0);
}

// numpy.sign of a complex (NumPy 2): z / |z|, NaN for a NaN part, the direction of the infinite part when
// one part is infinite, NaN when both are.
std::complex<double> complex_sign(std::complex<double> z) {
  double re = z.real(), im = z.imag();
  double nan = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(re) || std::isnan(im)) return {nan, nan};
  if (std::isinf(re) && std::isinf(im)) return {nan, nan};
  if (std::isinf(re)) return {std::copysign(1.0, re), 0.0};
  if (std::isinf(im)) return {0.0, std::copysign(1.0, im)};
  double m = std::abs(z);
  if (m == 0) return {0.0, 0.0};
  return {re / m, im / m};
}

}  // namespace

array geomspace(double start, double stop, std::int64_t num, bool endpoint, dtype t) {
  return geomspace(std::complex<double>(start), std::complex<double>(stop), num, endpoint, t);
}

array geomspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint, dtype t) {
  check_num(num);
  if (start == 0.0 || stop == 0.0) throw value_error("Geometric sequence cannot include zero");
  bool cplx = is_complex(t) || start.imag() != 0 || stop.imag() != 0;
  // NumPy divides both ends by sign(start) (start / |start| for complex), takes log10 of both, runs
  // logspace in base 10, pins the ends to the exact inputs and multiplies the sign back. sign(NaN) is NaN,
  // which makes every element NaN (the pinned ends included), as in NumPy.
  std::complex<double> sign = cplx ? complex_sign(start) : std::complex<double>(real_sign(start.real()));
  std::complex<double> s = start / sign, e = stop / sign;
  std::complex<double> log_s, log_e;
  if (cplx) {
    log_s = std::log10(s);
    log_e = std::log10(e);
  } else {
    log_s = std::log10(s.real());
    log_e = std::log10(e.real());
  }
  detail::space_params p = linear_params(log_s, log_e, num, endpoint, nullptr);
  p.log = true;
  p.base = 10.0;
  p.geometric = true;
  p.first = s;
  p.last = e;
  p.sign = sign;
  p.floor = is_integer(t);
  p.complex_math = cplx;
  return run_space(num, t, p);
}

array eye(std::int64_t n, std::int64_t m, std::int64_t k, dtype t, order o) {
  if (n < 0 || m < 0) throw value_error("negative dimensions are not allowed");
  array a = zeros(shape_t{n, m}, t, o);
  array d = a.diagonal_view(k);
  if (d.size() > 0) d.fill(scalar::from_int(1, t));
  return a;
}

array identity(std::int64_t n, dtype t) { return eye(n, n, 0, t); }

array from_host(const void* data, dtype t, const shape_t& shape, order o) {
  array a = empty(shape, t, o == order::F ? order::F : order::C);
  a.copy_from_host(data, a.nbytes(), o == order::F ? order::F : order::C);  // the shape says how much
  return a;
}

namespace detail {

array on_current_device(const array& a) {
  const int device = current_device();
  if (a.device() == device) return a;
  require_peer_access(device, a.device());
  return to_device(a, device);
}

}  // namespace detail

array to_device(const array& a, int device) {
  if (a.device() == device) return a.copy(order::K);
  // Pack on the source device, move the bytes across, and lay them out on the destination.
  array packed = a.is_contiguous() ? a : a.copy(order::C);
  array out = new_array(a.type(), a.shape(), packed.strides(), device);
  if (out.nbytes()) {
    activate_device(a.device());
    require_not_capturing(current_stream(a.device()), "A copy between devices");
    CUARRAY_CUDA_CHECK(cudaStreamSynchronize(current_stream(a.device()).get()));  // packed is ready
    cudaStream_t s = enter_device(device);
    memcpy_device_to_device(out.data(), device, packed.data(), a.device(), out.nbytes(), stream_ref(s));
    CUARRAY_CUDA_CHECK(cudaStreamSynchronize(s));  // `packed` may be freed on its own stream afterwards
  }
  activate_device(current_device());
  return out;
}

}  // namespace cuarray
