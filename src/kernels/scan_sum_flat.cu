// CUB instantiations of whole-array inclusive scans (sums), one per scan arithmetic.
#include "src/kernels/scan_impl.cuh"

namespace cuarray::detail {

void launch_scan_sum_flat(scan_type t, const void* in, void* out, std::int64_t n, scratch_allocator& scratch,
                          cudaStream_t stream) {
  if (t == scan_type::f32 &&
      launch_scan_sum_f32_tuned(static_cast<const float*>(in), static_cast<float*>(out), n, scratch, stream)) {
    return;
  }
  scan_impl::dispatch_scan_type(t, [&](auto z) {
    scan_impl::scan_flat<decltype(z), scan_impl::add_op>(in, out, n, scratch, stream);
  });
}

void launch_scan(scan_type t, scan_op op, const void* in, void* out, std::int64_t n, std::int64_t row,
                 scratch_allocator& scratch, cudaStream_t stream) {
  if (n <= 0) return;
  bool flat = row >= n;
  if (!flat && launch_scan_rows_block(t, op, in, out, n, row, stream)) return;
  if (op == scan_op::sum) {
    flat ? launch_scan_sum_flat(t, in, out, n, scratch, stream)
         : launch_scan_sum_rows(t, in, out, n, row, scratch, stream);
  } else {
    flat ? launch_scan_prod_flat(t, in, out, n, scratch, stream)
         : launch_scan_prod_rows(t, in, out, n, row, scratch, stream);
  }
}
}  // namespace cuarray::detail
