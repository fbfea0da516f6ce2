// Explicit cuFFT plans (CuPy's cupy.cuda.cufft.Plan1d and PlanNd) for C++ callers and the Python binding alike.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

namespace detail::fft {
struct user_plan;
}

/// cufftType values (cufft.h).
namespace cufft_type {
constexpr int c2c = 0x29, r2c = 0x2a, c2r = 0x2c, z2z = 0x69, d2z = 0x6a, z2d = 0x6c;
}

/// cuFFT's advanced data layout: embeddings (one entry per transformed dimension), element strides and distances.
struct fft_embedding {
  std::vector<long long> inembed, onembed;
  long long istride = 1, idist = 1, ostride = 1, odist = 1;
};

/// A cuFFT plan made from the caller's parameters, holding its work area (from the memory pool) for its lifetime,
/// as CuPy's plans do; it is not in cuarray's plan cache (Note [user fft plans]).
class fft_plan {
public:
  /// A plan of cufftType `type` for `batch` transforms of lengths `n` (1 to 3 dimensions) on the current device:
  /// with `embedding`, cuFFT's advanced data layout, else its basic one. value_error for bad parameters.
  fft_plan(const std::vector<long long>& n, int type, long long batch,
           const std::optional<fft_embedding>& embedding = std::nullopt);

  /// One execution from `in` to `out` on the current stream of the plan's device; `direction` is -1 (forward)
  /// or +1 (inverse) and matters for c2c only. value_error unless both arrays have the plan's dtypes, are
  /// C-contiguous, live on the plan's device and hold every element the plan reaches.
  void execute(const array& in, const array& out, int direction) const;

  std::size_t work_size() const;
  int handle() const;  ///< the cufftHandle
  int device() const;
  int type() const;  ///< the cufftType
  dtype input_type() const;
  dtype output_type() const;

  /// Make this the calling thread's current plan: until cleared, every transform of cuarray's fft functions must
  /// match it (value_error otherwise) and runs with it, as under CuPy's `with plan:`.
  void make_current() const;
  static void clear_current();
  static bool has_current();

private:
  std::shared_ptr<detail::fft::user_plan> impl_;
};

}  // namespace cuarray
