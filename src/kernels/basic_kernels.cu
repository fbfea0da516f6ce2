// Ahead-of-time kernels of the foundation: strided copies with casts, fills, and range generators.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/cuda/check.hpp"
#include "src/kernels/basic_kernels.hpp"
#include "src/kernels/element_bytes.cuh"
#include "src/kernels/manip_kernels.hpp"

namespace cuarray::detail {

namespace {

// ---------------------------------------------------------------------------------------------------------
// Device-side value types. bool is stored as one byte that may hold any value; it is normalised on read.

struct bool8 {
  unsigned char v;
};
struct alignas(8) c64 {
  float re, im;
};
struct alignas(16) c128 {
  double re, im;
};

template <class T> struct value_kind {
  static constexpr int k = std::is_floating_point_v<T> ? 2 : (std::is_signed_v<T> ? 1 : 0);
};

// Conversions follow NumPy's casts: complex to real keeps the real part, anything to bool tests for
// non-zero, and floating values convert to integers as NumPy's casts do on x86-64 (Note [float to int
// casts]), never by the GPU's saturating conversion instructions.
template <class To> struct convert_to;

template <class From> __device__ inline double as_double(From v) { return static_cast<double>(v); }
template <> __device__ inline double as_double(__half v) { return static_cast<double>(__half2float(v)); }
template <> __device__ inline double as_double(bool8 v) { return v.v ? 1.0 : 0.0; }
template <> __device__ inline double as_double(c64 v) { return v.re; }
template <> __device__ inline double as_double(c128 v) { return v.re; }

template <class From> __device__ inline double imag_part(From) { return 0.0; }
template <> __device__ inline double imag_part(c64 v) { return v.im; }
template <> __device__ inline double imag_part(c128 v) { return v.im; }

template <class From> __device__ inline bool is_nonzero(From v) { return v != From(0); }
template <> __device__ inline bool is_nonzero(__half v) { return __half2float(v) != 0.0f; }
template <> __device__ inline bool is_nonzero(c64 v) { return v.re != 0.0f || v.im != 0.0f; }
template <> __device__ inline bool is_nonzero(c128 v) { return v.re != 0.0 || v.im != 0.0; }

// Note [float to int casts]: NumPy calls a float-to-integer cast of NaN or of an out-of-range value
// undefined; on x86-64 its casts go through cvttsd2si, 32-bit for int8..int32, uint8 and uint16, 64-bit
// for int64 and uint32 (the "integer indefinite" minimum value for NaN and out-of-range input, then the
// low bits), and uint64 by the usual 2**63 split. astype (these kernels), the ufuncs' casts
// (ca_float_to_int in src/engine/device/ca_types.cuh) and host scalar casts (src/core/scalar.cpp) all give
// those values, so the three paths agree with each other and with NumPy on x86-64.
__device__ inline int float_to_i32(double d) {
  return (d > -2147483649.0 && d < 2147483648.0) ? static_cast<int>(d) : static_cast<int>(-2147483647 - 1);
}
__device__ inline long long float_to_i64(double d) {
  return (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
             ? static_cast<long long>(d)
             : static_cast<long long>(-9223372036854775807LL - 1);
}
__device__ inline unsigned long long float_to_u64(double d) {
  if (!(d >= 9223372036854775808.0)) return static_cast<unsigned long long>(float_to_i64(d));
  if (d < 18446744073709551616.0) return static_cast<unsigned long long>(d);
  return 0;
}

template <class To, class From> __device__ inline To float_to_int(From v) {
  double d = as_double(v);
  if constexpr (sizeof(To) == 8) {
    if constexpr (std::is_signed_v<To>) return static_cast<To>(float_to_i64(d));
    else return static_cast<To>(float_to_u64(d));
  } else if constexpr (sizeof(To) == 4 && !std::is_signed_v<To>) {
    return static_cast<To>(float_to_i64(d));
  } else {
    return static_cast<To>(float_to_i32(d));
  }
}

template <class To, class From> __device__ inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool8>) {
    return bool8{static_cast<unsigned char>(is_nonzero(v) ? 1 : 0)};
  } else if constexpr (std::is_same_v<To, c64>) {
    return c64{static_cast<float>(as_double(v)), static_cast<float>(imag_part(v))};
  } else if constexpr (std::is_same_v<To, c128>) {
    return c128{as_double(v), imag_part(v)};
  } else if constexpr (std::is_same_v<To, __half>) {
    if constexpr (std::is_same_v<From, float>) return __float2half_rn(v);
    else if constexpr (std::is_same_v<From, c64>) return __float2half_rn(v.re);
    else return __double2half(as_double(v));
  } else if constexpr (std::is_floating_point_v<To>) {
    if constexpr (std::is_same_v<From, bool8>) return v.v ? To(1) : To(0);
    else if constexpr (std::is_same_v<From, __half>) return static_cast<To>(__half2float(v));
    else if constexpr (std::is_same_v<From, c64> || std::is_same_v<From, c128>) return static_cast<To>(v.re);
    else return static_cast<To>(v);
  } else {  // integer
    if constexpr (std::is_integral_v<From>) return static_cast<To>(v);
    else if constexpr (std::is_same_v<From, bool8>) return static_cast<To>(v.v ? 1 : 0);
    else return float_to_int<To>(v);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Layout arguments passed by value: a small inline form for the common case, the full form beyond.

template <int D> struct layout_arg {
  int ndim;
  long long size;
  long long shape[D];
  long long dst_strides[D];
  long long src_strides[D];
};

template <int D> layout_arg<D> make_arg(const loop_layout& l) {
  layout_arg<D> a;
  a.ndim = l.ndim;
  a.size = l.size;
  for (int i = 0; i < l.ndim; ++i) {
    a.shape[i] = l.shape[i];
    a.dst_strides[i] = l.dst_strides[i];
    a.src_strides[i] = l.src_strides[i];
  }
  return a;
}

template <int D> __device__ inline void offsets(const layout_arg<D>& a, long long i, long long& dst, long long& src) {
  dst = 0;
  src = 0;
  for (int d = a.ndim - 1; d >= 1; --d) {
    long long n = a.shape[d];
    long long q = i / n;
    long long r = i - q * n;
    dst += r * a.dst_strides[d];
    src += r * a.src_strides[d];
    i = q;
  }
  // i < size, so what is left of it indexes the outermost axis without a division (one per element in 1-D).
  if (a.ndim > 0) {
    dst += i * a.dst_strides[0];
    src += i * a.src_strides[0];
  }
}

constexpr int block_size = 256;

int grid_for(long long n) {
  long long blocks = (n + block_size - 1) / block_size;
  // Enough blocks to fill any current GPU several times over; the grid-stride loops cover the rest.
  if (blocks > 65536) blocks = 65536;
  return static_cast<int>(blocks < 1 ? 1 : blocks);
}

template <class To, class From, int D>
__global__ void copy_strided_kernel(char* dst, const char* src, layout_arg<D> a) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < a.size;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long od, os;
    offsets(a, i, od, os);
    *reinterpret_cast<To*>(dst + od) = convert<To>(*reinterpret_cast<const From*>(src + os));
  }
}

// Note [copy runs]: a strided copy whose innermost axis has at least a block's worth of elements splits the outer
// index once per run of copy_run_elements elements a thread (spaced by the block size, so a warp's accesses stay
// coalesced) instead of once per element; the elementwise engine's Note [strided runs] measured the same loop at
// 0.86 of the copy bandwidth on a (8192, 1) + (1, 8192) broadcast, against 0.6 element by element.
constexpr int copy_run_elements = 8;

template <class To, class From, int D>
__global__ void __launch_bounds__(256)
    copy_runs_kernel(char* dst, const char* src, layout_arg<D> a, long long tiles, long long items) {
  const int last = a.ndim - 1;
  const long long inner = a.shape[last], ds = a.dst_strides[last], ss = a.src_strides[last];
  const long long span = static_cast<long long>(blockDim.x) * copy_run_elements;
  for (long long w = blockIdx.x; w < items; w += gridDim.x) {
    long long q = tiles == 1 ? w : w / tiles;
    const long long c = w - q * tiles;
    long long od = 0, os = 0;
    for (int d = last - 1; d >= 0; --d) {
      const long long n = a.shape[d];
      const long long qq = q / n;
      const long long r = q - qq * n;
      od += r * a.dst_strides[d];
      os += r * a.src_strides[d];
      q = qq;
    }
    const long long j0 = c * span + threadIdx.x;
    if (j0 + static_cast<long long>(copy_run_elements - 1) * blockDim.x < inner) {
      // A whole run: every load issued before the first store (one element in flight per thread left the
      // copy at half the bandwidth).
      From v[copy_run_elements];
#pragma unroll
      for (int e = 0; e < copy_run_elements; ++e) {
        v[e] = *reinterpret_cast<const From*>(src + os + (j0 + static_cast<long long>(e) * blockDim.x) * ss);
      }
#pragma unroll
      for (int e = 0; e < copy_run_elements; ++e) {
        *reinterpret_cast<To*>(dst + od + (j0 + static_cast<long long>(e) * blockDim.x) * ds) = convert<To>(v[e]);
      }
    } else {
      // A partial run (a row shorter than a run, or its end), loads also first: a row of 1024 16-byte items
      // (Note [wide rows]) is all partial runs, and storing each item before loading the next left
      // x[::2].copy() of (8192, 16384) uint8 at 0.75 of the copy bandwidth on an H200.
      From v[copy_run_elements];
#pragma unroll
      for (int e = 0; e < copy_run_elements; ++e) {
        const long long j = j0 + static_cast<long long>(e) * blockDim.x;
        if (j < inner) v[e] = *reinterpret_cast<const From*>(src + os + j * ss);
      }
#pragma unroll
      for (int e = 0; e < copy_run_elements; ++e) {
        const long long j = j0 + static_cast<long long>(e) * blockDim.x;
        if (j < inner) *reinterpret_cast<To*>(dst + od + j * ds) = convert<To>(v[e]);
      }
    }
  }
}

template <class To, class From> __global__ void copy_contiguous_kernel(To* dst, const From* src, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    dst[i] = convert<To>(src[i]);
  }
}

