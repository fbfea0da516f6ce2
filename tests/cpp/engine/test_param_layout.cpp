// Kernel parameter sizes read from NVRTC's cubins and PTX, with no driver call (Note [kernel parameters]; no GPU).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/engine/compile.hpp"
#include "src/engine/param_layout.hpp"

using namespace cuarray::jit;

namespace {

const char* kernels = R"(
struct __align__(16) wide { char c; };
struct five { double v[5]; };
extern "C" __global__ void mixed(const float* x, float* y, int n, double a, char c, short s) {
  if (threadIdx.x < n) y[threadIdx.x] = x[threadIdx.x] * a + c + s;
}
extern "C" __global__ void none() {}
extern "C" __global__ void aggregates(char a, wide w, five f, char b) {}
template <class T> __global__ void templ(T* out, T v) { out[0] = v; }
)";

const std::vector<std::size_t> mixed_sizes{8, 8, 4, 8, 1, 2};
const std::vector<std::size_t> aggregate_sizes{1, 16, 40, 1};

compile_result build(int arch, bool ptx) {
  compile_request req;
  req.source = kernels;
  req.arch = arch;
  req.ptx = ptx;
  req.name_expressions = {"templ<double>"};
  return compile(req);
}

}  // namespace

TEST(ParamLayout, CubinNotesGiveEveryParameterInOrder) {
  for (int arch : {80, 90}) {
    compile_result r = build(arch, false);
    EXPECT_EQ(kernel_param_sizes(r.cubin, "mixed"), mixed_sizes) << "arch " << arch;
    EXPECT_EQ(kernel_param_sizes(r.cubin, "none"), std::vector<std::size_t>{}) << "arch " << arch;
    EXPECT_EQ(kernel_param_sizes(r.cubin, "aggregates"), aggregate_sizes) << "arch " << arch;
    ASSERT_EQ(r.lowered_names.size(), 1u);
    EXPECT_EQ(kernel_param_sizes(r.cubin, r.lowered_names[0]), (std::vector<std::size_t>{8, 8})) << "arch " << arch;
    EXPECT_EQ(kernel_param_sizes(r.cubin, "missing"), std::nullopt);
    EXPECT_EQ(kernel_param_sizes(r.cubin, "mixe"), std::nullopt);  // a prefix is another name
  }
}

TEST(ParamLayout, PtxEntryGivesTheSameSizes) {
  compile_result r = build(80, true);
  EXPECT_EQ(kernel_param_sizes(r.cubin, "mixed"), mixed_sizes);
  EXPECT_EQ(kernel_param_sizes(r.cubin, "none"), std::vector<std::size_t>{});
  EXPECT_EQ(kernel_param_sizes(r.cubin, "aggregates"), aggregate_sizes);
  EXPECT_EQ(kernel_param_sizes(r.cubin, r.lowered_names[0]), (std::vector<std::size_t>{8, 8}));
  EXPECT_EQ(kernel_param_sizes(r.cubin, "mixe"), std::nullopt);
}

TEST(ParamLayout, DamagedOrForeignImagesGiveNoLayout) {
  compile_result r = build(90, false);
  std::string cut = r.cubin.substr(0, r.cubin.size() / 3);  // section table gone
  EXPECT_EQ(kernel_param_sizes(cut, "mixed"), std::nullopt);
  EXPECT_EQ(kernel_param_sizes(std::string("\x50\xed\x55\xba", 4) + std::string(64, '\0'), "mixed"), std::nullopt);
  EXPECT_EQ(kernel_param_sizes("", "mixed"), std::nullopt);
  EXPECT_EQ(kernel_param_sizes("\x7f"
                               "ELF",
                               "mixed"),
            std::nullopt);
}
