// Exception types of the C++ API; the Python bindings map each to NumPy's / CuPy's Python type.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuarray {

/// Bad argument value (Python: ValueError).
struct value_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Bad argument type or dtype (Python: TypeError).
struct type_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Index out of range or malformed index (Python: IndexError).
struct index_error : std::out_of_range {
  using std::out_of_range::out_of_range;
};

/// A value does not fit the dtype it must take (Python: OverflowError).
struct overflow_error : std::overflow_error {
  using std::overflow_error::overflow_error;
};

/// Axis out of range (Python: numpy.exceptions.AxisError).
struct axis_error : std::out_of_range {
  using std::out_of_range::out_of_range;
};

/// A CUDA runtime or driver call failed (Python: cuarray.cuda.runtime.CUDARuntimeError).
struct cuda_error : std::runtime_error {
  cuda_error(int status, const std::string& what) : std::runtime_error(what), status(status) {}
  int status;  ///< cudaError_t value, or -1 for errors detected by cuarray itself
};

/// No usable CUDA driver or device (Python: cuarray.cuda.runtime.CUDARuntimeError subclass).
struct no_device_error : cuda_error {
  using cuda_error::cuda_error;
};

/// An implicit synchronisation while allow_synchronize(false) is in force on the thread
/// (Python: cuarray.DeviceSynchronized).
struct device_synchronized_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The memory pool could not satisfy a request (Python: cuarray.cuda.memory.OutOfMemoryError).
struct out_of_memory_error : std::runtime_error {
  out_of_memory_error(std::size_t requested, std::size_t used, std::size_t total, std::size_t limit);
  std::size_t requested, used, total, limit;  ///< bytes; limit 0 means none
};

/// NVRTC rejected a kernel (Python: cuarray.cuda.compiler.CompileException).
/// what() holds `what`, the kernel name, the NVRTC log and the offending source lines with line numbers.
struct compile_error : std::runtime_error {
  compile_error(const std::string& what, std::string log, std::string source, std::vector<std::string> options,
                std::string name);
  std::string log, source, name;     ///< NVRTC's log, the kernel's source and its file name
  std::vector<std::string> options;  ///< the options NVRTC was given
};

}  // namespace cuarray
