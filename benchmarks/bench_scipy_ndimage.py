"""cuarray.scipy.ndimage benchmarks (issue 20): gaussian_filter (sigma 4) and median_filter 3x3 and 7x7 of a
4096x4096 float32 image, against cupyx.scipy.ndimage in the same run (`--only ndimage` selects them).

Targets (ratios of median times in the same run): each >= 1.0x CuPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import to_device as _dev, to_host as _host

SIDE = 4096
LIBS = ("cuarray", "cupy")
_T = Target("cupy", 1.0, ">= 1.0x cupy")


def _ndimage(lib: Backend) -> Any:
    if lib.name == "cuarray":
        import cuarray.scipy.ndimage as ndi
    else:
        import cupyx.scipy.ndimage as ndi
    return ndi


def _image(cfg: Config) -> np.ndarray:
    return cfg.host_random(SIDE * SIDE, np.float32, seed=7).reshape(SIDE, SIDE)


def _check(cfg: Config, got: Any, lib: Backend, want_fn: Any, rtol: float) -> None:
    """The first rows against scipy.ndimage on the same rows (a band wide enough for the filter's reach)."""
    if not cfg.first_round:
        return
    g = _host(lib, got[:64])
    want = want_fn()
    if not np.allclose(g[:32], want[:32], rtol=rtol, atol=1e-5):
        raise AssertionError(f"{lib.name}: result differs from scipy.ndimage")


def _run(lib: Backend, cfg: Config, call: Any, ref: Any) -> Stats:
    x = _image(cfg)
    a = _dev(lib, x)
    ndi = _ndimage(lib)
    fn = lambda: call(ndi, a)  # noqa: E731
    if cfg.first_round:
        import scipy.ndimage as sndi
        # Rows 0..31 of the full result depend only on rows 0..63 with 'reflect' at the top edge and a reach of
        # at most 16 rows; the bottom edge of the 64-row band is never compared.
        _check(cfg, fn(), lib, lambda: ref(sndi, x[:64]), 1e-4)
    return time_gpu(fn, lib, n_warmup=3, n_repeat=cfg.reps(20, 5))


@case("ndimage_gaussian_filter_4096^2_f32_sigma4", target=_T, libs=LIBS, heavy=True, key=True)
def gaussian(lib: Backend, cfg: Config) -> Stats:
    """gaussian_filter(sigma=4) of a 4096x4096 float32 image; >= 1.0x CuPy."""
    return _run(lib, cfg, lambda ndi, a: ndi.gaussian_filter(a, 4.0), lambda ndi, x: ndi.gaussian_filter(x, 4.0))


@case("ndimage_median_filter_3x3_4096^2_f32", target=_T, libs=LIBS, heavy=True, key=True)
def median3(lib: Backend, cfg: Config) -> Stats:
    """median_filter(size=3) of a 4096x4096 float32 image; >= 1.0x CuPy."""
    return _run(lib, cfg, lambda ndi, a: ndi.median_filter(a, 3), lambda ndi, x: ndi.median_filter(x, 3))


@case("ndimage_median_filter_7x7_4096^2_f32", target=_T, libs=LIBS, heavy=True, key=True)
def median7(lib: Backend, cfg: Config) -> Stats:
    """median_filter(size=7) of a 4096x4096 float32 image; >= 1.0x CuPy."""
    return _run(lib, cfg, lambda ndi, a: ndi.median_filter(a, 7), lambda ndi, x: ndi.median_filter(x, 7))
