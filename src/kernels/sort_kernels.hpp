// Ahead-of-time kernels of sorting, searching and set operations: key transforms, CUB sorts, scans, gathers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuarray/dtype.hpp"

namespace cuarray::detail::sorting {

/// The key a key kernel writes (Note [sort keys] in sort_keys.hpp).
enum class key_part : int {
  arg,          ///< stable-order key of a real dtype (-0 == +0, NaN largest), width of the dtype
  sort,         ///< invertible key of a real dtype, width of the dtype
  cplx_real,    ///< complex: key of the real part inside its class
  cplx_imag,    ///< complex: key of the imaginary part inside its class
  cplx_class,   ///< complex: the NaN class, one byte
  cplx_packed,  ///< complex64: real key << 32 | imag key, eight bytes
};

/// Bytes of the key `part` of dtype `t` (before any widening).
int key_width(dtype t, key_part part);

/// Index arrays: int32 or int64 elements (`wide`); `data` may be null (the identity permutation).
struct index_ref {
  const void* data = nullptr;
  bool wide = false;
};

/// Rows of `n` elements, `total` elements in all. keys[i] = key(src[row(i) * n + (perm ? perm[i] : i % n)]),
/// stored in `out_width` bytes (>= the key's width, zero-extended). When `iota` is given, also writes
/// iota[i] = i % n (int64 if `iota_wide`, else int32). `src` and `keys` may be the same buffer (no perm).
void launch_make_keys(const void* src, dtype t, key_part part, index_ref perm, std::int64_t total, std::int64_t n,
                      void* keys, int out_width, void* iota, bool iota_wide, cudaStream_t stream);

/// Inverse of key_part::sort, in place: keys become the values of dtype `t`.
void launch_keys_to_values(void* keys, dtype t, std::int64_t total, cudaStream_t stream);

/// dst[i] = src[row(i) * n + idx[i]] for elements of `itemsize` bytes (1, 2, 4, 8 or 16); n = 0: one row.
void launch_gather(const void* src, std::size_t itemsize, index_ref idx, std::int64_t total, std::int64_t n, void* dst,
                   cudaStream_t stream);

/// dst[i] = src[idx[i]] over `total` int64 indices; indices outside [0, src_n) read element 0 and set *error.
void launch_gather_checked(const void* src, std::size_t itemsize, const std::int64_t* idx, std::int64_t total,
                           std::int64_t src_n, void* dst, int* error, cudaStream_t stream);

/// Rows: dst row i = src row idx[i], rows of `row_bytes` bytes.
void launch_gather_rows(const void* src, std::size_t row_bytes, index_ref idx, std::int64_t rows, void* dst,
                        cudaStream_t stream);

/// out[i] = in[i] widened to int64.
void launch_widen(const std::int32_t* in, std::int64_t* out, std::int64_t total, cudaStream_t stream);

/// offsets[i] = i * n for i <= rows.
void launch_row_offsets(std::int64_t* offsets, std::int64_t rows, std::int64_t n, cudaStream_t stream);

// CUB sorts over unsigned keys of `width` bytes (1, 2, 4, 8), ping-ponging between two buffers. With
// temp == nullptr they return the temporary storage needed; otherwise they sort and set `selector` to the
// buffer (0 or 1) holding the result. Device-wide sorts sort bits [0, end_bit).

std::size_t radix_sort_keys(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, std::int64_t n,
                            int end_bit, int& selector, cudaStream_t stream);
/// Values are int32, or int64 for 8-byte keys only (`v64`: the fallback for rows of 2**31 elements or more).
std::size_t radix_sort_pairs(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, void* v0, void* v1,
                             bool v64, std::int64_t n, int end_bit, int& selector, cudaStream_t stream);
/// Stable segmented sorts of `rows` segments given by offsets[0..rows]; values are int32.
std::size_t segmented_sort_keys(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, std::int64_t total,
                                std::int64_t rows, const std::int64_t* offsets, int& selector, cudaStream_t stream);
std::size_t segmented_sort_pairs(void* temp, std::size_t temp_bytes, void* k0, void* k1, int width, void* v0, void* v1,
                                 std::int64_t total, std::int64_t rows, const std::int64_t* offsets, int& selector,
                                 cudaStream_t stream);

// Sorts on native keys (Note [native keys] in sorting.cpp): float32, float64, int32 and int64 keys go to CUB
// as they are (it orders their bits itself; 32-bit item counts), unsigned integers through the unsigned
// instantiations above. The input is left untouched and the result lands in `out` (CUB keeps its alternate
// buffers in `temp`). With temp == nullptr they return the temporary storage needed.

/// Whether radix_sort_native_keys / radix_sort_native_pairs take `n` elements of dtype `t`.
bool native_key_type(dtype t, std::int64_t n);
std::size_t radix_sort_native_keys(void* temp, std::size_t temp_bytes, const void* in, void* out, dtype t,
                                   std::int64_t n, cudaStream_t stream);
std::size_t radix_sort_native_pairs(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out, dtype t,
                                    const std::int32_t* values_in, std::int32_t* values_out, std::int64_t n,
                                    cudaStream_t stream);
/// The unsigned-key instantiations of radix_sort_keys / radix_sort_pairs with separate input and output.
std::size_t radix_sort_keys_from(void* temp, std::size_t temp_bytes, const void* in, void* out, int width,
                                 std::int64_t n, cudaStream_t stream);
std::size_t radix_sort_pairs_from(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out, int width,
                                  const std::int32_t* values_in, std::int32_t* values_out, std::int64_t n,
                                  cudaStream_t stream);
/// The unsigned-key segmented sorts with separate input and output (int32 values).
std::size_t segmented_sort_keys_from(void* temp, std::size_t temp_bytes, const void* in, void* out, int width,
                                     std::int64_t total, std::int64_t rows, const std::int64_t* offsets,
                                     cudaStream_t stream);
std::size_t segmented_sort_pairs_from(void* temp, std::size_t temp_bytes, const void* keys_in, void* keys_out,
                                      int width, const std::int32_t* values_in, std::int32_t* values_out,
                                      std::int64_t total, std::int64_t rows, const std::int64_t* offsets,
                                      cudaStream_t stream);

/// What launch_nan_scan finds among float values, in three int64 (zeroed by the launch): the number of NaNs
/// with the sign bit set (CUB sorts those before -inf), the largest ~bits and the largest bits of the NaNs.
struct nan_summary {
  std::int64_t negative;
  std::uint64_t max_inverted, max_bits;
  /// No NaN, or all NaNs of one bit pattern: CUB then keeps them in input order (equal keys, stable sort).
  bool one_pattern() const { return max_bits == 0 || ~max_inverted == max_bits; }
};

/// One read of the `n` contiguous float32 (width 4) or float64 (width 8) values at `src` into `*summary`
/// (device memory). When `iota` is given, also writes iota[i] = i (argsort's indices; n < 2**31).
void launch_nan_scan(const void* src, int width, std::int64_t n, nan_summary* summary, std::int32_t* iota,
                     cudaStream_t stream);

/// After radix_sort_native_keys of floats: moves the summary->negative NaNs that CUB put first to the end
/// (sign bit cleared, as the transformed keys of Note [sort keys] do), through `scratch` (n elements). Does
/// nothing on the device when the count is 0, so no synchronisation is needed.
void launch_move_negative_nans(void* out, int width, std::int64_t n, const nan_summary* summary, void* scratch,
                               cudaStream_t stream);

/// iota[i] = i % n over `total` int32 elements.
void launch_iota(std::int32_t* iota, std::int64_t total, std::int64_t n, cudaStream_t stream);

/// In-place inclusive prefix sum of int64 values.
std::size_t inclusive_sum(void* temp, std::size_t temp_bytes, std::int64_t* data, std::int64_t n, cudaStream_t stream);

/// out[j] = number of a's elements < v[j] (left) or <= v[j] (right) in the sort order of dtype `t`; a sorted.
void launch_searchsorted(const void* a, std::int64_t na, const void* v, std::int64_t nv, dtype t, bool right,
                         std::int64_t* out, cudaStream_t stream);

/// out[j] = (x[j] equals an element of the sorted `test`) != invert; NaN equals nothing.
void launch_isin(const void* test, std::int64_t ntest, const void* x, std::int64_t nx, dtype t, bool invert, bool* out,
                 cudaStream_t stream);

/// flags[i] = 1 where sorted row i (of m elements) differs from row i - 1, flags[0] = 1; NaNs equal each other
/// when `equal_nan` (for complex: any value with a NaN part equals any other).
void launch_boundary_flags(const void* sorted, dtype t, std::int64_t rows, std::int64_t m, bool equal_nan,
                           std::int64_t* flags, cudaStream_t stream);

/// Neighbour masks of a sorted 1-D array under ==: mode 0: out[i] = s[i] == s[i + 1] (n - 1 entries);
/// mode 1: out[i] = s[i] differs from both neighbours (n entries).
void launch_neighbor_mask(const void* sorted, dtype t, std::int64_t n, int mode, bool* out, cudaStream_t stream);

/// For flags[i] set (pos the inclusive sum of flags): values[pos[i] - 1] = row i (`row_bytes` bytes) and
/// first[pos[i] - 1] = i, each when non-null. With flags null, a row is flagged where pos steps up (0/1 flags
/// scanned in place).
void launch_compact(const void* src, std::size_t row_bytes, const std::int64_t* flags, const std::int64_t* pos,
                    std::int64_t rows, void* values, std::int64_t* first, cudaStream_t stream);

/// counts[k] = first[k + 1] - first[k], the last one rows - first[k].
void launch_counts(const std::int64_t* first, std::int64_t count, std::int64_t rows, std::int64_t* counts,
                   cudaStream_t stream);

/// inverse[perm[i]] = pos[i] - 1 (perm null: the identity).
void launch_inverse(const std::int64_t* pos, index_ref perm, std::int64_t rows, std::int64_t* inverse,
                    cudaStream_t stream);

}  // namespace cuarray::detail::sorting
