// Forms of the batched join for single-row segments (issue 23's concatenate/stack rows, Note [batched join] in
// src/kernels/manip_kernels.cu), built by join_lean23.py into a shared library and launched through ctypes on
// PyTorch's stream, so that they copy the very tensors torch.cat copies. The argument block is the library's:
// 64 segments by value in a __grid_constant__ struct, blockIdx.y picking the segment.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

struct seg {
  const char* src;
  char* dst;
  long long row_bytes, dst_pitch, rows;
};
struct args {
  seg s[64];
  int count;
};

// The library's kernel as of 9c880c6: a grid-stride loop over the segment's vectors, the row found by a division
// unless the segment is one row; plain load, streaming store.
template <int B> __global__ void __launch_bounds__(B) lib_form(const __grid_constant__ args a) {
  const seg& g = a.s[blockIdx.y];
  const long long row_vecs = g.row_bytes / 16;
  const long long total = row_vecs * g.rows;
  const uint4* src = reinterpret_cast<const uint4*>(g.src);
  const long long step = static_cast<long long>(gridDim.x) * B;
  for (long long k = static_cast<long long>(blockIdx.x) * B + threadIdx.x; k < total; k += step) {
    long long row = g.rows == 1 ? 0 : k / row_vecs;
    uint4* dst = reinterpret_cast<uint4*>(g.dst + row * g.dst_pitch);
    __stcs(dst + (k - row * row_vecs), src[k]);
  }
}

// One vector a thread, no loop (the grid covers every segment), no row arithmetic. S: streaming store; I: 32-bit
// index.
template <int B, bool S, bool I> __global__ void __launch_bounds__(B) lean(const __grid_constant__ args a) {
  const seg& g = a.s[blockIdx.y];
  const uint4* src = reinterpret_cast<const uint4*>(g.src);
  uint4* dst = reinterpret_cast<uint4*>(g.dst);
  if constexpr (I) {
    const unsigned n = static_cast<unsigned>(g.row_bytes >> 4);
    const unsigned k = blockIdx.x * B + threadIdx.x;
    if (k < n) {
      uint4 v = src[k];
      if constexpr (S) __stcs(dst + k, v);
      else dst[k] = v;
    }
  } else {
    const long long n = g.row_bytes >> 4;
    const long long k = static_cast<long long>(blockIdx.x) * B + threadIdx.x;
    if (k < n) {
      uint4 v = src[k];
      if constexpr (S) __stcs(dst + k, v);
      else dst[k] = v;
    }
  }
}

// PyTorch's vectorized cat as its source describes it: 128 threads, a grid capped at 32 blocks a multiprocessor,
// a 32-bit grid-stride loop, plain load and store.
__global__ void __launch_bounds__(128) capped128(const __grid_constant__ args a) {
  const seg& g = a.s[blockIdx.y];
  const uint4* src = reinterpret_cast<const uint4*>(g.src);
  uint4* dst = reinterpret_cast<uint4*>(g.dst);
  const unsigned n = static_cast<unsigned>(g.row_bytes >> 4);
  for (unsigned k = blockIdx.x * 128 + threadIdx.x; k < n; k += gridDim.x * 128) dst[k] = src[k];
}

__global__ void flat(const uint4* s, uint4* d, long long n) {
  long long i = blockIdx.x * 256LL + threadIdx.x;
  if (i < n) d[i] = s[i];
}

static args make(const std::uint64_t* src, std::uint64_t dst, long long each, int count, long long* widest) {
  args a{};
  a.count = count;
  *widest = 0;
  for (int i = 0; i < count; ++i) {
    a.s[i] = seg{reinterpret_cast<const char*>(src[i]), reinterpret_cast<char*>(dst + i * each), each, each, 1};
    *widest = std::max(*widest, each);
  }
  return a;
}

template <class K> static int go(K k, int block, long long x, const args& a, std::uint64_t stream) {
  k<<<dim3(static_cast<unsigned>(x), static_cast<unsigned>(a.count)), block, 0,
      reinterpret_cast<cudaStream_t>(stream)>>>(a);
  return static_cast<int>(cudaGetLastError());
}

extern "C" int join_form(int form, const std::uint64_t* src, std::uint64_t dst, long long each, int count,
                         std::uint64_t stream, int sms) {
  long long w = 0;
  const args a = make(src, dst, each, count, &w);
  const long long v = w / 16;
  auto cover = [&](int b) { return (v + b - 1) / b; };
  switch (form) {
    case 0: return go(lib_form<256>, 256, std::min<long long>(cover(256), 4096), a, stream);
    case 1: return go(lean<256, true, false>, 256, cover(256), a, stream);
    case 2: return go(lean<128, true, false>, 128, cover(128), a, stream);
    case 3: return go(lean<512, true, false>, 512, cover(512), a, stream);
    case 4: return go(lean<1024, true, false>, 1024, cover(1024), a, stream);
    case 5: return go(lean<256, true, true>, 256, cover(256), a, stream);
    case 6: return go(lean<256, false, false>, 256, cover(256), a, stream);
    case 7: return go(lean<128, false, true>, 128, cover(128), a, stream);
    case 8: return go(capped128, 128, std::min<long long>(cover(128), 32LL * sms), a, stream);
    case 9: return go(lib_form<128>, 128, std::min<long long>(cover(128), 8192), a, stream);
    case 10: return go(lean<128, false, false>, 128, cover(128), a, stream);
    default: return -1;
  }
}

extern "C" int flat_copy(std::uint64_t src, std::uint64_t dst, long long bytes, std::uint64_t stream) {
  const long long n = bytes / 16;
  flat<<<static_cast<unsigned>((n + 255) / 256), 256, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const uint4*>(src), reinterpret_cast<uint4*>(dst), n);
  return static_cast<int>(cudaGetLastError());
}
