// User-defined kernels (cuarray/custom_kernel.hpp): parameter parsing, checks, type resolution and generated code
// on the host, NVRTC compilation of the generated kernels, and elementwise_kernel/reduction_kernel runs on a GPU
// (device tests skip without one).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/reduction.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::dev;
using cuarray::test::host;

namespace {

// The message of the exception `f` throws, "" when it throws none of type E.
template <class E, class F> std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (...) {
    return "<other exception>";
  }
  return "<no exception>";
}

kernel_arg_info arr(dtype t) { return kernel_arg_info{kernel_arg_kind::array, t, "ndarray"}; }
kernel_arg_info scal(dtype t, std::string type_name = "float") {
  return kernel_arg_info{kernel_arg_kind::scalar, t, std::move(type_name)};
}
kernel_arg_info none() { return kernel_arg_info{kernel_arg_kind::none, dtype::float64, "NoneType"}; }

elementwise_definition def(const std::string& in, const std::string& out, const std::string& op,
                           const std::string& name = "k", const std::string& preamble = "",
                           const std::string& loop_prep = "", const std::string& after_loop = "",
                           bool no_return = false) {
  return define_elementwise(parse_kernel_params(in), parse_kernel_params(out), op, name, preamble, loop_prep,
                            after_loop, no_return);
}

// The source of a plan as the engine would compile it over `ndim` dimensions.
std::string source_of(const elementwise_plan& p, int ndim) {
  std::vector<ew::operand_layout> in, out;
  for (std::size_t k = 0; k < p.in_types.size(); ++k)
    in.push_back(ew::operand_layout{p.in_types[k], p.in_types[k], p.in_kinds[k] == 's', p.in_kinds[k] == 'r'});
  for (std::size_t k = 0; k < p.out_types.size(); ++k)
    out.push_back(ew::operand_layout{p.out_types[k], p.out_types[k], false, p.out_raw[k] != 0});
  ew::kernel_spec spec{nullptr, p.name, p.body, p.preamble, p.loop_prep, p.after_loop, p.c_order};
  spec.id = ew::intern(spec);
  return ew::kernel_source(spec, in, out, ndim, false, false, false, "cuarray_" + p.name + "_ew");
}