// Note [vectorised casts]: a contiguous cast moves K elements per thread, K such that the wider side is one
// 16-byte access (float32 -> float16: a 16-byte load and an 8-byte store). One element per thread leaves
// too few bytes in flight for a narrow side to keep up with the copy bandwidth. Used when both pointers
// are aligned to their chunk; the last n % K elements are done one by one.
template <class T, int K> struct alignas(sizeof(T) * K) chunk { T v[K]; };

template <class To, class From> constexpr int cast_width() {
  constexpr std::size_t wide = sizeof(To) > sizeof(From) ? sizeof(To) : sizeof(From);
  return wide >= 16 ? 1 : static_cast<int>(16 / wide);
}

template <class To, class From, int K>
__global__ void copy_vectorised_kernel(chunk<To, K>* dst, const chunk<From, K>* src, long long chunks, To* dst_tail,
                                       const From* src_tail, int tail) {
  long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  for (long long i = first; i < chunks; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    chunk<From, K> in = src[i];
    chunk<To, K> out;
#pragma unroll
    for (int k = 0; k < K; ++k) out.v[k] = convert<To>(in.v[k]);
    dst[i] = out;
  }
  if (first < tail) dst_tail[first] = convert<To>(src_tail[first]);
}

template <class T, int D> __global__ void fill_strided_kernel(char* dst, T value, layout_arg<D> a) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < a.size;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long od, os;
    offsets(a, i, od, os);
    *reinterpret_cast<T*>(dst + od) = value;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Dispatch over dtypes.

