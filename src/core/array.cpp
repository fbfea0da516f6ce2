// ndarray views, copies, casts and fills.
#include "cuarray/array.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/graph.hpp"
#include "cuarray/transfer.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/check.hpp"

namespace cuarray {

namespace detail {

namespace {
array allocate_array(dtype t, const shape_t& shape, strides_t strides, int device, std::int64_t n) {
  std::size_t bytes = static_cast<std::size_t>(n) * itemsize(t);
  storage_ptr s = current_allocator().allocate(bytes, device, current_stream(device));
  return array(std::move(s), descriptor{t, shape, std::move(strides), 0});
}
}  // namespace

array new_array(dtype t, const shape_t& shape, const strides_t& strides, int device) {
  return allocate_array(t, shape, strides, device, checked_size(shape, itemsize(t)));
}

array new_array(dtype t, const shape_t& shape, order o, int device) {
  std::int64_t n = checked_size(shape, itemsize(t));
  return allocate_array(t, shape, contiguous_strides(shape, itemsize(t), o == order::F ? order::F : order::C), device,
                        n);
}

// NumPy's no-copy reshape: walk old and new extents in groups of equal product; each group of old axes must
// be contiguous in the iteration order, and the new axes of the group get strides derived from it.
bool nocopy_reshape_strides(const shape_t& old_shape_in, const strides_t& old_strides_in, const shape_t& new_shape,
                            bool f_order, std::size_t isz, strides_t& out) {
  shape_t od;
  strides_t os;
  for (int i = 0; i < old_shape_in.size(); ++i) {
    if (old_shape_in[i] != 1) {
      od.push_back(old_shape_in[i]);
      os.push_back(old_strides_in[i]);
    }
  }
  int oldnd = od.size(), newnd = new_shape.size();
  out = strides_t(newnd, 0);
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    std::int64_t np = new_shape[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= od[oj++];
    }
    for (int ok = oi; ok < oj - 1; ++ok) {
      if (f_order ? os[ok + 1] != od[ok] * os[ok] : os[ok] != od[ok + 1] * os[ok + 1]) return false;
    }
    if (f_order) {
      out[ni] = os[oi];
      for (int nk = ni + 1; nk < nj; ++nk) out[nk] = out[nk - 1] * new_shape[nk - 1];
    } else {
      out[nj - 1] = os[oj - 1];
      for (int nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * new_shape[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  std::int64_t last = ni >= 1 ? out[ni - 1] : static_cast<std::int64_t>(isz);
  if (f_order && ni >= 1) last *= new_shape[ni - 1];
  for (int nk = ni; nk < newnd; ++nk) out[nk] = last;
  return true;
}

shape_t resolve_reshape(std::int64_t size, const shape_t& shape_in) {
  shape_t shape = shape_in;
  int unknown = -1;
  std::int64_t known = 1;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {  // NumPy takes any negative length as the unknown one
      if (unknown >= 0) throw value_error("can only specify one unknown dimension");
      unknown = i;
    } else {
      known *= shape[i];
    }
  }
  auto mismatch = [&] {
    return value_error("cannot reshape array of size " + std::to_string(size) + " into shape " +
                       shape_to_string(shape_in));
  };
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) throw mismatch();
    shape[unknown] = size / known;
  }
  if (checked_size(shape) != size) throw mismatch();
  return shape;
}

cudaStream_t enter_device(int device) {
  activate_device(device);
  return current_stream(device).get();
}

loop_layout make_layout(const shape_t& shape, const strides_t& dst_strides, const strides_t& src_strides) {
  loop_layout l;
  l.size = shape_size(shape);
  int axes[64];
  int n = 0;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) axes[n++] = i;
  }
  std::stable_sort(axes, axes + n,
                   [&](int a, int b) { return std::llabs(dst_strides[a]) > std::llabs(dst_strides[b]); });
  l.ndim = 0;
  for (int k = 0; k < n; ++k) {
    int ax = axes[k];
    if (l.ndim > 0) {
      int j = l.ndim - 1;
      // Merge when stepping the outer axis once equals stepping the inner axis across its extent.
      if (l.dst_strides[j] == dst_strides[ax] * shape[ax] && l.src_strides[j] == src_strides[ax] * shape[ax]) {
        l.shape[j] *= shape[ax];
        l.dst_strides[j] = dst_strides[ax];
        l.src_strides[j] = src_strides[ax];
        continue;
      }
    }
    l.shape[l.ndim] = shape[ax];
    l.dst_strides[l.ndim] = dst_strides[ax];
    l.src_strides[l.ndim] = src_strides[ax];
    ++l.ndim;
  }
  return l;
}

