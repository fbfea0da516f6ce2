// The elementwise engine: generates, compiles, caches and launches kernels for `out = f(in...)`.
#pragma once

#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray::ew {

/// What a kernel computes: a body over variables in0.., out0.. of the computation types, plus code placed
/// before the kernel. `id` identifies (body, preamble) in the kernel cache: equal ids must mean equal code.
/// The strings are views: they must outlive the run() call that uses the spec (the hot path copies nothing).
struct kernel_spec {
  const void* id = nullptr;
  std::string_view name;
  std::string_view body;
  std::string_view preamble;
  std::string_view loop_prep;   ///< code before the loop (ElementwiseKernel's loop_prep)
  std::string_view after_loop;  ///< code after it
  /// Keep C order (no axis reordering, no vectorisation): the body reads `i`, the flat index of the
  /// broadcast shape in C order, or indexes raw operands.
  bool c_order_index = false;
  /// Run on the current device even where an output lives on another, written over peer access: a ufunc call
  /// with a caller's `out=` (CuPy's rule; Note [peer operands] in src/cuda/runtime.cpp). Off: the first
  /// output's device runs it.
  bool on_current_device = false;
};

/// One operand: an array (read or written, cast on load/store between its dtype and `compute`), or a
/// scalar passed to the kernel by value (already of the computation type).
struct operand {
  array arr;
  scalar value;
  dtype compute = dtype::float64;
  bool raw = false;  ///< passed whole: the body indexes it as rawK[j] (C-contiguous, flat index)
  bool is_scalar() const { return !arr.defined(); }
  static operand of(array a, dtype compute) { return operand{std::move(a), scalar{}, compute, false}; }
  static operand of_raw(array a, dtype compute) { return operand{std::move(a), scalar{}, compute, true}; }
  static operand of_scalar(const scalar& v, dtype compute) { return operand{array{}, v.cast(compute), compute, false}; }
};

/// An operand by reference (the hot path): the array and the scalar's bytes belong to the caller and must
/// outlive the run() call. `arr` null means a scalar of type `compute`, whose 16 bytes `value` points at.
struct operand_ref {
  const array* arr = nullptr;
  const unsigned char* value = nullptr;
  dtype compute = dtype::float64;
  bool raw = false;
  bool is_scalar() const { return arr == nullptr; }
};

/// Up to N arrays made during a call (broadcast views, contiguous copies), constructed only when added: the
/// hot path makes none, and default-constructing a dozen arrays on every call would cost more than the rest
/// of the bookkeeping. Pointers returned by add() stay valid for the holder's lifetime.
template <int N> struct array_slots {
  alignas(array) unsigned char bytes[N][sizeof(array)];
  int count = 0;
  array_slots() = default;
  array_slots(const array_slots&) = delete;
  array_slots& operator=(const array_slots&) = delete;
  const array* add(array a) { return new (bytes[count++]) array(std::move(a)); }
  ~array_slots() {
    for (int k = 0; k < count; ++k) std::launder(reinterpret_cast<array*>(bytes[k]))->~array();
  }
};

/// Run `spec` over `shape`: inputs broadcast to it, outputs must have exactly this shape. `where`, when
/// defined, is a bool array (broadcast) selecting the elements to compute; the others are left untouched.
/// Runs on the current stream of the outputs' device.
void run(const kernel_spec& spec, const std::vector<operand>& inputs, const std::vector<operand>& outputs,
         const shape_t& shape, const array& where = array());
/// The same over plain arrays of operands.
void run(const kernel_spec& spec, const operand* inputs, int nin, const operand* outputs, int nout,
         const shape_t& shape, const array& where);
/// The same over operands by reference (the hot path: nothing is copied or allocated); `where` may be null.
void run(const kernel_spec& spec, const operand_ref* inputs, int nin, const operand_ref* outputs, int nout,
         const shape_t& shape, const array* where);

/// What the kernel cache specialises on for one operand (Note [elementwise specialisation]).
struct operand_layout {
  dtype storage = dtype::float64, compute = dtype::float64;
  bool scalar = false, raw = false;
};

/// The CUDA source the engine generates for `spec` with these operands: `ndim` merged dimensions (0: the
/// flat loop), 64-bit indexing, a `where` mask, the vectorised flat loop, the strided run loop (`runs`, for
/// ndim >= 2: Note [strided runs] in elementwise.cpp). For tests: CI compiles every built-in variant with
/// NVRTC. The kernel is named `kernel_name`.
std::string kernel_source(const kernel_spec& spec, const std::vector<operand_layout>& inputs,
                          const std::vector<operand_layout>& outputs, int ndim, bool index64, bool where,
                          bool vectorized, const std::string& kernel_name, bool runs = false);

/// A stable id for a spec's code (equal code, equal id), for specs that are built at run time.
const void* intern(const kernel_spec& spec);

/// C++ type name of a dtype's computation type in generated code ("float", "ca_half", "ca_complex64").
const char* type_name(dtype t);

/// The headers every generated kernel may include, as (name, contents).
const std::vector<std::pair<std::string, std::string>>& jit_headers();

/// Kernel cache statistics (in-memory lookups of ready functions).
struct stats {
  std::size_t hits = 0, misses = 0;
};
stats get_stats();

}  // namespace cuarray::ew
