// CUB segmented sorts (one segment per row of the sorted axis) of unsigned keys with int32 indices (argsorts).
#include <cub/device/device_segmented_sort.cuh>

#include "src/cuda/check.hpp"
#include "src/kernels/sort_kernels.hpp"

namespace cuarray::detail::sorting {

namespace {

template <class K>
std::size_t seg_pairs_typed(void* temp, std::size_t temp_bytes, void* k0, void* k1, void* v0, void* v1,
                            std::int64_t total, std::int64_t rows, const std::int64_t* offsets, int& selector,
                            cudaStream_t stream) {
  cub::DoubleBuffer<K> keys(static_cast<K*>(k0), static_cast<K*>(k1));
  cub::DoubleBuffer<std::int32_t> values(static_cast<std::int32_t*>(v0), static_cast<std::int32_t*>(v1));
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(
      cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys, values, total, rows, offsets, offsets + 1, stream));
  selector = values.selector;  // the indices are the result; the keys are dropped
  return bytes;
}

// Same kernels as above (the overwrite permission is a run-time argument of CUB's dispatch).
template <class K>
std::size_t seg_pairs_from_typed(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out,
                                 const std::int32_t* values_in, std::int32_t* values_out, std::int64_t total,
                                 std::int64_t rows, const std::int64_t* offsets, cudaStream_t stream) {
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, static_cast<const K*>(keys_in),
                                                               static_cast<K*>(keys_out), values_in, values_out, total,
                                                               rows, offsets, offsets + 1, stream));
  return bytes;
}

}  // namespace

std::size_t segmented_sort_pairs(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, void* v0, void* v1,
                                 std::int64_t total, std::int64_t rows, const std::int64_t* offsets, int& selector,
                                 cudaStream_t stream) {
  switch (width) {
    case 1:
      return seg_pairs_typed<std::uint8_t>(temp, temp_bytes, k0, k1, v0, v1, total, rows, offsets, selector, stream);
    case 2:
      return seg_pairs_typed<std::uint16_t>(temp, temp_bytes, k0, k1, v0, v1, total, rows, offsets, selector, stream);
    case 4:
      return seg_pairs_typed<std::uint32_t>(temp, temp_bytes, k0, k1, v0, v1, total, rows, offsets, selector, stream);
    default:
      return seg_pairs_typed<std::uint64_t>(temp, temp_bytes, k0, k1, v0, v1, total, rows, offsets, selector, stream);
  }
}

std::size_t segmented_sort_pairs_from(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out,
                                      int width, const std::int32_t* values_in, std::int32_t* values_out,
                                      std::int64_t total, std::int64_t rows, const std::int64_t* offsets,
                                      cudaStream_t stream) {
  switch (width) {
    case 1:
      return seg_pairs_from_typed<std::uint8_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, total, rows,
                                                offsets, stream);
    case 2:
      return seg_pairs_from_typed<std::uint16_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, total,
                                                 rows, offsets, stream);
    case 4:
      return seg_pairs_from_typed<std::uint32_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, total,
                                                 rows, offsets, stream);
    default:
      return seg_pairs_from_typed<std::uint64_t>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, total,
                                                 rows, offsets, stream);
  }
}

}  // namespace cuarray::detail::sorting
