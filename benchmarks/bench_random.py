"""Random-number benchmarks (issue 6, cuarray.random): Philox4x32-10 uniform and normal draws of 2**28 float32
against CuPy's and PyTorch's generators, plus float64 normals and integers for reference.

Targets (ratios of median times in the same run):
  random 2**28 float32           >= 1.2x PyTorch (torch.rand)
  standard_normal 2**28 float32  >= 1.2x PyTorch (torch.randn)
Each case's note gives cuarray's written TB/s (bytes of output per second, median).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch

N_F32 = 1 << 28
N_SMALL = 1 << 26


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(20, 6)}


def _with_rate(st: Stats, nbytes: int) -> Stats:
    note = f"{nbytes / st.median_s / 1e12:.2f} TB/s written"
    st.note = f"{st.note}; {note}" if st.note else note
    return st


def _rng(lib: Backend) -> Any:
    # cuarray and CuPy: their Generator API; torch: the global CUDA generator.
    return None if _is_torch(lib) else lib.module.random.default_rng(0)


def _check_uniform(cfg: Config, fn: Callable[[], Any], lib: Backend) -> None:
    if not cfg.first_round:
        return
    x = fn()
    head = (x[: 1 << 20].cpu().numpy() if _is_torch(lib) else x[: 1 << 20].get())
    if head.dtype != np.float32 or head.min() < 0 or head.max() >= 1 or abs(float(head.mean()) - 0.5) > 0.01:
        raise AssertionError("random: not uniform float32 in [0, 1)")


def _check_normal(cfg: Config, fn: Callable[[], Any], lib: Backend) -> None:
    if not cfg.first_round:
        return
    x = fn()
    head = (x[: 1 << 20].cpu().numpy() if _is_torch(lib) else x[: 1 << 20].get()).astype(np.float64)
    if abs(head.mean()) > 0.01 or abs(head.std() - 1) > 0.01:
        raise AssertionError("standard_normal: wrong moments")


@case("random_2^28_f32", nbytes=4 * N_F32, target=Target("torch", 1.2), heavy=True, key=True)
def random_f32(lib: Backend, cfg: Config) -> Stats:
    """random of 2**28 float32 in [0, 1); >= 1.2x PyTorch (torch.rand)."""
    if _is_torch(lib):
        t = lib.module
        fn = lambda: t.rand(N_F32, device="cuda", dtype=t.float32)  # noqa: E731
    else:
        g, f32 = _rng(lib), np.float32
        fn = lambda: g.random(N_F32, dtype=f32)  # noqa: E731
    _check_uniform(cfg, fn, lib)
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 4 * N_F32)


@case("standard_normal_2^28_f32", nbytes=4 * N_F32, target=Target("torch", 1.2), heavy=True, key=True)
def normal_f32(lib: Backend, cfg: Config) -> Stats:
    """standard_normal of 2**28 float32; >= 1.2x PyTorch (torch.randn)."""
    if _is_torch(lib):
        t = lib.module
        fn = lambda: t.randn(N_F32, device="cuda", dtype=t.float32)  # noqa: E731
    else:
        g, f32 = _rng(lib), np.float32
        fn = lambda: g.standard_normal(N_F32, dtype=f32)  # noqa: E731
    _check_normal(cfg, fn, lib)
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 4 * N_F32)


@case("standard_normal_2^26_f64", nbytes=8 * N_SMALL, heavy=True)
def normal_f64(lib: Backend, cfg: Config) -> Stats:
    """standard_normal of 2**26 float64 (reference, no target)."""
    if _is_torch(lib):
        t = lib.module
        fn = lambda: t.randn(N_SMALL, device="cuda", dtype=t.float64)  # noqa: E731
    else:
        g = _rng(lib)
        fn = lambda: g.standard_normal(N_SMALL)  # noqa: E731
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 8 * N_SMALL)


@case("integers_2^26_int64", nbytes=8 * N_SMALL, heavy=True)
def integers_i64(lib: Backend, cfg: Config) -> Stats:
    """integers in [0, 1000) of 2**26 int64 (reference, no target; torch.randint)."""
    if _is_torch(lib):
        t = lib.module
        fn = lambda: t.randint(0, 1000, (N_SMALL,), device="cuda", dtype=t.int64)  # noqa: E731
    else:
        g = _rng(lib)
        fn = lambda: g.integers(0, 1000, N_SMALL)  # noqa: E731
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 8 * N_SMALL)


@case("gamma_2^24_f64", nbytes=8 * (1 << 24), heavy=True)
def gamma_f64(lib: Backend, cfg: Config) -> Stats:
    """standard_gamma(2.5) of 2**24 float64, a rejection sampler (reference, no target; torch._standard_gamma)."""
    n = 1 << 24
    if _is_torch(lib):
        t = lib.module
        alpha = t.full((n,), 2.5, device="cuda", dtype=t.float64)
        fn = lambda: t._standard_gamma(alpha)  # noqa: E731
    else:
        g = _rng(lib)
        fn = lambda: g.standard_gamma(2.5, n)  # noqa: E731
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 8 * n)
