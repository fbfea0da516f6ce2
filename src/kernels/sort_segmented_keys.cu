// CUB segmented sorts (one segment per row of the sorted axis) of unsigned keys (value sorts).
#include <cub/device/device_segmented_sort.cuh>

#include "src/cuda/check.hpp"
#include "src/kernels/sort_kernels.hpp"

namespace cuarray::detail::sorting {

namespace {

template <class K>
std::size_t seg_keys_typed(void* temp, std::size_t temp_bytes, void* k0, void* k1, std::int64_t total,
                           std::int64_t rows, const std::int64_t* offsets, int& selector, cudaStream_t stream) {
  cub::DoubleBuffer<K> keys(static_cast<K*>(k0), static_cast<K*>(k1));
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(temp, bytes, keys, total, rows, offsets, offsets + 1,
                                                              stream));
  selector = keys.selector;
  return bytes;
}

}  // namespace

std::size_t segmented_sort_keys(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, std::int64_t total,
                                std::int64_t rows, const std::int64_t* offsets, int& selector, cudaStream_t stream) {
  switch (width) {
    case 1: return seg_keys_typed<std::uint8_t>(temp, temp_bytes, k0, k1, total, rows, offsets, selector, stream);
    case 2: return seg_keys_typed<std::uint16_t>(temp, temp_bytes, k0, k1, total, rows, offsets, selector, stream);
    case 4: return seg_keys_typed<std::uint32_t>(temp, temp_bytes, k0, k1, total, rows, offsets, selector, stream);
    default: return seg_keys_typed<std::uint64_t>(temp, temp_bytes, k0, k1, total, rows, offsets, selector, stream);
  }
}

}  // namespace cuarray::detail::sorting
