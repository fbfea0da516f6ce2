// NVRTC loaded with dlopen on first use (no GPU needed): its function table, version and path.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace cuarray::jit {

// nvrtc.h is not included so that cuarray builds where only the driver is installed: nvrtcResult is an
// enum (int-sized) and nvrtcProgram an opaque pointer.
using nvrtc_result = int;
using nvrtc_program = void*;
constexpr nvrtc_result nvrtc_success = 0;

/// The NVRTC functions cuarray calls, resolved from the loaded library.
struct nvrtc_api {
  void* handle = nullptr;
  std::string path;
  std::string load_error;  ///< why loading failed; empty when it succeeded

  nvrtc_result (*version)(int*, int*) = nullptr;
  nvrtc_result (*create_program)(nvrtc_program*, const char*, const char*, int, const char* const*,
                                 const char* const*) = nullptr;
  nvrtc_result (*compile_program)(nvrtc_program, int, const char* const*) = nullptr;
  nvrtc_result (*destroy_program)(nvrtc_program*) = nullptr;
  nvrtc_result (*get_program_log_size)(nvrtc_program, std::size_t*) = nullptr;
  nvrtc_result (*get_program_log)(nvrtc_program, char*) = nullptr;
  nvrtc_result (*get_cubin_size)(nvrtc_program, std::size_t*) = nullptr;
  nvrtc_result (*get_cubin)(nvrtc_program, char*) = nullptr;
  nvrtc_result (*get_ptx_size)(nvrtc_program, std::size_t*) = nullptr;
  nvrtc_result (*get_ptx)(nvrtc_program, char*) = nullptr;
  nvrtc_result (*add_name_expression)(nvrtc_program, const char*) = nullptr;
  nvrtc_result (*get_lowered_name)(nvrtc_program, const char*, const char**) = nullptr;
  const char* (*get_error_string)(nvrtc_result) = nullptr;
};

/// The loaded NVRTC (loaded once); throws cuda_error (status -1) naming every place searched when NVRTC
/// cannot be found.
const nvrtc_api& nvrtc();

/// NVRTC's name for `r`, or "NVRTC error <r>".
std::string nvrtc_error_name(const nvrtc_api& a, nvrtc_result r);

/// Throws cuda_error (status -1) for a failed NVRTC call, naming the call.
void nvrtc_check(const nvrtc_api& a, nvrtc_result r, const char* call);

/// NVRTC's version (major, minor); loads the library on first use. Throws cuda_error (status -1) naming
/// every place searched when NVRTC cannot be found.
std::pair<int, int> nvrtc_version();

/// Path of the loaded libnvrtc (for `python -m cuarray`); loads the library like nvrtc_version().
std::string nvrtc_path();

}  // namespace cuarray::jit