void expect_compiles(const std::string& source) {
  jit::compile_request req;
  req.source = source;
  req.name = "custom_kernel.cu";
  req.headers = ew::jit_headers();
  req.arch = 80;
  EXPECT_GT(jit::compile(req).cubin.size(), 0u) << source;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Parameters

TEST(KernelParams, ParsesTypesPlaceholdersAndRaw) {
  std::vector<kernel_param> p = parse_kernel_params(" T x,raw float32 y , int64 n2,  U  s,, f q ");
  ASSERT_EQ(p.size(), 5u);
  EXPECT_FALSE(p[0].raw);
  EXPECT_EQ(p[0].ctype, "T");
  EXPECT_EQ(p[0].name, "x");
  EXPECT_FALSE(p[0].type.has_value());
  EXPECT_TRUE(p[1].raw);
  EXPECT_EQ(p[1].type, dtype::float32);
  EXPECT_EQ(p[2].type, dtype::int64);
  EXPECT_FALSE(p[3].type.has_value());
  EXPECT_FALSE(p[4].type.has_value());  // one character is a placeholder even where it names a dtype
  EXPECT_TRUE(parse_kernel_params("").empty());
  std::vector<std::string> items{"T x", " raw T y "};
  std::vector<kernel_param> q = parse_kernel_params(std::span<const std::string>(items));
  ASSERT_EQ(q.size(), 2u);
  EXPECT_TRUE(q[1].raw);
}

TEST(KernelParams, MalformedItemsAndReservedNamesAreValueErrors) {
  EXPECT_EQ(message_of<value_error>([] { parse_kernel_params("T x y"); }),
            "Invalid parameter 'T x y': expected '[raw] TYPE NAME'");
  EXPECT_EQ(message_of<value_error>([] { parse_kernel_params("T 1x"); }),
            "Invalid parameter 'T 1x': expected '[raw] TYPE NAME'");
  EXPECT_EQ(message_of<value_error>([] { parse_kernel_params("raw T"); }),
            "Invalid parameter 'raw T': expected '[raw] TYPE NAME' ('raw' is a keyword, not a type)");
  EXPECT_EQ(message_of<value_error>([] { parse_kernel_params("for x"); }),
            "Invalid parameter 'for x': expected '[raw] TYPE NAME' ('for' is a keyword, not a type)");
  EXPECT_EQ(message_of<value_error>([] { parse_kernel_params("T 'x"); }),
            "Invalid parameter \"T 'x\": expected '[raw] TYPE NAME'");
  for (const char* bad : {"T i", "T n", "T _x"}) {
    EXPECT_EQ(message_of<value_error>([&] { parse_kernel_params(bad); }).find("reserved for the kernel's own use") !=
                  std::string::npos,
              true)
        << bad;
  }
  EXPECT_EQ(message_of<value_error>([] { parse_kernel_params("T float"); }),
            "Invalid parameter name 'float': a C++ keyword");
  std::vector<std::string> blank{"T x", ""};
  EXPECT_THROW(parse_kernel_params(std::span<const std::string>(blank)), value_error);
}

TEST(KernelParams, TheResolverDecidesDtypeNames) {
  dtype_name_resolver resolve = [](const std::string& s) -> std::optional<dtype> {
    if (s == "longlong") return dtype::int64;
    if (s == "object") throw type_error("cuarray does not support dtype object");
    return std::nullopt;
  };
  std::vector<kernel_param> p = parse_kernel_params("longlong a, float32 b", resolve);
  EXPECT_EQ(p[0].type, dtype::int64);
  EXPECT_FALSE(p[1].type.has_value());  // the resolver does not know it: a placeholder
  EXPECT_THROW(parse_kernel_params("object a", resolve), type_error);
  EXPECT_FALSE(parse_kernel_params("longlong a")[0].type.has_value());  // parse_dtype's names only
}

TEST(KernelParams, PythonRepr) {
  EXPECT_EQ(python_repr("x"), "'x'");
  EXPECT_EQ(python_repr("a'b"), "\"a'b\"");
  EXPECT_EQ(python_repr("a'\"b"), "'a\\'\"b'");
  EXPECT_EQ(python_repr("t\n\x01\\"), "'t\\n\\x01\\\\'");
}

// ---------------------------------------------------------------------------------------------------------
// Elementwise definitions

TEST(ElementwiseDefinition, ChecksNamesAndPlaceholders) {
  EXPECT_EQ(message_of<value_error>([] { def("T x", "", "x;"); }),
            "ElementwiseKernel needs at least one output parameter (or no_return=True)");
  EXPECT_NO_THROW(def("T x", "", "x;", "k", "", "", "", true));
  EXPECT_EQ(message_of<value_error>([] { def("T x, T y, T x", "T y", "y = x"); }),
            "Parameter names must be unique: x, y appears more than once");
  EXPECT_EQ(message_of<value_error>([] { def("T x, U T", "T z", "z = x"); }),
            "Type placeholder 'T' is also the name of a parameter");
  EXPECT_EQ(message_of<value_error>([] { def("n x", "n z", "z = x"); }),
            "Invalid type placeholder 'n': 'i', 'n' and names starting with '_' are reserved for the kernel's own "
            "use");
}

TEST(ElementwiseDefinition, KernelNameAndIndexUse) {
  EXPECT_EQ(def("T x", "T y", "y = x", "a b-c.d").kernel_name, "a_b_c_d");
  EXPECT_EQ(def("T x", "T y", "y = x", "").kernel_name, "kernel");
  EXPECT_FALSE(def("T x", "T y", "y = x").c_order);
  EXPECT_TRUE(def("T x", "T y", "y = x + (T)i").c_order);
  EXPECT_TRUE(def("T x", "T y", "y = x + _ind.size()").c_order);
  EXPECT_TRUE(def("T x", "T y", "y = x + my_ind").c_order);  // `_ind` needs a boundary after it only
  EXPECT_FALSE(def("T x", "T y", "y = x + _index + ii + i2").c_order);
  EXPECT_TRUE(def("T x", "T y", "y = x", "k", "", "int k = i;").c_order);
  EXPECT_TRUE(def("raw T x", "T y", "y = x[0]").c_order);
}

TEST(ElementwiseDefinition, AssignedOutputsAndSizedRawParameters) {
  auto assigned = [](const std::string& op) { return def("T x", "T y", op).assigned.at(0) != 0; };
  EXPECT_TRUE(assigned("y = x"));
  EXPECT_TRUE(assigned("T t = x;\n  y = t"));
  EXPECT_TRUE(assigned("{y=x;}"));
  EXPECT_FALSE(assigned("if (x > 0) y = x;"));
  EXPECT_FALSE(assigned("y = x > 0 ? x : 0"));
  EXPECT_FALSE(assigned("y += x"));
  EXPECT_FALSE(assigned("y == x"));
  EXPECT_FALSE(assigned("y = x; y = y"));
  elementwise_definition d = def("raw T a, raw T b, T c", "raw T d", "d[i] = a[i] + b [0] + c + (T)d.size()", "k", "",
                                 "long long m = b.size();");
  EXPECT_EQ(d.sized, (std::vector<unsigned char>{0, 1, 0, 1}));
}

// ---------------------------------------------------------------------------------------------------------
// Elementwise plans

TEST(ElementwisePlan, GeneratesTheBodyAndRoles) {
  elementwise_definition d = def("T x, T y", "T z", "z = x + y", "add");
  std::vector<kernel_arg_info> args{arr(dtype::float32), arr(dtype::float32)};
  elementwise_plan p = plan_elementwise(d, args);
  EXPECT_EQ(p.name, "add");
  EXPECT_EQ(p.body,
            "const float& _ca_i0 = in0; const float& _ca_i1 = in1; float& _ca_o0 = out0; typedef float T; const "
            "float x = _ca_i0; const float y = _ca_i1; float& z = _ca_o0;\nz = x + y\n;");
  EXPECT_EQ(p.preamble, "");
  EXPECT_EQ(p.out_types, std::vector<dtype>{dtype::float32});
  EXPECT_EQ(p.shape_args, (std::vector<int>{0, 1}));
  EXPECT_EQ(p.alloc, std::vector<int>{0});
  EXPECT_TRUE(p.preload.empty());
}

TEST(ElementwisePlan, RawSizesPreloadsAndLoopPrep) {
  elementwise_definition d = def("T x, raw T y, float64 s", "T z",
                                 "if (x > 0) z = x + y[_ind.size() - i - 1] + (T)y.size() * s", "rev", "",
                                 "int q = 0;");
  std::vector<kernel_arg_info> args{arr(dtype::float32), arr(dtype::float32), scal(dtype::float64),
                                    arr(dtype::float32)};
  elementwise_plan p = plan_elementwise(d, args);
  EXPECT_EQ(p.preload, std::vector<int>{0});    // z is assigned under a condition: its values are loaded first
  EXPECT_EQ(p.raw_sizes, std::vector<int>{1});  // y.size() is read
  EXPECT_EQ(p.in_kinds, (std::vector<unsigned char>{'a', 'r', 's', 'a', 's'}));
  EXPECT_EQ(p.in_types,
            (std::vector<dtype>{dtype::float32, dtype::float32, dtype::float64, dtype::float32, dtype::int64}));
  EXPECT_EQ(p.shape_args, (std::vector<int>{0, 3}));
  EXPECT_EQ(p.given_outs, std::vector<int>{3});
  EXPECT_TRUE(p.alloc.empty());
  EXPECT_NE(p.body.find("_ca_raw<float> y{_ca_r1, _ca_s1};"), std::string::npos) << p.body;
  EXPECT_NE(p.body.find("_ca_o0 = _ca_h0;"), std::string::npos) << p.body;
  EXPECT_EQ(p.loop_prep, "typedef float T; _ca_raw<float> y{raw1, v4}; const double s = v2;\nint q = 0;");
  EXPECT_EQ(p.preamble.rfind("template <class T> struct _ca_raw", 0), 0u);
  for (int ndim : {0, 1, 3}) expect_compiles(source_of(p, ndim));
}

TEST(ElementwisePlan, PlaceholdersBindOutputsThenInputsThenScalars) {
  elementwise_definition d = def("X x, Y y", "Z z", "z = x + y");
  std::vector<kernel_arg_info> args{arr(dtype::int32), scal(dtype::float64), arr(dtype::float16)};
  elementwise_plan p = plan_elementwise(d, args);
  EXPECT_NE(p.body.find("typedef ca_half Z; typedef int X; typedef double Y;"), std::string::npos) << p.body;
  expect_compiles(source_of(p, 2));
  // A scalar takes the type its placeholder already has.
  elementwise_definition g = def("T x, T y", "T z", "z = x * y");
  std::vector<kernel_arg_info> cast{arr(dtype::int8), scal(dtype::float64)};
  EXPECT_EQ(plan_elementwise(g, cast).in_types, (std::vector<dtype>{dtype::int8, dtype::int8}));
  std::vector<kernel_arg_info> scalars{scal(dtype::float64), scal(dtype::float64)};
  EXPECT_EQ(plan_elementwise(g, scalars).out_types, std::vector<dtype>{dtype::float64});
}

TEST(ElementwisePlan, ArgumentErrorsNameTheParameter) {
  elementwise_definition g = def("T x, T y", "T z", "z = x", "mism");
  auto plan = [&](std::vector<kernel_arg_info> a) { plan_elementwise(g, a); };
  EXPECT_EQ(message_of<type_error>([&] { plan({arr(dtype::float32)}); }),
            "Wrong number of arguments for 'mism': it takes 2 (inputs) or 3 (inputs and outputs), but 1 were given");
  EXPECT_EQ(message_of<type_error>([&] {
              plan({arr(dtype::float32), arr(dtype::float64)});
            }),
            "Type is mismatched: input 'y' has dtype float64, but type placeholder 'T' is already float32");
  EXPECT_EQ(message_of<type_error>([&] {
              plan({arr(dtype::float32), arr(dtype::float32), arr(dtype::float64)});
            }),
            "Type is mismatched: input 'x' has dtype float32, but type placeholder 'T' is already float64");
  EXPECT_EQ(message_of<type_error>([&] {
              plan({arr(dtype::float32), arr(dtype::float32), scal(dtype::float64)});
            }),
            "Output argument 'z' of 'mism' must be a cuarray.ndarray, not float");
  EXPECT_EQ(message_of<type_error>([&] {
              plan({none(), arr(dtype::float32)});
            }),
            "Unsupported type NoneType for argument 'x' of 'mism'");
  EXPECT_NE(message_of<type_error>([&] {
              plan({kernel_arg_info{kernel_arg_kind::host_array, dtype::float64, "ndarray"}, arr(dtype::float32)});
            }).find("cuarray.asarray()"),
            std::string::npos);
  EXPECT_NO_THROW(plan({arr(dtype::float32), arr(dtype::float32), none()}));
  elementwise_definition raw = def("raw T x", "raw float32 y", "y[i] = x[i]", "raw_out");
  EXPECT_EQ(message_of<type_error>([&] {
              std::vector<kernel_arg_info> a{scal(dtype::float64)};
              plan_elementwise(raw, a);
            }),
            "Raw argument 'x' of 'raw_out' must be a cuarray.ndarray, not float");
  EXPECT_EQ(message_of<type_error>([&] {
              std::vector<kernel_arg_info> a{arr(dtype::float32), arr(dtype::int32)};
              plan_elementwise(raw, a);
            }),
            "Type is mismatched: output 'y' of 'raw_out' is declared float32, but the array given has dtype int32");
  elementwise_definition three = def("X x, Y y", "Z z", "z = x + y", "g");
  EXPECT_EQ(message_of<type_error>([&] {
              std::vector<kernel_arg_info> a{arr(dtype::float32), arr(dtype::float32)};
              plan_elementwise(three, a);
            }),
            "Cannot determine the type of 'z' in 'g': type placeholder 'Z' is not fixed by any argument (pass the "
            "output array)");
}

TEST(ElementwisePlan, TooManyOperandsIsAValueError) {
  elementwise_definition d = def("raw T a, raw T b, raw T c, raw T d, raw T e, raw T f", "T g",
                                 "g = a.size() + b.size() + c.size() + d.size() + e.size() + f.size()", "many");
  std::vector<kernel_arg_info> args(6, arr(dtype::float32));
  EXPECT_EQ(message_of<value_error>([&] { plan_elementwise(d, args); }),
            "'many' has too many parameters for one kernel (7 parameters, 0 outputs to load first and 6 raw sizes; "
            "at most 11)");
}

TEST(ElementwisePlan, CupySpellingsCompile) {
  elementwise_definition c = def("T x", "complex64 y", "y = complex<float>(x, -x)", "cplx");
  std::vector<kernel_arg_info> f32{arr(dtype::float32)};
  elementwise_plan p = plan_elementwise(c, f32);
  EXPECT_EQ(p.preamble.rfind("template <class T> using complex = ca_complex<T>;\n", 0), 0u);
  expect_compiles(source_of(p, 1));
  elementwise_definition b = def("raw bool m, T x", "T y", "y = m[i] ? x : (T)0", "masked");
  std::vector<kernel_arg_info> mb{arr(dtype::bool_), arr(dtype::float64)};
  expect_compiles(source_of(plan_elementwise(b, mb), 2));
}

// ---------------------------------------------------------------------------------------------------------
// Reduction kernels

TEST(ReductionKernelDefinition, ChecksParameters) {
  auto define = [](const std::string& in, const std::string& out) {
    define_reduction_kernel(parse_kernel_params(in), parse_kernel_params(out), "x", "a + b", "y = a", "0");
  };
  EXPECT_EQ(message_of<value_error>([&] { define("T x", "T y, T z"); }),
            "ReductionKernel takes exactly one output parameter");
  EXPECT_EQ(message_of<value_error>([&] { define("raw T x", "T y"); }),
            "ReductionKernel parameter 'x': raw parameters are not supported; index arrays in an ElementwiseKernel "
            "instead");
  EXPECT_EQ(message_of<value_error>([&] { define("T y", "T y"); }), "Parameter names must be unique");
  EXPECT_THROW(define("", "T y"), value_error);
  reduction_kernel_definition d = define_reduction_kernel(parse_kernel_params("T x"), parse_kernel_params("T y"), "x",
                                                          "a + b", "y = a", std::nullopt, "my kernel", "nonsense");
  EXPECT_EQ(d.kernel_name, "my_kernel");
  EXPECT_FALSE(d.reduce_dtype.has_value());
  std::vector<kernel_arg_info> a{arr(dtype::float32)};
  EXPECT_EQ(message_of<type_error>([&] { plan_reduction_kernel(d, a, kernel_arg_info{}); }),
            "data type 'nonsense' not understood");
}

TEST(ReductionKernelPlan, TypesAndCode) {
  reduction_kernel_definition d = define_reduction_kernel(parse_kernel_params("T x, T m"),
                                                          parse_kernel_params("float64 y"), "x * m", "a + b", "y = a",
                                                          "0", "dot", "float64");
  std::vector<kernel_arg_info> args{arr(dtype::int32), arr(dtype::float32)};  // the first array fixes T
  reduction_kernel_plan p = plan_reduction_kernel(d, args, kernel_arg_info{});
  EXPECT_EQ(p.in_types, (std::vector<dtype>{dtype::int32, dtype::int32}));
  EXPECT_EQ(p.preamble, "typedef int T;\n");
  EXPECT_EQ(p.acc, "double");
  EXPECT_EQ(p.map, "const int _ca_v0 = x; const int _ca_v1 = x1; acc_t _ca_m; { const int& x = _ca_v0; const int& m = "
                   "_ca_v1; _ca_m = ca_cast<acc_t>(x * m); } m = _ca_m;");
  EXPECT_EQ(p.combine, "r = ca_cast<acc_t>(a + b);");
  EXPECT_EQ(p.post, "out_t _ca_y; { double y; { y = a; } _ca_y = y; } y = _ca_y;");
  EXPECT_EQ(p.identity, "ca_cast<acc_t>(0)");
  EXPECT_EQ(p.acc_bytes, 8u);
  EXPECT_FALSE(p.sequential);

  reduction_kernel_definition h = define_reduction_kernel(parse_kernel_params("T x"), parse_kernel_params("U y"), "x",
                                                          "a > b ? a : b", "y = a", std::nullopt, "mx", "U");
  std::vector<kernel_arg_info> x16{arr(dtype::float16)};
  EXPECT_EQ(message_of<type_error>([&] { plan_reduction_kernel(h, x16, kernel_arg_info{}); }),
            "Cannot determine the output type 'U' of 'mx': pass out=");
  reduction_kernel_plan q = plan_reduction_kernel(h, x16, arr(dtype::float16));
  EXPECT_EQ(q.acc, "float");  // float16 computes in float32
  EXPECT_EQ(q.acc_bytes, 4u);
  EXPECT_TRUE(q.sequential);
  EXPECT_EQ(q.identity, "acc_t()");
  EXPECT_EQ(q.preamble, "typedef float T;\ntypedef float U;\n");

  std::vector<kernel_arg_info> two{arr(dtype::float16), arr(dtype::float16)};
  EXPECT_TRUE(plan_reduction_kernel(h, two, kernel_arg_info{}).out_positional);
  EXPECT_EQ(message_of<value_error>([&] { plan_reduction_kernel(h, two, arr(dtype::float16)); }),
            "the output is given twice (positionally and as out=)");
  std::vector<kernel_arg_info> three(3, arr(dtype::float16));
  EXPECT_EQ(message_of<type_error>([&] { plan_reduction_kernel(h, three, kernel_arg_info{}); }),
            "mx takes 1 inputs (3 given)");
}

TEST(ReductionKernelPlan, GeneratedKernelCompiles) {
  reduction_kernel_definition d = define_reduction_kernel(
      parse_kernel_params("T x, float32 w"), parse_kernel_params("T y"), "x * w", "a + b", "y = sqrt(a)", "0", "wnorm");
  std::vector<kernel_arg_info> args{arr(dtype::float64), scal(dtype::float64)};
  reduction_kernel_plan p = plan_reduction_kernel(d, args, kernel_arg_info{});
  red::spec s = red::spec_of(p);
  red::test_variant v;
  v.in_storage = dtype::float64;
  v.out_storage = dtype::float64;
  v.extra_storage = {dtype::float32};
  expect_compiles(red::source_for_test(s, v));
}

// ---------------------------------------------------------------------------------------------------------
// On the device

TEST(CustomKernelGpu, ElementwiseKernelKeepsUnassignedOutputsAndPassesRawSizes) {
  REQUIRE_GPU();
  elementwise_kernel keep("T x", "T y", "if (x > 0) y = x;", "test_keep");
  array x = dev<float>({-1, 2, -3, 4}, float32);
  array y = full({4}, 9.0, float32);
  keep.call({x, y});
  EXPECT_EQ(host<float>(y), (std::vector<float>{9, 2, 9, 4}));
  elementwise_kernel sized("raw T x", "raw T y", "y[i] = x[x.size() - 1 - i] + (T)y.size()", "test_sized");
  array a = dev<std::int32_t>({0, 1, 2, 3, 4, 5}, int32);
  array b = zeros({6}, int32);
  sized.call({a, b}, {.size = 6});
  EXPECT_EQ(host<std::int32_t>(b), (std::vector<std::int32_t>{11, 10, 9, 8, 7, 6}));
  elementwise_kernel prep("T x, float64 s", "T z", "z = x * base", "test_prep", "", "const T base = (T)(s * 2);");
  EXPECT_EQ(host<float>(prep(dev<float>({1, 2}, float32), 1.5)), (std::vector<float>{3, 6}));
  EXPECT_THROW(keep.call({x, zeros({3}, float32)}), value_error);  // out shape is not the broadcast shape
}

TEST(CustomKernelGpu, ReductionKernelAxesKeepdimsAndOut) {
  REQUIRE_GPU();
  reduction_kernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "test_l2norm");
  array x = dev<double>({3, 4, 0, 0, 6, 8}, float64, {3, 2});
  EXPECT_NEAR(host<double>(l2(x))[0], std::sqrt(9.0 + 16 + 36 + 64), 1e-12);
  array rows = l2.call({x}, {.axis = std::vector<int>{1}});
  EXPECT_EQ(host<double>(rows), (std::vector<double>{5, 0, 10}));
  array kept = l2.call({x}, {.axis = std::vector<int>{1}, .keepdims = true});
  EXPECT_EQ(kept.shape(), (shape_t{3, 1}));
  array out = empty({2}, float64);
  array r = l2.call({x}, {.axis = std::vector<int>{0}, .out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_NEAR(host<double>(out)[0], std::sqrt(9.0 + 36), 1e-12);
  EXPECT_THROW(l2.call({x}, {.axis = std::vector<int>{0}, .out = empty({3}, float64)}), value_error);
  reduction_kernel dot("T x, T m", "float64 y", "x * m", "a + b", "y = a", "0", "test_dot", "float64");
  EXPECT_EQ(host<double>(dot.call({dev<std::int32_t>({1, 2, 3}, int32), 2})), std::vector<double>{12});
  reduction_kernel mx("T x", "T y", "abs(x)", "a > b ? a : b", "y = a", std::nullopt, "test_absmax");
  EXPECT_EQ(host<double>(mx(dev<double>({1, -7, 3}, float64))), std::vector<double>{7});
}

TEST(CustomKernelGpu, ReductionKernelOfOneArrayIsTheGeneralCall) {
  REQUIRE_GPU();
  // k(a) (reduce_all) after the first call of a dtype takes the pinned plan; its result, the same kernel's, has the
  // bits of call({a}) for every layout and of the general path past the one-launch limit.
  reduction_kernel sq("T x", "T y", "x * x", "a + b", "y = a", "0", "test_reduce_all");
  std::vector<float> v(20000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) / 7.0f - 5.0f;
  array x = dev<float>(v, float32);
  auto part = [&](std::optional<std::int64_t> start, std::optional<std::int64_t> stop, std::int64_t step) {
    return getitem(x, index_key{index_item::slice(start, stop, step)});
  };
  // contiguous, reversed, strided, long (the general path), one element, 2-d, empty
  for (const array& a : {part(0, 1000, 1), part(999, std::nullopt, -1), part(0, 3000, 3), x, part(5, 6, 1),
                         part(0, 1200, 1).reshape({30, 40}), part(0, 0, 1)}) {
    array first = sq(a), second = sq(a), general = sq.call({a});
    EXPECT_EQ(first.shape(), shape_t{});
    EXPECT_EQ(first.type(), float32);
    EXPECT_EQ(host<float>(first), host<float>(general));
    EXPECT_EQ(host<float>(second), host<float>(general));
  }
  EXPECT_EQ(host<std::int64_t>(sq(dev<std::int64_t>({3, 4}, int64))), std::vector<std::int64_t>{25});
  EXPECT_EQ(host<float>(sq(zeros({0}, float32))), std::vector<float>{0});
  reduction_kernel two("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "test_reduce_all_two");
  EXPECT_THROW(two(x), type_error);  // one argument of two: the planner's error, as call({x}) gives
}
