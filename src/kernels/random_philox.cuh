// Philox4x32-10 and the per-element samplers built on it, shared by the random kernels and the host tests.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define CA_RNG_HD __host__ __device__ __forceinline__
#else
#define CA_RNG_HD inline
#endif

namespace cuarray::detail::rng {

/// Four 32-bit words: a Philox counter or block of output.
struct u32x4 {
  std::uint32_t x, y, z, w;
};

CA_RNG_HD std::uint32_t mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi) {
#ifdef __CUDA_ARCH__
  // One widening multiply (mul.wide.u32) instead of mul.hi and mul.lo, two per Philox round. (Written in
  // PTX: from C++ the compiler widens the operands and emits a 64-bit mul.lo.)
  std::uint64_t p;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(p) : "r"(a), "r"(b));
  hi = static_cast<std::uint32_t>(p >> 32);
  return static_cast<std::uint32_t>(p);
#else
  std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  return static_cast<std::uint32_t>(p);
#endif
}

/// Random123's Philox4x32 with 10 rounds (the known-answer tests in tests/cpp check it).
CA_RNG_HD u32x4 philox4x32_10(u32x4 c, std::uint32_t k0, std::uint32_t k1) {
#ifdef __CUDA_ARCH__  // host compilers (the C++ tests include this header) do not know the pragma
#pragma unroll
#endif
  for (int r = 0; r < 10; ++r) {
    std::uint32_t hi0, hi1;
    std::uint32_t lo0 = mulhilo(0xD2511F53u, c.x, hi0);
    std::uint32_t lo1 = mulhilo(0xCD9E8D57u, c.z, hi1);
    c = u32x4{hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// Note [random counters]: a generator's state is a 64-bit key and a 64-bit counter offset. Philox's 128-bit
/// counter is (offset + index, sub-stream): a call of n outputs owns counters [offset, offset + used) with
/// sub-stream 0, and the generator's offset then moves past them, so calls never share a counter. Fast
/// distributions make several outputs per counter (4 float32 or 2 float64 values, 4 or 2 integers: Note
/// [integers per counter] in random_misc.cu); samplers that loop (rejection, inversion) own one counter per
/// output and draw from its sub-streams 0, 1, 2, ... in turn. An
/// output's value therefore depends only on (key, offset, its index), never on the launch configuration.
CA_RNG_HD u32x4 block_at(std::uint64_t key, std::uint64_t index, std::uint64_t sub) {
  return philox4x32_10(u32x4{static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32),
                             static_cast<std::uint32_t>(sub), static_cast<std::uint32_t>(sub >> 32)},
                       static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32));
}

/// [0, 1) from the top 24 bits.
CA_RNG_HD float u01f(std::uint32_t x) { return static_cast<float>(x >> 8) * 0x1p-24f; }
/// (0, 1] from the top 24 bits: safe to take the logarithm of.
CA_RNG_HD float u01f_open0(std::uint32_t x) { return static_cast<float>((x >> 8) + 1) * 0x1p-24f; }
/// [0, 1) from 53 bits of two words.
CA_RNG_HD double u01d(std::uint32_t a, std::uint32_t b) {
  return static_cast<double>(((static_cast<std::uint64_t>(a) << 32) | b) >> 11) * 0x1p-53;
}
/// (0, 1] from 53 bits.
CA_RNG_HD double u01d_open0(std::uint32_t a, std::uint32_t b) {
  return static_cast<double>((((static_cast<std::uint64_t>(a) << 32) | b) >> 11) + 1) * 0x1p-53;
}
/// (0, 1) from 52 bits: the midpoints k + 1/2 of a 2^-52 grid; neither end is reachable.
CA_RNG_HD double u01d_open(std::uint32_t a, std::uint32_t b) {
  return (static_cast<double>(((static_cast<std::uint64_t>(a) << 32) | b) >> 12) + 0.5) * 0x1p-52;
}

/// Word k (0..3) of a block.
CA_RNG_HD std::uint32_t word_of(u32x4 b, int k) { return k == 0 ? b.x : k == 1 ? b.y : k == 2 ? b.z : b.w; }

/// Note [integers per counter] (random_misc.cu): Lemire's draw in [0, rng1) (1 <= rng1 < 2**32) for output k of
/// `counter` whose first word w0 fell below the acceptance bound: under t = 2**32 mod rng1 it is biased, and the
/// draw goes on with the words of the output's own sub-streams (k + 1) << 32, +1, ... in order. Host and device
/// (the C++ tests check it against a plain model).
CA_RNG_HD std::uint32_t interval32_redraw(std::uint64_t key, std::uint64_t counter, int k, std::uint32_t w0,
                                          std::uint32_t rng1) {
  const std::uint32_t t = (0u - rng1) % rng1;
  std::uint64_t m = static_cast<std::uint64_t>(w0) * rng1;
  std::uint64_t sub = (static_cast<std::uint64_t>(k) + 1) << 32;
  u32x4 more{};
  int pos = 4;
  while (static_cast<std::uint32_t>(m) < t) {
    if (pos == 4) {
      more = block_at(key, counter, sub++);
      pos = 0;
    }
    m = static_cast<std::uint64_t>(word_of(more, pos++)) * rng1;
  }
  return static_cast<std::uint32_t>(m >> 32);
}

#ifdef __CUDACC__

/// The sub-streams of one output's counter (Note [random counters]), consumed a word at a time.
struct element_stream {
  std::uint64_t key, index, sub = 0;
  u32x4 buf;
  int pos = 4;
  bool has_normal = false;
  double cached_normal = 0;

  __device__ element_stream(std::uint64_t k, std::uint64_t i) : key(k), index(i) {}

  __device__ std::uint32_t next32() {
    if (pos == 4) {
      buf = block_at(key, index, sub++);
      pos = 0;
    }
    std::uint32_t w[4] = {buf.x, buf.y, buf.z, buf.w};
    return w[pos++];
  }
  __device__ std::uint64_t next64() {
    std::uint64_t hi = next32();
    return (hi << 32) | next32();
  }
  __device__ double uniform() {  // [0, 1)
    std::uint32_t a = next32();
    return u01d(a, next32());
  }
  __device__ double uniform_open() {  // (0, 1)
    std::uint32_t a = next32();
    return u01d_open(a, next32());
  }
  __device__ double normal() {
    if (has_normal) {
      has_normal = false;
      return cached_normal;
    }
    double u1 = 0, u2 = 0;
    {
      std::uint32_t a = next32();
      u1 = u01d_open0(a, next32());
      std::uint32_t b = next32();
      u2 = u01d(b, next32());
    }
    double r = sqrt(-2.0 * log(u1)), s, c;
    sincospi(2.0 * u2, &s, &c);
    cached_normal = r * s;
    has_normal = true;
    return r * c;
  }
  /// Uniform integer in [0, range] (inclusive) by Lemire's unbiased multiply-and-reject.
  __device__ std::uint64_t interval(std::uint64_t range) {
    if (range == 0) return 0;
    if (range <= 0xFFFFFFFFull) {
      if (range == 0xFFFFFFFFull) return next32();
      std::uint32_t rng1 = static_cast<std::uint32_t>(range) + 1;
      std::uint64_t m = static_cast<std::uint64_t>(next32()) * rng1;
      std::uint32_t l = static_cast<std::uint32_t>(m);
      if (l < rng1) {
        std::uint32_t t = (0u - rng1) % rng1;
        while (l < t) {
          m = static_cast<std::uint64_t>(next32()) * rng1;
          l = static_cast<std::uint32_t>(m);
        }
      }
      return m >> 32;
    }
    if (range == ~0ull) return next64();
    std::uint64_t rng1 = range + 1;
    std::uint64_t x = next64();
    std::uint64_t lo = x * rng1, hi = __umul64hi(x, rng1);
    if (lo < rng1) {
      std::uint64_t t = (0ull - rng1) % rng1;
      while (lo < t) {
        x = next64();
        lo = x * rng1;
        hi = __umul64hi(x, rng1);
      }
    }
    return hi;
  }
};

/// Marsaglia and Tsang's gamma(shape, 1); shape < 1 through gamma(shape + 1) * U^(1/shape).
__device__ inline double sample_gamma(element_stream& s, double shape) {
  if (shape <= 0) return 0;                        // NumPy: standard_gamma(0) == 0
  if (isinf(shape) || isnan(shape)) return shape;  // NaN would never pass the acceptance tests below
  double boost = 1;
  if (shape < 1) {
    boost = pow(s.uniform_open(), 1.0 / shape);
    shape += 1;
  }
  double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    double u = s.uniform_open();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return d * v * boost;
    if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v))) return d * v * boost;
  }
}