bool may_overlap(const array& a, const array& b) {
  if (!a.storage() || !b.storage() || a.size() == 0 || b.size() == 0) return false;
  std::int64_t alo, ahi, blo, bhi;
  byte_extent(a.shape(), a.strides(), a.itemsize(), alo, ahi);
  byte_extent(b.shape(), b.strides(), b.itemsize(), blo, bhi);
  auto pa = reinterpret_cast<std::intptr_t>(a.data()), pb = reinterpret_cast<std::intptr_t>(b.data());
  return pa + alo < pb + bhi && pb + blo < pa + ahi;
}

}  // namespace detail

using detail::enter_device;
using detail::new_array;

array::array(storage_ptr storage, descriptor desc) : storage_(std::move(storage)), desc_(std::move(desc)) {
  update_flags();
}

void array::update_flags() {
  size_ = shape_size(desc_.shape);
  c_contiguous_ = cuarray::is_c_contiguous(desc_.shape, desc_.strides, itemsize());
  f_contiguous_ = cuarray::is_f_contiguous(desc_.shape, desc_.strides, itemsize());
}

array array::view(dtype t) const {
  std::size_t old_size = itemsize(), new_size = cuarray::itemsize(t);
  descriptor d = desc_;
  d.type = t;
  if (old_size == new_size) return array(storage_, std::move(d));
  if (ndim() == 0) {
    throw value_error("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  }
  int last = ndim() - 1;
  if (d.shape[last] != 1 && d.strides[last] != static_cast<std::int64_t>(old_size)) {
    throw value_error("To change to a dtype of a different size, the last axis must be contiguous");
  }
  std::int64_t bytes = d.shape[last] * static_cast<std::int64_t>(old_size);
  if (new_size < old_size) {
    if (old_size % new_size != 0) {
      throw value_error("When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
    }
  } else if (bytes % static_cast<std::int64_t>(new_size) != 0) {
    throw value_error("When changing to a larger dtype, its size must be a divisor of the total size in bytes of "
                      "the last axis of the array.");
  }
  d.shape[last] = bytes / static_cast<std::int64_t>(new_size);
  d.strides[last] = static_cast<std::int64_t>(new_size);
  return array(storage_, std::move(d));
}

array array::transpose() const {
  std::vector<int> axes(static_cast<std::size_t>(ndim()));
  for (int i = 0; i < ndim(); ++i) axes[static_cast<std::size_t>(i)] = ndim() - 1 - i;
  return transpose(axes);
}

array array::transpose(const std::vector<int>& axes) const {
  if (static_cast<int>(axes.size()) != ndim()) throw value_error("axes don't match array");
  descriptor d = desc_;
  axis_rules rules;  // NumPy's PyArray_Transpose: the first bad entry decides, its own repeat message
  rules.repeat_message = "repeated axis in transpose";
  rules.check_in_order = true;
  std::vector<int> perm = normalize_axes(axes, ndim(), rules);
  for (int i = 0; i < ndim(); ++i) {
    int ax = perm[static_cast<std::size_t>(i)];
    d.shape[i] = desc_.shape[ax];
    d.strides[i] = desc_.strides[ax];
  }
  return array(storage_, std::move(d));
}

array array::broadcast_to(const shape_t& shape) const {
  int n = shape.size();
  if (n < ndim()) {
    throw value_error("input operand has more dimensions than allowed by the axis remapping");
  }
  descriptor d = desc_;
  d.shape = shape;
  d.strides = strides_t(n, 0);
  for (int i = 0; i < ndim(); ++i) {
    int j = n - ndim() + i;
    if (desc_.shape[i] == shape[j]) {
      d.strides[j] = desc_.strides[i];
    } else if (desc_.shape[i] != 1) {
      throw value_error("could not broadcast input array from shape " + shape_to_string(desc_.shape) + " into shape " +
                        shape_to_string(shape));
    }
  }
  return array(storage_, std::move(d));
}

array array::diagonal_view(std::int64_t k) const {
  if (ndim() != 2) throw value_error("diag requires an array of at least two dimensions");
  std::int64_t rows = desc_.shape[0], cols = desc_.shape[1];
  std::int64_t n = 0, off = desc_.offset;
  if (k >= 0) {
    n = std::max<std::int64_t>(0, std::min(rows, cols - k));
    if (n > 0) off += k * desc_.strides[1];
  } else {
    n = std::max<std::int64_t>(0, std::min(rows + k, cols));
    if (n > 0) off += -k * desc_.strides[0];
  }
  descriptor d{desc_.type, shape_t{n}, strides_t{desc_.strides[0] + desc_.strides[1]}, off};
  return array(storage_, std::move(d));
}

array array::reshape_view(const shape_t& shape) const {
  if (!c_contiguous_) throw value_error("reshape_view needs a C-contiguous array");
  if (checked_size(shape) != size_) {
    throw value_error("cannot reshape array of size " + std::to_string(size_) + " into shape " +
                      shape_to_string(shape));
  }
  descriptor d{desc_.type, shape, contiguous_strides(shape, itemsize()), desc_.offset};
  return array(storage_, std::move(d));
}

array array::reshape(const shape_t& shape_in, order o) const {
  shape_t shape = detail::resolve_reshape(size_, shape_in);
  if (o == order::A) o = (f_contiguous_ && !c_contiguous_) ? order::F : order::C;
  if (o == order::K) throw value_error("order 'K' is not permitted for reshaping");
  bool f = o == order::F;
  strides_t strides;
  if (size_ == 0) {
    strides = contiguous_strides(shape, itemsize(), o);
  } else if (!detail::nocopy_reshape_strides(desc_.shape, desc_.strides, shape, f, itemsize(), strides)) {
    array tmp = copy(o);
    return array(tmp.storage(), descriptor{desc_.type, shape, contiguous_strides(shape, itemsize(), o), tmp.offset()});
  }
  return array(storage_, descriptor{desc_.type, shape, strides, desc_.offset});
}

array array::copy(order o) const { return astype(desc_.type, o, true); }

array array::astype(dtype t, order o, bool force_copy) const {
  if (!force_copy && t == desc_.type) {
    bool ok = o == order::K || o == order::A || (o == order::C && c_contiguous_) || (o == order::F && f_contiguous_);
    if (o == order::A) ok = c_contiguous_ || f_contiguous_;
    if (ok) return *this;
  }
  strides_t strides;
  std::size_t isz = cuarray::itemsize(t);
  switch (o) {
    case order::C: strides = contiguous_strides(desc_.shape, isz, order::C); break;
    case order::F: strides = contiguous_strides(desc_.shape, isz, order::F); break;
    case order::A:
      strides = contiguous_strides(desc_.shape, isz, f_contiguous_ && !c_contiguous_ ? order::F : order::C);
      break;
    case order::K: strides = strides_like(desc_.shape, desc_.strides, isz); break;
  }
  array out = new_array(t, desc_.shape, strides, device());
  out.assign(*this);
  return out;
}

void array::fill(const scalar& value) {
  if (size_ == 0) return;
  scalar v = value.cast(desc_.type);
  cudaStream_t s = enter_device(device());
  bool zero = std::all_of(v.bytes, v.bytes + itemsize(), [](unsigned char b) { return b == 0; });
  if (zero && c_contiguous_) {
    CUARRAY_CUDA_CHECK(cudaMemsetAsync(data(), 0, nbytes(), s));
    return;
  }
  if (zero && f_contiguous_) {
    CUARRAY_CUDA_CHECK(cudaMemsetAsync(data(), 0, nbytes(), s));
    return;
  }
  strides_t zeros(ndim(), 0);
  detail::loop_layout l = detail::make_layout(desc_.shape, desc_.strides, zeros);
  detail::launch_fill(l, data(), itemsize(), v.bytes, s);
}

namespace {

// Note [assignment across devices]: an assignment into an array of another device (`b1[...] = v` or
// `copyto(b1, v)` under device 0) writes on b1's device, on that device's current stream, where CuPy would run its
// copy kernel on the current device over peer access. What CuPy programs rely on is the order: the write comes
// after the work queued on the current stream, and what is queued there afterwards sees it. Two events give that
// order: the target stream waits for the current stream before the write, and the current stream waits for the
// target stream after it. An event must be recorded on a stream of its own device; a stream may wait for an event
// of any device. Inside a graph capture the write could not join the captured stream's order, so it is refused.
class ordered_on_current_stream {
public:
  explicit ordered_on_current_stream(int target) : current_(current_device()), target_(target) {
    require_not_capturing(current_stream(current_), "An assignment into an array of another device");
    join(current_, target_);
  }
  ~ordered_on_current_stream() {
    try {
      join(target_, current_);
      activate_device(current_);
    } catch (...) {  // an error here is a sticky CUDA error: the next call on the device reports it
    }
  }
  ordered_on_current_stream(const ordered_on_current_stream&) = delete;
  ordered_on_current_stream& operator=(const ordered_on_current_stream&) = delete;

private:
  // Later work on `to`'s current stream waits for what is queued now on `from`'s current stream.
  static void join(int from, int to) {
    // A default-stream handle (legacy or per-thread) means that stream of the active device: each call runs with
    // its stream's device active.
    activate_device(from);
    cudaEvent_t e = nullptr;
    CUARRAY_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    cudaError_t st = cudaEventRecord(e, current_stream(from).get());
    if (st == cudaSuccess) {
      activate_device(to);
      st = cudaStreamWaitEvent(current_stream(to).get(), e, 0);
    }
    (void)cudaEventDestroy(e);  // released once the wait has been satisfied
    if (st != cudaSuccess) detail::throw_cuda_error(st, "ordering an assignment across devices");
  }

  int current_;
  int target_;
};

}  // namespace

void array::assign(const array& src_in) {
  if (size_ == 0 || device() == current_device()) return assign_on_own_device(src_in);
  ordered_on_current_stream order_guard(device());  // Note [assignment across devices]
  assign_on_own_device(src_in);
}

void array::assign_on_own_device(const array& src_in) {
  array src = src_in;
  if (src.ndim() > ndim()) {
    // NumPy drops leading unit dimensions of the value: a (1, 5) value fills a (5,) target.
    int extra = src.ndim() - ndim();
    for (int i = 0; i < extra; ++i) {
      if (src.shape()[i] != 1) {
        throw value_error("could not broadcast input array from shape " + shape_to_string(src.shape()) +
                          " into shape " + shape_to_string(desc_.shape));
      }
    }
    descriptor d{src.type(), shape_t(src.shape().begin() + extra, src.shape().end()),
                 strides_t(src.strides().begin() + extra, src.strides().end()), src.offset()};
    src = array(src.storage(), std::move(d));
  }
  if (src.shape() != desc_.shape) src = src.broadcast_to(desc_.shape);
  // An empty target still needs a value that broadcasts to it: NumPy raises ValueError otherwise.
  if (size_ == 0) return;
  if (src.device() != device()) src = to_device(src, device());
  if (src.data() == data() && src.strides() == desc_.strides && src.type() == desc_.type) return;
  if (detail::may_overlap(*this, src)) src = src.copy(order::K);  // NumPy's result, not a race
  cudaStream_t s = enter_device(device());
  detail::loop_layout l = detail::make_layout(desc_.shape, desc_.strides, src.strides());
  if (src.type() == desc_.type && l.ndim == 1 && l.dst_strides[0] == static_cast<std::int64_t>(itemsize()) &&
      l.src_strides[0] == l.dst_strides[0]) {
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(data(), src.data(), nbytes(), cudaMemcpyDeviceToDevice, s));
    return;
  }
  if (l.ndim == 0 && src.type() == desc_.type) {
    CUARRAY_CUDA_CHECK(cudaMemcpyAsync(data(), src.data(), itemsize(), cudaMemcpyDeviceToDevice, s));
    return;
  }
  if (src.type() != desc_.type && l.ndim > detail::small_kernel_ndim) {
    // Gather the source into a contiguous buffer of the same layout first (byte copies support any ndim),
    // then the cast is a flat loop into a contiguous temporary, then a byte copy into place.
    array packed = new_array(src.type(), desc_.shape, order::C, device());
    packed.assign_on_own_device(src);
    array cast = new_array(desc_.type, desc_.shape, order::C, device());
    detail::loop_layout flat = detail::make_layout(shape_t{size_}, strides_t{static_cast<std::int64_t>(itemsize())},
                                                   strides_t{static_cast<std::int64_t>(packed.itemsize())});
    detail::launch_copy(flat, cast.data(), desc_.type, packed.data(), packed.type(), s);
    assign_on_own_device(cast);
    return;
  }
  detail::launch_copy(l, data(), desc_.type, src.data(), src.type(), s);
}

// Note [host copies] (array.hpp): the host side's size is checked before anything moves.
void array::check_host_element(std::size_t host_itemsize) const {
  if (host_itemsize != itemsize()) {
    throw value_error("host elements of " + std::to_string(host_itemsize) + " bytes do not match the array's " +
                      std::string(cuarray::name(desc_.type)) + " elements of " + std::to_string(itemsize()) + " bytes");
  }
}

void array::copy_to_host(void* dst, std::size_t dst_bytes, order o) const {
  if (dst_bytes < nbytes()) {
    throw value_error("a host buffer of " + std::to_string(dst_bytes) + " bytes cannot hold an array of " +
                      std::to_string(nbytes()) + " bytes");
  }
  if (size_ == 0) return;
  if (o == order::A || o == order::K) o = (f_contiguous_ && !c_contiguous_) ? order::F : order::C;
  bool direct = o == order::C ? c_contiguous_ : f_contiguous_;
  if (direct) {
    activate_device(device());
    memcpy_device_to_host(dst, data(), nbytes(), current_stream(device()));
    return;
  }
  array tmp = copy(o);  // on the current device, where CuPy's copy() puts it: read it there, on its stream
  activate_device(tmp.device());
  memcpy_device_to_host(dst, tmp.data(), tmp.nbytes(), current_stream(tmp.device()));
}

void array::copy_element_to_host(void* dst, std::size_t dst_bytes, std::int64_t i) const {
  check_host_element(dst_bytes);
  if (i < 0 || i >= size_) {
    throw index_error("element " + std::to_string(i) + " is out of bounds for an array of size " +
                      std::to_string(size_));
  }
  // The element's byte offset from its C-order position: no copy of the rest of the array.
  std::int64_t offset = 0;
  for (int k = ndim() - 1; k >= 0; --k) {
    std::int64_t n = desc_.shape[static_cast<std::size_t>(k)];
    offset += (i % n) * desc_.strides[static_cast<std::size_t>(k)];
    i /= n;
  }
  activate_device(device());
  memcpy_device_to_host(dst, static_cast<const char*>(data()) + offset, itemsize(), current_stream(device()));
}

void array::copy_from_host(const void* src, std::size_t src_bytes, order o) {
  if (src_bytes != nbytes()) {
    throw value_error("host data of " + std::to_string(src_bytes) + " bytes cannot fill an array of " +
                      std::to_string(nbytes()) + " bytes");
  }
  if (size_ == 0) return;
  if (o == order::A || o == order::K) o = order::C;
  bool direct = o == order::C ? c_contiguous_ : f_contiguous_;
  if (direct) {
    activate_device(device());
    memcpy_host_to_device(data(), src, nbytes(), current_stream(device()));
    return;
  }
  array tmp = new_array(desc_.type, desc_.shape, o, device());
  activate_device(device());
  memcpy_host_to_device(tmp.data(), src, nbytes(), current_stream(device()));
  assign(tmp);
}

}  // namespace cuarray
