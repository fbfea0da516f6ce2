// Ahead-of-time CUB kernels behind cumsum/cumprod: inclusive scans over contiguous rows, and the scratch hook.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuarray::detail {

/// Hands out CUB's temporary storage. The implementation (src/engine/scan.hpp) takes it from the memory pool on the
/// stream of the call and keeps it until the caller returns; stream order makes that safe.
struct scratch_allocator {
  virtual void* allocate(std::size_t bytes) = 0;

protected:
  ~scratch_allocator() = default;
};

/// Note [scan accumulators]: every dtype scans in one of five arithmetics. Integers and bool use uint64,
/// whose wrapping sums and products reduce to those of any narrower integer type (and, compared with 0, to
/// bool's logical or / and); float16 scans in float32. That keeps CUB's instantiations to 5 per scan kind.
enum class scan_type : std::uint8_t { u64, f32, f64, c64, c128 };
enum class scan_op : std::uint8_t { sum, prod };

/// out = inclusive scan of `in` within consecutive rows of `row` elements (`n` is a multiple of `row`);
/// both contiguous, of the scan type, not overlapping.
void launch_scan(scan_type t, scan_op op, const void* in, void* out, std::int64_t n, std::int64_t row,
                 scratch_allocator& scratch, cudaStream_t stream);

/// The float32 whole-array sum under the policies of Note [scan policy] (scan_sum_f32_tuned.cu); false, doing
/// nothing, where they do not apply (CUARRAY_SCAN_POLICY=default, n >= 2**32).
bool launch_scan_sum_f32_tuned(const float* in, float* out, std::int64_t n, scratch_allocator& scratch,
                               cudaStream_t stream);

/// Row scans of many long rows, one block per row (Note [row scan] in scan_rows_block.cu); false, doing
/// nothing, where the rows are too short or too few for it.
bool launch_scan_rows_block(scan_type t, scan_op op, const void* in, void* out, std::int64_t n, std::int64_t row,
                            cudaStream_t stream);

// The four instantiation groups, one per source file so that they compile in parallel.
void launch_scan_sum_flat(scan_type t, const void* in, void* out, std::int64_t n, scratch_allocator& scratch,
                          cudaStream_t stream);
void launch_scan_prod_flat(scan_type t, const void* in, void* out, std::int64_t n, scratch_allocator& scratch,
                           cudaStream_t stream);
void launch_scan_sum_rows(scan_type t, const void* in, void* out, std::int64_t n, std::int64_t row,
                          scratch_allocator& scratch, cudaStream_t stream);
void launch_scan_prod_rows(scan_type t, const void* in, void* out, std::int64_t n, std::int64_t row,
                           scratch_allocator& scratch, cudaStream_t stream);

}  // namespace cuarray::detail
