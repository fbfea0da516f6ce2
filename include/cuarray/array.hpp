// The n-dimensional array: storage (who owns the bytes) plus descriptor (how to read them).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuarray/dtype.hpp"
#include "cuarray/memory.hpp"
#include "cuarray/shape.hpp"

namespace cuarray {

/// How to read an array's bytes: dtype, shape, byte strides and byte offset into its storage.
struct descriptor {
  dtype type = dtype::float64;
  shape_t shape;
  strides_t strides;
  std::int64_t offset = 0;

  int ndim() const { return shape.size(); }
  std::int64_t size() const { return shape_size(shape); }
};

/// A value of one of the supported dtypes, stored as its bytes (little-endian, as on the device).
struct scalar {
  dtype type = dtype::float64;
  alignas(16) unsigned char bytes[16] = {};

  static scalar from_bool(bool v);
  static scalar from_int(std::int64_t v, dtype t = dtype::int64);
  static scalar from_uint(std::uint64_t v, dtype t = dtype::uint64);
  static scalar from_double(double v, dtype t = dtype::float64);
  static scalar from_complex(std::complex<double> v, dtype t = dtype::complex128);
  /// This value converted to another dtype with C/NumPy 'unsafe' casting rules.
  scalar cast(dtype to) const;
  double to_double() const;
  std::int64_t to_int64() const;
  std::complex<double> to_complex() const;
};

/// An n-dimensional array in device memory. Copying an `array` makes another view of the same bytes.
class array {
public:
  array() = default;
  array(storage_ptr storage, descriptor desc);

  dtype type() const { return desc_.type; }
  const shape_t& shape() const { return desc_.shape; }
  const strides_t& strides() const { return desc_.strides; }
  std::int64_t offset() const { return desc_.offset; }
  const descriptor& desc() const { return desc_; }
  int ndim() const { return desc_.ndim(); }
  std::int64_t size() const { return size_; }
  std::size_t itemsize() const { return cuarray::itemsize(desc_.type); }
  std::size_t nbytes() const { return static_cast<std::size_t>(size_) * itemsize(); }
  bool is_c_contiguous() const { return c_contiguous_; }
  bool is_f_contiguous() const { return f_contiguous_; }
  bool is_contiguous() const { return c_contiguous_ || f_contiguous_; }
  const storage_ptr& storage() const { return storage_; }
  int device() const { return storage_ ? storage_->device() : 0; }
  bool defined() const { return static_cast<bool>(storage_); }

  /// Address of the first element (storage pointer plus offset).
  void* data() const { return storage_ ? static_cast<char*>(storage_->ptr()) + desc_.offset : nullptr; }

  // Views (no copy).
  array view(dtype t) const;  ///< NumPy's ndarray.view(dtype)
  array transpose() const;    ///< reversed axes
  array transpose(const std::vector<int>& axes) const;
  array broadcast_to(const shape_t& shape) const;
  array diagonal_view(std::int64_t k = 0) const;   ///< main diagonal of a 2-D array, offset k
  array reshape_view(const shape_t& shape) const;  ///< C-order reshape of a C-contiguous array
  /// NumPy's reshape: one extent may be -1; a view whenever the strides allow it, else a copy.
  array reshape(const shape_t& shape, order o = order::C) const;

  // Copies and fills on the current stream.
  array copy(order o = order::K) const;
  array astype(dtype t, order o = order::K, bool force_copy = true) const;
  void fill(const scalar& value);
  /// Copy `src` into this array: broadcasting `src`, casting to this dtype, handling overlap.
  void assign(const array& src);

  // Note [host copies]: every copy between this array and host memory states the room the host side has, and
  // one that does not fit raises value_error before any byte moves. A host copy sized for one element and
  // filled from a whole array (an index array of any length copied into one int64) wrote past the variable:
  // the size is now part of the call, so that class of bug cannot compile.

  /// Blocking copy to host memory laid out contiguously in order C or F (A: F if F-contiguous else C).
  /// `dst_bytes` is the room at `dst`; less than nbytes() raises value_error.
  void copy_to_host(void* dst, std::size_t dst_bytes, order o = order::C) const;
  /// The same into a vector of elements of this array's item size and at least size() of them.
  template <class T> void copy_to_host(std::vector<T>& dst, order o = order::C) const {
    check_host_element(sizeof(T));
    copy_to_host(dst.data(), dst.size() * sizeof(T), o);
  }
  /// One element, at C-order position `i` (default the first), copied to the host (blocking); T must have
  /// this array's item size. index_error when `i` is outside the array (an empty one too).
  template <class T> T host_value(std::int64_t i = 0) const {
    T v{};
    copy_element_to_host(&v, sizeof(T), i);
    return v;
  }
  void copy_element_to_host(void* dst, std::size_t dst_bytes, std::int64_t i) const;
  /// Copy contiguous host data (layout of this array's C or F order) into this array; `src_bytes` is the
  /// size of the data at `src`, and one other than nbytes() raises value_error.
  void copy_from_host(const void* src, std::size_t src_bytes, order o = order::C);
  template <class T> void copy_from_host(const std::vector<T>& src, order o = order::C) {
    check_host_element(sizeof(T));
    copy_from_host(src.data(), src.size() * sizeof(T), o);
  }

private:
  void update_flags();
  void check_host_element(std::size_t host_itemsize) const;  ///< value_error unless it is itemsize()
  void assign_on_own_device(const array& src);  ///< assign() on this array's device; Note [assignment across devices]
  storage_ptr storage_;
  descriptor desc_;
  std::int64_t size_ = 0;
  bool c_contiguous_ = true;
  bool f_contiguous_ = true;
};

}  // namespace cuarray
