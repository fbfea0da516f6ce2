// cumsum's float32 whole-array scan under CUB policies chosen for sm_90 (Note [scan policy]).
#include <cub/device/dispatch/dispatch_scan.cuh>

#include <cuda/std/functional>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "cuarray/errors.hpp"
#include "src/cuda/check.hpp"
#include "src/kernels/scan_kernels.hpp"

namespace cuarray::detail {

// Note [scan policy]: cub::DeviceScan picks its benchmarked per-architecture tunings only for primitive
// operators (cuda::std::plus and the like); the add_op of scan_impl.cuh gets CUB's generic policy (128
// threads x 15 items). For float32 sums this file dispatches with a policy hub of its own: on sm_90 and
// later CUB's H100 tuning of float sums (128 x 24 items and its look-back delays) or a wider tile, below
// sm_90 the generic policy. Offsets are 32-bit (n < 2**32; larger arrays take the generic path). The
// environment variable CUARRAY_SCAN_POLICY, read once, selects: `tuned` (the default), `wide` (256 x 24)
// or `default` (the generic path, as before), so that they can be compared on a GPU
// (benchmarks/bench_scan.py).

namespace {

template <int Threads, int Items> struct f32_sum_policy_hub {
  template <int T, int I, class Delay>
  using policy = cub::AgentScanPolicy<T, I, float, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                      cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
                                      cub::detail::MemBoundScaling<T, I, float>, Delay>;
  struct Policy600 : cub::ChainedPolicy<600, Policy600, Policy600> {
    using ScanPolicyT = policy<128, 15, cub::detail::default_delay_constructor_t<float>>;
  };
  struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy600> {
    using ScanPolicyT = policy<Threads, Items, cub::detail::fixed_delay_constructor_t<688, 1140>>;
  };
  using MaxPolicy = Policy900;
};

template <class Hub>
void scan_f32(const float* in, float* out, std::uint32_t n, scratch_allocator& scratch, cudaStream_t stream) {
  using op = ::cuda::std::plus<float>;
  using dispatch =
      cub::DispatchScan<const float*, float*, op, cub::NullType, std::uint32_t, float, cub::ForceInclusive::No, Hub>;
  std::size_t bytes = 0;
  CUARRAY_CUDA_CHECK(dispatch::Dispatch(nullptr, bytes, in, out, op{}, cub::NullType{}, n, stream));
  void* temp = scratch.allocate(bytes);
  CUARRAY_CUDA_CHECK(dispatch::Dispatch(temp, bytes, in, out, op{}, cub::NullType{}, n, stream));
}

enum class scan_policy { generic, tuned, wide };

scan_policy parse_policy() {
  const char* v = std::getenv("CUARRAY_SCAN_POLICY");
  if (v == nullptr || *v == '\0' || std::strcmp(v, "tuned") == 0) return scan_policy::tuned;
  if (std::strcmp(v, "default") == 0) return scan_policy::generic;
  if (std::strcmp(v, "wide") == 0) return scan_policy::wide;
  throw value_error("CUARRAY_SCAN_POLICY must be 'default', 'tuned' or 'wide' (got '" + std::string(v) + "')");
}

scan_policy chosen_policy() {
  static const scan_policy p = parse_policy();
  return p;
}

}  // namespace

bool launch_scan_sum_f32_tuned(const float* in, float* out, std::int64_t n, scratch_allocator& scratch,
                               cudaStream_t stream) {
  if (n <= 0 || n > std::numeric_limits<std::uint32_t>::max()) return false;
  auto count = static_cast<std::uint32_t>(n);
  switch (chosen_policy()) {
    case scan_policy::tuned: scan_f32<f32_sum_policy_hub<128, 24>>(in, out, count, scratch, stream); return true;
    case scan_policy::wide: scan_f32<f32_sum_policy_hub<256, 24>>(in, out, count, scratch, stream); return true;
    default: return false;
  }
}

}  // namespace cuarray::detail
