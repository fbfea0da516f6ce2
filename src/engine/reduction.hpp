// The reduction kernel generator: a map, an associative combine and a post step over any set of axes.
#pragma once

#include <string>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {
struct reduction_kernel_plan;
}

namespace cuarray::red {

/// What a reduction computes (Note [reduction kernels] in reduction.cpp). Code fragments are statements:
/// `map` sets `m` (acc_t) from `x` (in_t), `_j` (the element's C-order index in the reduced axes) and, with a
/// per-output operand, `mu`; `combine` sets `r` from `a` and `b`; `post` sets `y` (out_t) from `a`, `_n` (the
/// number of reduced elements) and `p0` (a double parameter). `acc` is a C++ type name (a struct is allowed:
/// define it in `preamble`) and `identity` an expression of that type.
struct spec {
  std::string name;
  std::string preamble;
  std::string acc;                         ///< accumulator type name
  std::string in_compute;                  ///< type the input is loaded as (`x`)
  std::vector<std::string> extra_compute;  ///< types of further inputs (`x1`, `x2`, ...), same shape as `in`
  std::string out_compute;                 ///< type of `y`
  std::string map = "m = x;";
  std::string combine;
  /// Optional: a statement that folds one element into `a` (acc_t&), reading what `map` reads; it must equal
  /// `a = combine(a, map(...))` up to rounding. The element loops use it (Note [element fold] in
  /// reduction.cpp); empty means exactly that map and combine.
  std::string fold;
  std::string post = "y = a;";
  std::string identity;
  std::size_t acc_bytes = 0;  ///< sizeof(acc_t) on the device (partials are stored raw)
  bool sequential = false;    ///< the combine is not associative: one thread folds each output in order
  /// Optional: stands for every field above in the kernel cache (Note [reduction key] in reduction.cpp),
  /// so a warm call hashes none of the texts. Take it from intern() and change no field afterwards.
  const void* id = nullptr;
};

/// A stable id for the spec's fields (equal fields, equal id), for specs kept and reused across calls.
const void* intern(const spec& s);

/// The spec of a planned ReductionKernel call (src/engine/custom_kernel.cpp), its id not yet interned.
spec spec_of(const reduction_kernel_plan& p);

/// Everything one call needs beyond the spec.
struct call {
  array in;                  ///< input (any layout)
  std::vector<array> extra;  ///< further inputs of in's shape (broadcast views are fine), one per extra_compute
  std::vector<int> axes;     ///< normalised, sorted, unique
  dtype out_type;            ///< storage dtype of the result
  array mask;                ///< optional bool mask broadcast to `in`'s shape
  array per_output;          ///< optional operand read at each output (C-contiguous over the kept axes), `mu`
  double p0 = 0;
  /// Optional: the result is written here instead of a new array where it has the result's shape and
  /// out_type, is C-contiguous on the current device and shares no memory with any operand; else ignored.
  array out;
};

/// Runs the reduction; the result is c.out where it was used, else a new C-contiguous array over the kept
/// axes (no keepdims).
array run(const spec& s, const call& c);

/// run() of the reduction of every axis of `in` (no extra input, mask or per-output operand, p0 = 0) where it
/// is one launch of the short-array path (Note [small full reduction]): sets `result`, a new 0-d array, and
/// returns true; false (nothing done) where run() must plan it. The warm a.sum() then builds no call.
bool run_full(const spec& s, const array& in, dtype out_type, array& result);

/// Generated source of one variant, for the CI test that compiles the generator's paths with NVRTC.
struct test_variant {
  dtype in_storage = dtype::float32, out_storage = dtype::float32;
  std::vector<dtype> extra_storage;
  bool rows = true;
  int group = 32;
  int kept_ndim = 1, red_ndim = 1;
  bool index64 = false, mask = false, partial_out = false, partial_in = false;
  bool vec = false;     ///< rows: Note [vector rows], one reduced axis, no mask; columns: Note [vector columns]
  bool stream = false;  ///< vector rows loaded evict-first (Note [streaming loads] in reduction.cpp)
  bool per_output = false;
  dtype per_output_type = dtype::float64;
};
std::string source_for_test(const spec& s, const test_variant& t);
/// The kernel-cache key of that variant on `device`, as bytes: for the test that every input of the
/// generator reaches the key.
std::string key_for_test(const spec& s, const test_variant& t, int device);

}  // namespace cuarray::red
