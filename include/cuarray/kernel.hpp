// User CUDA code: raw modules and kernels (NVRTC source or compiled files) and elementwise kernels from a body.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/custom_kernel.hpp"
#include "cuarray/stream.hpp"
#include "cuarray/ufunc.hpp"

struct CUfunc_st;

namespace cuarray {

class raw_kernel;

namespace detail {
struct raw_module_state;
struct raw_kernel_state;
struct elementwise_state;
struct reduction_kernel_state;
}  // namespace detail

/// Grid or block extents of a launch; a single number is (x, 1, 1).
struct kernel_dim {
  unsigned x = 1, y = 1, z = 1;
  constexpr kernel_dim() = default;
  constexpr kernel_dim(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

/// One kernel argument: the address of its bytes and their count (checked against the kernel's parameter).
struct kernel_arg {
  const void* ptr = nullptr;
  std::size_t size = 0;
  /// The bytes of a trivially copyable value, which must outlive the launch call.
  template <class T> static kernel_arg of(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>, "a kernel argument must be trivially copyable");
    return kernel_arg{&v, sizeof(T)};
  }
};

/// Launch settings besides grid and block.
struct launch_options {
  unsigned shared_mem = 0;           ///< dynamic shared memory in bytes
  std::optional<stream_ref> stream;  ///< default: the current stream of the current device
};

/// cuFuncGetAttribute values of a kernel on the current device.
struct kernel_attributes {
  int max_threads_per_block = 0, shared_size_bytes = 0, const_size_bytes = 0, local_size_bytes = 0, num_regs = 0,
      ptx_version = 0, binary_version = 0, max_dynamic_shared_size_bytes = 0, preferred_shared_memory_carveout = 0;
};

/// A CUDA module: C++ source compiled by NVRTC (per device architecture, on first use, through the kernel
/// cache), or a .cubin/.ptx/.fatbin image. Copies share the module; it is unloaded with the last copy and
/// the last kernel taken from it.
class raw_module {
public:
  raw_module() = default;
  /// Source with NVRTC options ("-std=c++20", "-DN=4") and name expressions ("f<float>") to lower.
  static raw_module from_source(std::string code, std::vector<std::string> options = {},
                                std::vector<std::string> name_expressions = {}, bool enable_cooperative_groups = false);
  /// A compiled file (.cubin, .ptx or .fatbin); value_error when it cannot be read.
  static raw_module from_file(const std::string& path, bool enable_cooperative_groups = false);
  /// A compiled image in memory (cubin, fatbin or PTX text).
  static raw_module from_image(std::string image, bool enable_cooperative_groups = false);

  /// The kernel `name`: an extern "C" name, or one of the name expressions.
  raw_kernel get_function(const std::string& name) const;
  /// Device address and size in bytes of a __device__ or __constant__ variable, on the current device.
  std::pair<void*, std::size_t> get_global(const std::string& name) const;
  /// Compile and load on the current device now (errors show here instead of at the first launch).
  void compile() const;
  /// NVRTC's lowered (mangled) name of a name expression; `name` itself otherwise.
  std::string lowered_name(const std::string& name) const;

  const std::string& code() const;  ///< the source; empty for an image
  const std::vector<std::string>& options() const;
  const std::vector<std::string>& name_expressions() const;
  bool defined() const { return static_cast<bool>(state_); }

private:
  explicit raw_module(std::shared_ptr<detail::raw_module_state> s) : state_(std::move(s)) {}
  std::shared_ptr<detail::raw_module_state> state_;
  friend class raw_kernel;
};

namespace detail {
/// How a variadic kernel argument is passed: arrays by their data pointer, anything else by its bytes.
template <class T> struct kernel_param {
  static_assert(std::is_trivially_copyable_v<T>, "a kernel argument must be an array or trivially copyable");
  static const void* address(const T& v, void*&) { return &v; }
  static constexpr std::size_t size = sizeof(T);
};
template <> struct kernel_param<array> {
  static const void* address(const array& a, void*& slot) {
    slot = a.data();
    return &slot;
  }
  static constexpr std::size_t size = sizeof(void*);
};
}  // namespace detail

/// A kernel of a raw module; the CUfunction is looked up once per device.
class raw_kernel {
public:
  raw_kernel() = default;
  /// Kernel `name` of `code`, compiled by NVRTC with `options` on first use.
  raw_kernel(std::string code, std::string name, std::vector<std::string> options = {},
             bool enable_cooperative_groups = false);
  /// Kernel `name` of a module.
  raw_kernel(const raw_module& module, std::string name);

  /// Launch with each argument as (address, size); value_error when the count or a size does not fit the
  /// kernel's parameters (where the driver can tell them).
  void launch(kernel_dim grid, kernel_dim block, std::span<const kernel_arg> args,
              const launch_options& options = {}) const;
  void launch(kernel_dim grid, kernel_dim block, std::initializer_list<kernel_arg> args,
              const launch_options& options = {}) const {
    launch(grid, block, std::span<const kernel_arg>(args.begin(), args.size()), options);
  }
  /// Launch with `params` as cuLaunchKernel takes them, `sizes[k]` bytes readable at params[k] (nullptr:
  /// unchecked); `stream` null means the legacy default stream.
  void launch_params(kernel_dim grid, kernel_dim block, void** params, const std::size_t* sizes, std::size_t count,
                     unsigned shared_mem, stream_ref stream) const;

