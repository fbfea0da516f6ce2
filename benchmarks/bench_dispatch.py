"""NumPy's dispatch protocols (issue 15): numpy.add(a, b) and numpy.sum(a) on device arrays against the direct calls.

Targets (judged against the direct call of the same run, re-measured right before each round: the paired floor):
  numpy.add(a, b)   <= cuarray's a + b (add via the ufunc object) + 1.5 µs   (__array_ufunc__)
  numpy.sum(a)      <= cuarray's a.sum() + 1.5 µs                            (__array_function__)
CuPy runs the same calls through its own protocols, for comparison.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, FloorTarget, Stats, case, time_host_loop

N = 1024
DISPATCH_ABOVE_DIRECT_US = 1.5
NUMPY_LIBS = ("cuarray", "cupy")


def _arrays(lib: Backend) -> tuple[Any, Any]:
    x = np.random.default_rng(0).random(N, dtype=np.float32)
    return lib.module.asarray(x), lib.module.asarray(x[::-1].copy())


def _loop(cfg: Config) -> dict[str, int]:
    return {"n_loop": 20000 if not cfg.quick else 5000, "n_repeat": cfg.reps(18, 10)}


@case("direct_add_1024", libs=NUMPY_LIBS)
def direct_add(lib: Backend, cfg: Config) -> Stats:
    """module.add(a, b) on float32 arrays of 1024 elements: the reference of numpy.add's dispatch."""
    a, b = _arrays(lib)
    fn = lib.module.add
    return time_host_loop(lambda: fn(a, b), lib, **_loop(cfg))


@case("numpy_add_1024", libs=NUMPY_LIBS, target=FloorTarget(DISPATCH_ABOVE_DIRECT_US, ref="direct_add_1024"))
def numpy_add(lib: Backend, cfg: Config) -> Stats:
    """numpy.add(a, b) on device arrays (__array_ufunc__); <= direct call + 1.5 µs."""
    a, b = _arrays(lib)
    if cfg.first_round:
        r = np.add(a, b)
        assert isinstance(r, type(a)), type(r)
        np.testing.assert_allclose(r.get(), a.get() + b.get(), rtol=1e-6)
    return time_host_loop(lambda: np.add(a, b), lib, **_loop(cfg))


@case("direct_sum_1024", libs=NUMPY_LIBS)
def direct_sum(lib: Backend, cfg: Config) -> Stats:
    """a.sum() of 1024 float32: the reference of numpy.sum's dispatch."""
    a, _ = _arrays(lib)
    return time_host_loop(lambda: a.sum(), lib, **_loop(cfg))


@case("numpy_sum_1024", libs=NUMPY_LIBS, target=FloorTarget(DISPATCH_ABOVE_DIRECT_US, ref="direct_sum_1024"))
def numpy_sum(lib: Backend, cfg: Config) -> Stats:
    """numpy.sum(a) on a device array (__array_function__); <= a.sum() + 1.5 µs."""
    a, _ = _arrays(lib)
    if cfg.first_round:
        r = np.sum(a)
        assert isinstance(r, type(a)), type(r)
        np.testing.assert_allclose(float(r), float(a.get().sum()), rtol=1e-5)
    return time_host_loop(lambda: np.sum(a), lib, **_loop(cfg))
