// CUB device-wide radix sort of unsigned keys (values sorts), one instantiation per key width.
#include <cub/device/device_radix_sort.cuh>

#include "src/cuda/check.hpp"
#include "src/kernels/sort_kernels.hpp"

namespace cuarray::detail::sorting {

namespace {

template <class K>
std::size_t sort_keys_typed(void* temp, std::size_t temp_bytes, void* k0, void* k1, std::int64_t n, int end_bit,
                            int& selector, cudaStream_t stream) {
  cub::DoubleBuffer<K> keys(static_cast<K*>(k0), static_cast<K*>(k1));
  std::size_t bytes = temp_bytes;
  // int64 item counts: one instantiation serves every size (onesweep works in 32-bit portions anyway).
  CUARRAY_CUDA_CHECK(
      cub::DeviceRadixSort::SortKeys(temp, bytes, keys, static_cast<std::int64_t>(n), 0, end_bit, stream));
  selector = keys.selector;
  return bytes;
}

// Same kernels as above (the overwrite permission is a run-time argument of CUB's dispatch).
template <class K>
std::size_t sort_keys_from_typed(void* temp, std::size_t temp_bytes, const void* in, void* out, std::int64_t n,
                                 cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, static_cast<const K*>(in), static_cast<K*>(out),
                                                    static_cast<std::int64_t>(n), 0, static_cast<int>(8 * sizeof(K)),
                                                    stream));
  return bytes;
}

}  // namespace

std::size_t radix_sort_keys(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, std::int64_t n,
                            int end_bit, int& selector, cudaStream_t stream) {
  switch (width) {
    case 1: return sort_keys_typed<std::uint8_t>(temp, temp_bytes, k0, k1, n, end_bit, selector, stream);
    case 2: return sort_keys_typed<std::uint16_t>(temp, temp_bytes, k0, k1, n, end_bit, selector, stream);
    case 4: return sort_keys_typed<std::uint32_t>(temp, temp_bytes, k0, k1, n, end_bit, selector, stream);
    default: return sort_keys_typed<std::uint64_t>(temp, temp_bytes, k0, k1, n, end_bit, selector, stream);
  }
}

std::size_t radix_sort_keys_from(void* temp, std::size_t temp_bytes, const void* in, void* out, int width,
                                 std::int64_t n, cudaStream_t stream) {
  switch (width) {
    case 1: return sort_keys_from_typed<std::uint8_t>(temp, temp_bytes, in, out, n, stream);
    case 2: return sort_keys_from_typed<std::uint16_t>(temp, temp_bytes, in, out, n, stream);
    case 4: return sort_keys_from_typed<std::uint32_t>(temp, temp_bytes, in, out, n, stream);
    default: return sort_keys_from_typed<std::uint64_t>(temp, temp_bytes, in, out, n, stream);
  }
}

}  // namespace cuarray::detail::sorting
