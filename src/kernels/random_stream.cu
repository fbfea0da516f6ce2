// Random distributions that make several outputs per Philox counter: uniform, normal, exponential and kin.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "src/cuda/check.hpp"
#include "src/kernels/random_kernels.hpp"
#include "src/kernels/random_philox.cuh"

namespace cuarray::detail::rng {

namespace {

constexpr int block_size = 256;
// A grid-stride loop over at most this many blocks: several waves on any current GPU, and each thread's
// loop amortises its index arithmetic over a few Philox blocks.
constexpr long long max_blocks = 65536;

__device__ __forceinline__ double param_at(const param& p, long long i) { return p.ptr ? p.ptr[i] : p.value; }

template <class T> struct vec_of;
template <> struct vec_of<float> {
  using type = float4;
  static constexpr int n = 4;
};
template <> struct vec_of<double> {
  using type = double2;
  static constexpr int n = 2;
};
template <> struct vec_of<long long> {
  using type = longlong2;
  static constexpr int n = 2;
};

// Note [float32 Box-Muller]: the radius needs log(u) accurate in relative terms over all of (0, 1): near 1
// it gives the centre of the distribution and near 0 its tails, so __logf (absolute error 2^-21.4 near 1,
// enough to make -2 log u negative) will not do. log_open01 is logf's own range reduction and polynomial
// (1 ulp) without its zero, denormal, infinity and NaN paths, which a u in [2^-24, 1) never takes. The
// angle's error is absolute and harmless: __sincosf of an angle in [-pi, pi) errs by at most about 2^-21,
// i.e. a few float32 ulps of the output after the multiplication by a radius of at most 5.8. sqrt.approx
// has a relative error of about 2^-23. The sm_80 loop is ~107 SASS instructions per Philox block, was ~230.

/// (j + 1/2) 2^-23 for the top 23 bits j of x: in (0, 1), exactly, without an int-to-float conversion.
__device__ __forceinline__ float u01f_mid23(std::uint32_t x) {
  return __uint_as_float(0x3f800000u | (x >> 9)) - 0x1.fffffep-1f;  // [1, 2) - (1 - 2^-24)
}

/// k 2^-23 - 1/2 for the top 23 bits k of x: a fraction of a turn in [-1/2, 1/2).
__device__ __forceinline__ float turn_centered(std::uint32_t x) {
  return __uint_as_float(0x3f800000u | (x >> 9)) - 1.5f;
}

__device__ __forceinline__ float sqrt_approx(float x) {
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

/// Natural logarithm of a normal positive finite float (logf's reduction to [2/3, 4/3) and its polynomial).
__device__ __forceinline__ float log_open01(float u) {
  std::int32_t e = (__float_as_int(u) - 0x3f2aaaab) & static_cast<std::int32_t>(0xff800000u);
  float f = __int_as_float(__float_as_int(u) - e) - 1.0f;
  float p = fmaf(f, -0x1.0aa04ep-3f, 0x1.2073ecp-3f);
  p = fmaf(f, p, -0x1.f19b98p-4f);
  p = fmaf(f, p, 0x1.1e52aap-3f);
  p = fmaf(f, p, -0x1.55b172p-3f);
  p = fmaf(f, p, 0x1.99da16p-3f);
  p = fmaf(f, p, -0x1.fffe44p-3f);
  p = fmaf(f, p, 0x1.5554f0p-2f);
  p = fmaf(f, p, -0.5f);
  float t = fmaf(f, f * p, f);
  // e holds the exponent in bits 23..30: as an integer it is exponent * 2^23.
  return fmaf(static_cast<float>(e), 0x1.62e430p-24f, t);
}

// The raw variates of one counter: uniforms, normals or exponentials before any parameter is applied.
template <dist D> __device__ __forceinline__ void raw(const u32x4& r, float (&v)[4]) {
  if constexpr (D == dist::normal) {
    // Box-Muller on the fast paths that keep float32 accuracy (Note [float32 Box-Muller]).
    float r1 = sqrt_approx(-2.0f * log_open01(u01f_mid23(r.x)));
    float r2 = sqrt_approx(-2.0f * log_open01(u01f_mid23(r.z)));
    float s1, c1, s2, c2;
    __sincosf(turn_centered(r.y) * 6.28318530717958647692f, &s1, &c1);
    __sincosf(turn_centered(r.w) * 6.28318530717958647692f, &s2, &c2);
    v[0] = r1 * c1;
    v[1] = r1 * s1;
    v[2] = r2 * c2;
    v[3] = r2 * s2;
  } else if constexpr (D == dist::exponential) {
    v[0] = -log1pf(-u01f(r.x));
    v[1] = -log1pf(-u01f(r.y));
    v[2] = -log1pf(-u01f(r.z));
    v[3] = -log1pf(-u01f(r.w));
  } else {
    v[0] = u01f(r.x);
    v[1] = u01f(r.y);
    v[2] = u01f(r.z);
    v[3] = u01f(r.w);
  }
}

template <dist D> __device__ __forceinline__ void raw(const u32x4& r, double (&v)[2]) {
  if constexpr (D == dist::normal || D == dist::lognormal) {
    double rad = sqrt(-2.0 * log(u01d_open0(r.x, r.y))), s, c;
    sincospi(2.0 * u01d(r.z, r.w), &s, &c);
    v[0] = rad * c;
    v[1] = rad * s;
  } else if constexpr (D == dist::exponential) {
    v[0] = -log1p(-u01d(r.x, r.y));
    v[1] = -log1p(-u01d(r.z, r.w));
  } else if constexpr (D == dist::logistic || D == dist::laplace || D == dist::gumbel || D == dist::geometric) {
    v[0] = u01d_open(r.x, r.y);  // these take logarithms of U and of 1 - U
    v[1] = u01d_open(r.z, r.w);
  } else {
    v[0] = u01d(r.x, r.y);
    v[1] = u01d(r.z, r.w);
  }
}

template <dist D, class T>
__device__ __forceinline__ T finish(double v, const param& p0, const param& p1, long long i) {
  if constexpr (D == dist::uniform01) {
    return static_cast<T>(v);
  } else if constexpr (D == dist::normal) {
    return static_cast<T>(param_at(p0, i) + param_at(p1, i) * v);
  } else if constexpr (D == dist::exponential) {
    return static_cast<T>(param_at(p0, i) * v);
  } else if constexpr (D == dist::uniform) {
    double lo = param_at(p0, i);
    return static_cast<T>(lo + (param_at(p1, i) - lo) * v);
  } else if constexpr (D == dist::lognormal) {
    return static_cast<T>(exp(param_at(p0, i) + param_at(p1, i) * v));
  } else if constexpr (D == dist::logistic) {
    return static_cast<T>(param_at(p0, i) + param_at(p1, i) * log(v / (1.0 - v)));
  } else if constexpr (D == dist::laplace) {
    double loc = param_at(p0, i), scale = param_at(p1, i);
    return static_cast<T>(v >= 0.5 ? loc - scale * log(2.0 - v - v) : loc + scale * log(v + v));
  } else if constexpr (D == dist::gumbel) {
    return static_cast<T>(param_at(p0, i) - param_at(p1, i) * log(-log(v)));
  } else {  // geometric: inversion, ceil(log U / log(1 - p)) >= 1
    double p = param_at(p0, i);
    if (p >= 1.0) return 1;
    double z = ceil(log(v) / log1p(-p));
    return z >= 9.2233720368547758e18 ? static_cast<T>(0x7fffffffffffffffLL) : static_cast<T>(z);
  }
}

// float32 keeps float arithmetic for the standard forms (the parameters are then exactly 0 and 1).
template <dist D> __device__ __forceinline__ float finish_f(float v, const param& p0, const param& p1, long long i) {
  if constexpr (D == dist::normal) {
    return fmaf(static_cast<float>(param_at(p1, i)), v, static_cast<float>(param_at(p0, i)));
  } else if constexpr (D == dist::exponential) {
    return static_cast<float>(param_at(p0, i)) * v;
  } else {
    return v;
  }
}

template <dist D, class T, bool Plain>
__global__ void __launch_bounds__(block_size)
    stream_kernel(T* out, long long n, unsigned long long key, unsigned long long offset, param p0, param p1,
                  bool aligned) {
  using V = vec_of<T>;
  constexpr int K = V::n;
  const long long groups = (n + K - 1) / K;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<long long>(gridDim.x) * blockDim.x) {
    u32x4 r = block_at(key, offset + static_cast<unsigned long long>(g), 0);
    long long i0 = g * K;
    T o[K];
    if constexpr (std::is_same_v<T, float>) {
      float v[4];
      raw<D>(r, v);
#pragma unroll
      for (int j = 0; j < 4; ++j) o[j] = Plain ? v[j] : finish_f<D>(v[j], p0, p1, i0 + j);
    } else {
      double v[2];
      raw<D>(r, v);
#pragma unroll
      for (int j = 0; j < 2; ++j) o[j] = finish<D, T>(v[j], p0, p1, i0 + j);
    }
    if (aligned && i0 + K <= n) {
      typename V::type w;
      static_assert(sizeof(w) == sizeof(o));
      memcpy(&w, o, sizeof(w));
      reinterpret_cast<typename V::type*>(out)[g] = w;
    } else {
      for (int j = 0; j < K && i0 + j < n; ++j) out[i0 + j] = o[j];
    }
  }
}

template <dist D, class T, bool Plain = false>
void launch(void* out, long long n, std::uint64_t key, std::uint64_t offset, const param* p, cudaStream_t s) {
  constexpr int K = vec_of<T>::n;
  long long groups = (n + K - 1) / K;
  long long blocks = (groups + block_size - 1) / block_size;
  if (blocks > max_blocks) blocks = max_blocks;
  bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  stream_kernel<D, T, Plain>
      <<<static_cast<unsigned>(blocks), block_size, 0, s>>>(static_cast<T*>(out), n, key, offset, p[0], p[1], aligned);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_stream_dist(dist d, void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                        const param* p, cudaStream_t s) {
  bool f32 = t == dtype::float32;
  switch (d) {
    case dist::uniform01:
      return f32 ? launch<dist::uniform01, float, true>(out, n, key, offset, p, s)
                 : launch<dist::uniform01, double>(out, n, key, offset, p, s);
    case dist::normal: {
      bool plain = !p[0].ptr && !p[1].ptr && p[0].value == 0 && p[1].value == 1;
      if (f32) {
        return plain ? launch<dist::normal, float, true>(out, n, key, offset, p, s)
                     : launch<dist::normal, float>(out, n, key, offset, p, s);
      }
      return launch<dist::normal, double>(out, n, key, offset, p, s);
    }
    case dist::exponential:
      return f32 ? launch<dist::exponential, float>(out, n, key, offset, p, s)
                 : launch<dist::exponential, double>(out, n, key, offset, p, s);
    case dist::uniform: return launch<dist::uniform, double>(out, n, key, offset, p, s);
    case dist::lognormal: return launch<dist::lognormal, double>(out, n, key, offset, p, s);
    case dist::logistic: return launch<dist::logistic, double>(out, n, key, offset, p, s);
    case dist::laplace: return launch<dist::laplace, double>(out, n, key, offset, p, s);
    case dist::gumbel: return launch<dist::gumbel, double>(out, n, key, offset, p, s);
    case dist::geometric: return launch<dist::geometric, long long>(out, n, key, offset, p, s);
    default: break;
  }
}

}  // namespace cuarray::detail::rng
