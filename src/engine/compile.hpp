// Run-time compilation of CUDA C++ with NVRTC (loaded by src/cuda/nvrtc.hpp on first use; no GPU needed).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "src/cuda/nvrtc.hpp"

namespace cuarray::jit {

/// What a successful compilation produced.
struct compile_result {
  std::string cubin;                       ///< the binary (or PTX text when `ptx` was asked)
  std::vector<std::string> lowered_names;  ///< one per name expression, in order
  std::string log;                         ///< NVRTC's log (warnings), possibly empty
};

/// One kernel to compile.
struct compile_request {
  std::string source;
  std::string name = "kernel.cu";                            ///< file name shown in errors
  std::vector<std::string> options;                          ///< extra options, e.g. "-std=c++20", "-DX=1"
  std::vector<std::pair<std::string, std::string>> headers;  ///< (include name, contents)
  std::vector<std::string> name_expressions;                 ///< e.g. "my_kernel<float>"
  int arch = 0;                                              ///< compute capability as 90, 80...; adds -arch
  bool ptx = false;                                          ///< emit PTX (compute_XX) instead of a cubin
};

/// The options NVRTC is given for `req`: "-std=c++17" unless `req.options` names a standard, then
/// "-arch=sm_XX" (compute_XX for PTX) when arch > 0, then `req.options`.
std::vector<std::string> effective_options(const compile_request& req);

/// Compile; throws compile_error with the log on failure, value_error when a cubin was asked for a
/// virtual architecture only (arch 0 and no -arch=sm_XX), cuda_error when NVRTC is missing or fails.
compile_result compile(const compile_request& req);

}  // namespace cuarray::jit