template <class F> void dispatch_type(dtype t, F&& f) {
  switch (t) {
    case dtype::bool_: return f(bool8{});
    case dtype::int8: return f(static_cast<signed char>(0));
    case dtype::int16: return f(static_cast<short>(0));
    case dtype::int32: return f(0);
    case dtype::int64: return f(0LL);
    case dtype::uint8: return f(static_cast<unsigned char>(0));
    case dtype::uint16: return f(static_cast<unsigned short>(0));
    case dtype::uint32: return f(0U);
    case dtype::uint64: return f(0ULL);
    case dtype::float16: return f(__half{});
    case dtype::float32: return f(0.0f);
    case dtype::float64: return f(0.0);
    case dtype::complex64: return f(c64{});
    case dtype::complex128: return f(c128{});
  }
}

void check_launch() { CUARRAY_CUDA_CHECK(cudaGetLastError()); }

// Note [wide rows]: a byte move whose innermost axis is contiguous on both sides moves its rows as wider
// opaque items, up to 16 bytes, when the row's length in bytes, every outer stride and both addresses are
// multiples of the width. dst[::2] = src of (4096, 8192) float32 moved 4-byte items at 0.846 of the copy
// bandwidth on an H200; as 16-byte items every thread has four times the bytes in flight for the same index
// arithmetic. A row long enough for the runs kernel (Note [copy runs]) is widened only as far as it stays so.
// Note [row copy] (tile and repeat, manip_kernels.hpp) picks its vector the same way, from the low bits of the
// addresses, strides and row bytes (dispatch_vector). The two were written apart; the runs kernel's threshold
// is the only difference in how the width is chosen. Sending these copies through launch_rows_copy instead
// wants a measurement of rows_copy_kernel on dst[::2] = src first.
// Returns the width used (isize when nothing changes) and rewrites the layout's innermost axis to match.
std::size_t widen_rows(loop_layout& l, std::size_t isize, std::uintptr_t dst, const void* src, bool keep_runs) {
  if (l.ndim < 1 || isize >= 16) return isize;
  const int last = l.ndim - 1;
  const auto isz = static_cast<std::int64_t>(isize);
  const auto src_addr = reinterpret_cast<std::uintptr_t>(src);
  if (l.dst_strides[last] != isz || (src != nullptr && l.src_strides[last] != isz)) return isize;
  const std::int64_t row = l.shape[last] * isz;
  for (std::int64_t w = 16; w > isz; w /= 2) {
    const auto uw = static_cast<std::uintptr_t>(w);
    if (row % w != 0 || dst % uw != 0 || (src != nullptr && src_addr % uw != 0)) continue;
    if (keep_runs && l.shape[last] >= block_size && row / w < block_size) continue;
    bool ok = true;
    for (int d = 0; d < last && ok; ++d) {
      if (l.shape[d] == 1) continue;  // never stepped along
      ok = l.dst_strides[d] % w == 0 && (src == nullptr || l.src_strides[d] % w == 0);
    }
    if (!ok) continue;
    l.size /= w / isz;
    l.shape[last] = row / w;
    l.dst_strides[last] = w;
    if (src != nullptr) l.src_strides[last] = w;
    return static_cast<std::size_t>(w);
  }
  return isize;
}

