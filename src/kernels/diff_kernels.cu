// Ahead-of-time kernel of diff (Note [diff kernel] in diff_kernels.hpp): one read of the input, one write.
#include <cuda_fp16.h>

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "src/cuda/check.hpp"
#include "src/kernels/diff_kernels.hpp"

namespace cuarray::detail {

namespace {

constexpr int block = 256;

// Element types by what the difference does: integers wrap (one unsigned type per width serves both signs),
// bool compares, float16 is carried as its bits and subtracts through float32 as NumPy's half loops do.
struct bool8 {
  unsigned char b;
};
struct f16_bits {
  unsigned short bits;
};
struct alignas(8) c64 {
  float re, im;
};
struct alignas(16) c128 {
  double re, im;
};

template <class T> __device__ __forceinline__ T sub(T hi, T lo) { return static_cast<T>(hi - lo); }
__device__ __forceinline__ bool8 sub(bool8 hi, bool8 lo) {
  return bool8{static_cast<unsigned char>((hi.b != 0) != (lo.b != 0))};
}
__device__ __forceinline__ f16_bits sub(f16_bits hi, f16_bits lo) {
  float d = __half2float(__ushort_as_half(hi.bits)) - __half2float(__ushort_as_half(lo.bits));
  return f16_bits{__half_as_ushort(__float2half_rn(d))};
}
__device__ __forceinline__ c64 sub(c64 hi, c64 lo) { return c64{hi.re - lo.re, hi.im - lo.im}; }
__device__ __forceinline__ c128 sub(c128 hi, c128 lo) { return c128{hi.re - lo.re, hi.im - lo.im}; }

template <class T> struct alignas(16) vec16 { T v[16 / sizeof(T)]; };
template <class T> union vec16_bits {
  uint4 u;
  vec16<T> v;
};

// Note [diff loads]: the loads are ld.global.ca, stated. A plain dereference of the kernel's `const __restrict__`
// input compiles to ld.global.nc (the read-only path), and that build ran diff of 2**27 float32 8% slower on an
// H200 (286 against 264 µs); the streaming hint (ld.global.cs, the form before) cost 1.5% on an H100. Stated
// ld.global.ca runs at a flat copy's rate on both (tools/diag/bw_rows23.py, c00ebf1: H100 358.6 µs against
// torch.diff's 358.8 and the copy's 361.6; H200 255.3 against 261.8 and 256.2).
template <class T> __device__ __forceinline__ T load_ca(const T* p) {
  using B = std::conditional_t<
      sizeof(T) == 1, unsigned char,
      std::conditional_t<sizeof(T) == 2, unsigned short,
                         std::conditional_t<sizeof(T) == 4, unsigned int,
                                            std::conditional_t<sizeof(T) == 8, unsigned long long, uint4>>>>;
  static_assert(sizeof(B) == sizeof(T));
  union {
    B b;
    T t;
  } r;
  r.b = __ldca(reinterpret_cast<const B*>(p));
  return r.t;
}
template <class T> __device__ __forceinline__ vec16<T> load16(const T* p) {
  return load_ca(reinterpret_cast<const vec16<T>*>(p));
}
template <class T> __device__ __forceinline__ void store16(T* p, const vec16<T>& v) {
  vec16_bits<T> r;
  r.v = v;
  *reinterpret_cast<uint4*>(p) = r.u;
}

// outer == 1: out[o] = x[o + d] - x[o] over n outputs (x holds n + d elements). `vec`: both pointers are
// 16-byte aligned, so each thread reads and writes whole vectors; the element after a vector (d == 1) comes
// from the next thread's vector, which the same warp instruction has just brought into L1.
template <class T>
__global__ void __launch_bounds__(block)
    diff_flat_kernel(const T* __restrict__ x, T* __restrict__ out, long long n, long long d, int vec) {
  constexpr int V = static_cast<int>(16 / sizeof(T));
  const long long tid = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long done = 0;
  if (vec) {
    const long long nvec = n / V;
    for (long long k = tid; k < nvec; k += stride) {
      const long long o = k * V;
      vec16<T> lo = load16(x + o), hi, r;
      if (d % V == 0) {
        hi = load16(x + o + d);
      } else if (d == 1) {
#pragma unroll
        for (int q = 0; q + 1 < V; ++q) hi.v[q] = lo.v[q + 1];
        hi.v[V - 1] = load_ca(x + o + V);
      } else {
#pragma unroll
        for (int q = 0; q < V; ++q) hi.v[q] = load_ca(x + o + d + q);
      }
#pragma unroll
      for (int q = 0; q < V; ++q) r.v[q] = sub(hi.v[q], lo.v[q]);
      store16(out + o, r);
    }
    done = nvec * V;
  }
  for (long long o = done + tid; o < n; o += stride) out[o] = sub(load_ca(x + o + d), load_ca(x + o));
}

// outer > 1: n outputs in rows of m = (len - 1) * inner; output (r, c) reads x[r * (m + d) + c] and the
// element d = inner further. Each thread takes V consecutive outputs (one division for all of them) and writes
// them as one vector when they are whole; the reads are scalar but coalesced across the warp.
template <class T>
__global__ void __launch_bounds__(block)
    diff_rows_kernel(const T* __restrict__ x, T* __restrict__ out, long long n, long long m, long long d) {
  constexpr int V = static_cast<int>(16 / sizeof(T));
  const long long tid = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long chunks = (n + V - 1) / V;
  for (long long k = tid; k < chunks; k += stride) {
    const long long o0 = k * V;
    long long r = o0 / m, c = o0 - r * m;
    long long xi = r * (m + d) + c;
    vec16<T> res;
    if (o0 + V <= n) {
#pragma unroll
      for (int q = 0; q < V; ++q) {
        res.v[q] = sub(x[xi + d], x[xi]);
        ++xi;
        if (++c == m) c = 0, xi += d;  // the next outer row begins d elements after this row's last read
      }
      store16(out + o0, res);
    } else {
      for (long long o = o0; o < n; ++o) {
        out[o] = sub(x[xi + d], x[xi]);
        ++xi;
        if (++c == m) c = 0, xi += d;
      }
    }
  }
}

// The rows kernel divides once per chunk and keeps a capped grid-stride grid. The flat kernel has no per-thread
// setup and takes a thread per vector (Note [flat grids] in src/engine/elementwise.cpp: on an H200 this diff
// ran at 0.99 of cudaMemcpy's bandwidth, against 0.92 with the grid capped at 32 blocks per multiprocessor).
int grid_for(long long work, bool capped) {
  long long blocks = (work + block - 1) / block;
  long long cap = 1LL << 24;
  if (capped) {
    int device = 0, sms = 0;
    CUARRAY_CUDA_CHECK(cudaGetDevice(&device));
    CUARRAY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    cap = static_cast<long long>(sms) * 32;  // grid-stride beyond a few waves of resident blocks
  }
  if (blocks > cap) blocks = cap;
  return static_cast<int>(blocks < 1 ? 1 : blocks);
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class T>
void run_diff(const void* xv, void* outv, long long outer, long long len, long long inner, cudaStream_t s) {
  const T* x = static_cast<const T*>(xv);
  T* out = static_cast<T*>(outv);
  constexpr long long V = static_cast<long long>(16 / sizeof(T));
  const long long m = (len - 1) * inner, n = outer * m;
  if (n <= 0) return;
  if (outer == 1) {
    int vec = aligned16(x) && aligned16(out) ? 1 : 0;
    diff_flat_kernel<T><<<grid_for(vec ? n / V + 1 : n, false), block, 0, s>>>(x, out, n, inner, vec);
  } else {
    diff_rows_kernel<T><<<grid_for((n + V - 1) / V, true), block, 0, s>>>(x, out, n, m, inner);
  }
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_diff(dtype t, const void* x, void* out, std::int64_t outer, std::int64_t len, std::int64_t inner,
                 cudaStream_t s) {
  switch (t) {
    case dtype::bool_: return run_diff<bool8>(x, out, outer, len, inner, s);
    case dtype::int8:
    case dtype::uint8: return run_diff<unsigned char>(x, out, outer, len, inner, s);
    case dtype::int16:
    case dtype::uint16: return run_diff<unsigned short>(x, out, outer, len, inner, s);
    case dtype::int32:
    case dtype::uint32: return run_diff<unsigned int>(x, out, outer, len, inner, s);
    case dtype::int64:
    case dtype::uint64: return run_diff<unsigned long long>(x, out, outer, len, inner, s);
    case dtype::float16: return run_diff<f16_bits>(x, out, outer, len, inner, s);
    case dtype::float32: return run_diff<float>(x, out, outer, len, inner, s);
    case dtype::float64: return run_diff<double>(x, out, outer, len, inner, s);
    case dtype::complex64: return run_diff<c64>(x, out, outer, len, inner, s);
    case dtype::complex128: return run_diff<c128>(x, out, outer, len, inner, s);
  }
  throw std::invalid_argument("launch_diff: unknown dtype");
}

}  // namespace cuarray::detail
