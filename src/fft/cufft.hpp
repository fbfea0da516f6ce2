// cuFFT loaded with dlopen, its per-device plan cache, and the execution of one planned layout on the current stream.
#pragma once

#include <cstdint>
#include <memory>

#include "cuarray/array.hpp"

#include "src/fft/fft_layout.hpp"

namespace cuarray::detail::fft {

/// Precision of a transform: single (C2C, R2C, C2R) or double (Z2Z, D2Z, Z2D).
enum class precision { single, double_ };

/// Run the transform of `layout` from `in` to `out` (device pointers to the first element; equal for an
/// in-place c2c) on `device`'s current stream, once per index of the layout's host loop. The plan comes from
/// the device's cache (created on a miss), is bound to the stream before each execution, and borrows its
/// work area from the memory pool for this call. `forward` selects the c2c direction.
void execute(int device, const plan_layout& layout, transform_kind kind, precision prec, const void* in, void* out,
             bool forward);

// Note [user fft plans]: CuPy's explicit plans (cuarray.cuda.cufft.Plan1d / PlanNd). A user plan is a cuFFT
// plan made from the caller's parameters, holding its work area (from the memory pool) for its lifetime as
// CuPy's do; it is not in the plan cache. `with plan:` makes it the calling thread's current plan: while one
// is current, every transform cuarray.fft runs must match it (type, lengths, batch and data layout; the
// transform is first copied to a plain layout when its own strides differ) and executes with it, and a
// mismatch is a value_error, as CuPy's checks in cupy.fft.

struct user_plan {
  int device = 0;
  int type = 0;  ///< a cufftType
  plan_layout layout;
  bool basic_layout = false;  ///< made without embeddings: cuFFT's plain layout (strides and distances ignored)
  int handle = 0;
  std::size_t work_size = 0;
  array work;
  ~user_plan();
};

/// A plan of `type` (cufftType) for `layout` on `device` (rank 1 to 3; layout.loop_* ignored), with the basic
/// data layout when `basic` (embeddings, strides and distances then ignored).
std::shared_ptr<user_plan> make_user_plan(int device, const plan_layout& layout, int type, bool basic);
/// One execution of `plan` from `in` to `out` on the current stream of the plan's device; `direction` is
/// CUFFT_FORWARD (-1) or CUFFT_INVERSE (1) and matters for c2c only.
void execute_user_plan(const user_plan& plan, const void* in, void* out, int direction);
/// The calling thread's current plan (null when none).
const std::shared_ptr<user_plan>& current_plan();
void set_current_plan(std::shared_ptr<user_plan> plan);
/// Whether `plan` computes the transform of `layout` (kind and precision) with one execution.
bool plan_matches(const user_plan& plan, const plan_layout& layout, transform_kind kind, precision prec);

}  // namespace cuarray::detail::fft