template <class To, class From> void copy_typed(const loop_layout& l, void* dst, const void* src, cudaStream_t s) {
  if constexpr (std::is_same_v<To, From>) {
    // Note [copy runs], for byte moves only (casts keep the element loop: 182 more kernels for a rarer case).
    // The grid is capped at 32 blocks a multiprocessor, as the elementwise engine's strided loops are (a block
    // per run everywhere measured slower there). A 1-D move here is a strided one (array::assign sends the
    // contiguous ones to cudaMemcpyAsync): with one element in flight a thread, x[::2].copy() of 2**24 float32
    // ran at 0.63x PyTorch's on an H200 (tools/diag/cast23.py).
    if (l.ndim >= 1 && l.ndim <= small_kernel_ndim && l.shape[l.ndim - 1] >= block_size) {
      const long long inner = l.shape[l.ndim - 1], span = static_cast<long long>(block_size) * copy_run_elements;
      const long long tiles = (inner + span - 1) / span, items = (l.size / inner) * tiles;
      int device = 0, sms = 0;
      CUARRAY_CUDA_CHECK(cudaGetDevice(&device));
      CUARRAY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
      const auto grid = static_cast<unsigned>(std::max<long long>(1, std::min<long long>(items, sms * 32LL)));
      copy_runs_kernel<To, From, small_kernel_ndim><<<grid, block_size, 0, s>>>(
          static_cast<char*>(dst), static_cast<const char*>(src), make_arg<small_kernel_ndim>(l), tiles, items);
      check_launch();
      return;
    }
  }
  int grid = grid_for(l.size);
  bool contiguous = l.ndim == 1 && l.dst_strides[0] == static_cast<long long>(sizeof(To)) &&
                    l.src_strides[0] == static_cast<long long>(sizeof(From));
  constexpr int K = cast_width<To, From>();
  bool aligned = reinterpret_cast<std::uintptr_t>(dst) % (sizeof(To) * K) == 0 &&
                 reinterpret_cast<std::uintptr_t>(src) % (sizeof(From) * K) == 0;
  if (contiguous && K > 1 && aligned && !std::is_same_v<To, From>) {
    long long chunks = l.size / K;
    int tail = static_cast<int>(l.size - chunks * K);
    int g = grid_for(chunks > 0 ? chunks : 1);
    copy_vectorised_kernel<To, From, K>
        <<<g, block_size, 0, s>>>(static_cast<chunk<To, K>*>(dst), static_cast<const chunk<From, K>*>(src), chunks,
                                  static_cast<To*>(dst) + chunks * K, static_cast<const From*>(src) + chunks * K, tail);
  } else if (contiguous) {
    copy_contiguous_kernel<To, From>
        <<<grid, block_size, 0, s>>>(static_cast<To*>(dst), static_cast<const From*>(src), l.size);
  } else if (l.ndim <= small_kernel_ndim) {
    copy_strided_kernel<To, From, small_kernel_ndim><<<grid, block_size, 0, s>>>(
        static_cast<char*>(dst), static_cast<const char*>(src), make_arg<small_kernel_ndim>(l));
  } else {
    copy_strided_kernel<To, From, 64>
        <<<grid, block_size, 0, s>>>(static_cast<char*>(dst), static_cast<const char*>(src), make_arg<64>(l));
  }
  check_launch();
}

}  // namespace

