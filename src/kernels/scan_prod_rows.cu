// CUB instantiations of row-wise inclusive scans (products along the last axis of a contiguous block).
#include "src/kernels/scan_impl.cuh"

namespace cuarray::detail {

void launch_scan_prod_rows(scan_type t, const void* in, void* out, std::int64_t n, std::int64_t row,
                           scratch_allocator& scratch, cudaStream_t stream) {
  scan_impl::dispatch_scan_type(t, [&](auto z) {
    scan_impl::scan_rows<decltype(z), scan_impl::mul_op>(in, out, n, row, scratch, stream);
  });
}
}  // namespace cuarray::detail
