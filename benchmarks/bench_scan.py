"""Scan and selection benchmarks (issue 4): cumsum bandwidth, boolean-mask selection and nonzero on 2**28 elements.

Targets:
  cumsum 2**28 float32      >= 1.1x PyTorch's torch.cumsum (GB/s counts 4 bytes read + 4 written per element)
  x[x > 0.5], 2**28 float32 no slower than CuPy (the comparison and the selection both timed)
  nonzero, 2**28 bool       no slower than CuPy (about half the elements true)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host

BIG_N = 1 << 28
CHECK = 1000  # leading elements compared with NumPy in the first round


def _host(lib: Backend, a: Any) -> np.ndarray:
    head = a[:CHECK]
    return to_host(lib, head)


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(20, 6)}


@case("cumsum_2^28_f32", nbytes=BIG_N * 8, target=Target("torch", 1.1), heavy=True)
def cumsum_big(lib: Backend, cfg: Config) -> Stats:
    """cumsum of 2**28 float32 (torch.cumsum); GB/s counts one read and one write; >= 1.1x PyTorch."""
    host = cfg.host_random(BIG_N, keep=True)
    a = _dev(lib, host)
    fn = (lambda: lib.module.cumsum(a, 0)) if _is_torch(lib) else (lambda: lib.module.cumsum(a))
    if cfg.first_round:
        got = _host(lib, fn())
        want = np.cumsum(host[:CHECK], dtype=np.float64)
        if got.dtype != np.float32 or not np.allclose(got, want, rtol=1e-4):
            raise AssertionError(f"cumsum: wrong result (dtype {got.dtype})")
    return time_gpu(fn, lib, **_reps(cfg))


@case("mask_select_2^28_f32", target=Target("cupy", 1.0), heavy=True)
def mask_select(lib: Backend, cfg: Config) -> Stats:
    """x[x > 0.5] on 2**28 float32 (about half selected): comparison, count, synchronisation, copy; >= 1.0x CuPy."""
    host = cfg.host_random(BIG_N, keep=True)
    x = _dev(lib, host)
    fn = lambda: x[x > 0.5]  # noqa: E731
    if cfg.first_round:
        r = fn()
        n = int(r.shape[0])
        want = int(np.count_nonzero(host > 0.5))
        if n != want or not np.array_equal(_host(lib, r), host[host > 0.5][:CHECK]):
            raise AssertionError(f"x[x > 0.5]: {n} elements selected, expected {want}")
    return time_gpu(fn, lib, **_reps(cfg))


@case("nonzero_2^28_bool", target=Target("cupy", 1.0), heavy=True)
def nonzero_big(lib: Backend, cfg: Config) -> Stats:
    """nonzero of a 2**28 bool array, about 50% true (int64 indices; torch: an (n, 1) array); >= 1.0x CuPy."""
    host = cfg.host_random(BIG_N, keep=True) > 0.5
    m = _dev(lib, host)
    fn = (lambda: lib.module.nonzero(m)) if _is_torch(lib) else (lambda: lib.module.nonzero(m)[0])
    if cfg.first_round:
        r = fn()
        got = r[:CHECK, 0].cpu().numpy() if _is_torch(lib) else r[:CHECK].get()
        if not np.array_equal(got, np.flatnonzero(host)[:CHECK]):
            raise AssertionError("nonzero: wrong indices")
    return time_gpu(fn, lib, **_reps(cfg))
