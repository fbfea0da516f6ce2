// CUB device-wide radix sorts of float32, float64, int32 and int64 values as they are (Note [native keys]).
// 32-bit item counts: CUB's onesweep then takes its tiles tuned for 32-bit offsets (larger ones on sm_90).
#include <cub/device/device_radix_sort.cuh>

#include <limits>

#include "src/cuda/check.hpp"
#include "src/kernels/sort_kernels.hpp"

namespace cuarray::detail::sorting {

namespace {

template <class K>
std::size_t native_keys_typed(void* temp, std::size_t temp_bytes, const void* in, void* out, std::int64_t n,
                              cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, static_cast<const K*>(in), static_cast<K*>(out),
                                                    static_cast<std::uint32_t>(n), 0, static_cast<int>(8 * sizeof(K)),
                                                    stream));
  return bytes;
}

}  // namespace

bool native_key_type(dtype t, std::int64_t n) {
  switch (t) {
    case dtype::float32:
    case dtype::float64:
    case dtype::int32:
    case dtype::int64: return n <= std::numeric_limits<std::uint32_t>::max();
    case dtype::uint8:
    case dtype::uint16:
    case dtype::uint32:
    case dtype::uint64: return true;
    default: return false;
  }
}

std::size_t radix_sort_native_keys(void* temp, std::size_t temp_bytes, const void* in, void* out, dtype t,
                                   std::int64_t n, cudaStream_t stream) {
  switch (t) {
    case dtype::float32: return native_keys_typed<float>(temp, temp_bytes, in, out, n, stream);
    case dtype::float64: return native_keys_typed<double>(temp, temp_bytes, in, out, n, stream);
    case dtype::int32: return native_keys_typed<std::int32_t>(temp, temp_bytes, in, out, n, stream);
    case dtype::int64: return native_keys_typed<std::int64_t>(temp, temp_bytes, in, out, n, stream);
    default:  // unsigned integers: their bits are their keys
      return radix_sort_keys_from(temp, temp_bytes, in, out, static_cast<int>(itemsize(t)), n, stream);
  }
}

}  // namespace cuarray::detail::sorting