void launch_copy(const loop_layout& layout, void* dst, dtype dst_type, const void* src, dtype src_type,
                 cudaStream_t stream) {
  if (layout.size == 0) return;
  if (dst_type == src_type) {
    // Note [tiled transpose] (manip_kernels.hpp).
    if (try_launch_transpose_copy(layout, dst, src, itemsize(dst_type), stream)) return;
    loop_layout wide = layout;
    const std::size_t width = widen_rows(wide, itemsize(dst_type), reinterpret_cast<std::uintptr_t>(dst), src, true);
    dispatch_bytes(width, [&](auto t) {
      using T = decltype(t);
      // Same type: the strided kernel for bytes never converts, so reuse copy_typed<T, T>.
      copy_typed<T, T>(wide, dst, src, stream);
    });
    return;
  }
  if (layout.ndim > small_kernel_ndim) {
    // Casting kernels exist only for up to small_kernel_ndim dimensions (there are 182 dtype pairs): the
    // rare deeper layout is first gathered into contiguous memory by the byte-moving kernel.
    throw std::logic_error("launch_copy: casting layout deeper than the kernels support");
  }
  dispatch_type(dst_type, [&](auto to) {
    dispatch_type(src_type, [&](auto from) {
      using To = decltype(to);
      using From = decltype(from);
      if constexpr (!std::is_same_v<To, From>) copy_typed<To, From>(layout, dst, src, stream);
    });
  });
}

