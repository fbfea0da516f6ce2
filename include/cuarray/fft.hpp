// Discrete Fourier transforms (NumPy's numpy.fft) over cuFFT, and the per-device cuFFT plan cache.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray::fft {

/// NumPy's norm=: which direction is scaled by 1/n ("backward": the inverse; "forward": the forward one)
/// or both by 1/sqrt(n) ("ortho").
enum class norm_mode { backward, ortho, forward };

/// "backward", "ortho" or "forward"; value_error with NumPy's message otherwise.
norm_mode parse_norm(std::string_view text);

/// An entry of `s` that asks for the 1-D transform's default length (NumPy's deprecated None in s). An entry
/// of -1 means the input's length along that axis.
inline constexpr std::int64_t default_length = std::numeric_limits<std::int64_t>::min();

using sizes = std::optional<std::vector<std::int64_t>>;
using axes_list = std::optional<std::vector<int>>;

// Result dtypes are NumPy 2's: complex64 for float16/float32 input (and complex64), complex128 for float64,
// integers and bool; the real results of irfft/hfft take the input's real dtype (float16 stays float16,
// integers give float64). `n` pads with zeros or truncates; `out` (when defined) must have the result's
// shape (value_error) and a dtype the result casts to with same_kind (type_error); it is returned.

array fft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
          norm_mode norm = norm_mode::backward, const array& out = array());
array ifft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
           norm_mode norm = norm_mode::backward, const array& out = array());
/// Real input only (type_error for complex); n // 2 + 1 outputs along `axis`.
array rfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
           norm_mode norm = norm_mode::backward, const array& out = array());
/// Real output of length n (default 2 * (m - 1)); the imaginary parts of the zero and Nyquist terms are ignored.
array irfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
            norm_mode norm = norm_mode::backward, const array& out = array());
/// The FFT of a signal with Hermitian symmetry: irfft(conj(a)) with the norm's direction swapped.
array hfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
           norm_mode norm = norm_mode::backward, const array& out = array());
/// conj(rfft(a)) with the norm's direction swapped.
array ihfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
            norm_mode norm = norm_mode::backward, const array& out = array());

// n-dimensional forms: `s` lengths per axis in `axes` (default: the input's; value_error when s and axes differ
// in length); `axes` nullopt means the last len(s) axes, or all. Repeated axes transform repeatedly, as NumPy.
array fftn(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::nullopt,
           norm_mode norm = norm_mode::backward, const array& out = array());
array ifftn(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::nullopt,
            norm_mode norm = norm_mode::backward, const array& out = array());
array rfftn(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::nullopt,
            norm_mode norm = norm_mode::backward, const array& out = array());
array irfftn(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::nullopt,
             norm_mode norm = norm_mode::backward, const array& out = array());
array fft2(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::vector<int>{-2, -1},
           norm_mode norm = norm_mode::backward, const array& out = array());
array ifft2(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::vector<int>{-2, -1},
            norm_mode norm = norm_mode::backward, const array& out = array());
array rfft2(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::vector<int>{-2, -1},
            norm_mode norm = norm_mode::backward, const array& out = array());
array irfft2(const array& a, const sizes& s = std::nullopt, const axes_list& axes = std::vector<int>{-2, -1},
             norm_mode norm = norm_mode::backward, const array& out = array());

/// Sample frequencies [0, 1, ..., n/2-1, -n/2, ..., -1] / (d * n) as float64 (value_error for n < 0; inf where
/// d * n is 0, as NumPy's scalar arithmetic).
array fftfreq(std::int64_t n, double d = 1.0);
/// [0, 1, ..., n/2] / (d * n) as float64 (empty for n < 0, as NumPy).
array rfftfreq(std::int64_t n, double d = 1.0);
/// Roll each axis (all when nullopt) by half its length, moving the zero frequency to the centre (a copy).
array fftshift(const array& x, const axes_list& axes = std::nullopt);
array ifftshift(const array& x, const axes_list& axes = std::nullopt);

// ---- plan cache -----------------------------------------------------------------------------------------------

/// One cached plan: a description of its layout and the work area it borrows from the pool on each execution.
struct plan_cache_entry {
  std::string key;
  std::size_t work_size = 0;
};

/// The state of one device's plan cache (CuPy's PlanCache): limits of -1 mean unlimited, 0 disables the cache.
struct plan_cache_info {
  int device = 0;
  std::int64_t size = 16, memsize = -1;  ///< limits: plans, and bytes of work area over all cached plans
  std::int64_t curr_size = 0, curr_memsize = 0;
  std::uint64_t hits = 0, misses = 0;
  std::vector<plan_cache_entry> entries;  ///< most recently used first
};

plan_cache_info get_plan_cache_info(int device);
/// value_error for limits below -1; evicts least recently used plans until the cache fits.
void set_plan_cache_size(int device, std::int64_t size);
void set_plan_cache_memsize(int device, std::int64_t memsize);
/// Destroy every cached plan of the device and reset its statistics.
void clear_plan_cache(int device);

}  // namespace cuarray::fft