  /// `k(grid, block, x, y, n)`: arrays pass their data pointer, other values their bytes; current stream.
  template <class... A> void operator()(kernel_dim grid, kernel_dim block, const A&... args) const {
    call(grid, block, launch_options{}, args...);
  }
  /// Same with shared memory and stream.
  template <class... A>
  void operator()(kernel_dim grid, kernel_dim block, const launch_options& options, const A&... args) const {
    call(grid, block, options, args...);
  }

  /// Compile and load on the current device now.
  void compile() const;
  /// The CUfunction on the current device (compiled and loaded on first use).
  CUfunc_st* handle() const;
  /// cuFuncGetAttribute(attribute) on the current device (a CUfunction_attribute value).
  int attribute(int attribute) const;
  /// cuFuncSetAttribute on the current device.
  void set_attribute(int attribute, int value) const;
  kernel_attributes attributes() const;
  int max_dynamic_shared_size_bytes() const;
  void set_max_dynamic_shared_size_bytes(int bytes) const;
  int preferred_shared_memory_carveout() const;
  void set_preferred_shared_memory_carveout(int percent) const;

  const std::string& name() const;
  raw_module module() const;
  bool cooperative() const;
  bool defined() const { return static_cast<bool>(state_); }

private:
  template <class... A>
  void call(kernel_dim grid, kernel_dim block, const launch_options& options, const A&... args) const {
    constexpr std::size_t n = sizeof...(A);
    void* slots[n > 0 ? n : 1];
    void* params[n > 0 ? n : 1];
    const std::size_t sizes[n > 0 ? n : 1] = {detail::kernel_param<A>::size...};
    std::size_t k = 0;
    ((params[k] = const_cast<void*>(detail::kernel_param<A>::address(args, slots[k])), ++k), ...);
    launch_params(grid, block, params, sizes, n, options.shared_mem,
                  options.stream ? *options.stream : current_stream());
  }
  std::shared_ptr<detail::raw_kernel_state> state_;
};

/// Extra arguments of an elementwise kernel call.
struct elementwise_options {
  std::optional<std::int64_t> size;  ///< loop size when no non-raw array argument gives the shape
  std::optional<stream_ref> stream;  ///< default: the current stream
};

/// CuPy's ElementwiseKernel: `elementwise_kernel k("T x, T y", "T z", "z = x + y", "add")`. Parameters are
/// "[raw] TYPE NAME"; TYPE is a dtype name (float32, int64...) or a placeholder (T, U...) taken from the
/// arguments. Non-raw parameters are broadcast and read element by element; raw ones are passed whole
/// (C-contiguous) and indexed; `i` is the C-order index of the element and `_ind.size()` the loop size.
class elementwise_kernel {
public:
  elementwise_kernel(std::string in_params, std::string out_params, std::string operation, std::string name = "kernel",
                     std::string preamble = "", std::string loop_prep = "", std::string after_loop = "");

  /// Call with the inputs (arrays or scalars), optionally followed by the outputs (arrays); outputs not
  /// given are allocated with the broadcast shape. Returns the outputs.
  std::vector<array> call(const std::vector<ufunc_arg>& args, const elementwise_options& options = {}) const;
  /// `k(x, y)` for a kernel with one output: returns it.
  template <class... A> array operator()(const A&... args) const {
    return single(call(std::vector<ufunc_arg>{ufunc_arg(args)...}));
  }

  int nin() const;
  int nout() const;
  const std::string& name() const;

private:
  array single(std::vector<array> outs) const;
  std::shared_ptr<const detail::elementwise_state> state_;
};

/// Extra arguments of a reduction kernel call.
struct reduction_kernel_options {
  std::optional<std::vector<int>> axis;  ///< default: every axis
  bool keepdims = false;
  array out;                         ///< optional: the result is written into it (its shape must match)
  std::optional<stream_ref> stream;  ///< default: the current stream
};

/// CuPy's ReductionKernel: `reduction_kernel k("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")`.
/// `map_expr` maps each input element (the input parameters by name) to the reduction type, `reduce_expr`
/// combines two mapped values `a` and `b` and must be associative (no `identity` folds each output in order
/// instead of in a tree), `post_map_expr` assigns the output parameter from the reduced value `a`.
class reduction_kernel {
public:
  reduction_kernel(std::string in_params, std::string out_params, std::string map_expr, std::string reduce_expr,
                   std::string post_map_expr, std::optional<std::string> identity, std::string name = "reduce_kernel",
                   std::optional<std::string> reduce_type = std::nullopt, std::string preamble = "");
  /// A kernel of a definition made by define_reduction_kernel.
  explicit reduction_kernel(reduction_kernel_definition definition);

  /// Call with the inputs (arrays or scalars, broadcast together), optionally followed by the output.
  array call(const std::vector<ufunc_arg>& args, const reduction_kernel_options& options = {}) const;
  /// `k(x, y)`: over every axis.
  template <class... A> array operator()(const A&... args) const {
    return call(std::vector<ufunc_arg>{ufunc_arg(args)...});
  }
  /// `k(a)` of a one-input kernel: `a` reduced over every axis, the same as call({a}), with no argument list built
  /// once a call of a's dtype has been planned (the warm path of short inputs is one launch).
  array operator()(const array& a) const { return reduce_all(a); }
  array reduce_all(const array& a) const;

  int nin() const;
  const std::string& name() const;
  const reduction_kernel_definition& definition() const;

private:
  std::shared_ptr<const detail::reduction_kernel_state> state_;
};

}  // namespace cuarray
