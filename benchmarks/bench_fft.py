"""FFT benchmarks (issue 6, cuarray.fft): cuFFT transforms through cuarray against CuPy and PyTorch.

Targets (ratios of median times in the same run):
  fft of 2**24 complex64              >= 0.98x CuPy
  fft2 of (4096, 4096) complex64      >= 0.98x CuPy
  rfft of 2**24 float32               >= 0.98x CuPy
Without a target: irfft of 2**24 (complex in, float32 out), fftn of a (256, 256, 256) complex64 cube, and fft along
axis 0 of a (4096, 4096) complex64 array (a strided batch). Each case's note gives cuarray's GB/s (bytes read
and written once by an out-of-place transform).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

N_1D = 1 << 24
SIDE_2D = 4096
SIDE_3D = 256


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 3, "n_repeat": cfg.reps(30, 10)}


def _complex(cfg: Config, n: int, seed: int = 0) -> np.ndarray:
    return cfg.host_random(2 * n, np.float32, seed=seed).view(np.complex64)


def _fft_mod(lib: Backend) -> Any:
    return lib.module.fft


def _with_rate(st: Stats, nbytes: int) -> Stats:
    note = f"{nbytes / st.median_s / 1e9:.0f} GB/s"
    st.note = f"{st.note}; {note}" if st.note else note
    return st


def _check_dc(cfg: Config, got: Any, lib: Backend, x: np.ndarray, what: str) -> None:
    """The zero-frequency term is the sum of the input: a cheap check of a full transform's result."""
    if not cfg.first_round:
        return
    first = _host(lib, got.reshape(-1)[:1])[0]
    want = x.sum(dtype=np.complex128)
    if abs(first - want) > 1e-3 * max(1.0, abs(want)):
        raise AssertionError(f"{what}: zero-frequency term {first} != {want}")


@case("fft_2^24_c64", target=Target("cupy", 0.98, ">= 0.98x cupy"), heavy=True, key=True)
def fft_1d(lib: Backend, cfg: Config) -> Stats:
    """fft of 2**24 complex64 (one 1-D plan); >= 0.98x CuPy."""
    x = _complex(cfg, N_1D)
    a = _dev(lib, x)
    f = _fft_mod(lib)
    fn = lambda: f.fft(a)  # noqa: E731
    _check_dc(cfg, fn(), lib, x, "fft")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 2 * x.nbytes)


@case("fft2_4096x4096_c64", target=Target("cupy", 0.98, ">= 0.98x cupy"), heavy=True, key=True)
def fft_2d(lib: Backend, cfg: Config) -> Stats:
    """fft2 of a (4096, 4096) complex64 array (one 2-D plan); >= 0.98x CuPy."""
    x = _complex(cfg, SIDE_2D * SIDE_2D, seed=1).reshape(SIDE_2D, SIDE_2D)
    a = _dev(lib, x)
    f = _fft_mod(lib)
    fn = lambda: f.fft2(a)  # noqa: E731
    _check_dc(cfg, fn(), lib, x, "fft2")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 2 * x.nbytes)


@case("rfft_2^24_f32", target=Target("cupy", 0.98, ">= 0.98x cupy"), heavy=True, key=True)
def rfft_1d(lib: Backend, cfg: Config) -> Stats:
    """rfft of 2**24 float32 (R2C); >= 0.98x CuPy."""
    x = cfg.host_random(N_1D, np.float32, seed=2)
    a = _dev(lib, x)
    f = _fft_mod(lib)
    fn = lambda: f.rfft(a)  # noqa: E731
    _check_dc(cfg, fn(), lib, x, "rfft")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), x.nbytes + (N_1D // 2 + 1) * 8)


@case("irfft_2^24_f32", heavy=True)
def irfft_1d(lib: Backend, cfg: Config) -> Stats:
    """irfft of 2**23 + 1 complex64 terms to 2**24 float32 (C2R; the input is copied first, as C2R overwrites it)."""
    x = _complex(cfg, N_1D // 2 + 1, seed=3)
    a = _dev(lib, x)
    f = _fft_mod(lib)
    fn = lambda: f.irfft(a, n=N_1D)  # noqa: E731
    if cfg.first_round:
        got = fn()
        if tuple(got.shape) != (N_1D,) or str(got.dtype).rsplit(".", 1)[-1] != "float32":
            raise AssertionError(f"irfft: shape {tuple(got.shape)} dtype {got.dtype}")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), x.nbytes + N_1D * 4)


@case("fftn_256^3_c64", heavy=True)
def fftn_3d(lib: Backend, cfg: Config) -> Stats:
    """fftn of a (256, 256, 256) complex64 cube (one 3-D plan)."""
    x = _complex(cfg, SIDE_3D ** 3, seed=4).reshape(SIDE_3D, SIDE_3D, SIDE_3D)
    a = _dev(lib, x)
    f = _fft_mod(lib)
    fn = lambda: f.fftn(a)  # noqa: E731
    _check_dc(cfg, fn(), lib, x, "fftn")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 2 * x.nbytes)


@case("fft_axis0_4096x4096_c64", heavy=True)
def fft_axis0(lib: Backend, cfg: Config) -> Stats:
    """fft along axis 0 of a (4096, 4096) complex64 array (strided batch: stride 4096, distance 1)."""
    x = _complex(cfg, SIDE_2D * SIDE_2D, seed=1).reshape(SIDE_2D, SIDE_2D)
    a = _dev(lib, x)
    f = _fft_mod(lib)
    fn = (lambda: f.fft(a, dim=0)) if _is_torch(lib) else (lambda: f.fft(a, axis=0))
    if cfg.first_round:
        got = _host(lib, fn()[0, :4])
        want = x[:, :4].sum(axis=0, dtype=np.complex128)
        if not np.allclose(got, want, rtol=1e-3, atol=1e-2):
            raise AssertionError("fft axis 0: wrong zero-frequency row")
    return _with_rate(time_gpu(fn, lib, **_reps(cfg)), 2 * x.nbytes)
