"""Reduction benchmarks (issue 4): sum of 2**28 float32 and sum(axis=0) / sum(axis=1) of a 16384 x 16384
float32 array, against CuPy and PyTorch.

Targets: each reads its input at >= 0.95x the device-to-device copy bandwidth of the same run (bytes read +
bytes written per second; d2d_copy_1GiB).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, BandwidthTarget, Config, Stats, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

F32 = np.float32
N_FLAT = 1 << 28
SIDE = 16384
TARGET = BandwidthTarget(0.95)


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(30, 8)}


def _check(cfg: Config, got: np.ndarray, want: np.ndarray, what: str) -> None:
    if cfg.first_round and not np.allclose(got, want, rtol=1e-4, atol=1e-2):
        raise AssertionError(f"{what}: wrong result")


@case("sum_2^28_f32", nbytes=N_FLAT * 4 + 4, target=TARGET, heavy=True, key=True)
def sum_flat(lib: Backend, cfg: Config) -> Stats:
    """sum of 2**28 float32 (a 0-d result); GB/s counts the bytes read; >= 0.95x the copy GB/s."""
    x = cfg.host_random(N_FLAT, F32, keep=True)
    a = _dev(lib, x)
    fn = lambda: lib.module.sum(a)  # noqa: E731
    _check(cfg, _host(lib, fn()), np.sum(x, dtype=np.float64), "sum")
    return time_gpu(fn, lib, **_reps(cfg))


def _square(lib: Backend, cfg: Config) -> tuple[Any, np.ndarray]:
    x = cfg.host_random(SIDE * SIDE, F32, keep=True).reshape(SIDE, SIDE)
    return _dev(lib, x), x


@case("sum_axis0_16384^2_f32", nbytes=SIDE * SIDE * 4 + SIDE * 4, target=TARGET, heavy=True, key=True)
def sum_axis0(lib: Backend, cfg: Config) -> Stats:
    """sum(axis=0) of a C-contiguous 16384 x 16384 float32 array (a column reduction); >= 0.95x copy GB/s."""
    a, x = _square(lib, cfg)
    fn = (lambda: lib.module.sum(a, dim=0)) if _is_torch(lib) else (lambda: lib.module.sum(a, axis=0))
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:64], np.sum(x[:, :64], axis=0, dtype=np.float64), "sum(axis=0)")
    return time_gpu(fn, lib, **_reps(cfg))


@case("sum_axis1_16384^2_f32", nbytes=SIDE * SIDE * 4 + SIDE * 4, target=TARGET, heavy=True, key=True)
def sum_axis1(lib: Backend, cfg: Config) -> Stats:
    """sum(axis=1) of a C-contiguous 16384 x 16384 float32 array (a row reduction); >= 0.95x copy GB/s."""
    a, x = _square(lib, cfg)
    fn = (lambda: lib.module.sum(a, dim=1)) if _is_torch(lib) else (lambda: lib.module.sum(a, axis=1))
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:64], np.sum(x[:64], axis=1, dtype=np.float64), "sum(axis=1)")
    return time_gpu(fn, lib, **_reps(cfg))