/// NumPy's beta: Johnk's algorithm when both parameters are at most 1, else a ratio of gammas.
__device__ inline double sample_beta(element_stream& s, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    for (;;) {
      double u = s.uniform(), v = s.uniform();
      double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b);
      double xy = x + y;
      if (xy <= 1.0 && u + v > 0.0) {
        if (xy > 0) return x / xy;
        // Both powers underflowed: compare in logarithms (NumPy does the same).
        double logx = log(u) / a, logy = log(v) / b;
        double logm = logx > logy ? logx : logy;
        logx -= logm;
        logy -= logm;
        return exp(logx - log(exp(logx) + exp(logy)));
      }
    }
  }
  double x = sample_gamma(s, a), y = sample_gamma(s, b);
  return x / (x + y);
}

/// Binomial by inversion (NumPy's method for n * p <= 30 with p <= 1/2).
__device__ inline long long binomial_inversion(element_stream& s, long long n, double p) {
  double q = 1.0 - p, qn = exp(n * log(q)), np = n * p;
  double bound = fmin(static_cast<double>(n), np + 10.0 * sqrt(np * q + 1));
  long long x = 0;
  double px = qn, u = s.uniform();
  while (u > px) {
    ++x;
    if (x > bound) {
      x = 0;
      px = qn;
      u = s.uniform();
    } else {
      u -= px;
      px = ((n - x + 1) * p * px) / (x * q);
    }
  }
  return x;
}

