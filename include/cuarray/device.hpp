// Devices: count, per-thread current device, properties, and the guard that makes a device active.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace cuarray {

/// Number of CUDA devices; 0 when there is no driver or no device (never throws).
int device_count();

/// Whether a CUDA device can be used.
bool is_available();

/// Throws no_device_error with a clear message when no CUDA device can be used.
void require_device();

/// The calling thread's current device (0 until set).
int current_device();

/// Make `id` the calling thread's current device; throws cuda_error for an invalid id.
void set_current_device(int id);

/// Make `id` the device the CUDA runtime uses on this thread, if it is not already (cached per thread).
void activate_device(int id);

/// Restores the calling thread's current device on scope exit.
class device_guard {
public:
  explicit device_guard(int id) : previous_(current_device()) { set_current_device(id); }
  ~device_guard() { set_current_device(previous_); }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

private:
  int previous_;
};

/// CuPy's rule for an operand on another device (Note [peer operands] in src/cuda/runtime.cpp): make memory of
/// device `other` readable from device `current` (cudaDeviceEnablePeerAccess) and report it through
/// peer_access_warning_hook, or throw value_error with CuPy's message when the devices cannot reach each
/// other. Does nothing when `current == other`.
void require_peer_access(int current, int other);

/// CuPy's message for an operand on device `array_device` under device `current`: the PerformanceWarning's
/// (`available`) or the ValueError's.
std::string peer_access_message(int array_device, int current, bool available);

/// Called by require_peer_access each time an operand of another device is used (CuPy warns
/// PerformanceWarning then); null by default. The Python binding sets it; it may throw.
extern void (*peer_access_warning_hook)(int array_device, int current_device);

/// Compute capability as NumPy-free text, e.g. "90".
std::string compute_capability(int id);

/// Value of a cudaDeviceAttr for a device.
int device_attribute(int id, int attribute);

/// (free, total) bytes of device memory.
std::pair<std::size_t, std::size_t> mem_info(int id);

/// Block until all work on the device is done.
void device_synchronize(int id);

/// cudaRuntimeGetVersion / cudaDriverGetVersion.
int runtime_version();
int driver_version();

/// The library handles CuPy's Device exposes, as integers, created on first use and pointed at `device`'s current
/// stream: the calling thread's cuBLAS and cuSPARSE handles, and a cuSOLVER dense handle of the calling thread's
/// own (never one of those cuarray lends its own calls).
std::uintptr_t cublas_handle(int device);
std::uintptr_t cusparse_handle(int device);
std::uintptr_t cusolver_handle(int device);

}  // namespace cuarray
