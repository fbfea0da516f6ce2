// C++ tour of cuarray: create arrays on the GPU, run on a stream, copy results back.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuarray/cuarray.hpp>

int main() {
  if (!cuarray::is_available()) {
    std::printf("no CUDA device available\n");
    return 1;
  }
  std::printf("cuarray %s on device %d (compute capability %s)\n", cuarray::version, cuarray::current_device(),
              cuarray::compute_capability(cuarray::current_device()).c_str());

  cuarray::stream s;  // an owning stream; make it current for this thread
  cuarray::set_current_stream(s);

  auto x = cuarray::linspace(0.0, 1.0, 5);                                     // float64, as NumPy
  auto m = cuarray::eye(3, 3, 0, cuarray::float32);                            // identity matrix
  auto t = cuarray::arange(0.0, 6.0, 1.0).reshape({2, 3}).transpose().copy();  // (3, 2), C order

  std::vector<double> hx(5), ht(6);
  x.copy_to_host(hx);
  t.copy_to_host(ht);
  std::printf("linspace: ");
  for (double v : hx) std::printf("%g ", v);
  std::printf("\ntransposed arange: ");
  for (double v : ht) std::printf("%g ", v);
  std::printf("\nidentity: %lld x %lld %s, pool holds %zu bytes in use\n", static_cast<long long>(m.shape()[0]),
              static_cast<long long>(m.shape()[1]), std::string(cuarray::name(m.type())).c_str(),
              cuarray::default_memory_pool()->used_bytes());
  // Reductions and sorting take NumPy's keywords; results stay on the device (0-d for full reductions).
  auto col_sums = cuarray::sum(t, {.axis = std::vector<int>{0}});
  auto order = cuarray::argsort(cuarray::negative(x));
  std::vector<std::int64_t> horder(5);
  double total = cuarray::sum(x).host_value<double>();
  order.copy_to_host(horder);
  std::printf("sum(linspace) = %g, column sums of the transposed arange: %lld values, argsort(-x)[0] = %lld\n", total,
              static_cast<long long>(col_sums.size()), static_cast<long long>(horder[0]));
  cuarray::set_current_stream(cuarray::legacy_default_stream());
  return 0;
}