/// Binomial(n, p): Knuth's order-statistic splitting (an exact beta draw halves n) until n * p is small,
/// then inversion: O(log n) beta draws instead of BTPE's long rejection code. The result is kept as
/// base + sign * Binomial(m, p) so that p can be folded to at most 1/2 at every step.
__device__ inline long long sample_binomial(element_stream& s, long long n, double p) {
  long long base = 0, sign = 1, m = n;
  for (;;) {
    if (m <= 0 || p <= 0) return base;
    if (p >= 1) return base + sign * m;
    if (p > 0.5) {
      base += sign * m;
      sign = -sign;
      p = 1.0 - p;
    }
    if (m * p <= 30.0) return base + sign * binomial_inversion(s, m, p);
    long long a = 1 + m / 2, b = m + 1 - a;
    double x = sample_beta(s, static_cast<double>(a), static_cast<double>(b));
    if (x >= p) {
      m = a - 1;
      p = p / x;
    } else {
      base += sign * a;
      m = b - 1;
      p = (p - x) / (1.0 - x);
    }
  }
}

/// Poisson(lam): multiplication of uniforms below 10, Hormann's PTRS above (NumPy's two methods).
__device__ inline long long sample_poisson(element_stream& s, double lam) {
  if (lam <= 0) return 0;
  if (lam < 10) {
    double enlam = exp(-lam), prod = 1.0;
    long long x = 0;
    for (;;) {
      prod *= s.uniform();
      if (prod > enlam) ++x;
      else return x;
    }
  }
  double slam = sqrt(lam), loglam = log(lam);
  double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = s.uniform() - 0.5, v = s.uniform();
    double us = 0.5 - fabs(u);
    long long k = static_cast<long long>(floor((2 * a / us + b) * u + lam + 0.43));
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0)) return k;
  }
}

/// Hypergeometric: draws from the urn one at a time (NumPy's hypergeometric_sample), over the smaller of
/// the sample and its complement. O(min(nsample, total - nsample)) per output.
__device__ inline long long sample_hypergeometric(element_stream& s, long long good, long long bad, long long sample) {
  long long total = good + bad;
  bool complement = sample > total / 2;
  long long left = complement ? total - sample : sample;
  long long rem_total = total, rem_good = good;
  while (left > 0 && rem_good > 0 && rem_total > rem_good) {
    --rem_total;
    if (static_cast<long long>(s.interval(static_cast<std::uint64_t>(rem_total))) < rem_good) --rem_good;
    --left;
  }
  if (rem_total == rem_good) rem_good -= left;
  return complement ? rem_good : good - rem_good;
}

#endif  // __CUDACC__

}  // namespace cuarray::detail::rng
