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
  CUARRAY_CUDA_CHECK(
      cub::DeviceSegmentedSort::StableSortKeys(temp, bytes, keys, total, rows, offsets, offsets + 1, stream));
  selector = keys.selector;
  return bytes;
}

// Same kernels as above (the overwrite permission is a run-time argument of CUB's dispatch).
template <class K>
std::size_t seg_keys_from_typed(void* temp, std::size_t temp_bytes, const void* in, void* out, std::int64_t total,
                                std::int64_t rows, const std::int64_t* offsets, cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortKeys(
      temp, bytes, static_cast<const K*>(in), static_cast<K*>(out), total, rows, offsets, offsets + 1, stream));
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

std::size_t segmented_sort_keys_from(void* temp, std::size_t temp_bytes, const void* in, void* out, int width,
                                     std::int64_t total, std::int64_t rows, const std::int64_t* offsets,
                                     cudaStream_t stream) {
  switch (width) {
    case 1: return seg_keys_from_typed<std::uint8_t>(temp, temp_bytes, in, out, total, rows, offsets, stream);
    case 2: return seg_keys_from_typed<std::uint16_t>(temp, temp_bytes, in, out, total, rows, offsets, stream);
    case 4: return seg_keys_from_typed<std::uint32_t>(temp, temp_bytes, in, out, total, rows, offsets, stream);
    default: return seg_keys_from_typed<std::uint64_t>(temp, temp_bytes, in, out, total, rows, offsets, stream);
  }
}

}  // namespace cuarray::detail::sorting
