// CI without a GPU: the reduction generator's paths (row, column and sequential mappings, split passes, masks,
// extra inputs, per-output operands, struct accumulators, 32/64-bit indexing) compile with NVRTC.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/kernel.hpp"
#include "src/engine/reduction.hpp"
#include "src/ops/reductions_internal.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;

namespace {

red::spec sum_spec(const std::string& acc, std::size_t bytes) {
  red::spec s;
  s.name = "sum";
  s.acc = acc;
  s.in_compute = acc;
  s.out_compute = acc;
  s.map = "m = ca_cast<acc_t>(x);";
  s.combine = "r = a + b;";
  s.identity = "ca_cast<acc_t>(0)";
  s.acc_bytes = bytes;
  return s;
}

// sum(x * x1) of two inputs in double.
red::spec dot_spec() {
  red::spec s = sum_spec("double", 8);
  s.name = "dot";
  s.extra_compute = {"double"};
  s.map = "m = ca_cast<double>(x) * ca_cast<double>(x1);";
  return s;
}

red::spec argmax_spec() {
  red::spec s;
  s.name = "argmax";
  s.preamble = "struct ca_arg { ca_complex64 v; long long i; };";
  s.acc = "ca_arg";
  s.in_compute = "ca_complex64";
  s.out_compute = "long long";
  s.map = "m.v = x; m.i = _j;";
  s.combine = "bool tb = ca_rlt(a.v, b.v) || (!ca_rlt(b.v, a.v) && b.i < a.i); r = tb ? b : a;";
  s.identity = "ca_arg{ca_complex64(0.0f, 0.0f), 9223372036854775807LL}";
  s.post = "y = a.i;";
  s.acc_bytes = 16;
  return s;
}

void compile_ok(const std::string& what, const std::string& src) { test::expect_compiles(what, src, "reduce.cu"); }

}  // namespace

TEST(ReductionSource, EveryMappingAndPassCompiles) {
  red::spec s = sum_spec("float", 4);
  for (bool rows : {true, false}) {
    for (int group : {32, 256}) {
      for (int kd : {0, 1, 3}) {
        for (int rd : {1, 2}) {
          red::test_variant t;
          t.in_storage = dtype::float16;
          t.out_storage = dtype::float16;
          t.rows = rows;
          t.group = group;
          t.kept_ndim = kd;
          t.red_ndim = rd;
          t.index64 = kd == 3;
          t.mask = rd == 2;
          compile_ok("sum rows=" + std::to_string(rows) + " kd=" + std::to_string(kd) + " rd=" + std::to_string(rd),
                     red::source_for_test(s, t));
        }
      }
    }
  }
  red::test_variant split;
  split.partial_out = true;
  compile_ok("partial out", red::source_for_test(s, split));
  split.partial_out = false;
  split.partial_in = true;
  split.rows = false;
  compile_ok("partial in", red::source_for_test(s, split));
}

// Note [vector rows]: 16-byte vectors of every storage size (1, 2, 4 and 8 bytes), alone and with extra
// inputs of the same size, a warp, a block or a narrow group per output, 32- and 64-bit indexing, and the
// split pass that writes partials.
TEST(ReductionSource, VectorRowsCompile) {
  red::spec s = sum_spec("double", 8), dot = dot_spec();
  for (dtype t : {dtype::bool_, dtype::int8, dtype::float16, dtype::float32, dtype::int32, dtype::float64, dtype::int64,
                  dtype::complex64}) {
    for (int group : {1, 4, 32, 256}) {
      red::test_variant v;
      v.in_storage = t;
      v.out_storage = dtype::float64;
      v.vec = true;
      v.group = group;
      v.kept_ndim = group == 256 ? 0 : 2;
      v.index64 = group == 4;
      v.partial_out = group == 256;
      v.stream = group >= 32;  // Note [streaming loads]
      std::string what = std::string(name(t)) + " group " + std::to_string(group);
      if (t == dtype::complex64) {
        red::spec c = sum_spec("ca_complex64", 8);
        c.in_compute = "ca_complex64";
        c.out_compute = "ca_complex64";
        v.out_storage = dtype::complex64;
        std::string src = red::source_for_test(c, v);
        EXPECT_NE(src.find("uint4"), std::string::npos) << what;
        compile_ok("vector rows " + what, src);
        continue;
      }
      std::string src = red::source_for_test(s, v);
      EXPECT_NE(src.find("uint4"), std::string::npos) << what;
      EXPECT_EQ(src.find("__ldcs(") != std::string::npos, v.stream) << what;
      compile_ok("vector rows " + what, src);
      v.extra_storage = {t};
      compile_ok("vector rows, two inputs, " + what, red::source_for_test(dot, v));
    }
  }
}

