"""cuarray.scipy.signal benchmarks (issue 20): fftconvolve of 2**22 by 2**12 samples and lfilter of 2**24 samples
through a 4th-order Butterworth IIR, against cupyx.scipy.signal in the same run (`--only signal` selects them).

Targets (ratios of median times in the same run): each >= 1.0x CuPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import to_device as _dev, to_host as _host

N_SIG = 1 << 22
N_KER = 1 << 12
N_IIR = 1 << 24
LIBS = ("cuarray", "cupy")
_T = Target("cupy", 1.0, ">= 1.0x cupy")


def _signal(lib: Backend) -> Any:
    if lib.name == "cuarray":
        import cuarray.scipy.signal as sig
    else:
        import cupyx.scipy.signal as sig
    return sig


def _fftconvolve(lib: Backend, cfg: Config, dtype: Any) -> Stats:
    x = cfg.host_random(N_SIG, dtype, seed=1)
    k = cfg.host_random(N_KER, dtype, seed=2)
    a, b = _dev(lib, x), _dev(lib, k)
    sig = _signal(lib)
    fn = lambda: sig.fftconvolve(a, b)  # noqa: E731
    if cfg.first_round:
        got = _host(lib, fn())
        # The first samples against a direct full convolution of the same prefix (exact up to rounding).
        want = np.convolve(x[:4096].astype(np.float64), k.astype(np.float64))[:4096]
        if got.shape != (N_SIG + N_KER - 1,) or got.dtype != np.dtype(dtype) or \
                not np.allclose(got[:4096], want, rtol=1e-3, atol=1e-2):
            raise AssertionError(f"{lib.name}: fftconvolve differs from numpy.convolve")
    return time_gpu(fn, lib, n_warmup=2, n_repeat=cfg.reps(20, 5))


@case("signal_fftconvolve_2^22x2^12_f32", target=_T, libs=LIBS, heavy=True, key=True)
def fftconvolve_f32(lib: Backend, cfg: Config) -> Stats:
    """fftconvolve (mode 'full') of 2**22 by 2**12 float32 samples; >= 1.0x CuPy."""
    return _fftconvolve(lib, cfg, np.float32)


@case("signal_fftconvolve_2^22x2^12_f64", target=_T, libs=LIBS, heavy=True, key=True)
def fftconvolve_f64(lib: Backend, cfg: Config) -> Stats:
    """fftconvolve (mode 'full') of 2**22 by 2**12 float64 samples; >= 1.0x CuPy."""
    return _fftconvolve(lib, cfg, np.float64)


def _lfilter(lib: Backend, cfg: Config, dtype: Any) -> Stats:
    import scipy.signal as ss
    b, a = ss.butter(4, 0.05)
    x = cfg.host_random(N_IIR, dtype, seed=3)
    xd = _dev(lib, x)
    sig = _signal(lib)
    if lib.name == "cupy":
        import cupy
        bd, ad = cupy.asarray(b.astype(dtype)), cupy.asarray(a.astype(dtype))
    else:
        bd, ad = b.astype(dtype), a.astype(dtype)
    fn = lambda: sig.lfilter(bd, ad, xd)  # noqa: E731
    note = None
    if cfg.first_round:
        got = _host(lib, fn())
        n = 1 << 16
        want = ss.lfilter(b.astype(dtype), a.astype(dtype), x[:n])
        if got.dtype != np.dtype(dtype) or not np.allclose(got[:n], want, rtol=1e-3, atol=1e-3):
            # cuarray must match; a peer that does not is still timed, with its error recorded next to the ratio.
            if lib.name == "cuarray":
                raise AssertionError(f"{lib.name}: lfilter differs from scipy.signal.lfilter")
            err = float(np.max(np.abs(got[:n].astype(np.float64) - want)))
            note = f"{got.dtype} result differs from scipy.signal.lfilter: max abs error {err:.3g}"
    st = time_gpu(fn, lib, n_warmup=2, n_repeat=cfg.reps(20, 5))
    st.note = note or st.note
    return st


@case("signal_lfilter_butter4_2^24_f32", target=_T, libs=LIBS, heavy=True, key=True)
def lfilter_f32(lib: Backend, cfg: Config) -> Stats:
    """lfilter of 2**24 float32 samples through a 4th-order Butterworth low-pass; >= 1.0x CuPy."""
    return _lfilter(lib, cfg, np.float32)


@case("signal_lfilter_butter4_2^24_f64", target=_T, libs=LIBS, heavy=True, key=True)
def lfilter_f64(lib: Backend, cfg: Config) -> Stats:
    """lfilter of 2**24 float64 samples through a 4th-order Butterworth low-pass; >= 1.0x CuPy."""
    return _lfilter(lib, cfg, np.float64)