namespace {

// Note [contiguous fill]: a contiguous fill stores 16-byte vectors of the value repeated, one a thread, with the
// bytes before the first 16-byte boundary and after the last one stored element by element by the first
// threads. Element by element (fill_strided_kernel, one store of the item a thread and an index division),
// fill(1.5) of 2**24 float32 ran at 0.42x PyTorch's fill_ on an H200 (tools/diag/cast23.py). Zeros go to
// cudaMemsetAsync before this (array::fill).
template <class T>
__global__ void __launch_bounds__(block_size)
    fill_vector_kernel(uint4* dst, uint4 pattern, long long chunks, T* head, int head_n, T* tail, int tail_n, T v) {
  const long long first = blockIdx.x * static_cast<long long>(block_size) + threadIdx.x;
  const long long step = static_cast<long long>(gridDim.x) * block_size;
#pragma unroll 1
  for (long long i = first; i < chunks; i += step) dst[i] = pattern;
  if (first < head_n) head[first] = v;
  if (first < tail_n) tail[first] = v;
}

}  // namespace

void launch_fill(const loop_layout& layout, void* dst, std::size_t isize, const unsigned char* value,
                 cudaStream_t stream) {
  if (layout.size == 0) return;
  const auto addr = reinterpret_cast<std::uintptr_t>(dst);
  if (layout.ndim == 1 && layout.dst_strides[0] == static_cast<std::int64_t>(isize) && addr % isize == 0) {
    // The itemsize (1 to 16, a power of two) divides 16 and the address, so the head's length and every
    // vector's start are whole items: each vector holds the value repeated from its first byte.
    unsigned char bytes[16];
    for (int j = 0; j < 16; ++j) bytes[j] = value[j % isize];
    uint4 pattern;
    std::memcpy(&pattern, bytes, sizeof pattern);
    const long long total = layout.size * static_cast<long long>(isize);
    const long long head_bytes = std::min<long long>(static_cast<long long>((16 - addr % 16) % 16), total);
    const long long chunks = (total - head_bytes) / 16;
    const long long tail_bytes = total - head_bytes - chunks * 16;
    dispatch_bytes(isize, [&](auto t) {
      using T = decltype(t);
      T v;
      std::memcpy(&v, value, sizeof(T));
      auto* base = static_cast<unsigned char*>(dst);
      fill_vector_kernel<T><<<grid_for(std::max<long long>(chunks, 1)), block_size, 0, stream>>>(
          reinterpret_cast<uint4*>(base + head_bytes), pattern, chunks, reinterpret_cast<T*>(base),
          static_cast<int>(head_bytes / sizeof(T)), reinterpret_cast<T*>(base + head_bytes + chunks * 16),
          static_cast<int>(tail_bytes / sizeof(T)), v);
      check_launch();
    });
    return;
  }
  // Note [wide rows]: contiguous rows are filled with the value repeated across wider items.
  loop_layout wide = layout;
  const std::size_t width = widen_rows(wide, isize, addr, nullptr, false);
  unsigned char repeated[16];
  for (std::size_t j = 0; j < width; ++j) repeated[j] = value[j % isize];
  dispatch_bytes(width, [&](auto t) {
    using T = decltype(t);
    T v;
    std::memcpy(&v, repeated, sizeof(T));
    int grid = grid_for(wide.size);
    if (wide.ndim <= small_kernel_ndim) {
      fill_strided_kernel<T, small_kernel_ndim>
          <<<grid, block_size, 0, stream>>>(static_cast<char*>(dst), v, make_arg<small_kernel_ndim>(wide));
    } else {
      fill_strided_kernel<T, 64><<<grid, block_size, 0, stream>>>(static_cast<char*>(dst), v, make_arg<64>(wide));
    }
    check_launch();
  });
}

// ---------------------------------------------------------------------------------------------------------
// arange: NumPy's fill functions compute start + i * delta in the array's own type (float16 in float32,
// complex componentwise, integers with wraparound).

