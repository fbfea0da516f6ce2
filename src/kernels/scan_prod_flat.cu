// CUB instantiations of whole-array inclusive scans (products), one per scan arithmetic.
#include "src/kernels/scan_impl.cuh"

namespace cuarray::detail {

void launch_scan_prod_flat(scan_type t, const void* in, void* out, std::int64_t n, scratch_allocator& scratch,
                           cudaStream_t stream) {
  scan_impl::dispatch_scan_type(t, [&](auto z) {
    scan_impl::scan_flat<decltype(z), scan_impl::mul_op>(in, out, n, scratch, stream);
  });
}
}  // namespace cuarray::detail
