// Shapes and strides: a small inline vector of extents and the layout arithmetic NumPy defines on it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "cuarray/axis.hpp"  // normalize_axis, which most users of shapes need

namespace cuarray {

/// NumPy 2's limit on the number of dimensions.
inline constexpr int max_ndim = 64;

/// Vector of int64 that keeps up to `inline_capacity` entries without touching the heap, so that creating
/// the descriptor of a typical array allocates nothing.
class dim_vector {
public:
  static constexpr int inline_capacity = 6;

  dim_vector() = default;
  explicit dim_vector(int n, std::int64_t value = 0) { assign(n, value); }
  dim_vector(std::initializer_list<std::int64_t> values) {
    reserve(static_cast<int>(values.size()));
    for (auto v : values) push_back(v);
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>> dim_vector(It first, It last) {
    for (; first != last; ++first) push_back(static_cast<std::int64_t>(*first));
  }
  dim_vector(const dim_vector& o) { copy_from(o); }
  dim_vector(dim_vector&& o) noexcept { move_from(o); }
  dim_vector& operator=(const dim_vector& o) {
    if (this != &o) {
      size_ = 0;
      copy_from(o);
    }
    return *this;
  }
  dim_vector& operator=(dim_vector&& o) noexcept {
    if (this != &o) {
      release();
      move_from(o);
    }
    return *this;
  }
  ~dim_vector() { release(); }

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::int64_t* data() { return heap_ ? heap_ : inline_; }
  const std::int64_t* data() const { return heap_ ? heap_ : inline_; }
  std::int64_t& operator[](int i) { return data()[i]; }
  std::int64_t operator[](int i) const { return data()[i]; }
  std::int64_t* begin() { return data(); }
  std::int64_t* end() { return data() + size_; }
  const std::int64_t* begin() const { return data(); }
  const std::int64_t* end() const { return data() + size_; }
  std::int64_t back() const { return data()[size_ - 1]; }

  void reserve(int n) {
    if (n <= capacity()) return;
    auto* p = new std::int64_t[static_cast<std::size_t>(n)];
    std::memcpy(p, data(), sizeof(std::int64_t) * static_cast<std::size_t>(size_));
    delete[] heap_;
    heap_ = p;
    heap_capacity_ = n;
  }
  void push_back(std::int64_t v) {
    if (size_ == capacity()) reserve(std::max(2 * capacity(), 8));
    data()[size_++] = v;
  }
  void assign(int n, std::int64_t value) {
    size_ = 0;
    reserve(n);
    std::fill_n(data(), n, value);
    size_ = n;
  }
  void resize(int n, std::int64_t value = 0) {
    reserve(n);
    for (int i = size_; i < n; ++i) data()[i] = value;
    size_ = n;
  }
  void insert(int pos, std::int64_t v) {
    push_back(0);
    std::int64_t* d = data();
    for (int i = size_ - 1; i > pos; --i) d[i] = d[i - 1];
    d[pos] = v;
  }
  void erase(int pos) {
    std::int64_t* d = data();
    for (int i = pos; i + 1 < size_; ++i) d[i] = d[i + 1];
    --size_;
  }
  void clear() { size_ = 0; }

  friend bool operator==(const dim_vector& a, const dim_vector& b) {
    // A plain loop: shapes have a few entries, and std::equal became a call to memcmp.
    if (a.size_ != b.size_) return false;
    const std::int64_t* x = a.data();
    const std::int64_t* y = b.data();
    if (x == y) return true;
    for (int i = 0; i < a.size_; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  friend bool operator!=(const dim_vector& a, const dim_vector& b) { return !(a == b); }

private:
  int capacity() const { return heap_ ? heap_capacity_ : inline_capacity; }
  // Note [fixed-size inline copies]: an inline vector is copied and moved as its whole inline buffer, a
  // memcpy of constant size that the compiler turns into a few vector moves, rather than a memcpy of the
  // entries in use, which is a call into libc; moves of arrays (descriptors hold two of these) are on the path
  // of every small call.
  void copy_from(const dim_vector& o) {
    if (!heap_ && !o.heap_) {
      std::memcpy(inline_, o.inline_, sizeof(inline_));
    } else {
      reserve(o.size_);
      std::memcpy(data(), o.data(), sizeof(std::int64_t) * static_cast<std::size_t>(o.size_));
    }
    size_ = o.size_;
  }
  void move_from(dim_vector& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      heap_capacity_ = o.heap_capacity_;
      o.heap_ = nullptr;
    } else {
      std::memcpy(inline_, o.inline_, sizeof(inline_));
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  void release() {
    if (heap_) delete[] heap_;
    heap_ = nullptr;
    size_ = 0;
  }

  std::int64_t inline_[inline_capacity] = {};
  std::int64_t* heap_ = nullptr;
  int heap_capacity_ = 0;
  int size_ = 0;
};

using shape_t = dim_vector;    ///< extents, one per dimension
using strides_t = dim_vector;  ///< byte strides, one per dimension (may be negative or zero)

/// Memory order of a new array or a copy: NumPy's 'C', 'F', 'A', 'K'.
enum class order { C, F, A, K };

/// Parse 'C', 'F', 'A', 'K' (either case); throws value_error otherwise.
order parse_order(char c);

/// Number of elements; throws value_error for negative extents or when the count overflows int64.
std::int64_t checked_size(const shape_t& shape, std::size_t itemsize = 1);

/// Product of the extents (no checks).
std::int64_t shape_size(const shape_t& shape);

/// Byte strides of a contiguous array of this shape in C or F order.
strides_t contiguous_strides(const shape_t& shape, std::size_t itemsize, order o = order::C);

/// NumPy's contiguity flags (size-1 dimensions are ignored, empty arrays are contiguous both ways).
bool is_c_contiguous(const shape_t& shape, const strides_t& strides, std::size_t itemsize);
bool is_f_contiguous(const shape_t& shape, const strides_t& strides, std::size_t itemsize);

/// Strides for a new array that keeps the axis order of `like_strides` (order='K'); fresh, contiguous.
strides_t strides_like(const shape_t& shape, const strides_t& like_strides, std::size_t itemsize);

/// NumPy's broadcast of two shapes; throws value_error naming both when they do not broadcast.
shape_t broadcast_shapes(const shape_t& a, const shape_t& b);

/// `shape` with each of `axes` (normalised) set to 1: a reduction's result shape under keepdims=True.
shape_t keepdims_shape(const shape_t& shape, const std::vector<int>& axes);

/// "(2, 3)" or "(4,)" as Python prints a shape tuple.
std::string shape_to_string(const shape_t& shape);

/// Lowest and one-past-highest byte offsets touched by an array layout (relative to its data pointer).
void byte_extent(const shape_t& shape, const strides_t& strides, std::size_t itemsize, std::int64_t& low,
                 std::int64_t& high);

}  // namespace cuarray
