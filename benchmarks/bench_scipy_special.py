"""cuarray.scipy.special benchmarks (issue 20): erf and gammaln on 2**26 elements and logsumexp along an axis,
against cupyx.scipy.special in the same run.

Targets (ratios of median times in the same run): each >= 1.0x CuPy. Each elementwise case's note gives
cuarray's GB/s (one read and one write per element), to set against the copy bandwidth.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import to_device as _dev, to_host as _host

N_FLAT = 1 << 26
SIDE = 4096
LIBS = ("cuarray", "cupy")


def _special(lib: Backend) -> Any:
    if lib.name == "cuarray":
        import cuarray.scipy.special as sp
    else:
        import cupyx.scipy.special as sp
    return sp


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 3, "n_repeat": cfg.reps(30, 10)}


def _with_rate(st: Stats, nbytes: int) -> Stats:
    note = f"{nbytes / st.median_s / 1e9:.0f} GB/s"
    st.note = f"{st.note}; {note}" if st.note else note
    return st


def _check(cfg: Config, got: Any, lib: Backend, want: np.ndarray, what: str, rtol: float) -> None:
    if not cfg.first_round:
        return
    g = _host(lib, got.reshape(-1)[:1000])
    if not np.allclose(g, want.reshape(-1)[:1000], rtol=rtol, atol=0):
        raise AssertionError(f"{what}: result differs from the host reference")


def _unary(lib: Backend, cfg: Config, fname: str, dtype: Any, lo: float, hi: float) -> Stats:
    x = (cfg.host_random(N_FLAT, dtype, seed=3) * (hi - lo) + lo).astype(dtype)
    a = _dev(lib, x)
    f = getattr(_special(lib), fname)
    fn = lambda: f(a)  # noqa: E731
    if cfg.first_round:
        import scipy.special as ref
        _check(cfg, fn(), lib, getattr(ref, fname)(x[:1000]), fname, 1e-5 if dtype == np.float32 else 1e-12)
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 2 * x.nbytes)


_T = Target("cupy", 1.0, ">= 1.0x cupy")


@case("special_erf_2^26_f64", target=_T, libs=LIBS, heavy=True, key=True)
def erf_f64(lib: Backend, cfg: Config) -> Stats:
    """special.erf of 2**26 float64 in [-4, 4); >= 1.0x CuPy."""
    return _unary(lib, cfg, "erf", np.float64, -4.0, 4.0)


@case("special_erf_2^26_f32", target=_T, libs=LIBS, heavy=True, key=True)
def erf_f32(lib: Backend, cfg: Config) -> Stats:
    """special.erf of 2**26 float32 in [-4, 4); >= 1.0x CuPy."""
    return _unary(lib, cfg, "erf", np.float32, -4.0, 4.0)


@case("special_gammaln_2^26_f64", target=_T, libs=LIBS, heavy=True, key=True)
def gammaln_f64(lib: Backend, cfg: Config) -> Stats:
    """special.gammaln of 2**26 float64 in [0.1, 50); >= 1.0x CuPy."""
    return _unary(lib, cfg, "gammaln", np.float64, 0.1, 50.0)


@case("special_gammaln_2^26_f32", target=_T, libs=LIBS, heavy=True, key=True)
def gammaln_f32(lib: Backend, cfg: Config) -> Stats:
    """special.gammaln of 2**26 float32 in [0.1, 50); >= 1.0x CuPy."""
    return _unary(lib, cfg, "gammaln", np.float32, 0.1, 50.0)


@case("special_logsumexp_4096x4096_f32_axis1", target=_T, libs=LIBS, heavy=True, key=True)
def logsumexp_rows(lib: Backend, cfg: Config) -> Stats:
    """special.logsumexp(axis=1) of a (4096, 4096) float32 array; >= 1.0x CuPy."""
    x = cfg.host_random(SIDE * SIDE, np.float32, seed=4).reshape(SIDE, SIDE)
    a = _dev(lib, x)
    f = _special(lib).logsumexp
    fn = lambda: f(a, axis=1)  # noqa: E731
    if cfg.first_round:
        import scipy.special as ref
        _check(cfg, fn(), lib, ref.logsumexp(x[:1000].astype(np.float64), axis=1).astype(np.float32),
               "logsumexp", 1e-5)
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), x.nbytes)
