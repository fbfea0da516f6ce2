// CuPy's kernel definitions (ElementwiseKernel, ReductionKernel) parsed, checked and turned into the code the
// engines run: the one implementation behind elementwise_kernel, reduction_kernel and the Python classes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/dtype.hpp"

namespace cuarray {

/// One parameter "[raw] TYPE NAME": TYPE is a dtype name (two characters or more) or a type placeholder.
struct kernel_param {
  bool raw = false;
  std::string ctype;          ///< TYPE as written
  std::string name;           ///< NAME
  std::optional<dtype> type;  ///< the dtype TYPE names; empty for a placeholder (resolved from the arguments)
};

/// Maps a TYPE of two characters or more to its dtype: nullopt when it names no dtype (a placeholder);
/// type_error for a dtype cuarray does not support. An empty function knows parse_dtype's names; the Python
/// front end passes one that knows every name numpy.dtype() does.
using dtype_name_resolver = std::function<std::optional<dtype>(const std::string&)>;

/// Parameters from "T x, raw T y": items split at commas, blank ones skipped. value_error for a malformed
/// item, a reserved name ("i", "n", "_...") or a C++ keyword; type_error for an unsupported dtype name.
std::vector<kernel_param> parse_kernel_params(std::string_view text, const dtype_name_resolver& resolve = {});
/// The same from one item per parameter (a blank item is malformed).
std::vector<kernel_param> parse_kernel_params(std::span<const std::string> items,
                                              const dtype_name_resolver& resolve = {});

/// A checked ElementwiseKernel definition and what its code implies (Note [custom kernel definition] in
/// src/engine/custom_kernel.cpp).
struct elementwise_definition {
  std::vector<kernel_param> in, out;
  std::string operation, name, preamble, loop_prep, after_loop;
  bool no_return = false;
  std::string kernel_name;              ///< `name` with every non-word character replaced by '_' ("kernel" when empty)
  bool c_order = false;                 ///< the code reads `i` or `_ind`, or a parameter is raw: no axis reordering
  std::vector<unsigned char> assigned;  ///< per output: the operation assigns it once (no need to load it)
  std::vector<unsigned char> sized;     ///< per parameter (inputs, then outputs): a raw one whose size is read
};

/// Parses and checks a definition: value_error for no output without `no_return`, repeated names, a
/// placeholder named as a parameter or reserved; the errors of parse_kernel_params.
elementwise_definition define_elementwise(std::vector<kernel_param> in, std::vector<kernel_param> out,
                                          std::string operation, std::string name, std::string preamble = "",
                                          std::string loop_prep = "", std::string after_loop = "",
                                          bool no_return = false);

/// What a call passes for one parameter, as far as planning needs to know.
enum class kernel_arg_kind : unsigned char {
  array,       ///< a device array of dtype `type`
  scalar,      ///< a scalar whose own dtype is `type` (Python: bool, int64, float64, complex128, or a NumPy scalar's)
  none,        ///< nothing (an output to allocate)
  host_array,  ///< a host array (numpy.ndarray): refused with a hint
  other,       ///< anything else: refused
};

/// One argument of a call: its kind, its dtype and the name of its type for messages ("float", "list").
struct kernel_arg_info {
  kernel_arg_kind kind = kernel_arg_kind::none;
  dtype type = dtype::float64;
  std::string type_name;
};

/// How one kind of call runs (one per argument signature: each argument's kind and dtype), ready for the
/// elementwise engine. Engine inputs are the parameters' inputs, then the given outputs to load first
/// (`preload`), then the sizes of raw parameters (`raw_sizes`, int64 scalars).
struct elementwise_plan {
  std::string name, body, preamble, loop_prep, after_loop;  ///< the engine's kernel_spec
  bool c_order = false;
  std::vector<dtype> in_types, out_types;  ///< engine operands' computation types
  std::vector<unsigned char> in_kinds;     ///< per engine input: 'a' array, 's' scalar, 'r' raw array
  std::vector<unsigned char> out_raw;      ///< per output
  std::vector<int> preload;                ///< outputs whose given values are loaded first
  std::vector<int> raw_sizes;              ///< parameters (index over inputs then outputs) whose size is passed
  std::vector<int> shape_args;             ///< arguments whose broadcast shape is the loop shape
  std::vector<int> given_outs;             ///< shape_args that are outputs (index over all arguments)
  std::vector<int> alloc;                  ///< outputs to allocate
};

/// Checks a call's arguments (count, kinds) and resolves the placeholders CuPy's way: output arrays bind
/// first, then input arrays, then scalars; a scalar whose placeholder is bound is cast. type_error for wrong
/// arguments, mismatched or undeterminable types; value_error for too many engine operands.
elementwise_plan plan_elementwise(const elementwise_definition& def, std::span<const kernel_arg_info> args);

/// A checked ReductionKernel definition: one output, no raw parameters.
struct reduction_kernel_definition {
  std::vector<kernel_param> in, out;
  std::string map_expr, reduce_expr, post_map_expr;
  std::optional<std::string> identity;  ///< empty: no identity, each output is folded in order
  std::string name, preamble;
  std::optional<std::string> reduce_type;  ///< a placeholder or dtype name; empty: the output's type
  std::optional<dtype> reduce_dtype;       ///< reduce_type's dtype when it names no placeholder
  std::string reduce_type_error;           ///< why reduce_type names no dtype (raised by a call)
  std::string kernel_name;                 ///< `name` with every non-word character replaced by '_'
};

/// Checks a definition: value_error for other than one output, a raw parameter, repeated names, no input.
/// `resolve` reads `reduce_type` when it names no placeholder.
reduction_kernel_definition define_reduction_kernel(std::vector<kernel_param> in, std::vector<kernel_param> out,
                                                    std::string map_expr, std::string reduce_expr,
                                                    std::string post_map_expr, std::optional<std::string> identity,
                                                    std::string name = "reduce_kernel",
                                                    std::optional<std::string> reduce_type = std::nullopt,
                                                    std::string preamble = "", const dtype_name_resolver& resolve = {});

/// How one call of a reduction kernel runs: the reduction engine's code and types (Note [reduction kernels] in
/// src/engine/reduction.cpp names the variables the fragments use).
struct reduction_kernel_plan {
  std::string name, preamble, acc, out_compute, map, combine, post, identity;
  std::vector<std::string> in_compute;  ///< per input, the type it is loaded as
  std::vector<dtype> in_types;          ///< per input, the dtype a scalar input is made into
  dtype out_type = dtype::float64, acc_type = dtype::float64;
  std::size_t acc_bytes = 0;
  bool sequential = false;
  bool out_positional = false;  ///< the last positional argument is the output
};

/// Checks a call (the inputs, optionally followed by the output; `out` is the out= argument, of kind none when
/// absent) and resolves its types: input arrays bind placeholders first (the first one wins, later ones are
/// cast), then scalars, then the output array. type_error for wrong arguments, an undeterminable output
/// type or an unknown reduce_type; value_error for an output given twice.
reduction_kernel_plan plan_reduction_kernel(const reduction_kernel_definition& def,
                                            std::span<const kernel_arg_info> args, const kernel_arg_info& out);

/// Representation of a string as Python's repr() writes it, for messages that quote user text.
std::string python_repr(std::string_view s);

}  // namespace cuarray