namespace {

template <class T> __global__ void arange_kernel(T* out, long long n, T start, T step) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    if constexpr (std::is_same_v<T, __half>) {
      out[i] = __float2half_rn(__half2float(start) + static_cast<float>(i) * __half2float(step));
    } else if constexpr (std::is_same_v<T, c64>) {
      out[i] = c64{start.re + static_cast<float>(i) * step.re, start.im + static_cast<float>(i) * step.im};
    } else if constexpr (std::is_same_v<T, c128>) {
      out[i] = c128{start.re + static_cast<double>(i) * step.re, start.im + static_cast<double>(i) * step.im};
    } else if constexpr (std::is_same_v<T, bool8>) {
      out[i] = bool8{static_cast<unsigned char>((start.v + i * step.v) != 0)};
    } else if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      out[i] = static_cast<T>(static_cast<U>(start) + static_cast<U>(i) * static_cast<U>(step));
    } else {
      out[i] = start + static_cast<T>(i) * step;
    }
  }
}

// linspace family in double or complex double arithmetic, then one cast, as NumPy computes in float64
// (or complex128) and casts at the end.
struct cplx {
  double re, im;
};
__device__ inline cplx cmul(cplx a, cplx b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
__device__ inline cplx cexp(cplx a) {
  double m = exp(a.re);
  double s, c;
  sincos(a.im, &s, &c);
  return {m * c, m * s};
}
__device__ inline cplx clog(cplx a) { return {log(hypot(a.re, a.im)), atan2(a.im, a.re)}; }
__device__ inline cplx cpow(cplx b, cplx e) {
  if (e.re == 0 && e.im == 0) return {1, 0};
  if (b.re == 0 && b.im == 0) return {0, 0};
  return cexp(cmul(e, clog(b)));
}

struct space_arg {
  cplx start, step, delta, stop, base, first, last, sign;
  double div;
  int linear_mode;
  bool set_last, log, geometric, floor, complex_math;
};

template <class T> __global__ void space_kernel(T* out, long long n, space_arg p) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    double fi = static_cast<double>(i);
    cplx y;
    if (p.set_last && i == n - 1) {
      y = p.stop;
    } else if (p.linear_mode == 0) {
      y = {fi * p.step.re + p.start.re, fi * p.step.im + p.start.im};
    } else if (p.linear_mode == 1) {
      y = {(fi / p.div) * p.delta.re + p.start.re, (fi / p.div) * p.delta.im + p.start.im};
    } else {
      y = {fi * p.delta.re + p.start.re, fi * p.delta.im + p.start.im};
    }
    if (p.log) {
      if (p.complex_math) {
        y = cpow(p.base, y);
      } else {
        y = {pow(p.base.re, y.re), 0.0};
      }
    }
    if (p.geometric) {
      if (i == 0) y = p.first;
      if (p.set_last && i == n - 1 && n > 1) y = p.last;
      y = p.complex_math ? cmul(y, p.sign) : cplx{y.re * p.sign.re, 0.0};
    }
    if (p.floor) y = {::floor(y.re), ::floor(y.im)};
    out[i] = convert<T>(c128{y.re, y.im});
  }
}

}  // namespace

void launch_arange(void* out, dtype t, std::int64_t n, const unsigned char* start, const unsigned char* step,
                   cudaStream_t stream) {
  if (n <= 0) return;
  dispatch_type(t, [&](auto z) {
    using T = decltype(z);
    T a, b;
    std::memcpy(&a, start, sizeof(T));
    std::memcpy(&b, step, sizeof(T));
    arange_kernel<T><<<grid_for(n), block_size, 0, stream>>>(static_cast<T*>(out), n, a, b);
    check_launch();
  });
}

void launch_space(void* out, dtype t, std::int64_t n, const space_params& p, cudaStream_t stream) {
  if (n <= 0) return;
  auto c = [](std::complex<double> v) { return cplx{v.real(), v.imag()}; };
  space_arg a{c(p.start), c(p.step),     c(p.delta), c(p.stop), c(p.base),   c(p.first), c(p.last),     c(p.sign),
              p.div,      p.linear_mode, p.set_last, p.log,     p.geometric, p.floor,    p.complex_math};
  dispatch_type(t, [&](auto z) {
    using T = decltype(z);
    space_kernel<T><<<grid_for(n), block_size, 0, stream>>>(static_cast<T*>(out), n, a);
    check_launch();
  });
}

}  // namespace cuarray::detail
