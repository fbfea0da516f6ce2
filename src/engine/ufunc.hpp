// Universal functions: NumPy's loop tables, type resolution (NEP 50), and calls through the elementwise engine.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

/// One typed loop of a ufunc: signature ("ff->f") and the body computing out0.. from in0...
struct ufunc_loop {
  std::string types;
  std::string body;
  std::vector<dtype> in, out;
};

/// A ufunc as NumPy defines it: its loops in NumPy's order (the first loop that fits wins).
struct ufunc_def {
  std::string name;
  int nin = 0, nout = 0;
  std::string identity;  ///< "0", "1", "-1", "inf", "-inf", or "" for none
  std::vector<ufunc_loop> loops;
  /// Note [loop cache]: the loop picked for each combination of effective input dtypes (nin <= 2, no
  /// dtype=), filled on first use, so a warm call resolves its loop with one load.
  std::unique_ptr<std::atomic<const ufunc_loop*>[]> loop_cache;
};

/// Every ufunc (aliases resolved), and lookup by name (aliases included); nullptr if unknown.
const std::vector<const ufunc_def*>& all_ufuncs();
const ufunc_def* find_ufunc(std::string_view name);
/// Alias names and their targets ("mod" -> "remainder").
const std::vector<std::pair<std::string, std::string>>& ufunc_aliases();

// casting, ufunc_arg, ufunc_options and call_ufunc by name are public: cuarray/ufunc.hpp.

/// The loop NumPy would pick for these arguments (with the inputs' effective dtypes); throws type_error
/// naming the ufunc and the types when none fits, overflow_error for a Python int that cannot be held.
const ufunc_loop& resolve_loop(const ufunc_def& u, const std::vector<ufunc_arg>& args, const ufunc_options& opts);

/// A ufunc argument borrowed for one call (the bindings' hot path): `arr` null means the scalar `value`.
struct ufunc_arg_ref {
  const array* arr = nullptr;
  scalar value;
  bool weak = false;
  bool big_int = false;  ///< as ufunc_arg::big_int
  bool is_scalar() const { return arr == nullptr; }
};

/// The hot path of operators and plain calls: one output, no keywords. Same result as call_ufunc.
array call_ufunc1(const ufunc_def& u, const ufunc_arg* args, int nargs);
/// The same over borrowed arguments (Note [small call]).
array call_ufunc1(const ufunc_def& u, const ufunc_arg_ref* args, int nargs);
/// The same into a given output (`out=`, in-place operators) with 'same_kind' casting and no mask: the
/// result of call_ufunc with opts.out = {out}.
void call_ufunc1_into(const ufunc_def& u, const ufunc_arg_ref* args, int nargs, const array& out);

/// The checks of call_ufunc in NumPy's order, without the call (a call with where=False checks as much):
/// the loop, and in `shape` the shape of the result.
const ufunc_loop& check_ufunc_call(const ufunc_def& u, const std::vector<ufunc_arg>& args, const ufunc_options& opts,
                                   shape_t& shape);

/// Call a ufunc: broadcasting, casting, out=, where=, scalars; returns the outputs.
std::vector<array> call_ufunc(const ufunc_def& u, const std::vector<ufunc_arg>& args, const ufunc_options& opts = {});

/// NumPy's result_type over operands with NEP 50 weak scalars (float64 when there are none): the dtype of
/// non-ufunc elementwise results such as where's, select's and choose's.
dtype nep50_result_type(const std::vector<const ufunc_arg*>& ops);

}  // namespace cuarray
