// Example: NumPy's ufuncs, an elementwise kernel and a raw CUDA kernel from the C++ API.
#include <cstdio>
#include <vector>

#include "cuarray/cuarray.hpp"

namespace ca = cuarray;

namespace {

void print(const char* label, const ca::array& a) {
  ca::array f = a.astype(ca::float64);  // one host type to print any dtype
  std::vector<double> h(static_cast<std::size_t>(f.size()));
  f.copy_to_host(h);
  std::printf("%-28s %-8s [", label, std::string(ca::name(a.type())).c_str());
  for (std::size_t i = 0; i < h.size(); ++i) std::printf(i ? ", %g" : "%g", h[i]);
  std::printf("]\n");
}

const char* saxpy_source = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

}  // namespace

int main() {
  if (!ca::is_available()) {
    std::puts("no CUDA device: nothing to run");
    return 0;
  }
  std::vector<float> host = {0, 1, 2, 3, 4, 5, 6, 7};
  ca::array x = ca::from_host(host.data(), ca::float32, {8});

  // Ufuncs: C++ numbers are weak scalars (NEP 50), so float32 stays float32.
  ca::array y = ca::add(ca::multiply(x, 2), 1);
  print("2 * x + 1", y);
  print("sin(x)", ca::sin(x));
  auto [q, r] = ca::divmod(x, 3);
  print("x // 3", q);
  print("x % 3", r);
  ca::array mask = ca::greater(x, 3.5);
  ca::array out = ca::zeros({8}, ca::float32);
  ca::sqrt(x, {.out = {out}, .where = mask});
  print("sqrt(x) where x > 3.5", out);

  // An elementwise kernel: T is taken from the arguments.
  ca::elementwise_kernel squared_diff("T a, T b", "T d", "d = (a - b) * (a - b)", "squared_diff");
  print("(x - y)^2", squared_diff(x, y));

  // A reduction kernel: each element mapped, the results combined pairwise, the total post-mapped.
  ca::reduction_kernel l2norm("T v", "T n", "v * v", "a + b", "n = sqrt(a)", "0", "l2norm");
  print("|x|", l2norm(x));

  // A raw kernel: arrays pass their data pointer, other arguments their bytes.
  ca::raw_kernel saxpy(saxpy_source, "saxpy");
  ca::array z = ca::ones({8}, ca::float32);
  saxpy(ca::kernel_dim(1), ca::kernel_dim(256), 0.5f, x, z, static_cast<long long>(z.size()));
  print("0.5 * x + 1 (raw kernel)", z);
  std::printf("saxpy uses %d registers\n", saxpy.attributes().num_regs);
  return 0;
}
