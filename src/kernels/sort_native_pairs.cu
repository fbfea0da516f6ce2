// CUB device-wide radix sorts of float32, float64, int32 and int64 keys as they are with int32 indices
// (argsort, Note [native keys]). 32-bit item counts: CUB's onesweep then takes its tiles tuned for 32-bit
// offsets (384 x 23 items for 4-byte keys with 4-byte values on sm_90, against 384 x 17 with 64-bit ones).
#include <cub/device/device_radix_sort.cuh>

#include "src/cuda/check.hpp"
#include "src/kernels/sort_kernels.hpp"

namespace cuarray::detail::sorting {

namespace {

template <class K>
std::size_t native_pairs_typed(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out,
                               const std::int32_t* values_in, std::int32_t* values_out, std::int64_t n,
                               cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      temp, bytes, static_cast<const K*>(keys_in), static_cast<K*>(keys_out), values_in, values_out,
      static_cast<std::uint32_t>(n), 0, static_cast<int>(8 * sizeof(K)), stream));
  return bytes;
}

}  // namespace

std::size_t radix_sort_native_pairs(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out, dtype t,
                                    const std::int32_t* values_in, std::int32_t* values_out, std::int64_t n,
                                    cudaStream_t stream) {
  switch (t) {
    case dtype::float32:
      return native_pairs_typed<float>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, stream);
    case dtype::float64:
      return native_pairs_typed<double>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, stream);
    case dtype::int32:
      return native_pairs_typed<std::int32_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, stream);
    case dtype::int64:
      return native_pairs_typed<std::int64_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, stream);
    default:  // unsigned integers: their bits are their keys
      return radix_sort_pairs_from(temp, temp_bytes, keys_in, keys_out, static_cast<int>(itemsize(t)), values_in,
                                   values_out, n, stream);
  }
}

}  // namespace cuarray::detail::sorting
