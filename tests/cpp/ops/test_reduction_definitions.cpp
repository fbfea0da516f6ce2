// CI without a GPU: the built-in reduction definitions that fuse borrows (cuarray::builtin_reduction) keep NumPy's
// dtypes, and compile with NVRTC in the engine's generator, also behind fuse's rebinding of the element `x`.
#include <gtest/gtest.h>

#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/reduction.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;

namespace {

std::string cname(dtype t) { return t == dtype::float16 ? "float" : ew::type_name(t); }

}  // namespace

TEST(ReductionDefinitions, DtypesAreNumPys) {
  EXPECT_EQ(builtin_reduction("sum", dtype::int8).result, dtype::int64);
  EXPECT_EQ(builtin_reduction("prod", dtype::uint16).result, dtype::uint64);
  EXPECT_EQ(builtin_reduction("sum", dtype::bool_).result, dtype::int64);
  EXPECT_EQ(builtin_reduction("sum", dtype::float16).accumulator, dtype::float32);
  EXPECT_EQ(builtin_reduction("sum", dtype::float16).result, dtype::float16);
  EXPECT_EQ(builtin_reduction("max", dtype::int8).result, dtype::int8);
  EXPECT_EQ(builtin_reduction("any", dtype::complex64).result, dtype::bool_);
  EXPECT_EQ(builtin_reduction("sum", dtype::int8, dtype::bool_).combine, "r = a || b;");
  EXPECT_EQ(builtin_reduction("min", dtype::uint32).identity, "4294967295u");
  EXPECT_THROW(builtin_reduction("mean", dtype::float32), value_error);
}

TEST(ReductionDefinitions, CompileInTheEngineAndBehindFusesMap) {
  for (const char* op : {"sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin", "any", "all"}) {
    for (dtype in : {dtype::bool_, dtype::int8, dtype::float16, dtype::complex128}) {
      reduction_definition d = builtin_reduction(op, in);
      red::spec s;
      s.name = op;
      s.acc = cname(d.accumulator);
      s.in_compute = cname(in);
      s.out_compute = cname(d.result);
      // As fuse writes it (python/cuarray/_fusion.py, _reduction_code): a traced value, then the element map.
      s.map = "const " + cname(in) + " in0 = x; " + cname(in) + " out0; { out0 = in0; } { const " + cname(in) +
              " x = out0; " + d.map + " }";
      s.combine = d.combine;
      s.identity = d.identity;
      s.acc_bytes = itemsize(d.accumulator);
      red::test_variant t;
      t.in_storage = in;
      t.out_storage = d.result;
      test::expect_compiles(std::string(op) + " of " + std::string(name(in)), red::source_for_test(s, t), "fused.cu");
    }
  }
}
