// CUB device-wide radix sort of unsigned keys with int32 indices (argsort, lexsort passes), plus the
// 8-byte-key / int64-index fallback for rows of 2**31 elements or more.
#include <cub/device/device_radix_sort.cuh>

#include "src/cuda/check.hpp"
#include "src/kernels/sort_kernels.hpp"

namespace cuarray::detail::sorting {

namespace {

template <class K, class V>
std::size_t sort_pairs_typed(void* temp, std::size_t temp_bytes, void* k0, void* k1, void* v0, void* v1, std::int64_t n,
                             int end_bit, int& selector, cudaStream_t stream) {
  cub::DoubleBuffer<K> keys(static_cast<K*>(k0), static_cast<K*>(k1));
  cub::DoubleBuffer<V> values(static_cast<V*>(v0), static_cast<V*>(v1));
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(temp, bytes, keys, values, static_cast<std::int64_t>(n), 0, end_bit, stream));
  selector = values.selector;  // the indices are the result; the keys are dropped
  return bytes;
}

// Same kernels as above (the overwrite permission is a run-time argument of CUB's dispatch).
template <class K>
std::size_t sort_pairs_from_typed(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out,
                                  const std::int32_t* values_in, std::int32_t* values_out, std::int64_t n,
                                  cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      temp, bytes, static_cast<const K*>(keys_in), static_cast<K*>(keys_out), values_in, values_out,
      static_cast<std::int64_t>(n), 0, static_cast<int>(8 * sizeof(K)), stream));
  return bytes;
}

}  // namespace

std::size_t radix_sort_pairs(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, void* v0, void* v1,
                             bool v64, std::int64_t n, int end_bit, int& selector, cudaStream_t stream) {
  if (v64) {
    return sort_pairs_typed<std::uint64_t, std::int64_t>(temp, temp_bytes, k0, k1, v0, v1, n, end_bit, selector,
                                                         stream);
  }
  switch (width) {
    case 1:
      return sort_pairs_typed<std::uint8_t, std::int32_t>(temp, temp_bytes, k0, k1, v0, v1, n, end_bit, selector,
                                                          stream);
    case 2:
      return sort_pairs_typed<std::uint16_t, std::int32_t>(temp, temp_bytes, k0, k1, v0, v1, n, end_bit, selector,
                                                           stream);
    case 4:
      return sort_pairs_typed<std::uint32_t, std::int32_t>(temp, temp_bytes, k0, k1, v0, v1, n, end_bit, selector,
                                                           stream);
    default:
      return sort_pairs_typed<std::uint64_t, std::int32_t>(temp, temp_bytes, k0, k1, v0, v1, n, end_bit, selector,
                                                           stream);
  }
}

std::size_t radix_sort_pairs_from(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out, int width,
                                  const std::int32_t* values_in, std::int32_t* values_out, std::int64_t n,
                                  cudaStream_t stream) {
  switch (width) {
    case 1:
      return sort_pairs_from_typed<std::uint8_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, stream);
    case 2:
      return sort_pairs_from_typed<std::uint16_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n,
                                                  stream);
    case 4:
      return sort_pairs_from_typed<std::uint32_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n,
                                                  stream);
    default:
      return sort_pairs_from_typed<std::uint64_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n,
                                                  stream);
  }
}

}  // namespace cuarray::detail::sorting