// Note [vector columns]: V outputs a thread for every storage size, alone and with a second input, over one to
// three kept and one or two reduced axes, 32- and 64-bit indexing, the split pass that writes partials, and the
// struct accumulators of var (Welford's step) and argmax (the index `_j`).
TEST(ReductionSource, VectorColumnsCompile) {
  red::spec s = sum_spec("double", 8), dot = dot_spec();
  for (dtype t : {dtype::bool_, dtype::int8, dtype::float16, dtype::float32, dtype::int64, dtype::float64}) {
    for (int shape = 0; shape < 3; ++shape) {
      red::test_variant v;
      v.in_storage = t;
      v.out_storage = dtype::float64;
      v.vec = true;
      v.rows = false;
      v.kept_ndim = shape == 2 ? 3 : 1;
      v.red_ndim = shape == 1 ? 2 : 1;
      v.index64 = shape == 1;
      v.partial_out = shape == 2;
      std::string what = std::string(name(t)) + " shape " + std::to_string(shape);
      std::string src = red::source_for_test(s, v);
      EXPECT_NE(src.find("uint4"), std::string::npos) << what;
      EXPECT_NE(src.find("acc_t acc[" + std::to_string(16 / itemsize(t)) + "]"), std::string::npos) << what;
      compile_ok("vector columns " + what, src);
      v.extra_storage = {t};
      compile_ok("vector columns, two inputs, " + what, red::source_for_test(dot, v));
    }
  }
  red::test_variant f;
  f.vec = true;
  f.rows = false;
  f.in_storage = dtype::float32;
  f.out_storage = dtype::float32;
  compile_ok("vector columns var",
             red::source_for_test(detail::var_onepass_spec(dtype::float32, dtype::float32, false), f));
  f.partial_out = true;
  compile_ok("vector columns var partials",
             red::source_for_test(detail::var_onepass_spec(dtype::float32, dtype::float32, false), f));
  f.partial_out = false;
  f.in_storage = dtype::complex64;
  f.out_storage = dtype::int64;
  compile_ok("vector columns argmax", red::source_for_test(argmax_spec(), f));
}

TEST(ReductionSource, StructAccumulatorsExtraInputsAndPerOutputOperands) {
  red::test_variant t;
  t.in_storage = dtype::complex64;
  t.out_storage = dtype::int64;
  compile_ok("argmax complex", red::source_for_test(argmax_spec(), t));
  t.partial_out = true;
  compile_ok("argmax partial", red::source_for_test(argmax_spec(), t));

  red::spec var = sum_spec("double", 8);
  var.name = "var";
  var.in_compute = "double";
  var.map = "{ const double d = x - ca_cast<double>(mu); m = d * d; }";
  var.post = "{ double n = (double)_n - p0; y = sqrt(a / (n > 0 ? n : 0)); }";
  red::test_variant v;
  v.in_storage = dtype::int16;
  v.out_storage = dtype::float64;
  v.per_output = true;
  v.per_output_type = dtype::float64;
  v.kept_ndim = 2;
  compile_ok("var", red::source_for_test(var, v));

  red::spec dot = sum_spec("double", 8);
  dot.name = "dot";
  dot.extra_compute = {"double"};
  dot.map = "m = x * x1;";
  red::test_variant d;
  d.in_storage = dtype::float32;
  d.extra_storage = {dtype::int8};
  d.out_storage = dtype::float64;
  d.mask = true;
  d.red_ndim = 2;
  compile_ok("two inputs and a mask", red::source_for_test(dot, d));

  red::spec seq = sum_spec("float", 4);
  seq.name = "subtract";
  seq.combine = "r = a - b;";
  seq.sequential = true;
  red::test_variant q;
  q.mask = true;
  compile_ok("sequential", red::source_for_test(seq, q));
}

// The one-pass var/std (Chan merge of (count, mean, M2) structs) and the one-pass 2-norm, as the operations
// build them, for each accumulation class: float16/float32 in float32, float64 and int32 in float64, complex64
// with a complex mean; both thread mappings and the split passes (partials stored raw as acc_bytes).
TEST(ReductionSource, OnePassVarAndNormCompile) {
  struct io {
    dtype in, acc, out;
  };
  for (io c : {io{dtype::float16, dtype::float32, dtype::float16}, io{dtype::float32, dtype::float32, dtype::float32},
               io{dtype::float64, dtype::float64, dtype::float64}, io{dtype::int32, dtype::float64, dtype::float64},
               io{dtype::complex64, dtype::complex64, dtype::float32}}) {
    for (bool root : {false, true}) {
      red::spec s = detail::var_onepass_spec(c.acc, c.out, root);
      for (bool rows : {true, false}) {
        red::test_variant t;
        t.in_storage = c.in;
        t.out_storage = c.out;
        t.rows = rows;
        t.kept_ndim = rows ? 1 : 2;
        compile_ok(std::string(root ? "std " : "var ") + std::string(name(c.in)) + (rows ? " rows" : " columns"),
                   red::source_for_test(s, t));
      }
      red::test_variant p;
      p.in_storage = c.in;
      p.partial_out = true;
      compile_ok("var partial out " + std::string(name(c.in)), red::source_for_test(s, p));
      p.partial_out = false;
      p.partial_in = true;
      p.out_storage = c.out;
      compile_ok("var partial in " + std::string(name(c.in)), red::source_for_test(s, p));
    }
    red::spec n = detail::sumsq_root_spec(c.in);
    EXPECT_EQ(detail::sumsq_root_type(c.in), c.in == dtype::int32 ? dtype::float64 : c.out);
    red::test_variant t;
    t.in_storage = c.in;
    t.out_storage = detail::sumsq_root_type(c.in);
    t.red_ndim = 2;
    compile_ok("norm " + std::string(name(c.in)), red::source_for_test(n, t));
  }
}
