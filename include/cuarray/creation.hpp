// Array creation: empty, zeros, ones, full, ranges, identity matrices and copies from host memory.
#pragma once

#include <complex>
#include <cstdint>

#include "cuarray/array.hpp"

namespace cuarray {

array empty(const shape_t& shape, dtype t = float64, order o = order::C);
array zeros(const shape_t& shape, dtype t = float64, order o = order::C);
array ones(const shape_t& shape, dtype t = float64, order o = order::C);
array full(const shape_t& shape, const scalar& value, dtype t, order o = order::C);
array full(const shape_t& shape, double value, dtype t = float64, order o = order::C);

/// `_like` forms: shape and dtype of `a` unless given; order K keeps `a`'s axis order.
array empty_like(const array& a, order o = order::K);
array empty_like(const array& a, dtype t, order o = order::K);
/// An uninitialised dense array of `shape` on the current device whose axes are ordered as `strides` order them
/// (NumPy's order 'K' of a copy: the axis of the largest stride outermost); `strides` may be any, even overlapping.
array empty_like_strides(const shape_t& shape, const strides_t& strides, dtype t);
array zeros_like(const array& a, order o = order::K);
array ones_like(const array& a, order o = order::K);
array full_like(const array& a, const scalar& value, order o = order::K);

/// NumPy's arange: ceil((stop - start) / step) values start + i * step. Throws value_error for step 0.
array arange(double start, double stop, double step = 1.0, dtype t = float64);
array arange(std::int64_t start, std::int64_t stop, std::int64_t step = 1, dtype t = int64);
/// Values start + i * step for i < n, computed as NumPy's fill does for `t` (start and step given in t's
/// precision); the engine behind arange.
array arange_n(std::int64_t n, const scalar& start, const scalar& step, dtype t);

/// NumPy's linspace over scalars; `step_out` receives the step (NaN when num - endpoint == 0).
array linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true, dtype t = float64,
               double* step_out = nullptr);
array linspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint, dtype t,
               std::complex<double>* step_out = nullptr);
array logspace(double start, double stop, std::int64_t num = 50, bool endpoint = true, double base = 10.0,
               dtype t = float64);
array logspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint,
               std::complex<double> base, dtype t);
array geomspace(double start, double stop, std::int64_t num = 50, bool endpoint = true, dtype t = float64);
array geomspace(std::complex<double> start, std::complex<double> stop, std::int64_t num, bool endpoint, dtype t);

array eye(std::int64_t n, std::int64_t m, std::int64_t k = 0, dtype t = float64, order o = order::C);
array identity(std::int64_t n, dtype t = float64);

/// Copy `nbytes`-sized host data laid out contiguously (C or F) into a new device array.
array from_host(const void* data, dtype t, const shape_t& shape, order o = order::C);
/// A copy of `a` on another device (or the same one).
array to_device(const array& a, int device);

}  // namespace cuarray
