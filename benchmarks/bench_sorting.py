"""Sorting benchmarks (issue 4, "Sorting, searching and set operations"): device-wide sort and argsort of 2**26
float32 and the row-wise sort of a (4096, 16384) float32 array, against CuPy and PyTorch.

Targets (ratios of median times in the same run):
  sort 2**26 float32          >= 1.0x CuPy
  argsort 2**26 float32       >= 1.3x CuPy
  sort (4096, 16384) axis -1  >= 1.0x PyTorch (torch.sort returns values and indices; torch has no values-only sort)
Each case's note gives cuarray's Gkeys/s (sorted elements per second, median).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

F32 = np.float32
N_FLAT = 1 << 26
ROWS, COLS = 4096, 16384


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(20, 6)}


def _with_rate(st: Stats, n: int) -> Stats:
    note = f"{n / st.median_s / 1e9:.2f} Gkeys/s"
    st.note = f"{st.note}; {note}" if st.note else note
    return st


def _check_sorted(cfg: Config, got: np.ndarray, x: np.ndarray, what: str) -> None:
    """Non-decreasing and the same multiset as far as cheap checks go (a full host sort would take seconds)."""
    if not cfg.first_round:
        return
    if got.dtype != x.dtype or got.shape != x.shape or not np.all(got[1:] >= got[:-1]):
        raise AssertionError(f"{what}: not sorted")
    if got[0] != x.min() or got[-1] != x.max() or not np.isclose(got.sum(dtype=np.float64), x.sum(dtype=np.float64)):
        raise AssertionError(f"{what}: not a permutation of the input")


@case("sort_2^26_f32", target=Target("cupy", 1.0), heavy=True, key=True)
def sort_flat(lib: Backend, cfg: Config) -> Stats:
    """sort of 2**26 random float32 (a new sorted array); >= 1.0x CuPy."""
    x = cfg.host_random(N_FLAT, F32, keep=True)
    a = _dev(lib, x)
    fn = (lambda: lib.module.sort(a).values) if _is_torch(lib) else (lambda: lib.module.sort(a))
    _check_sorted(cfg, _host(lib, fn()), x, "sort")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), N_FLAT)


@case("argsort_2^26_f32", target=Target("cupy", 1.3), heavy=True, key=True)
def argsort_flat(lib: Backend, cfg: Config) -> Stats:
    """argsort of 2**26 random float32 (int64 indices; torch: stable argsort); >= 1.3x CuPy."""
    x = cfg.host_random(N_FLAT, F32, keep=True)
    a = _dev(lib, x)
    if _is_torch(lib):
        fn = lambda: lib.module.argsort(a, stable=True)  # noqa: E731
    else:
        fn = lambda: lib.module.argsort(a)  # noqa: E731
    if cfg.first_round:
        idx = _host(lib, fn())
        if idx.dtype != np.int64:
            raise AssertionError(f"argsort: dtype {idx.dtype}")
        _check_sorted(cfg, x[idx], x, "argsort")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), N_FLAT)


@case("sort_rows_4096x16384_f32", target=Target("torch", 1.0), heavy=True, key=True)
def sort_rows(lib: Backend, cfg: Config) -> Stats:
    """sort along the last axis of a (4096, 16384) float32 array; >= 1.0x PyTorch (torch.sort(dim=-1))."""
    x = cfg.host_random(ROWS * COLS, F32, seed=1).reshape(ROWS, COLS)
    a = _dev(lib, x)
    fn = (lambda: lib.module.sort(a, dim=-1).values) if _is_torch(lib) else (lambda: lib.module.sort(a, axis=-1))
    if cfg.first_round:
        got = _host(lib, fn())
        if not np.array_equal(got[:8], np.sort(x[:8], axis=-1)):
            raise AssertionError("row sort: wrong result")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), ROWS * COLS)
