// The C++ elementwise API: ufunc functions, call by name, elementwise_kernel and raw kernels (device tests skip
// without a GPU).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/ufunc.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::dev;
using cuarray::test::host;

namespace {

struct listed {
  std::string name, target;
  int nin, nout;
};

const std::vector<listed>& listed_ufuncs() {
  static const std::vector<listed> v = {
#define CUARRAY_UFUNC_DECL(name, nin, nout) {#name, #name, nin, nout},
#define CUARRAY_UFUNC_ALIAS_DECL(alias, name, nin, nout) {#alias, #name, nin, nout},
#include "cuarray/ufunc_list.inc"
#undef CUARRAY_UFUNC_DECL
#undef CUARRAY_UFUNC_ALIAS_DECL
  };
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Host only

TEST(UfuncApi, ListDeclaresEveryUfuncAndAliasWithItsArity) {
  std::set<std::string> listed_names;
  for (const listed& l : listed_ufuncs()) {
    const ufunc_def* u = find_ufunc(l.name);
    ASSERT_NE(u, nullptr) << l.name;
    EXPECT_EQ(u->name, l.target);
    EXPECT_EQ(u->nin, l.nin) << l.name;
    EXPECT_EQ(u->nout, l.nout) << l.name;
    listed_names.insert(l.name);
  }
  for (const ufunc_def* u : all_ufuncs()) EXPECT_TRUE(listed_names.count(u->name)) << u->name << " has no C++ function";
  for (const auto& [alias, target] : ufunc_aliases()) EXPECT_TRUE(listed_names.count(alias)) << alias;
  EXPECT_EQ(listed_names.size(), all_ufuncs().size() + ufunc_aliases().size());
}

TEST(UfuncApi, EveryDeclaredFunctionIsDefined) {
  // Taking each address makes the linker resolve every declaration of the list; the typed pointer picks the
  // ufunc among other overloads of the name (conj has elementwise_funcs.hpp's ndarray.conj too).
  using f11 = array (*)(const ufunc_arg&, const ufunc_options&);
  using f21 = array (*)(const ufunc_arg&, const ufunc_arg&, const ufunc_options&);
  using f12 = std::pair<array, array> (*)(const ufunc_arg&, const ufunc_options&);
  using f22 = std::pair<array, array> (*)(const ufunc_arg&, const ufunc_arg&, const ufunc_options&);
  std::vector<bool> defined;
#define CUARRAY_UFUNC_DECL(name, nin, nout) defined.push_back(static_cast<f##nin##nout>(&cuarray::name) != nullptr);
#define CUARRAY_UFUNC_ALIAS_DECL(alias, name, nin, nout)                                                               \
  defined.push_back(static_cast<f##nin##nout>(&cuarray::alias) != nullptr);
#include "cuarray/ufunc_list.inc"
#undef CUARRAY_UFUNC_DECL
#undef CUARRAY_UFUNC_ALIAS_DECL
  EXPECT_EQ(defined.size(), listed_ufuncs().size());
  for (bool d : defined) EXPECT_TRUE(d);
}

TEST(UfuncApi, CxxNumbersAreWeakAndTypedScalarsStrong) {
  ufunc_arg i = 3;
  EXPECT_TRUE(i.is_scalar());
  EXPECT_TRUE(i.weak);
  EXPECT_EQ(i.value.type, int64);
  EXPECT_EQ(i.value.to_int64(), 3);
  ufunc_arg big = std::uint64_t{1} << 63;
  EXPECT_TRUE(big.weak);
  EXPECT_EQ(big.value.type, uint64);
  ufunc_arg small_unsigned = 7u;
  EXPECT_EQ(small_unsigned.value.type, int64);
  ufunc_arg d = 2.5f;
  EXPECT_TRUE(d.weak);
  EXPECT_EQ(d.value.type, float64);
  EXPECT_EQ(d.value.to_double(), 2.5);
  ufunc_arg c = std::complex<float>(1, 2);
  EXPECT_TRUE(c.weak);
  EXPECT_EQ(c.value.type, complex128);
  ufunc_arg b = true;
  EXPECT_FALSE(b.weak);
  EXPECT_EQ(b.value.type, bool_);
  ufunc_arg s = scalar::from_int(5, int8);
  EXPECT_FALSE(s.weak);
  EXPECT_EQ(s.value.type, int8);
}

TEST(UfuncApi, ParseCastingAndCanCast) {
  EXPECT_EQ(parse_casting("same_kind"), casting::same_kind);
  EXPECT_EQ(parse_casting("unsafe"), casting::unsafe);
  EXPECT_THROW(parse_casting("sometimes"), value_error);
  EXPECT_TRUE(can_cast(int32, float64, casting::safe));
  EXPECT_FALSE(can_cast(float64, int32, casting::same_kind));
  EXPECT_TRUE(can_cast(float64, float32, casting::same_kind));
  EXPECT_FALSE(can_cast(float64, float32, casting::safe));
  EXPECT_TRUE(can_cast(complex128, int8, casting::unsafe));
  EXPECT_FALSE(can_cast(int32, int64, casting::no));
}

TEST(UfuncApi, CallByUnknownNameIsAValueError) {
  EXPECT_THROW(call_ufunc("no_such_ufunc", std::vector<ufunc_arg>{1.0}, ufunc_options{}), value_error);
  EXPECT_THROW(call_ufunc("no_such_ufunc", std::vector<array>{}), value_error);
}

TEST(ElementwiseKernelApi, ParsesParametersAndRejectsBadOnes) {
  elementwise_kernel k("T x, raw float32 y, U s", "T z, int64 w", "z = x; w = 0;", "parse");
  EXPECT_EQ(k.nin(), 3);
  EXPECT_EQ(k.nout(), 2);
  EXPECT_EQ(k.name(), "parse");
  EXPECT_THROW(elementwise_kernel("T", "T z", "z = 0"), value_error);
  EXPECT_THROW(elementwise_kernel("T x y z", "T z", "z = 0"), value_error);
  EXPECT_THROW(elementwise_kernel("T 1x", "T z", "z = 0"), value_error);
  EXPECT_THROW(elementwise_kernel("T x, T x", "T z", "z = x"), value_error);
  EXPECT_THROW(elementwise_kernel("T x", "T x", "x = x"), value_error);
  EXPECT_THROW(elementwise_kernel("T x", "", "x = 1"), value_error);
}

TEST(ElementwiseKernelApi, WrongArgumentCountIsATypeErrorBeforeAnyDeviceUse) {
  elementwise_kernel k("T x, T y", "T z", "z = x + y");
  EXPECT_THROW(k.call({1.0}), type_error);
  EXPECT_THROW(k.call({1.0, 2.0, 3.0, 4.0}), type_error);
}

TEST(RawKernelApi, EmptyOrMissingInputsAreValueErrors) {
  EXPECT_THROW(raw_module::from_source(""), value_error);
  EXPECT_THROW(raw_module::from_file("/nonexistent/cuarray/module.cubin"), value_error);
  EXPECT_THROW(raw_module::from_image(""), value_error);
  raw_kernel none;
  EXPECT_FALSE(none.defined());
  EXPECT_THROW(none(kernel_dim(1), kernel_dim(1)), value_error);
  EXPECT_THROW(raw_kernel(raw_module(), "k"), value_error);
  EXPECT_THROW(raw_kernel("extern \"C\" __global__ void k() {}", ""), value_error);
  raw_module m = raw_module::from_source("__global__ void k() {}", {"-DX=1"}, {"k"});
  EXPECT_EQ(m.options(), std::vector<std::string>{"-DX=1"});
  EXPECT_EQ(m.name_expressions(), std::vector<std::string>{"k"});
  EXPECT_EQ(m.get_function("k").name(), "k");
}

// ---------------------------------------------------------------------------------------------------------
// On the device: ufuncs

TEST(UfuncApiGpu, AddKeepsArrayDtypeForWeakScalarsAndPromotesForStrongOnes) {
  REQUIRE_GPU();
  array x = dev<std::int32_t>({1, 2, 3}, int32);
  array a = add(x, 2);
  EXPECT_EQ(a.type(), int32);
  EXPECT_EQ(host<std::int32_t>(a), (std::vector<std::int32_t>{3, 4, 5}));
  array b = add(x, 2.5);
  EXPECT_EQ(b.type(), float64);
  EXPECT_EQ(host<double>(b), (std::vector<double>{3.5, 4.5, 5.5}));
  array c = add(x, scalar::from_int(1, int64));
  EXPECT_EQ(c.type(), int64);
  array d = add(2, x);
  EXPECT_EQ(host<std::int32_t>(d), (std::vector<std::int32_t>{3, 4, 5}));
  array f = multiply(dev<float>({1.5f, 2.0f}, float32), 2.0);
  EXPECT_EQ(f.type(), float32);
  EXPECT_EQ(host<float>(f), (std::vector<float>{3.0f, 4.0f}));
  array g = subtract(x, x);
  EXPECT_EQ(host<std::int32_t>(g), (std::vector<std::int32_t>{0, 0, 0}));
}

TEST(UfuncApiGpu, BroadcastingUnaryFunctionsAndAliases) {
  REQUIRE_GPU();
  array col = dev<double>({1, 2}, float64, {2, 1});
  array row = dev<double>({10, 20, 30}, float64, {1, 3});
  array s = add(col, row);
  EXPECT_EQ(s.shape(), (shape_t{2, 3}));
  EXPECT_EQ(host<double>(s), (std::vector<double>{11, 21, 31, 12, 22, 32}));
  EXPECT_EQ(host<double>(cuarray::sqrt(dev<double>({1, 4, 9}, float64))), (std::vector<double>{1, 2, 3}));
  array n = dev<std::int32_t>({-3, 4}, int32);
  EXPECT_EQ(host<std::int32_t>(cuarray::abs(n)), host<std::int32_t>(absolute(n)));
  array q = true_divide(dev<std::int32_t>({1, 3}, int32), dev<std::int32_t>({2, 2}, int32));
  EXPECT_EQ(q.type(), float64);
  EXPECT_EQ(host<double>(q), (std::vector<double>{0.5, 1.5}));
  array m = mod(dev<std::int64_t>({7, -7}, int64), 3);
  EXPECT_EQ(host<std::int64_t>(m), (std::vector<std::int64_t>{1, 2}));
  array cmp = greater(dev<double>({1, 5}, float64), 2);
  EXPECT_EQ(cmp.type(), bool_);
  EXPECT_EQ(host<std::uint8_t>(cmp), (std::vector<std::uint8_t>{0, 1}));
  array z = cuarray::sin(0.0);  // scalars alone give a 0-d array
  EXPECT_EQ(z.ndim(), 0);
  EXPECT_EQ(host<double>(z), std::vector<double>{0.0});
}

TEST(UfuncApiGpu, TwoOutputFunctionsReturnPairs) {
  REQUIRE_GPU();
  auto [q, r] = divmod(dev<double>({7, -7}, float64), 2);
  EXPECT_EQ(host<double>(q), (std::vector<double>{3, -4}));
  EXPECT_EQ(host<double>(r), (std::vector<double>{1, 1}));
  auto [frac, whole] = modf(dev<double>({1.5, -2.25}, float64));
  EXPECT_EQ(host<double>(frac), (std::vector<double>{0.5, -0.25}));
  EXPECT_EQ(host<double>(whole), (std::vector<double>{1, -2}));
  auto [mant, ex] = frexp(dev<double>({8.0, 0.75}, float64));
  EXPECT_EQ(ex.type(), int32);
  EXPECT_EQ(host<double>(mant), (std::vector<double>{0.5, 0.75}));
  EXPECT_EQ(host<std::int32_t>(ex), (std::vector<std::int32_t>{4, 0}));
}

TEST(UfuncApiGpu, OutWhereDtypeAndCastingOptions) {
  REQUIRE_GPU();
  array x = dev<double>({1, 2, 3, 4}, float64);
  array y = dev<double>({10, 20, 30, 40}, float64);
  array o = full({4}, -1.0, float64);
  array r = add(x, y, {.out = {o}});
  EXPECT_EQ(r.data(), o.data());
  EXPECT_EQ(host<double>(o), (std::vector<double>{11, 22, 33, 44}));

  array masked = full({4}, -1.0, float64);
  array mask = dev<std::uint8_t>({1, 0, 1, 0}, bool_);
  add(x, y, {.out = {masked}, .where = mask});
  EXPECT_EQ(host<double>(masked), (std::vector<double>{11, -1, 33, -1}));

  array xi = dev<std::int32_t>({1, 2}, int32);
  array f = add(xi, xi, {.dtype_ = float32});
  EXPECT_EQ(f.type(), float32);
  EXPECT_EQ(host<float>(f), (std::vector<float>{2, 4}));

  array oi = zeros({4}, int32);
  EXPECT_THROW(add(x, y, {.out = {oi}}), type_error);  // float64 -> int32 is not same_kind
  add(x, y, {.out = {oi}, .rule = casting::unsafe});
  EXPECT_EQ(host<std::int32_t>(oi), (std::vector<std::int32_t>{11, 22, 33, 44}));
  EXPECT_THROW(add(xi, x, {.rule = casting::no}), type_error);

  array fo = add(dev<double>({1, 2, 3, 4}, float64, {2, 2}), 1.0, {.out_order = order::F});
  EXPECT_TRUE(fo.is_f_contiguous());
  EXPECT_EQ(host<double>(fo.copy(order::C)), (std::vector<double>{2, 3, 4, 5}));
}

TEST(UfuncApiGpu, CallByNameMatchesTheFunctions) {
  REQUIRE_GPU();
  array x = dev<double>({1, 2}, float64);
  std::vector<array> r = call_ufunc("add", std::vector<array>{x, x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(host<double>(r[0]), (std::vector<double>{2, 4}));
  std::vector<array> dm = call_ufunc("divmod", {x, 2}, {});
  ASSERT_EQ(dm.size(), 2u);
  EXPECT_EQ(host<double>(dm[1]), (std::vector<double>{1, 0}));
  EXPECT_THROW(call_ufunc("add", std::vector<array>{x}), type_error);
  EXPECT_THROW(add(dev<double>({1, 2, 3}, float64), x), value_error);  // shapes (3,) and (2,) do not broadcast
}

// ---------------------------------------------------------------------------------------------------------
// On the device: elementwise_kernel

TEST(ElementwiseKernelGpu, PlaceholdersAreResolvedFromArraysAndScalars) {
  REQUIRE_GPU();
  elementwise_kernel add_k("T x, T y", "T z", "z = x + y", "test_add");
  array a = dev<float>({1, 2, 3}, float32);
  array b = dev<float>({10, 20, 30}, float32);
  array z = add_k(a, b);
  EXPECT_EQ(z.type(), float32);
  EXPECT_EQ(host<float>(z), (std::vector<float>{11, 22, 33}));
  array zs = add_k(a, 0.5);  // the scalar takes T = float32 from the array
  EXPECT_EQ(zs.type(), float32);
  EXPECT_EQ(host<float>(zs), (std::vector<float>{1.5f, 2.5f, 3.5f}));
  array zb = add_k(dev<float>({1, 2}, float32, {2, 1}), dev<float>({10, 20, 30}, float32, {1, 3}));
  EXPECT_EQ(zb.shape(), (shape_t{2, 3}));
  EXPECT_EQ(host<float>(zb), (std::vector<float>{11, 21, 31, 12, 22, 32}));
  EXPECT_THROW(add_k(a, dev<double>({1, 2, 3}, float64)), type_error);
  array out = zeros({3}, float32);
  std::vector<array> given = add_k.call({a, b, out});
  EXPECT_EQ(given[0].data(), out.data());
  EXPECT_EQ(host<float>(out), (std::vector<float>{11, 22, 33}));
}

TEST(ElementwiseKernelGpu, ConcreteTypesCastAndScalarsAloneNeedATypedPlaceholder) {
  REQUIRE_GPU();
  elementwise_kernel half_k("float64 x", "float64 y", "y = x / 2", "test_half");
  array y = half_k(dev<std::int32_t>({1, 4}, int32));  // int32 read into a float64 parameter
  EXPECT_EQ(y.type(), float64);
  EXPECT_EQ(host<double>(y), (std::vector<double>{0.5, 2.0}));
  elementwise_kernel scale("T x, T s", "T y", "y = x * s", "test_scale");
  array w = scale(dev<std::int64_t>({1, 2}, int64), 3);
  EXPECT_EQ(w.type(), int64);
  EXPECT_EQ(host<std::int64_t>(w), (std::vector<std::int64_t>{3, 6}));
  elementwise_kernel unknown("T x", "U y", "y = x", "test_unknown");
  EXPECT_THROW(unknown(dev<float>({1}, float32)), type_error);
}

TEST(ElementwiseKernelGpu, RawParametersIndexAndSizeOption) {
  REQUIRE_GPU();
  elementwise_kernel rev("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "test_reverse");
  array x = dev<double>({1, 2, 3, 4}, float64);
  array y = empty({4}, float64);
  rev.call({x, y});
  EXPECT_EQ(host<double>(y), (std::vector<double>{4, 3, 2, 1}));
  elementwise_kernel iota("", "int64 y", "y = i * 2", "test_iota");
  std::vector<array> r = iota.call({}, {.size = 5});
  EXPECT_EQ(host<std::int64_t>(r[0]), (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
  EXPECT_THROW(iota.call({}), value_error);  // no array and no size
  elementwise_kernel twice("T x", "T a, T b", "a = x; b = x * 2", "test_two");
  std::vector<array> ab = twice.call({dev<float>({1, 2}, float32)});
  ASSERT_EQ(ab.size(), 2u);
  EXPECT_EQ(host<float>(ab[1]), (std::vector<float>{2, 4}));
  EXPECT_THROW(twice(dev<float>({1, 2}, float32)), value_error);  // two outputs: use call()
}

TEST(ElementwiseKernelGpu, RunsOnTheGivenStream) {
  REQUIRE_GPU();
  stream s(true);
  elementwise_kernel inc("T x", "T y", "y = x + 1", "test_inc");
  array x = dev<float>({1, 2}, float32);
  std::vector<array> r = inc.call({x}, {.stream = s.ref()});
  s.ref().synchronize();
  EXPECT_EQ(host<float>(r[0]), (std::vector<float>{2, 3}));
  EXPECT_EQ(current_stream(), legacy_default_stream());  // restored
}

// ---------------------------------------------------------------------------------------------------------
// On the device: raw modules and kernels

namespace {

const char* saxpy_src = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

bool driver_reports_params() { return driver_version() >= 12040; }

}  // namespace

TEST(RawKernelGpu, VariadicAndSpanLaunchesPassArraysAndScalars) {
  REQUIRE_GPU();
  raw_kernel k(saxpy_src, "saxpy");
  array x = dev<float>({0, 1, 2, 3}, float32);
  array y = ones({4}, float32);
  k(kernel_dim(1), kernel_dim(32), 2.0f, x, y, static_cast<long long>(4));
  EXPECT_EQ(host<float>(y), (std::vector<float>{1, 3, 5, 7}));
  float a = -1.0f;
  void* px = x.data();
  void* py = y.data();
  long long n = 4;
  k.launch(1, 32, {kernel_arg::of(a), kernel_arg::of(px), kernel_arg::of(py), kernel_arg::of(n)});
  EXPECT_EQ(host<float>(y), (std::vector<float>{1, 2, 3, 4}));
  stream s(true);
  k(kernel_dim(1), kernel_dim(32), launch_options{0, s.ref()}, 1.0f, x, y, n);
  s.ref().synchronize();
  EXPECT_EQ(host<float>(y), (std::vector<float>{1, 3, 5, 7}));
}

TEST(RawKernelGpu, WrongArgumentCountOrTooSmallArgumentIsAnError) {
  REQUIRE_GPU();
  if (!driver_reports_params()) GTEST_SKIP() << "the driver cannot report kernel parameters (CUDA < 12.4)";
  raw_kernel k(saxpy_src, "saxpy");
  array x = zeros({4}, float32);
  EXPECT_THROW(k(kernel_dim(1), kernel_dim(32), 2.0f, x, x), type_error);
  EXPECT_THROW(k(kernel_dim(1), kernel_dim(32), 2.0f, x, x, 4), value_error);  // int for a long long
  k(kernel_dim(1), kernel_dim(32), 2.0, x, x, 4LL);  // a double for a float parameter is read from its first bytes
  device_synchronize(current_device());
}

TEST(RawKernelGpu, AttributesAndDynamicSharedMemory) {
  REQUIRE_GPU();
  raw_kernel k(saxpy_src, "saxpy");
  kernel_attributes a = k.attributes();
  EXPECT_GE(a.max_threads_per_block, 256);
  EXPECT_GT(a.num_regs, 0);
  EXPECT_GE(a.binary_version, 80);
  k.set_max_dynamic_shared_size_bytes(2048);
  EXPECT_EQ(k.max_dynamic_shared_size_bytes(), 2048);
  EXPECT_NE(k.handle(), nullptr);
  EXPECT_EQ(k.handle(), k.handle());
}

TEST(RawKernelGpu, ModuleWithNameExpressionsAndGlobals) {
  REQUIRE_GPU();
  const char* code = R"(
    __device__ int counter = 7;
    template <class T> __global__ void fill(T* out, T v, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = v + counter;
    }
  )";
  raw_module mod = raw_module::from_source(code, {"-std=c++17"}, {"fill<float>", "fill<int>"});
  mod.compile();
  EXPECT_NE(mod.lowered_name("fill<float>"), "fill<float>");
  array out = zeros({3}, float32);
  mod.get_function("fill<float>")(kernel_dim(1), kernel_dim(32), out, 1.5f, 3);
  EXPECT_EQ(host<float>(out), (std::vector<float>{8.5f, 8.5f, 8.5f}));
  auto [p, bytes] = mod.get_global("counter");
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(bytes, sizeof(int));
  EXPECT_THROW(mod.get_global("no_such_global"), value_error);
  EXPECT_THROW(mod.get_function("no_such_kernel").compile(), value_error);
}

TEST(RawKernelGpu, ModuleFromPtxAndCubinFiles) {
  REQUIRE_GPU();
  std::string code = "extern \"C\" __global__ void one(int* x) { x[threadIdx.x] = 1; }\n";
  jit::compile_request req;
  req.source = code;
  req.arch = std::stoi(compute_capability(current_device()));
  std::string dir = std::filesystem::temp_directory_path() / ("cuarray_raw_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (bool ptx : {true, false}) {
    req.ptx = ptx;
    std::string path = dir + (ptx ? "/one.ptx" : "/one.cubin");
    std::ofstream(path, std::ios::binary) << jit::compile(req).cubin;
    raw_module mod = raw_module::from_file(path);
    array x = zeros({8}, int32);
    mod.get_function("one")(kernel_dim(1), kernel_dim(8), x);
    EXPECT_EQ(host<std::int32_t>(x), std::vector<std::int32_t>(8, 1)) << path;
  }
  std::filesystem::remove_all(dir);
}

TEST(RawKernelGpu, CompileErrorCarriesTheLog) {
  REQUIRE_GPU();
  raw_kernel bad("extern \"C\" __global__ void broken(float* x) { x[0] = undefined_name; }", "broken");
  try {
    bad.compile();
    FAIL() << "expected compile_error";
  } catch (const compile_error& e) {
    EXPECT_NE(e.log.find("undefined_name"), std::string::npos) << e.log;
  }
}

TEST(RawKernelGpu, CooperativeLaunch) {
  REQUIRE_GPU();
  raw_kernel k("extern \"C\" __global__ void coop(int* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 3; }", "coop",
               {}, true);
  EXPECT_TRUE(k.cooperative());
  array x = zeros({64}, int32);
  k(kernel_dim(2), kernel_dim(32), x);
  EXPECT_EQ(host<std::int32_t>(x), std::vector<std::int32_t>(64, 3));
}
