// One-pass reduction specs shared by var/std, linalg.norm and the generator's NVRTC test.
#pragma once

#include "cuarray/dtype.hpp"
#include "src/engine/reduction.hpp"

namespace cuarray::detail {

/// var (or std with `root`) in one read: (count, mean, M2) partials merged by Chan et al.'s formula, in the
/// accumulation type `acc` (real or complex), written as `out`; ddof is the call's p0 (Note [one-pass var]).
red::spec var_onepass_spec(dtype acc, dtype out, bool root);

/// sqrt(sum |x|^2) of `in` in one read, accumulated in float32 (float16/float32/complex64) or float64 (other
/// types, integers and bool included); the result is float16/float32/float64 (Note [one-pass norm]).
red::spec sumsq_root_spec(dtype in);

/// The result dtype of sumsq_root_spec(in).
dtype sumsq_root_type(dtype in);

/// all(isfinite(a)) in one read of `a` and no bool array beside it: a new 0-d bool array (true for integer,
/// bool or empty input). The solvers' check_finite (Note [one read per solve], scipy/linalg/_decomp.py).
array all_finite(const array& a);

}  // namespace cuarray::detail
