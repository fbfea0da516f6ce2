// CI without a GPU: the reduction generator's paths (row, column and sequential mappings, split passes, masks,
// extra inputs, per-output operands, struct accumulators, 32/64-bit indexing) compile with NVRTC.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/engine/kernel.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/reduction.hpp"
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
